"""No function of the service is more complex than ruff's gate allows, by radon's count either.

Ruff's mccabe rule (``max-complexity = 10`` in pyproject.toml) counts branches; radon also counts
each boolean operator and comprehension condition, so a function can pass the one and not the
other. The service's packages are held to both. (The benchmarks and the tests are held to ruff's
alone: radon counts 85 functions above 10 there, mostly one scenario table or one report each.)
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from radon.complexity import cc_visit

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("tessera", "storage", "handlers", "codegen")
LIMIT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]["lint"]["mccabe"][
    "max-complexity"]


def _too_complex(path: Path, root: Path = ROOT) -> list[str]:
    """Each function, method and closure of the file above the limit (radon lists a class's methods
    both on their own and under the class: each is reported once)."""
    found: dict[int, str] = {}
    for block in cc_visit(path.read_text(encoding="utf-8")):
        for b in [block, *getattr(block, "methods", ()), *getattr(block, "closures", ())]:
            if b.complexity > LIMIT:
                found[b.lineno] = f"{path.relative_to(root)}:{b.lineno} {b.name} ({b.complexity})"
    return [found[line] for line in sorted(found)]


def test_no_function_of_the_service_is_above_the_gate_by_radons_count() -> None:
    found = [hit for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
             if "migrations" not in path.parts for hit in _too_complex(path)]
    assert found == []


def test_a_function_above_the_gate_is_found(tmp_path: Path) -> None:
    branches = "\n".join(f"    if x == {i} and y:\n        return {i}" for i in range(LIMIT))
    sample = tmp_path / "sample.py"
    sample.write_text(f"def tangled(x, y):\n{branches}\n    return -1\n", encoding="utf-8")
    assert _too_complex(sample, tmp_path) == [f"sample.py:1 tangled ({2 * LIMIT + 1})"]
