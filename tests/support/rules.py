"""The specification's rules (``rules.yaml``) and the tests that prove them.

A test names the rules it proves with ``@pytest.mark.rule("op.token.lifetime-default", ...)``. This
pytest plugin (loaded by ``tests/conftest.py``) holds the catalogue to its tests:

- a test naming a rule the catalogue does not have fails the collection, so a typo is caught by
  any run that collects it;
- with ``--rules`` (the test command passes it), the run fails unless every rule of the catalogue
  has at least one test that ran and passed, and none of its tests was skipped; the summary says
  how many rules were proven, and by how many tests on each database.

The marks are read from the reports, so the check also holds under pytest-xdist, where the
controller collects nothing itself. ``rules_page`` renders the conformance page of the docs from
the catalogue and the marks found in the test files (``tests/architecture/test_rules_page.py``
keeps the committed page current).
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tessera.core import yamlfile

ROOT = Path(__file__).resolve().parents[2]
CATALOGUE = ROOT / "rules.yaml"
PAGE = ROOT / "docs" / "development" / "rules.md"
RULE_ID = re.compile(r"^[a-z]+(?:\.[a-z0-9]+(?:-[a-z0-9]+)*)+$")
SURFACES = ("open-platform", "session", "both")
PROPERTY = "rules"  # the user property each test's report carries its rule ids under


@dataclass(frozen=True)
class Rule:
    id: str
    surface: str
    section: str
    words: str
    where: tuple[str, ...]
    notes: str = ""


def load_rules(path: Path = CATALOGUE) -> dict[str, Rule]:
    """The catalogue, in the specification's order; a malformed entry is an error naming it."""
    found: dict[str, Rule] = {}
    for entry in yamlfile.load(path.read_text(encoding="utf-8"))["rules"]:
        rule_id = entry.get("id", "")
        if not RULE_ID.fullmatch(rule_id) or rule_id in found:
            raise ValueError(f"{path.name}: rule id {rule_id!r} is malformed or repeated")
        if entry.get("surface") not in SURFACES or not entry.get("words") or not entry.get("where"):
            raise ValueError(f"{path.name}: rule {rule_id} needs a surface ({', '.join(SURFACES)}), words and where")
        found[rule_id] = Rule(rule_id, entry["surface"], entry["section"], entry["words"], tuple(entry["where"]),
                              entry.get("notes", ""))
    return found


def marked_rules(item: pytest.Item) -> tuple[str, ...]:
    return tuple(rule for mark in item.iter_markers("rule") for rule in mark.args)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--rules", action="store_true", default=False,
                     help="fail unless every rule of rules.yaml has a test that ran and passed (the test command)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "rule(*ids): the rules of rules.yaml this test proves")
    config.stash[_STATE] = _State(load_rules())


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    known = config.stash[_STATE].rules
    unknown = sorted({f"{item.nodeid}: {rule}" for item in items for rule in marked_rules(item) if rule not in known})
    if unknown:
        raise pytest.UsageError("tests name rules that rules.yaml does not have:\n  " + "\n  ".join(unknown))
    for item in items:
        rules = marked_rules(item)
        if rules:
            item.user_properties.append((PROPERTY, rules))


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    rules = next((value for name, value in report.user_properties if name == PROPERTY), ())
    if not rules:
        return
    _REPORTS.append((report.nodeid, report.when, report.outcome, tuple(rules)))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    config = session.config
    if not config.getoption("--rules") or hasattr(config, "workerinput"):
        return
    state = config.stash[_STATE]
    proven: dict[str, set[str]] = defaultdict(set)
    skipped: dict[str, set[str]] = defaultdict(set)
    for nodeid, when, outcome, rules in _REPORTS:
        for rule in rules:
            if outcome == "skipped":
                skipped[rule].add(nodeid)
            elif when == "call" and outcome == "passed":
                proven[rule].add(nodeid)
    state.proven, state.skipped = proven, skipped
    missing = [rule for rule in state.rules if rule not in proven]
    if (missing or skipped) and exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    if not config.getoption("--rules") or hasattr(config, "workerinput"):
        return
    state = config.stash[_STATE]
    missing = [rule for rule in state.rules if rule not in state.proven]
    tests = {nodeid for nodeids in state.proven.values() for nodeid in nodeids}
    databases = {backend: sum(1 for nodeid in tests if f"[{backend}" in nodeid or f"-{backend}" in nodeid)
                 for backend in ("sqlite", "postgresql")}
    terminalreporter.write_line(
        f"rules: {len(state.rules) - len(missing)} of {len(state.rules)} in rules.yaml proven by {len(tests)} passing "
        f"tests ({databases['sqlite']} on SQLite, {databases['postgresql']} on PostgreSQL)")
    for rule in missing:
        terminalreporter.write_line(f"rules: NOT PROVEN {rule}: no test naming it ran and passed", red=True)
    for rule, nodeids in sorted(state.skipped.items()):
        terminalreporter.write_line(f"rules: SKIPPED {rule}: {', '.join(sorted(nodeids))}", red=True)


