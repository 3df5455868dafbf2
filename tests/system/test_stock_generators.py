"""Stock generators on the served session document: a typed asset model, and a typed, filtered list
that runs against the live demo, with nothing of ours.

The document is fetched as a user fetches it (``GET /api/openapi.json`` of ``tessera serve --demo``) and given
unchanged to openapi-python-client (the pinned one of the ``sdk`` extra), openapi-generator ``-g python`` and
``-g typescript-fetch`` (``openapi-generator-cli`` from PyPI, on Java 17) and openapi-typescript (the pinned
one of ``sdk/typescript/generator``), with their default options. Each must give an ``Asset`` with a typed
``serialNo`` and the ``status`` enum, not a map of any (``additional_properties`` only,
``[key: string]: any``).

Each then lists assets with two typed filter conditions, as its users would write it: a small program per
generator (``PROGRAMS``) builds ``POST /api/dynamic/assets/query``'s body from the generated types, sends it
with the generated client (openapi-typescript gives types only: ``fetch``), and prints the total and ids,
which must be what ``GET /api/dynamic/assets/list`` answers for the same conditions. The TypeScript ones are
compiled by ``tsc --strict`` first, so a type the generator got wrong fails the test.

What a generator leaves out is printed, not hidden: openapi-python-client 0.29 drops every operation with a
``content`` parameter (the GET lists' ``filters``; the query operations are what it can call instead), and
the test requires that nothing else is dropped and that it generates the query form of every list it drops.
openapi-generator keeps those operations, typed, but has no JSON serialisation of a query parameter: how its
two clients send ``filters`` is printed as well.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from codegen.typescript import GENERATOR_DIR, ensure_generator
from tests.support.live_server import ROOT, demo_on

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


DEMO_PASSWORD = "stock-generators-password"
# The filtered list every program runs: in stock, worth at least 1,000, by name, five a page.
CONDITIONS = [{"fieldName": "status", "operator": "eq", "value": "in_stock"},
              {"fieldName": "value", "operator": "gte", "value": 1000}]


@dataclass
class Demo:
    base: str
    token: str
    document: Path
    doc: dict[str, Any]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    """``tessera serve --demo``, kept up while the module runs, its session document saved as the JSON it
    was sent as, and a signed-in admin's JWT."""
    tmp = tmp_path_factory.mktemp("served")
    settings = {"TESSERA_DEMO_PASSWORD": DEMO_PASSWORD,
                "TESSERA_REDIS_PREFIX": f"tessera-stock-{uuid.uuid4().hex[:8]}"}
    with demo_on("sqlite", tmp, **settings) as (base, _env):
        response = httpx.get(f"{base}/api/openapi.json", timeout=30)
        assert response.status_code == 200, response.text[:2000]
        document = tmp / "session-api.json"
        document.write_bytes(response.content)
        doc: dict[str, Any] = response.json()
        assert doc["info"]["title"] == "Tessera session REST API" and "/api/dynamic/assets/list" in doc["paths"]
        login = httpx.post(f"{base}/api/auth/login", json={"email": "admin@demo.example", "password": DEMO_PASSWORD},
                           timeout=30)
        assert login.status_code == 200, login.text
        yield Demo(base, login.json()["data"]["jwt"], document, doc)


@pytest.fixture(scope="module")
def served(demo: Demo) -> tuple[Path, dict[str, Any]]:
    return demo.document, demo.doc


# typescript-fetch's: its `oneOf` serialiser takes the first branch (by name) whose required keys an object
# has, and a date-time condition's branch calls toISOString() on the value, so a condition with a value on a
# text, number or timestamp field fails in it ("value.toISOString is not a function"). A date comparison
# (a `Date`, written as YYYY-MM-DD) and a null test go through their own branches.
TYPESCRIPT_FETCH_CONDITIONS = [{"fieldName": "purchasedAt", "operator": "gte", "value": "2024-06-01"},
                               {"fieldName": "assignee", "operator": "is_null"}]


def _listed(demo: Demo, conditions: list[dict[str, Any]]) -> dict[str, Any]:
    """What the GET list answers for ``conditions``: the total and the page's ids."""
    params = {"filters": json.dumps(conditions), "sortField": "name", "sortOrder": "asc", "pageSize": "5"}
    response = httpx.get(f"{demo.base}/api/dynamic/assets/list", params=params,
                         headers={"Authorization": f"Bearer {demo.token}"}, timeout=30)
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    assert data["total"] > 5, data  # the demo has more matches than a page: the page and its total both count
    return {"total": data["total"], "ids": [r["id"] for r in data["records"]]}


