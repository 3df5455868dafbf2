"""Schemathesis against a live demo, the two ways the suite runs it and the exploration repeats it.

- **plain**: what a QA team types with nothing of ours: the document read from where the service
  serves it, the base URL and one `Authorization` header, `--checks all`, every phase, and only
  `tests/system/schemathesis-plain.toml` (the answers the rule catalogue gives to well-formed
  requests). No hooks, no `schemathesis.toml`.
- **aimed**: `schemathesis.toml` and its hooks (`scripts/schemathesis_hooks.py`), which aim half the
  schema-valid cases at real demo objects so that no operation only ever answers 404.

Both take a seed: the test command passes fixed ones (`SEEDS`), so a commit is green or red the
same way on every clone; `scripts/fuzz.py` draws new ones with a larger budget. Neither keeps a
Hypothesis example database (`--generation-database none`): what a run generates depends on its
seed alone, never on what an earlier run on the same machine found.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx

from tests.support.live_server import ROOT, TESSERA, demo_on
from tests.support.schemathesis_report import errors_in, failures, inexpressible
from tests.support.server_errors import trouble_in

SCHEMATHESIS = str(Path(sys.executable).parent / "schemathesis")
PLAIN_CONFIG = ROOT / "tests" / "system" / "schemathesis-plain.toml"
DOCUMENTS = ("session", "open-platform")
# Where the service serves each document (the plain run reads it there), and its file (the aimed run's).
SERVED = {"session": "/api/openapi.json", "open-platform": "/api/open/v1/openapi.json"}
FILES = {"session": "generated/session-api.yaml", "open-platform": "generated/open-platform.yaml"}
PASSWORD = "conformance-demo-password"
SCOPES = "assets.read assets.manage inventory.stockins.read inventory.stockins.manage events.robot-fleet.publish"
# Generous limits so the fuzzer reaches the operations instead of 429 (which has its own tests).
RAISED_LIMITS = {f"TESSERA_RATE_LIMIT_{kind}": "1000000" for kind in ("READ", "WRITE", "LOGIN", "TOKEN", "OPEN")}
# What scripts/conformance_objects.py needs to aim cases at real objects: a loopback webhook
# receiver (as scripts/demo.sh allows), and runs that park quickly so one can be retried.
AIMING_SETTINGS = {"TESSERA_WEBHOOK_ALLOW_LOOPBACK": "true", "TESSERA_AUTOMATION_RETRY_SCHEDULE": "0.05"}
# The test command's seeds, one per run. A new seed is a new set of cases: change one only with a
# run of scripts/fuzz.py behind it, and keep what it found as a regression case.
# Which database each run uses: each document and each way of running it once, and each database
# under both documents and both ways (the storage itself is tested on both by every HTTP test).
DATABASES = {("session", "plain"): "postgresql", ("session", "aimed"): "sqlite",
             ("open-platform", "plain"): "sqlite", ("open-platform", "aimed"): "postgresql"}
SEEDS = {("session", "plain"): 20261122, ("open-platform", "plain"): 20261122,
         ("session", "aimed"): 20261127, ("open-platform", "aimed"): 20261127}
GENERATED = re.compile(r"Test cases:\s*\n\s*(?P<count>\d+) generated")


@dataclass(frozen=True)
class Demo:
    """A demo server on one database, with the credentials both documents sign in with."""

    backend: str
    base: str
    server_env: dict[str, str]
    log: Path
    client_id: str
    client_secret: str
    access_token: str
    jwt: str


@contextmanager
def conformance_demo(backend: str, tmp: Path, *, aimed: bool) -> Iterator[Demo]:
    """``tessera serve --demo`` with its rate limits raised, an Open Platform credential holding
    every published scope, and a signed-in session.

    Response validation is off, as the service is deployed: Schemathesis' own response checks
    judge every answer against the document it reads (the in-process tests keep the server's own
    check on). An aimed run's demo also allows loopback webhook receivers and parks automation
    runs quickly (``AIMING_SETTINGS``).
    """
    settings = {"TESSERA_DEMO_PASSWORD": PASSWORD, "TESSERA_RESPONSE_VALIDATION": "false", **RAISED_LIMITS,
                **(AIMING_SETTINGS if aimed else {})}
    with demo_on(backend, tmp, **settings) as (base, server_env):
        quickstart = subprocess.run(
            [*TESSERA, "op-quickstart", "--email", "admin@demo.example", "--tenant", "demo",
             "--environment", "production", "--scopes", SCOPES],
            cwd=ROOT, env=server_env, capture_output=True, text=True, timeout=60, check=True,
        )
        credential = json.loads(quickstart.stdout)
        login = httpx.post(f"{base}/api/auth/login", json={"email": "admin@demo.example", "password": PASSWORD})
        login.raise_for_status()
        yield Demo(backend, base, server_env, tmp / "serve.log", credential["clientId"], credential["clientSecret"],
                   credential["access_token"], login.json()["data"]["jwt"])


def plain_command(demo: Demo, document: str, seed: int, max_examples: int | None = None) -> list[str]:
    """The command a QA team types, with the seed and a budget of examples per operation added."""
    bearer = demo.jwt if document == "session" else demo.access_token
    return [
        SCHEMATHESIS, "--no-color", "--config-file", str(PLAIN_CONFIG), "run", demo.base + SERVED[document],
        "--url", demo.base, "-H", f"Authorization: Bearer {bearer}",
        "--checks", "all", "--phases", "examples,coverage,fuzzing,stateful", "--seed", str(seed),
        "--generation-database", "none", "--workers", "1",
        *(["--max-examples", str(max_examples)] if max_examples else []),
    ]


def aimed_command(document: str, seed: int, max_examples: int | None = None) -> list[str]:
    """``schemathesis run`` on the document's file with ``schemathesis.toml`` (its hooks included)."""
    return [
        SCHEMATHESIS, "--no-color", "--config-file", "schemathesis.toml", "run", FILES[document],
        "--seed", str(seed), "--generation-database", "none", "--workers", "1",
        *(["--max-examples", str(max_examples)] if max_examples else []),
    ]


