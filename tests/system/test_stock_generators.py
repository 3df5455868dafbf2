"""Stock generators on the served session document give a typed asset model, with nothing of ours.

The document is fetched as a user fetches it (``GET /api/openapi.json`` of ``tessera serve --demo``) and given
unchanged to openapi-python-client (the pinned one of the ``sdk`` extra), openapi-generator ``-g python`` and
``-g typescript-fetch`` (``openapi-generator-cli`` from PyPI, on Java 17), with their default options. Each
must give an ``Asset`` with a typed ``serialNo`` and the ``status`` enum, not a map of any
(``additional_properties`` only, ``[key: string]: any``).

What a generator leaves out is printed, not hidden: openapi-python-client 0.29 drops every operation with a
``content`` parameter (the lists' ``filters``; our own SDK works around it, tessera/registry/sdk.py), and the
test requires that nothing else is dropped. openapi-generator keeps those operations, typed, but has no JSON
serialisation of a query parameter: how its two clients send ``filters`` is printed as well.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.live_server import demo_on

OPENAPI_GENERATOR = Path(sys.executable).parent / "openapi-generator-cli"
TIMEOUT_SECONDS = 240
STATES = ("in_stock", "assigned", "retired")


@dataclass
class Run:
    name: str
    out: Path
    returncode: int
    output: str
    seconds: float


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The session document as `tessera serve --demo` serves it, saved as the JSON it was sent as."""
    tmp = tmp_path_factory.mktemp("served")
    settings = {"TESSERA_DEMO_PASSWORD": "stock-generators-password",
                "TESSERA_REDIS_PREFIX": f"tessera-stock-{uuid.uuid4().hex[:8]}"}
    with demo_on("sqlite", tmp, **settings) as (base, _env):
        response = httpx.get(f"{base}/api/openapi.json", timeout=30)
    assert response.status_code == 200, response.text[:2000]
    document = tmp / "session-api.json"
    document.write_bytes(response.content)
    doc: dict[str, Any] = response.json()
    assert doc["info"]["title"] == "Tessera session REST API" and "/api/dynamic/assets/list" in doc["paths"]
    return document, doc


@pytest.fixture(scope="module")
def generated(served: tuple[Path, dict[str, Any]], tmp_path_factory: pytest.TempPathFactory) -> dict[str, Run]:
    """The three generators, run side by side on the served document with their default options."""
    assert shutil.which("java"), "openapi-generator needs Java (>= 11)"
    assert OPENAPI_GENERATOR.is_file(), f"{OPENAPI_GENERATOR} is missing: install the test extra"
    document, _doc = served
    root = tmp_path_factory.mktemp("generated")
    commands = {
        "openapi-python-client": [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(document),
                                  "--output-path", str(root / "openapi-python-client")],
        "python": [str(OPENAPI_GENERATOR), "generate", "-i", str(document), "-g", "python",
                   "-o", str(root / "python")],
        "typescript-fetch": [str(OPENAPI_GENERATOR), "generate", "-i", str(document), "-g", "typescript-fetch",
                             "-o", str(root / "typescript-fetch")],
    }
    started = time.monotonic()
    running = {name: subprocess.Popen(command, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                      text=True)
               for name, command in commands.items()}
    runs = {}
    try:
        for name, process in running.items():
            output, _ = process.communicate(timeout=TIMEOUT_SECONDS)
            runs[name] = Run(name, root / name, process.returncode, output, time.monotonic() - started)
    finally:
        for process in running.values():
            if process.poll() is None:
                process.kill()
                process.wait()
    for run in runs.values():
        print(f"{run.name}: exit {run.returncode} after {run.seconds:.1f} s")
    return runs


def _succeeded(run: Run) -> Path:
    assert run.returncode == 0, f"{run.name} failed (exit {run.returncode}):\n{run.output[-6000:]}"
    return run.out


def _one(root: Path, pattern: str) -> Path:
    found = sorted(root.glob(pattern))
    assert len(found) == 1, f"{pattern} under {root}: {found}"
    return found[0]


def _show(title: str, text: str) -> None:
    print(f"--- {title} ---\n{text.rstrip()}\n")


def _content_parameter_operations(doc: dict[str, Any]) -> set[str]:
    """``METHOD path`` of every operation with a ``content`` parameter (its own, its path's or a referenced one)."""
    declared = doc.get("components", {}).get("parameters", {})
    found = set()
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            if not isinstance(operation, dict) or method == "parameters":
                continue
            for parameter in [*item.get("parameters", []), *operation.get("parameters", [])]:
                if "$ref" in parameter:
                    parameter = declared[parameter["$ref"].rsplit("/", 1)[-1]]
                if "content" in parameter:
                    found.add(f"{method.upper()} {path}")
    return found


