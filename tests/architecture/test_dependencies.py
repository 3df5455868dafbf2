"""The dependency rule of ARCHITECTURE.md holds: layers import downwards, storage knows only the core,
only the web layer's Connexion package knows Connexion, and no module uses another's private names."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("tessera", "handlers", "storage")
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
    ("storage/records.py", "from tessera.session import listing", "Each layer imports only the layers below it"),
    ("tessera/core/ids.py", "import tessera.runtime", "Each layer imports only the layers below it"),
    ("tessera/openplatform/tokens/grants.py", "import starlette", "Features, storage and the core know no HTTP"),
    ("handlers/open/whoami.py", "import connexion", "Only the web layer's Connexion package imports Connexion"),
    ("handlers/session/health.py", "from storage import identity", "Handlers reach the database only through"),
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
