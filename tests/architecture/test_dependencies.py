"""The dependency rule of docs/development/architecture.md holds: layers import downwards, storage knows
only the core, only the web layer's Connexion package knows Connexion, no module uses another's private
names, only ``storage/drivers/sqlalchemy_internals.py`` uses SQLAlchemy's and only
``storage/drivers/psycopg_internals.py`` psycopg's, no private attribute is read by its name as text
(where those checks cannot see it), and the service never imports the build-time ``codegen``."""

from __future__ import annotations

import ast
import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
import sqlalchemy

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("tessera", "handlers", "storage", "codegen")
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def _lint_imports(tree: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run([str(LINT_IMPORTS), "--config", str(tree / "pyproject.toml"), "--no-logo", "--no-cache"],
                          cwd=tree, env=env, capture_output=True, text=True, timeout=120, check=False)


def _copy_of_the_code(tmp_path: Path) -> Path:
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("static", "locale",
                                                                                          "__pycache__"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def test_every_import_contract_holds() -> None:
    result = _lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.mark.parametrize(("module", "line", "contract"), [
    ("storage/records.py", "from tessera.lists import contract", "Each layer imports only the layers below it"),
    ("tessera/openplatform/identity/access.py", "from tessera.session.commands import execute",
     "Each layer imports only the layers below it"),
    ("tessera/session/records/reads.py", "from tessera.openplatform.tokens import bearer",
     "Each layer imports only the layers below it"),
    ("tessera/lists/contract.py", "from tessera.session.records import reads",
     "Each layer imports only the layers below it"),
    ("tessera/core/ids.py", "import tessera.runtime", "Each layer imports only the layers below it"),
    ("tessera/openplatform/tokens/grants.py", "import starlette", "Features, storage and the core know no HTTP"),
    ("handlers/open/whoami.py", "import connexion", "Only the web layer's Connexion package imports Connexion"),
    ("tessera/web/metrics.py", "import connexion", "Only the web layer's Connexion package imports Connexion"),
    ("tessera/session/audit/search.py", "import sqlalchemy", "Only storage imports SQLAlchemy"),
    ("tessera/web/context.py", "from sqlalchemy import select", "Only storage imports SQLAlchemy"),
    ("handlers/session/health.py", "from storage import identity", "Handlers reach the database only through"),
    ("tessera/automations/runner.py", "from tessera.webhooks import endpoints",
     "Each layer imports only the layers below it"),
    ("tessera/feed/pages.py", "from tessera.inbound import events", "Each layer imports only the layers below it"),
    ("tessera/app.py", "from codegen import sdk", "The service never imports the build-time generators"),
    ("tessera/registry/document.py", "import codegen.postman", "The service never imports the build-time generators"),
])
def test_an_import_against_the_rule_breaks_a_contract(tmp_path: Path, module: str, line: str, contract: str) -> None:
    tree = _copy_of_the_code(tmp_path)
    path = tree / module
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}  # noqa\n", encoding="utf-8")
    result = _lint_imports(tree)
    assert result.returncode != 0
    assert f"{contract}" in result.stdout and "BROKEN" in result.stdout


def _private_imports(path: Path, root: Path = ROOT) -> list[str]:
    """``from x import _name`` and ``module._name`` across modules (dunders are not private)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    ours = {name for name in PACKAGES}
    modules: set[str] = set()
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in ours:
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{path.relative_to(root)}:{node.lineno} imports {node.module}.{alias.name}")
                else:
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            modules.update((a.asname or a.name).split(".")[0] for a in node.names if a.name.split(".")[0] in ours)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules \
                and node.attr.startswith("_") and not node.attr.startswith("__"):
            found.append(f"{path.relative_to(root)}:{node.lineno} uses {node.value.id}.{node.attr}")
    return found


def test_no_module_uses_another_modules_private_names() -> None:
    found = [hit for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
             if "migrations" not in path.parts for hit in _private_imports(path)]
    assert found == []


def test_the_private_name_check_finds_private_imports_and_uses(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("from tessera.openplatform.commands.execute import _apply\n"
                      "from tessera.openplatform.commands import idempotency\n"
                      "idempotency._judge\n", encoding="utf-8")
    assert _private_imports(sample, tmp_path) == [
        "sample.py:1 imports tessera.openplatform.commands.execute._apply", "sample.py:3 uses idempotency._judge"]


# -- SQLAlchemy's private API stays in storage/drivers/sqlalchemy_internals.py ----------------------------------
FENCE = ROOT / "storage" / "drivers" / "sqlalchemy_internals.py"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


@functools.cache
def _private_names_defined_under(root: Path) -> frozenset[str]:
    """The private names modules under ``root`` define: functions, classes, parameters, and names or
    attributes they assign."""
    names: set[str] = set()
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8", errors="replace"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = node.name
            elif isinstance(node, ast.arg):
                name = node.arg
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                name = node.attr
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                name = node.id
            else:
                continue
            if _private(name):
                names.add(name)
    return frozenset(names)


def _sqlalchemy_private_uses(path: Path, root: Path = ROOT) -> list[str]:
    return _private_uses(path, Path(sqlalchemy.__file__).parent, root)


def _private_uses(path: Path, library: Path, root: Path = ROOT) -> list[str]:
    """Reads of a private name the library at ``library`` defines (``compiled._result_columns``) and
    private keyword arguments passed to it (``_no_postcompile=``), on anything but ``self`` or ``cls``.
    A name our own packages define too is ours, not the library's."""
    theirs = _private_names_defined_under(library) - frozenset().union(
        *(_private_names_defined_under(ROOT / package) for package in PACKAGES))
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr in theirs and not (
                isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            found.append(f"{path.relative_to(root)}:{node.lineno} reads .{node.attr}")
        elif isinstance(node, ast.keyword) and node.arg in theirs:
            found.append(f"{path.relative_to(root)}:{node.value.lineno} passes {node.arg}=")
    return found


def test_only_the_fence_module_uses_sqlalchemys_private_api() -> None:
    found = [hit for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
             if path != FENCE for hit in _sqlalchemy_private_uses(path)]
    assert found == []


def test_the_fence_module_is_where_the_private_api_is_used() -> None:
    uses = _sqlalchemy_private_uses(FENCE)
    for name in ("_returning", "_bind_processors", "_result_columns", "_cached_result_processor",
                 "_process_parameters_for_postcompile", "_no_postcompile", "_generate_cache_key"):
        assert any(name in use for use in uses), name


def test_a_private_sqlalchemy_call_outside_the_fence_is_found(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("key = statement._generate_cache_key()\n"
                      "params = compiled.construct_params(None, _no_postcompile=True)\n", encoding="utf-8")
    assert _sqlalchemy_private_uses(sample, tmp_path) == [
        "sample.py:1 reads ._generate_cache_key", "sample.py:2 passes _no_postcompile="]


# -- psycopg's private API stays in storage/drivers/psycopg_internals.py -----------------------------------------
PSYCOPG_FENCE = ROOT / "storage" / "drivers" / "psycopg_internals.py"


def test_only_the_psycopg_fence_uses_psycopgs_private_api() -> None:
    library = Path(psycopg.__file__).parent
    found = [hit for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
             if path != PSYCOPG_FENCE for hit in _private_uses(path, library)]
    assert found == []
    assert any("._prepared" in use for use in _private_uses(PSYCOPG_FENCE, library))


# -- no private attribute named as text, where the checks above cannot see it ------------------------------
# Private attributes the code reads by name that are nobody's internals: our own marker on a log
# record (tessera/core/logs.py) and a named tuple's field names (public API despite the underscore).
OWN_OR_PUBLIC = frozenset({"_tessera", "_fields"})
BY_NAME = ("getattr", "setattr", "hasattr", "delattr")


def _private_attributes_by_name(path: Path, root: Path = ROOT) -> list[str]:
    """``getattr(x, "_name")`` and its kin with a private name other than ``OWN_OR_PUBLIC``'s."""
    found: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in BY_NAME
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str) and _private(node.args[1].value)
                and node.args[1].value not in OWN_OR_PUBLIC):
            found.append(f"{path.relative_to(root)}:{node.lineno} {node.func.id}(..., {node.args[1].value!r})")
    return found


def test_no_private_attribute_is_named_as_text() -> None:
    found = [hit for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
             for hit in _private_attributes_by_name(path)]
    assert found == []


def test_a_private_attribute_named_as_text_is_found(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('manager = getattr(conn, "_prepared", None)\nok = getattr(row, "_fields", ())\n',
                      encoding="utf-8")
    assert _private_attributes_by_name(sample, tmp_path) == ["sample.py:1 getattr(..., '_prepared')"]


def test_only_the_connexion_package_reads_connexions_scope_keys() -> None:
    """Connexion's own keys in the ASGI scope (``connexion_routing``, ``connexion_context``) are
    read in ``tessera/web/connexion/`` only, like its imports."""
    fenced = ROOT / "tessera" / "web" / "connexion"
    modules = [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
               if not path.is_relative_to(fenced)]
    found = [f"{path.relative_to(ROOT)}:{number}" for path in modules
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if '"connexion_' in line or "'connexion_" in line]
    assert found == []

