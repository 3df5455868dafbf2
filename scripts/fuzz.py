"""Exploration: Schemathesis with fresh seeds and a larger budget, until a time budget is spent.

The test command runs each document once plain and once aimed, with fixed seeds, so that a commit
is green or red the same way on every clone (`tests/support/conformance.py`). This looks further:
every document, way of running it (plain, aimed) and database in turn, each run with a seed of its
own and more examples per operation, on a fresh demo, until ``--minutes`` are spent. Each run
prints one line as it ends; a run that finds something keeps Schemathesis' whole report under
``--out`` (default ``var/fuzz/``), named by what ran and its seed, with the server's warnings and
the command that repeats it. Exit status 1 when anything was found.

    bash scripts/fuzz.sh --minutes 60                  # everything, an hour
    bash scripts/fuzz.sh --documents session --modes plain --databases postgresql --minutes 10

A finding is fixed at its cause, then kept: the failing value as a case of the test that covers
its rule (or an example in the document), so the test command checks it on every clone from then
on (docs/development/conformance.md, "Exploration").
"""

from __future__ import annotations

import argparse
import itertools
import secrets
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.conformance import (  # the repository root is on the path from here on
    DOCUMENTS,
    conformance_demo,
    generated_cases,
    plain_command,
    problems,
    run,
    unexplained,
)

MODES = ("plain", "aimed")
DATABASES = ("sqlite", "postgresql")


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--minutes", type=float, default=60, help="time budget; the run under way is finished")
    parser.add_argument("--max-examples", type=int, default=300, help="examples per operation and phase")
    parser.add_argument("--documents", nargs="+", choices=DOCUMENTS, default=list(DOCUMENTS),
                        help="documents to fuzz")
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES), help="ways of running Schemathesis")
    parser.add_argument("--databases", nargs="+", choices=DATABASES, default=list(DATABASES),
                        help="databases of the demo")
    parser.add_argument("--out", type=Path, default=Path("var/fuzz"), help="where the reports of findings go")
    return parser.parse_args()


def _one(document: str, mode: str, database: str, seed: int, max_examples: int, out: Path) -> list[str]:
    """One run on a fresh demo; what it found (empty when nothing), its report kept when it found something."""
    with tempfile.TemporaryDirectory(prefix="tessera-fuzz-") as tmp:
        found: list[str] = []
        report, trouble = "", ""
        try:
            with conformance_demo(database, Path(tmp), aimed=mode == "aimed") as demo:
                status, report = run(mode, demo, document, seed, Path(tmp), max_examples=max_examples, timeout=3600)
                found = unexplained(document, status, report)
                trouble = problems(report, demo.log)
                repeat = " ".join(plain_command(demo, document, seed, max_examples)) if mode == "plain" else (
                    f"schemathesis.toml run with --seed {seed} --max-examples {max_examples}")
        except AssertionError as error:  # the server answered a 5xx (tests/support/live_server.py)
            found.append(str(error).splitlines()[0])
            trouble, repeat = str(error), f"--seed {seed}"
        print(f"  cases: {generated_cases(report)}", flush=True)
    if found:
        name = f"{datetime.now(UTC):%Y%m%dT%H%M%S}-{document}-{mode}-{database}-{seed}.txt"
        out.mkdir(parents=True, exist_ok=True)
        (out / name).write_text(f"found: {found}\nrepeat: {repeat}\n\n{trouble}\n\n{report}", encoding="utf-8")
        print(f"  report: {out / name}", flush=True)
    return found


def main() -> int:
    args = _arguments()
    deadline = time.monotonic() + args.minutes * 60
    # The documents take turns (then the ways and the databases), so that a budget shorter than
    # one round still explores both: an hour once went on four runs of the session document alone.
    combinations = itertools.cycle((document, mode, database) for mode, database, document
                                   in itertools.product(args.modes, args.databases, args.documents))
    findings: list[tuple[str, int, list[str]]] = []
    runs = 0
    while time.monotonic() < deadline:
        document, mode, database = next(combinations)
        seed = secrets.randbelow(2**63)
        started = time.monotonic()
        print(f"[{runs + 1}] {document} {mode} on {database}, seed {seed}, {args.max_examples} examples", flush=True)
        found = _one(document, mode, database, seed, args.max_examples, args.out)
        runs += 1
        left = max(0.0, deadline - time.monotonic()) / 60
        print(f"  {'FOUND ' + '; '.join(found) if found else 'nothing found'} "
              f"({time.monotonic() - started:.0f} s; {left:.0f} min left)", flush=True)
        if found:
            findings.append((f"{document} {mode} on {database}", seed, found))
    print(f"{runs} runs, {len(findings)} with findings")
    for what, seed, found in findings:
        print(f"  {what}, seed {seed}: {'; '.join(found)}")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
