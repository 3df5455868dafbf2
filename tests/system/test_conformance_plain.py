"""Schemathesis as a QA team runs it, with nothing of ours: the plain run.

Beside the aimed run (`test_conformance.py`: `schemathesis.toml`, hooks that aim cases at real
objects), this is the run an outsider makes: the latest Schemathesis, the document as the service
serves it, the base URL and one `Authorization` header, `--checks all`, every phase, a fixed seed,
no example database, no hooks and no `schemathesis.toml`. Its only configuration,
`schemathesis-plain.toml` beside this file, lists the answers the rule catalogue (``rules.yaml``) gives to
well-formed requests (401/403, 404, 409, 412, 429; 412 for a missing If-Match). Any failure fails
the test with Schemathesis' report.

One worker: without the aimed run's hook that serialises `ast.parse`, two workers meet CPython
3.11's shared AST recursion counter (python/cpython#106905) as a Runtime Error now and then.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.conformance import (
    DATABASES,
    DOCUMENTS,
    SEEDS,
    conformance_demo,
    generated_cases,
    problems,
    run,
    unexplained,
)
from tests.support.conformance_stats import STATS_PROPERTY
from tests.support.schemathesis_report import failures

# Fuzzed examples per operation: the session document's 52 operations at Schemathesis' default of 100
# made 16,245 cases and 464 s of the test command's time, the most of any test. 50 per operation,
# as its aimed run, keeps every check, every phase and every operation (the coverage phase's
# boundary cases do not depend on it); the exploration command (`scripts/fuzz.sh`) fuzzes 300.
PLAIN_EXAMPLES = {"session": 50, "open-platform": None}


@pytest.mark.conformance
@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_plain_schemathesis_run_finds_nothing(document: str, tmp_path: Path,
                                                  record_property: Callable[[str, object], None]) -> None:
    backend = DATABASES[document, "plain"]
    with conformance_demo(backend, tmp_path, aimed=False) as demo:
        status, report = run("plain", demo, document, SEEDS[document, "plain"], tmp_path,
                             max_examples=PLAIN_EXAMPLES[document])
    label = f"{document} document, plain ({backend})"
    record_property(STATS_PROPERTY, (label, generated_cases(report), None))
    found = failures(report)
    assert not unexplained(document, status, report), f"plain run ({label}):\n{problems(report, demo.log)}"
    assert "Test cases:" in report, report[-3000:]
    phases = report[report.find("Test Phases:"):]
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):  # each ran, and passed unless tolerated
        assert (f"✅ {phase}" if not found else f" {phase}") in phases, f"phase {phase}:\n{report[-4000:]}"
    print(f"plain run ({label}); tolerated: {[title for title, _ in found]}\n" + report[report.find("= SUMMARY ="):])