@pytest.fixture(scope="module")
def expected(demo: Demo) -> dict[str, Any]:
    return _listed(demo, CONDITIONS)


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
        "openapi-typescript": ["node", str(ensure_generator(ROOT)), str(document),
                               "-o", str(root / "openapi-typescript" / "schema.ts")],
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
    # One class for the field: the payloads name the enum, and the record's own is the same one.
    assert not list(model.parent.glob("asset_*_payload_status.py"))
    for payload in ("asset_create_payload.py", "asset_update_payload.py"):
        assert re.search(r"^    status: AssetStatus \| Unset", (model.parent / payload).read_text(), re.M), payload

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
    # ... and each of those lists has a query form it generated: every list is callable with typed filters.
    generated = {path.stem for path in out.glob("*/api/*/*.py")}
    for operation in dropped:
        method, path = operation.split(" ", 1)
        assert method == "GET" and path.endswith("/list"), operation
        form = doc["paths"][path.removesuffix("/list") + "/query"]["post"]["operationId"]
        assert re.sub(r"(?<!^)(?=[A-Z])", "_", form).lower() in generated, (operation, form)


def test_openapi_generator_python_gives_a_typed_asset(generated: dict[str, Run]) -> None:
    out = _succeeded(generated["python"])
    model = _one(out, "*/models/asset.py")
    text = model.read_text(encoding="utf-8")
    body = re.search(r"^class Asset\(BaseModel\):\n.*?\n((?:    \w+: [^\n]+\n)+)", text, re.S | re.M)
    assert body is not None, text[:3000]
    validator = re.search(r"^    @field_validator\('status'\)\n.*?(?=^    @|^    model_config)", text, re.S | re.M)
    assert validator is not None, text[:3000]
    enum = (model.parent / "asset_status.py").read_text(encoding="utf-8")
    _show(f"openapi-generator python: {model.relative_to(out)}", body.group(1) + "\n" + validator.group(0))
    _show("openapi-generator python: models/asset_status.py", enum[enum.index("class AssetStatus"):])
    assert re.search(r'^    serial_no: Annotated\[str, .*alias="serialNo"\)$', body.group(1), re.M), body.group(1)
    # A record's optional field may be null, which a reference cannot say in OpenAPI 3.0: its values
    # stand where it does (tessera/registry/names.py, may_be_null), checked by the generated validator.
    assert re.search(r"^    status: Optional\[StrictStr\]", body.group(1), re.M), body.group(1)
    assert "if value not in set(['in_stock', 'assigned', 'retired']):" in validator.group(0)
    assert "class AssetStatus(str, Enum):" in enum and all(f"= '{state}'" in enum for state in STATES)
    # The create and update payloads name the one enum of the field.
    for payload in ("asset_create_payload.py", "asset_update_payload.py"):
        assert re.search(r"^    status: Optional\[AssetStatus\]", (model.parent / payload).read_text(), re.M), payload
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
    named = (model.parent / "AssetStatus.ts").read_text(encoding="utf-8")
    assert interface is not None and enum is not None, text[:3000]
    fields = "".join(line + "\n" for line in interface.group(0).splitlines()
                     if not line.strip().startswith(("/**", "*", "*/")))
    _show(f"typescript-fetch: {model.relative_to(out)}", fields + "\n" + enum.group(0))
    assert "    serialNo: string;\n" in fields
    # The record's field may be null: its values stand there (see the python one); the payloads name them.
    assert "    status?: AssetStatusEnum | null;\n" in fields
    assert "export const AssetStatus = {" in named
    for payload in ("AssetCreatePayload.ts", "AssetUpdatePayload.ts"):
        assert "    status?: AssetStatus;\n" in (model.parent / payload).read_text(encoding="utf-8"), payload
    assert "[key: string]" not in interface.group(0)
    assert all(f": '{state}'," in enum.group(0) for state in STATES)
    # How it sends the list's JSON `filters` parameter (openapi-generator has no JSON query serialisation).
    api = _one(out, "apis/DynamicApi.ts").read_text(encoding="utf-8")
    sends = re.search(r"^\s*queryParameters\['filters'\] = .*$", api, re.M)
    print(f"typescript-fetch sends filters as: {sends.group(0).strip() if sends else '(not found)'}")



