"""What a run leaves behind: the versions it ran on, and its figures in ``benchmarks/results/``.

Why: a figure without the software and host it came from cannot be compared with the next one.
Every report records the same versions and is written the same way: ``<name>.json`` with every
figure (per-run details included) and, when there is one, ``<name>.txt`` with the tables as printed.
The directory is not committed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from sqlalchemy import Engine

from harness import RESULTS_DIR, ROOT, log

PACKAGES = ("connexion", "starlette", "uvicorn", "uvloop", "httptools", "sqlalchemy", "psycopg", "httpx")


def versions(engine: Engine | None = None) -> dict[str, str]:
    """Python, the database, the host, the packages that serve and load, and wrk."""
    info = {"python": sys.version.split()[0], "platform": platform.platform(), "cpus": str(os.cpu_count())}
    if engine is not None and engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            info["database"] = str(conn.exec_driver_sql("SELECT version()").scalar_one())
    elif engine is not None:
        info["database"] = f"SQLite {sqlite3.sqlite_version}"
    for package in PACKAGES:
        with contextlib.suppress(metadata.PackageNotFoundError):
            info[package] = metadata.version(package)
    with contextlib.suppress(OSError):
        shown = subprocess.run(["wrk", "-v"], capture_output=True, text=True, check=False)
        first = (shown.stdout or shown.stderr).strip().splitlines()
        info["wrk"] = first[0].split(" Copyright")[0].removeprefix("wrk ") if first else "?"
    return info


def describe(info: dict[str, str]) -> list[str]:
    """The versions as two header lines."""
    database = info.get("database", "").split(", compiled")[0]
    return [f"Python {info['python']} | {database} | {info['platform']} | {info['cpus']} CPUs",
            " ".join(f"{p} {info[p]}" for p in ("wrk", *PACKAGES) if p in info)]


def write(name: str, args: argparse.Namespace, report: dict[str, Any], lines: list[str] | None = None,
          path: Path | None = None) -> Path:
    """``benchmarks/results/<name>.json`` (or ``path``) and, with ``lines``, ``<name>.txt`` beside it; the
    command line and every argument (defaults included) are recorded with the figures."""
    target = path or RESULTS_DIR / f"{name}.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    document = {"benchmark": name, "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
                "command": " ".join([Path(sys.executable).name, *sys.argv]), "arguments": vars(args), **report}
    if lines is not None:
        document["table"] = lines
        target.with_suffix(".txt").write_text("\n".join(lines) + "\n")
    target.write_text(json.dumps(document, indent=2, ensure_ascii=False, default=str) + "\n")
    shown = target.relative_to(ROOT) if target.is_relative_to(ROOT) else target
    log(f"results written to {shown}" + (f" and {shown.with_suffix('.txt')}" if lines is not None else ""))
    return target

