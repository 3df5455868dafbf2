"""The typed session SDKs as a user meets them: a small program per language, type-checked strictly, then run.

tests/system/typed_programs/session_flow.py (``tessera_session``, generated/python/session-client) is checked
with ``mypy --strict`` and session-flow.ts (generated/typescript/session) with ``tsc --strict``; each then runs
against one ``tessera serve --demo`` on PostgreSQL (the module's; SQLite runs the same typed calls in
test_sdk_end_to_end.py): it logs in, lists assets with a typed filter, creates an asset with a typed payload,
finds it with typed filters and reads it back. Each program also holds lines the types must refuse (an unknown
field, a value of the wrong type, a payload without a required field): they are never run, and the check fails
when one of them is accepted (mypy's unused ``type: ignore``, tsc's unused ``@ts-expect-error``), so a
loosely typed SDK (a record as a map, a payload as any) fails here. Needs Node.js and npm: never skipped.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from codegen import typescript
from tests.support.live_server import ROOT, demo_on

PROGRAMS = ROOT / "tests" / "system" / "typed_programs"
PYTHON_PROGRAM = PROGRAMS / "session_flow.py"
TYPESCRIPT_PROGRAM = PROGRAMS / "session-flow.ts"
PYTHON_SDK = ROOT / "generated" / "python" / "session-client"
TYPESCRIPT_SDK = ROOT / typescript.SESSION.target
PASSWORD = "typed-programs-password"
ADMIN = "admin@demo.example"


def _run(command: list[str], cwd: Path, *, env: dict[str, str] | None = None, timeout: float = 300) -> str:
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    assert done.returncode == 0, f"{' '.join(command)} failed (exit {done.returncode}):\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _outcome(stdout: str) -> dict[str, Any]:
    result: dict[str, Any] = json.loads(stdout.strip().splitlines()[-1])
    return result


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """One `tessera serve --demo` on PostgreSQL for the module; the programs' environment."""
    settings = {"TESSERA_DEMO_PASSWORD": PASSWORD, "TESSERA_REDIS_PREFIX": f"tessera-typed-{uuid.uuid4().hex[:8]}"}
    with demo_on("postgresql", tmp_path_factory.mktemp("typed-demo"), **settings) as (base, _env):
        yield {"BASE_URL": base, "EMAIL": ADMIN, "PASSWORD": PASSWORD}


@pytest.fixture(scope="module")
def typescript_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The TypeScript session SDK copied out, installed from its lock file, the program beside its sources."""
    npm = shutil.which("npm")
    assert npm and shutil.which("node"), "the TypeScript SDK's tests need node and npm (Node.js >= 20)"
    copy = tmp_path_factory.mktemp("typescript-session") / "session"
    shutil.copytree(TYPESCRIPT_SDK, copy, ignore=shutil.ignore_patterns("node_modules", "dist"))
    _run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"], copy)
    (copy / "e2e").mkdir()
    shutil.copyfile(TYPESCRIPT_PROGRAM, copy / "e2e" / TYPESCRIPT_PROGRAM.name)
    (copy / "tsconfig.e2e.json").write_text(json.dumps({
        "extends": "./tsconfig.json",
        "compilerOptions": {"rootDir": ".", "outDir": "dist-e2e", "declaration": False},
        "include": ["src", "e2e"],
    }), encoding="utf-8")
    return copy


@pytest.fixture(scope="module")
def sdk_environment(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with both Python SDKs installed as the quickstart says (a regular
    ``pip install`` of the two projects, their dependencies from the configured index, and
    ``pyjwt[crypto]``, which ``private_key_jwt`` asks for); its Python."""
    root = tmp_path_factory.mktemp("sdk-venv")
    venv = root / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], ROOT)
    python = venv / "bin" / "python"
    # Built from copies: setuptools builds in the project's own build/, which two test workers building
    # at once would share (and which the checkout should not gain).
    projects = []
    for project in (ROOT / "generated" / "python" / "open-platform-client", PYTHON_SDK):
        projects.append(str(shutil.copytree(project, root / project.name,
                                            ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))))
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--disable-pip-version-check",
          *projects, "pyjwt[crypto]"], root, timeout=600)
    return python


def _mypy_strict(python: Path, tmp_path: Path, *targets: str) -> str:
    """``mypy --strict`` as a user of that environment runs it: its site-packages, nothing on MYPYPATH."""
    env = {k: v for k, v in os.environ.items() if k not in ("MYPYPATH", "PYTHONPATH")}
    return _run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--python-executable", str(python),
                 "--cache-dir", str(tmp_path / "mypy"), *targets], tmp_path, env=env)


def test_the_python_program_type_checks_with_mypy_strict_against_the_installed_sdk(
    sdk_environment: Path, tmp_path: Path
) -> None:
    out = _mypy_strict(sdk_environment, tmp_path, str(PYTHON_PROGRAM))
    assert "Success: no issues found in 1 source file" in out


@pytest.mark.parametrize("package", ["tessera_session", "tessera_open_platform"])
def test_each_installed_python_sdk_passes_mypy_strict_itself(sdk_environment: Path, tmp_path: Path,
                                                             package: str) -> None:
    """Not only what a program uses: every generated and hand-written module of the SDK."""
    out = _mypy_strict(sdk_environment, tmp_path, "-p", package)
    assert "Success: no issues found" in out, out


def test_the_python_program_runs_against_the_demo(demo: dict[str, str], tmp_path: Path) -> None:
    outcome = _outcome(_run([sys.executable, str(PYTHON_PROGRAM)], tmp_path, env={**os.environ, **demo},
                            timeout=120))
    assert (outcome["user"], outcome["tenant"]) == ("Demo Admin", "demo")
    created = outcome["created"]
    assert outcome["found"] == [created["id"]]
    assert outcome["read"] == {"name": "Python scanner", "serialNo": created["serialNo"], "status": "retired",
                               "value": 12.5}
    assert outcome["retiredAfter"] == outcome["retiredBefore"] + 1


def test_the_typescript_program_type_checks_with_tsc_strict_and_runs(typescript_package: Path,
                                                                      demo: dict[str, str]) -> None:
    tsc = str(typescript_package / "node_modules" / ".bin" / "tsc")
    _run([tsc, "-p", "tsconfig.json", "--noEmit", "--strict"], typescript_package)  # the SDK alone
    _run([tsc, "-p", "tsconfig.e2e.json", "--strict"], typescript_package)  # and the program with it
    script = typescript_package / "dist-e2e" / "e2e" / "session-flow.js"
    node = shutil.which("node")
    assert node is not None and script.is_file()
    env = {"PATH": str(Path(node).parent), **demo}
    outcome = _outcome(_run([node, str(script)], script.parent, env=env, timeout=120))
    assert (outcome["user"], outcome["tenant"]) == ("Demo Admin", "demo")
    assert outcome["logins"] == 2  # the first, and one more after the spoiled JWT's 401 UNAUTHORIZED
    created = outcome["created"]
    assert outcome["found"] == [created["id"]] and outcome["replayed"] is True
    assert outcome["read"] == {"name": "TypeScript scanner", "serialNo": created["serialNo"], "status": "retired",
                               "value": 12.5, "purchasedAt": "2024-05-01"}
    # The partial update sent `value` alone, and nothing else changed (no default came along).
    assert outcome["updated"] == {**outcome["read"], "value": 20}
    assert outcome["retiredAfter"] == outcome["retiredBefore"] + 1
    assert outcome["missing"] == "404 NOT_FOUND"