@pytest.mark.parametrize("path", ["/api/openapi.json", "/api/open/v1/openapi.json"], ids=["session", "open-platform"])
def test_datamodel_code_generator_names_every_class_without_numbers(demo: Demo, path: str, tmp_path: Path) -> None:
    """datamodel-code-generator names an inline schema by its property alone and numbers the collisions
    (``Operator1``..``Operator83`` before the documents named them): every class must have a name of its own."""
    document = tmp_path / "document.json"
    document.write_bytes(httpx.get(f"{demo.base}{path}", timeout=30).content)
    out = tmp_path / "models.py"
    command = [str(Path(sys.executable).parent / "datamodel-codegen"), "--input", str(document),
               "--input-file-type", "openapi", "--output", str(out)]
    run = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT_SECONDS, check=False)
    assert run.returncode == 0, run.stderr[-4000:]
    classes = re.findall(r"^class (\w+)\(", out.read_text(encoding="utf-8"), re.M)
    # A numbered collision is another class's name with digits after it (a version such as ``...V1`` is not).
    numbered = [name for name in classes if re.fullmatch(r"(.*[^\dV])\d+", name)
                and re.sub(r"\d+$", "", name) in set(classes) | {"Operator", "FieldName", "ValueItem", "Status"}]
    print(f"datamodel-code-generator: {len(classes)} classes from {path}, numbered: {numbered}")
    assert "numbered collisions" not in run.stderr, run.stderr[-4000:]
    assert numbered == []
    if path == "/api/openapi.json":
        assert {"AssetStatus", "ComparisonOperator", "SortOrder"} <= set(classes)


# -- a typed, filtered list with each generated client --------------------------------------------

# Each program reads BASE_URL and TOKEN from its environment and prints {"total", "ids"} as JSON.
PROGRAMS = {
    "openapi-python-client": """\
import json
import os

from PACKAGE import AuthenticatedClient
from PACKAGE.api.dynamic import query_assets_records
from PACKAGE.models import (
    AssetsField, AssetsListEnvelope, AssetsListQuery, AssetsNumberComparison, AssetsNumberField,
    AssetsTextComparison, AssetsTextField, ComparisonOperator, SortOrder,
)

client = AuthenticatedClient(base_url=os.environ["BASE_URL"], token=os.environ["TOKEN"])
query = AssetsListQuery(
    page_size=5, sort_field=AssetsField.NAME, sort_order=SortOrder.ASC,
    filters=[
        AssetsTextComparison(field_name=AssetsTextField.STATUS,
                             operator=ComparisonOperator.EQ, value="in_stock"),
        AssetsNumberComparison(field_name=AssetsNumberField.VALUE,
                               operator=ComparisonOperator.GTE, value=1000),
    ])
answer = query_assets_records.sync(client=client, body=query)
assert isinstance(answer, AssetsListEnvelope), answer
print(json.dumps({"total": answer.data.total, "ids": [record.id for record in answer.data.records]}))
""",
    "python": """\
import json
import os

import openapi_client
from openapi_client.models import (
    AssetsFilterCondition, AssetsListQuery, AssetsNumberComparison, AssetsTextComparison,
)

configuration = openapi_client.Configuration(host=os.environ["BASE_URL"], access_token=os.environ["TOKEN"])
with openapi_client.ApiClient(configuration) as api_client:
    query = AssetsListQuery(page_size=5, sort_field="name", sort_order="asc", filters=[
        AssetsFilterCondition(AssetsTextComparison(field_name="status", operator="eq", value="in_stock")),
        AssetsFilterCondition(AssetsNumberComparison(field_name="value", operator="gte", value=1000)),
    ])
    answer = openapi_client.DynamicApi(api_client).query_assets_records(assets_list_query=query)
print(json.dumps({"total": answer.data.total, "ids": [record.id for record in answer.data.records]}))
""",
    "typescript-fetch": """\
import { Configuration, DynamicApi } from "./typescript-fetch";
import type { AssetsListQuery } from "./typescript-fetch";

declare const process: { env: Record<string, string | undefined>; exit(code: number): never };  // no @types/node

async function main(): Promise<void> {
  const api = new DynamicApi(new Configuration({ basePath: process.env.BASE_URL, accessToken: process.env.TOKEN }));
  const query: AssetsListQuery = {
    pageSize: 5, sortField: "name", sortOrder: "asc",
    filters: [
      { fieldName: "purchasedAt", operator: "gte", value: new Date("2024-06-01") },
      { fieldName: "assignee", operator: "is_null" },
    ],
  };
  const answer = await api.queryAssetsRecords({ assetsListQuery: query });
  console.log(JSON.stringify({ total: answer.data.total, ids: answer.data.records.map((record) => record.id) }));
}

main().catch((error: unknown) => { console.error(error); process.exit(1); });
""",
    "openapi-typescript": """\
import type { paths } from "./openapi-typescript/schema";

declare const process: { env: Record<string, string | undefined>; exit(code: number): never };  // no @types/node

type Query = paths["/api/dynamic/assets/query"]["post"];
type Body = Query["requestBody"]["content"]["application/json"];
type Answer = Query["responses"][200]["content"]["application/json"];

async function main(): Promise<void> {
  const body: Body = {
    pageSize: 5, sortField: "name", sortOrder: "asc",
    filters: [
      { fieldName: "status", operator: "eq", value: "in_stock" },
      { fieldName: "value", operator: "gte", value: 1000 },
    ],
  };
  const response = await fetch(`${process.env.BASE_URL}/api/dynamic/assets/query`, {
    method: "POST",
    headers: { "Authorization": `Bearer ${process.env.TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (response.status !== 200) throw new Error(`${response.status}: ${await response.text()}`);
  const answer = (await response.json()) as Answer;
  console.log(JSON.stringify({ total: answer.data.total, ids: answer.data.records.map((record) => record.id) }));
}

main().catch((error: unknown) => { console.error(error); process.exit(1); });
""",
}
TSC = ROOT / GENERATOR_DIR / "node_modules" / "typescript" / "bin" / "tsc"