def test_openapi_python_client_gives_a_typed_asset(generated: dict[str, Run],
                                                   served: tuple[Path, dict[str, Any]]) -> None:
    run = generated["openapi-python-client"]
    out = _succeeded(run)
    model = _one(out, "*/models/asset.py")
    text = model.read_text(encoding="utf-8")
    fields = re.search(r"^class Asset:\n.*?\n((?:    \w+: [^\n]+\n)+)", text, re.S | re.M)
    assert fields is not None, text[:3000]
    _show(f"openapi-python-client: {model.relative_to(out)}", fields.group(1))
    assert "    serial_no: str\n" in fields.group(1)
    assert re.search(r"^    status: AssetStatus \| ", fields.group(1), re.M), fields.group(1)
    enum = (model.parent / "asset_status.py").read_text(encoding="utf-8")
    _show("openapi-python-client: models/asset_status.py", enum)
    assert "class AssetStatus(StrEnum):" in enum and all(f'= "{state}"' in enum for state in STATES)

    # What it leaves out, said aloud: the operations it will not generate, and why.
    dropped = set(re.findall(r"^WARNING parsing (\S+ \S+) within \S+\. Endpoint will not be generated\.",
                             run.output, re.M))
    reasons = sorted(set(re.findall(r"^Unable to parse this part of your OpenAPI document: : (.+)$", run.output, re.M)))
    print(f"openapi-python-client dropped {len(dropped)} operation(s) ({'; '.join(reasons)}):")
    for operation in sorted(dropped):
        print(f"  - {operation}")
    _document, doc = served
    with_content = _content_parameter_operations(doc)
    assert dropped <= with_content, f"dropped for another reason than a content parameter: {dropped - with_content}"


def test_openapi_generator_python_gives_a_typed_asset(generated: dict[str, Run]) -> None:
    out = _succeeded(generated["python"])
    model = _one(out, "*/models/asset.py")
    text = model.read_text(encoding="utf-8")
    body = re.search(r"^class Asset\(BaseModel\):\n.*?\n((?:    \w+: [^\n]+\n)+)", text, re.S | re.M)
    assert body is not None, text[:3000]
    validator = re.search(r"^    @field_validator\('status'\)\n.*?(?=^    @|^    model_config)", text, re.S | re.M)
    assert validator is not None, text[:3000]
    _show(f"openapi-generator python: {model.relative_to(out)}", body.group(1) + "\n" + validator.group(0))
    assert re.search(r'^    serial_no: Annotated\[str, .*alias="serialNo"\)$', body.group(1), re.M), body.group(1)
    assert re.search(r"^    status: Optional\[StrictStr\]", body.group(1), re.M), body.group(1)
    assert "if value not in set(['in_stock', 'assigned', 'retired']):" in validator.group(0)
    assert "additional_properties" not in body.group(1)
    # How it sends the list's JSON `filters` parameter (openapi-generator has no JSON query serialisation).
    api = _one(out, "*/api/dynamic_api.py").read_text(encoding="utf-8")
    formats = sorted(set(re.findall(r"^\s*'filters': '(\w+)',$", api, re.M)))
    print(f"openapi-generator python sends filters in collection format: {', '.join(formats) or '(not found)'}")


def test_openapi_generator_typescript_fetch_gives_a_typed_asset(generated: dict[str, Run]) -> None:
    out = _succeeded(generated["typescript-fetch"])
    model = _one(out, "models/Asset.ts")
    text = model.read_text(encoding="utf-8")
    interface = re.search(r"^export interface Asset \{\n.*?^\}\n", text, re.S | re.M)
    enum = re.search(r"^export const AssetStatusEnum = \{\n.*?^export type AssetStatusEnum = [^\n]*\n", text,
                     re.S | re.M)
    assert interface is not None and enum is not None, text[:3000]
    fields = "".join(line + "\n" for line in interface.group(0).splitlines()
                     if not line.strip().startswith(("/**", "*", "*/")))
    _show(f"typescript-fetch: {model.relative_to(out)}", fields + "\n" + enum.group(0))
    assert "    serialNo: string;\n" in fields
    assert "    status?: AssetStatusEnum | null;\n" in fields
    assert "[key: string]" not in interface.group(0)
    assert all(f": '{state}'," in enum.group(0) for state in STATES)
    # How it sends the list's JSON `filters` parameter (openapi-generator has no JSON query serialisation).
    api = _one(out, "apis/DynamicApi.ts").read_text(encoding="utf-8")
    sends = re.search(r"^\s*queryParameters\['filters'\] = .*$", api, re.M)
    print(f"typescript-fetch sends filters as: {sends.group(0).strip() if sends else '(not found)'}")

