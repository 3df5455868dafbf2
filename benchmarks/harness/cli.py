"""The arguments the benchmarks share, defined once, and the end every run shares.

Why: each script used to spell ``--backend``, ``--records``, ``--duration``, ``--warmup``,
``--concurrency``, ``--keep-db`` and ``--results-file`` with its own help text and its own checks
(one refused ``--warmup 0``, the next allowed it, a third checked nothing), and each ended with its
own copy of "print the tables, write the report, print the time, choose the exit status". A script
now names the shared options it takes, adds its own with ``add``, states any further rule with
``check``, and ends with ``conclude``: the same flags, the same refusals (exit status 2 with the
reason, before anything is seeded) and the same reports everywhere.

Every script gets ``--results-file``: where its JSON report goes (``<name>.txt`` beside it holds
the tables), by default ``benchmarks/results/<name>.json`` (``BENCH_RESULTS_DIR`` moves the
directory), where ``<name>`` may name an argument (``soak-{backend}``).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Self

from harness import RESULTS_DIR, log, results, wrk
from harness.databases import BACKENDS

Rule = Callable[[argparse.Namespace], bool]


class Arguments:
    """One script's command line: the shared options it takes, its own, and the rules they obey."""

    def __init__(self, doc: str | None, report: str) -> None:
        self.parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
        self.report = report
        self.rules: list[tuple[Rule, str]] = []
        self.wrk_seconds: list[str] = []
        self.parser.add_argument("--results-file", type=Path, default=None,
                                 help=f"the JSON report (default {RESULTS_DIR.name}/{report}.json)")

    def add(self, *flags: str, **options: Any) -> Self:
        """An option of this script alone, as ``argparse`` takes it."""
        self.parser.add_argument(*flags, **options)
        return self

    def check(self, rule: Rule, message: str) -> Self:
        """A rule the parsed arguments must obey; ``message`` is the refusal."""
        self.rules.append((rule, message))
        return self

    def at_least(self, flag: str, minimum: float) -> Self:
        name = flag.removeprefix("--").replace("-", "_")
        return self.check(lambda a: getattr(a, name) >= minimum, f"{flag} must be at least {minimum:g}")

    def backend(self, default: str | None = "postgresql", both: bool = False) -> Self:
        """``--backend``: one database; with ``default=None`` every one unless one is named, with
        ``both`` also the choice ``both``."""
        shown = "both" if default in (None, "both") else default
        return self.add("--backend", choices=(*BACKENDS, "both") if both else BACKENDS, default=default,
                        help=f"the database (default {shown})")

    def records(self, default: int, minimum: int = 1, flag: str = "--records",
                what: str = "assets of the tenant") -> Self:
        self.add(flag, type=int, default=default, help=f"{what} (default {default})")
        return self.at_least(flag, minimum)

    def duration(self, default: float, what: str = "seconds of load per run") -> Self:
        self.add("--duration", type=float, default=default, help=f"{what} (default {default:g})")
        return self.check(lambda a: a.duration > 0, "--duration must be positive")

    def warmup(self, default: float) -> Self:
        self.add("--warmup", type=float, default=default, help=f"seconds of warm-up before each run (default "
                                                                f"{default:g}; 0: none)")
        return self.at_least("--warmup", 0)

    def concurrency(self, default: int) -> Self:
        self.add("--concurrency", type=int, default=default, help=f"requests in flight (default {default})")
        return self.at_least("--concurrency", 1)

    def connections(self, default: int) -> Self:
        self.add("--connections", type=int, default=default, help=f"wrk connections (default {default})")
        return self.at_least("--connections", 1)

    def writes(self, writer: str) -> Self:
        """``--writes``: the write rates every scenario is run at, beside its readers."""
        self.add("--writes", default="0", help="writes per second beside the readers, comma-separated: every "
                                               f"scenario is run at each (default 0; e.g. 1,10,50), by {writer}")
        return self.check(lambda a: all(_rate(r) for r in a.writes.split(",")),
                          "--writes must be rates of at least 0, comma-separated")

    def keep_db(self) -> Self:
        return self.add("--keep-db", action="store_true", help="keep the database afterwards and print its URL")

    def wrk(self, *flags: str) -> Self:
        """wrk drives the load: it must be on the PATH, and ``flags`` are its durations, whole seconds."""
        self.wrk_seconds += flags
        return self

    def parse(self, argv: list[str] | None = None) -> argparse.Namespace:
        """The arguments, or exit status 2 with every rule they break."""
        args = self.parser.parse_args(argv)
        broken = [message for rule, message in self.rules if not rule(args)]
        if self.wrk_seconds:
            names = [flag.removeprefix("--").replace("-", "_") for flag in self.wrk_seconds]
            if not wrk.whole_seconds(*(getattr(args, name) for name in names)):
                broken.append(f"{', '.join(self.wrk_seconds)}: wrk's durations, in whole seconds")
            if not wrk.available():
                broken.append("wrk is not on the PATH (the Debian package: apt-get install wrk)")
        if broken:
            self.parser.error("; ".join(broken))
        args.results_file = args.results_file or RESULTS_DIR / f"{self.report.format(**vars(args))}.json"
        return args


def _rate(text: str) -> bool:
    try:
        return float(text) >= 0
    except ValueError:
        return False


def conclude(args: argparse.Namespace, report: dict[str, Any], lines: list[str], failures: list[str],
             started: float, printed: bool = False) -> int:
    """A run's end: the tables and each failure printed (the tables unless ``printed`` already), the
    report written with its failures, the total time; exit status 1 when anything failed."""
    lines = [*lines, *(f"FAILED: {f}" for f in failures)]
    shown = [f"FAILED: {f}" for f in failures] if printed else lines
    if shown:
        log("\n" + "\n".join(shown))
    results.write(args.results_file.stem, args, {**report, "failures": failures}, lines, path=args.results_file)
    log(f"total time {time.perf_counter() - started:.0f} s")
    return 1 if failures else 0
