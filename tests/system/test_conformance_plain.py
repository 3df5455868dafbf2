"""Schemathesis as a QA team runs it, with nothing of ours: the plain run.

Beside the aimed run (`test_conformance.py`: `schemathesis.toml`, hooks that aim cases at real
objects), this is the run an outsider makes: the latest Schemathesis, the document as the service
serves it, the base URL and one `Authorization` header, `--checks all`, every phase, a fixed seed,
no hooks and no `schemathesis.toml`. Its only configuration, `schemathesis-plain.toml` beside this
file, lists the answers the specification itself gives to well-formed requests (401/403, 404, 409,
412, 429; 412 for a missing If-Match). Any failure fails the test with Schemathesis' report.

One worker: without the aimed run's hook that serialises `ast.parse`, two workers meet CPython
3.11's shared AST recursion counter (python/cpython#106905) as a Runtime Error now and then.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import BACKENDS
from tests.support.live_server import ROOT, TESSERA, demo_on
from tests.support.schemathesis_report import failures, inexpressible
from tests.support.server_errors import trouble_in

SCHEMATHESIS = str(Path(sys.executable).parent / "schemathesis")
CONFIG = Path(__file__).with_name("schemathesis-plain.toml")
SEED = "20261122"
PASSWORD = "conformance-demo-password"
SCOPES = "assets.read assets.manage inventory.stockins.read inventory.stockins.manage events.robot-fleet.publish"
# Where the service serves each document: the plain run reads it there, as an outsider would.
DOCUMENTS = {
    "open-platform": "/api/open/v1/openapi.json",
    "session": "/api/openapi.json",
}
# The demo's rate limits raised so that the run reaches the operations (429 has its own tests).
RAISED_LIMITS = {f"TESSERA_RATE_LIMIT_{kind}": "1000000" for kind in ("READ", "WRITE", "LOGIN", "TOKEN", "OPEN")}


@pytest.fixture(scope="module", params=BACKENDS)
def served(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A demo on one database, and an Authorization header for each document."""
    backend = request.param
    # Response validation off, as the service is deployed: Schemathesis' own response checks judge
    # every answer against the document it read (the aimed run keeps the server's own check on).
    settings = {"TESSERA_DEMO_PASSWORD": PASSWORD, "TESSERA_RESPONSE_VALIDATION": "false", **RAISED_LIMITS}
    tmp = tmp_path_factory.mktemp(f"plain-{backend}")
    with demo_on(backend, tmp, **settings) as (base, server_env):
        quickstart = subprocess.run(
            [*TESSERA, "op-quickstart", "--email", "admin@demo.example", "--tenant", "demo",
             "--environment", "production", "--scopes", SCOPES],
            cwd=ROOT, env=server_env, capture_output=True, text=True, timeout=60, check=True,
        )
        login = httpx.post(f"{base}/api/auth/login", json={"email": "admin@demo.example", "password": PASSWORD})
        login.raise_for_status()
        yield {
            "base": base,
            "backend": backend,
            "server_log": str(tmp / "serve.log"),
            "open-platform": f"Bearer {json.loads(quickstart.stdout)['access_token']}",
            "session": f"Bearer {login.json()['data']['jwt']}",
        }


def plain_run(served: dict[str, str], document: str, workdir: Path) -> subprocess.CompletedProcess[str]:
    """The command a QA team types, run where no `schemathesis.toml` or hooks can be found."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SCHEMATHESIS_", "TESSERA_"))}
    command = [
        SCHEMATHESIS, "--no-color", "--config-file", str(CONFIG), "run", served["base"] + DOCUMENTS[document],
        "--url", served["base"], "-H", f"Authorization: {served[document]}",
        "--checks", "all", "--phases", "examples,coverage,fuzzing,stateful", "--seed", SEED, "--workers", "1",
    ]
    return subprocess.run(command, cwd=workdir, env=env, capture_output=True, text=True, timeout=1500)


def _summary(report: str, server_log: str) -> str:
    """The report's failures and tail, then the server's slow requests and warnings."""
    start = report.find("= FAILURES =")
    shown = report[start:start + 12000] + "\n[...]\n" + report[-3000:] if start >= 0 else report[-6000:]
    with open(server_log) as log:
        trouble = trouble_in(log)
    return shown + "\nserver log, slow requests and warnings:\n" + "\n".join(trouble or ["(none)"])


@pytest.mark.conformance
@pytest.mark.parametrize("document", list(DOCUMENTS))
def test_the_plain_schemathesis_run_finds_nothing(served: dict[str, str], document: str, tmp_path: Path) -> None:
    result = plain_run(served, document, tmp_path)
    report = result.stdout + result.stderr
    found = failures(report)
    unexplained = [title for title, text in found if not inexpressible(document, (title, text))]
    assert (result.returncode == 0 and not found) or (found and not unexplained), (
        f"plain run on {document} ({served['backend']}):\n{_summary(report, served['server_log'])}")
    assert "Test cases:" in report, report[-3000:]
    phases = report[report.find("Test Phases:"):]
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):  # each ran, and passed unless tolerated
        assert (f"✅ {phase}" if not found else f" {phase}") in phases, f"phase {phase}:\n{report[-4000:]}"
    print(f"plain run on {document} ({served['backend']}); tolerated: {[title for title, _ in found]}\n"
          + report[report.find("= SUMMARY ="):])