def aimed_env(demo: Demo) -> dict[str, str]:
    """The environment ``schemathesis.toml`` reads, and nothing of the server's own settings."""
    return {**{k: v for k, v in demo.server_env.items() if not k.startswith("TESSERA_")},
            "TESSERA_URL": demo.base, "TESSERA_EMAIL": "admin@demo.example", "TESSERA_PASSWORD": PASSWORD,
            "TESSERA_CLIENT_ID": demo.client_id, "TESSERA_CLIENT_SECRET": demo.client_secret}


def run(mode: str, demo: Demo, document: str, seed: int, workdir: Path, *, max_examples: int | None = None,
        timeout: float = 1500) -> tuple[int, str]:
    """One Schemathesis run: its exit status and its whole report. The plain run starts where no `schemathesis.toml`
    or hooks can be found; the aimed run from the repository root, where they are."""
    if mode == "plain":
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SCHEMATHESIS_", "TESSERA_"))}
        command, cwd = plain_command(demo, document, seed, max_examples), workdir
    else:
        env, command, cwd = aimed_env(demo), aimed_command(document, seed, max_examples), ROOT
    result = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    return result.returncode, result.stdout + result.stderr


def unexplained(document: str, status: int, report: str) -> list[str]:
    """The titles of the report's failures that are not the refusals no schema can state; a run that
    failed with none to show (an error, a crash) is one too."""
    found = failures(report)
    errors = [f"error: {title}" for title, _ in errors_in(report)]
    if status != 0 and not found and not errors:
        return [f"schemathesis exited with status {status} and no failure to show"]
    return [*errors, *(title for title, text in found if not inexpressible(document, (title, text)))]


def generated_cases(report: str) -> int:
    found = GENERATED.search(report)
    return int(found["count"]) if found else 0


def problems(report: str, server_log: Path) -> str:
    """The report's ERRORS and FAILURES sections first, then its tail: a long report cut from the
    end alone hides the one error that failed the run behind pages of warnings. Then the server's
    slow requests and warnings: a read timeout names the request that waited, not what held it."""
    sections = [report[start:start + 12000] for name in ("= ERRORS =", "= FAILURES =")
                if (start := report.find(name)) >= 0]
    with server_log.open() as log:
        trouble = trouble_in(log)
    return "\n[...]\n".join([*sections, report[-6000:],
                              "server log, slow requests and warnings:\n" + "\n".join(trouble or ["(none)"])])