@dataclass
class _State:
    rules: dict[str, Rule]
    proven: dict[str, set[str]] = field(default_factory=dict)
    skipped: dict[str, set[str]] = field(default_factory=dict)


_STATE = pytest.StashKey[_State]()
# (nodeid, phase, outcome, rules) of every report of a test naming rules, as this process (the
# controller, under xdist) receives them.
_REPORTS: list[tuple[str, str, str, tuple[str, ...]]] = []


# -- the conformance page ----------------------------------------------------------------------

def marks_in_tests(root: Path = ROOT / "tests") -> dict[str, list[str]]:
    """Rule id -> the tests (``path::function``) whose ``@pytest.mark.rule`` names it, read from the
    files themselves (no collection: the page is rendered without running pytest)."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(root.rglob("test_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test_"):
                for rule in _rules_of(node.decorator_list):
                    found[rule].append(f"{path.relative_to(ROOT).as_posix()}::{node.name}")
    return found


def _rules_of(decorators: list[ast.expr]) -> list[str]:
    rules = []
    for decorator in decorators:
        if (isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)
                and decorator.func.attr == "rule" and ast.unparse(decorator.func.value) == "pytest.mark"):
            rules += [arg.value for arg in decorator.args
                      if isinstance(arg, ast.Constant) and isinstance(arg.value, str)]
    return rules


def rules_page(rules: dict[str, Rule], marks: dict[str, list[str]]) -> str:
    """The docs' conformance page: every rule, where it is enforced, the tests that prove it."""
    lines = [
        "# Conformance: the specification's rules",
        "",
        "<!-- Generated from rules.yaml and the tests' @pytest.mark.rule marks by",
        "     `.venv/bin/python -m tests.support.rules`; tests/architecture/test_rules_page.py keeps it current. -->",
        "",
        f"Every testable rule of the specification, {len(rules)} of them, is an entry of `rules.yaml`: an id, the",
        "specification's words, the surface, where the service enforces it and, where the specification",
        "is silent or two rules pull apart, what was decided and why. A test names the rules it proves",
        '(`@pytest.mark.rule("op.token.lifetime-default")`); the test command (`--rules`) fails when a rule',
        "has no test that ran and passed, when a test names a rule the catalogue does not have, or when a",
        "rule's test was skipped. Tests that take a database run on SQLite and on PostgreSQL.",
        "",
    ]
    section = None
    for rule in rules.values():
        if rule.section != section:
            section = rule.section
            lines += [f"## {section}", ""]
        lines += [f"### `{rule.id}`", "", f"> {rule.words}", "", f"Surface: {rule.surface}. Enforced in: "
                  + ", ".join(f"`{where}`" for where in rule.where) + "."]
        if rule.notes:
            lines += ["", f"Decided: {' '.join(rule.notes.split())}"]
        tests = marks.get(rule.id, [])
        lines += ["", "Tests: " + (", ".join(f"`{test}`" for test in tests) if tests else "none yet."), ""]
    return "\n".join(lines)


if __name__ == "__main__":
    PAGE.write_text(rules_page(load_rules(), marks_in_tests()), encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}")
