"""The rule catalogue holds together: its page in the docs is current, and every place it names exists."""

from __future__ import annotations

import ast

from tests.support.rules import PAGE, ROOT, load_rules, marks_in_tests, rules_page


def test_the_rules_page_is_generated_from_the_catalogue_and_the_marks() -> None:
    expected = rules_page(load_rules(), marks_in_tests())
    assert PAGE.read_text(encoding="utf-8") == expected, (
        "docs/development/rules.md is stale: run `.venv/bin/python -m tests.support.rules`")


def test_every_place_a_rule_is_enforced_in_exists() -> None:
    missing = []
    for rule in load_rules().values():
        for where in rule.where:
            path, _, name = where.partition(":")
            if not (ROOT / path).exists():
                missing.append(f"{rule.id}: {path}")
            elif name and path.endswith(".py") and name not in _defined(ROOT / path):
                missing.append(f"{rule.id}: {where}")
    assert not missing, missing


def _defined(path: object) -> set[str]:
    """Functions and classes of a module, and its classes' methods as ``Class.method``."""
    tree = ast.parse(ROOT.joinpath(str(path)).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            names |= {f"{node.name}.{item.name}" for item in node.body
                      if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)}
    return names