def _run_program(name: str, command: list[str], cwd: Path, demo: Demo) -> dict[str, Any]:
    env = {**os.environ, "BASE_URL": demo.base, "TOKEN": demo.token}
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=TIMEOUT_SECONDS,
                          check=False)
    assert done.returncode == 0, f"{name}'s program failed (exit {done.returncode}):\n{done.stdout}{done.stderr}"
    _show(f"{name}: the filtered list's answer", done.stdout)
    answer: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return answer


def _python_program(name: str, root: Path, package: str, demo: Demo, alias: str | None = None) -> dict[str, Any]:
    """Run the Python program of ``name`` with ``root`` on its path (``package`` imported as PACKAGE)."""
    source = PROGRAMS[name].replace("PACKAGE", alias or package)
    _show(f"{name}: list_assets.py", source)
    program = root / f"list_assets_{name.replace('-', '_')}.py"
    program.write_text(source, encoding="utf-8")
    return _run_program(name, [sys.executable, "-E", str(program)], root, demo)


def _typescript_program(name: str, root: Path, demo: Demo) -> dict[str, Any]:
    """Compile the TypeScript program of ``name`` with ``tsc --strict`` beside the generated code, then run it."""
    source = PROGRAMS[name]
    _show(f"{name}: main.ts", source)
    program = root / f"main_{name.replace('-', '_')}.ts"
    program.write_text(source, encoding="utf-8")
    out = root / f"built-{name}"
    compiled = subprocess.run(["node", str(TSC), "--strict", "--target", "es2022", "--module", "commonjs",
                               "--lib", "es2022,dom", "--skipLibCheck", "--outDir", str(out), str(program)],
                              cwd=root, capture_output=True, text=True, timeout=TIMEOUT_SECONDS, check=False)
    assert compiled.returncode == 0, f"tsc --strict refused {name}'s program:\n{compiled.stdout}{compiled.stderr}"
    return _run_program(name, ["node", str(out / program.with_suffix(".js").name)], root, demo)


def test_openapi_python_client_lists_assets_with_typed_filters(
    generated: dict[str, Run], demo: Demo, expected: dict[str, Any]
) -> None:
    out = _succeeded(generated["openapi-python-client"])
    package = _one(out, "*/api/dynamic/query_assets_records.py").parents[2]
    # The program sits beside the package, as a user's script would (``-E``: no PYTHONPATH of ours).
    runner = out / "run"
    runner.mkdir(exist_ok=True)
    shutil.copytree(package, runner / package.name, dirs_exist_ok=True)
    assert _python_program("openapi-python-client", runner, package.name, demo) == expected


def test_openapi_generator_python_lists_assets_with_typed_filters(
    generated: dict[str, Run], demo: Demo, expected: dict[str, Any]
) -> None:
    out = _succeeded(generated["python"])
    assert (out / "openapi_client" / "api" / "dynamic_api.py").is_file()
    assert _python_program("python", out, "openapi_client", demo) == expected


def test_typescript_fetch_lists_assets_with_typed_filters(generated: dict[str, Run], demo: Demo) -> None:
    """With the conditions its serialiser writes correctly (``TYPESCRIPT_FETCH_CONDITIONS``)."""
    out = _succeeded(generated["typescript-fetch"])
    assert _typescript_program("typescript-fetch", out.parent, demo) == _listed(demo, TYPESCRIPT_FETCH_CONDITIONS)


def test_openapi_typescript_lists_assets_with_typed_filters(
    generated: dict[str, Run], demo: Demo, expected: dict[str, Any]
) -> None:
    out = _succeeded(generated["openapi-typescript"])
    assert (out / "schema.ts").is_file()
    assert _typescript_program("openapi-typescript", out.parent, demo) == expected
