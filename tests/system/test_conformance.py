"""Schemathesis conformance, run the way a QA team runs it: the CLI, `schemathesis.toml`, a real server.

`tessera serve --demo` runs as its own process on loopback (rate limits raised for the run),
`tessera op-quickstart` makes an Open Platform credential holding every published scope, and
`schemathesis run` tests each published document with every check and every phase (examples,
coverage, fuzzing, stateful through the OpenAPI links), signing in through the documented login and
client-credentials operations as configured in `schemathesis.toml`, with its hooks aiming cases at
real demo objects. A fixed seed and no example database: the same cases on every clone. A single
failure fails the test and shows Schemathesis' report, with its seed and a curl command per failure.

Each document runs once here, on one database, and once in the plain run
(`test_conformance_plain.py`) on the other (`tests/support/conformance.py`, ``DATABASES``), so each
database serves both documents and both ways of running them between the two modules;
`scripts/fuzz.py` runs every combination with fresh seeds.
"""

from __future__ import annotations

import re
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
from tests.support.conformance_stats import NOT_REACHED, STATS_PROPERTY
from tests.support.schemathesis_report import failures

# Fuzzed examples per operation in the aimed run of the session document. schemathesis.toml's 100 is
# what a QA team's own run uses, and what the Open Platform document's aimed run keeps: at 50, the
# few aimed cases of /oauth2/token left its validation_mismatch warning to chance. The plain run
# fuzzes every operation of the same document with Schemathesis' default of 100; what only the
# aimed run adds is reaching real objects, which its warnings check and 50 examples per operation do.
AIMED_EXAMPLES = {"session": 50, "open-platform": None}
# Schemathesis' summary lines of the two warnings schemathesis.toml turns into failures.
ONLY_404 = re.compile(r"Missing test data: (?P<count>\d+) operations?")
ONLY_REFUSED = re.compile(r"Schema validation mismatch: (?P<count>\d+) operations?")
SUMMARY = re.compile(r"Test cases:\s*\n\s*(?P<generated>\d+) generated, (?P<passed>\d+) passed")


def _warned(report: str, warning: re.Pattern[str]) -> int:
    """How many operations Schemathesis' summary names under ``warning`` (0 when it has none)."""
    found = warning.search(report)
    return int(found["count"]) if found else 0


@pytest.mark.conformance
@pytest.mark.parametrize("document", DOCUMENTS)
def test_document_conforms_under_every_schemathesis_check(document: str, tmp_path: Path,
                                                          record_property: Callable[[str, object], None]) -> None:
    backend = DATABASES[document, "aimed"]
    with conformance_demo(backend, tmp_path, aimed=True) as demo:
        status, report = run("aimed", demo, document, SEEDS[document, "aimed"], tmp_path,
                     max_examples=AIMED_EXAMPLES[document], timeout=1200)
    label = f"{document} document, aimed ({backend})"
    NOT_REACHED[label] = (_warned(report, ONLY_404), _warned(report, ONLY_REFUSED))
    # For the end of the run's summary (tests/conftest.py), from whichever xdist worker ran it.
    record_property(STATS_PROPERTY, (label, generated_cases(report), NOT_REACHED[label]))
    summary = SUMMARY.search(report)
    # The stateful phase keeps to the documents' links, unaimed: the refusals no schema can state
    # (docs/development/conformance.md, "The plain run") are tolerated there as in the plain run, and nothing else.
    # schemathesis.toml's fail-on warnings: they set the exit status as a failure does.
    assert NOT_REACHED[label] == (0, 0), f"operations not reached ({label}):\n{problems(report, demo.log)}"
    found = failures(report)
    assert not unexplained(document, status, report), f"failures ({label}):\n{problems(report, demo.log)}"
    assert summary is not None or found, f"no summary in the schemathesis output:\n{report[-4000:]}"
    if found:  # the summary line counts failures then; the tolerated ones were checked above
        return
    assert summary is not None
    assert summary["generated"] == summary["passed"], report[-4000:]
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert f"✅ {phase}" in report, f"phase {phase} did not run and pass:\n{report[-4000:]}"
