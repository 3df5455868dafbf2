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
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.conftest import BACKENDS
from tests.support.live_server import ROOT, TESSERA, demo_on

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
    settings = {"TESSERA_DEMO_PASSWORD": PASSWORD, "TESSERA_RESPONSE_VALIDATION": "true", **RAISED_LIMITS}
    with demo_on(backend, tmp_path_factory.mktemp(f"plain-{backend}"), **settings) as (base, server_env):
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


# The rules the session document cannot state, because they depend on more than the request's
# shape; each is refused with 400 VALIDATION_ERROR naming the field. Exactly these refusals, on
# exactly these operations, are tolerated; every other failure fails the run.
# - a public key whose material is not a key of its type (no point on P-256, no RSA modulus of
#   2048 bits): `publicJwk` / `jwks` of the two operations that register keys;
# - a webhook URL whose host does not resolve, or resolves to an address that may not receive
#   webhooks (SSRF rules, which depend on DNS and the deployment's settings): `url`;
# - event types whose resources the installation has no read scope for (its grants, not the
#   request): `eventTypes`.
CREDENTIALS = ("POST /api/open-platform/installations/{installationId}/credentials",
               "POST /api/open-platform/credentials/{clientId}/rotate")
ENDPOINTS = ("POST /api/open-platform/installations/{installationId}/webhook-endpoints",
             "PUT /api/open-platform/webhook-endpoints/{endpointId}")
INEXPRESSIBLE = {
    "session": {**dict.fromkeys(CREDENTIALS, frozenset({"publicJwk", "jwks"})),
                **dict.fromkeys(ENDPOINTS, frozenset({"url", "eventTypes"}))},
}
FAILURE_HEADER = re.compile(r"^_{3,} (?P<title>.+?) _{3,}$", re.MULTILINE)
ANSWER = re.compile(r"^\[(?P<status>\d{3})\] .*?:\n\n\s*`(?P<body>.*)`$", re.MULTILINE)
CURL = re.compile(r"curl -X (?P<method>[A-Z]+) (?P<rest>.*)")
TARGET = re.compile(r"https?://[^/\s'\"]+(?P<path>/[^'?\s\"]*)")


def failures(report: str) -> list[tuple[str, str]]:
    """(title, text) of each failure block of the report's FAILURES section."""
    section = report[report.find("= FAILURES ="):report.find("= WARNINGS =") if "= WARNINGS =" in report
                     else report.find("= SUMMARY =")]
    marks = list(FAILURE_HEADER.finditer(section))
    return [(m["title"], section[m.end():marks[i + 1].start() if i + 1 < len(marks) else len(section)])
            for i, m in enumerate(marks)]


def _operation(method: str, path: str, operations: dict[str, frozenset[str]]) -> str | None:
    """The tolerated operation a concrete request path is one of, if any."""
    for operation in operations:
        op_method, template = operation.split(" ", 1)
        pattern = re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(template))
        if op_method == method and re.fullmatch(pattern, path):
            return operation
    return None


def inexpressible(document: str, block: tuple[str, str]) -> bool:
    """Whether a failure is only refusals of the rules above: ST202, each answer a 400 whose
    field errors name only the fields tolerated on the operation it was sent to."""
    operations = INEXPRESSIBLE.get(document, {})
    title, text = block
    if set(re.findall(r"^- (ST\d+) ", text, re.MULTILINE)) != {"ST202"}:
        return False
    cases = [case for case in re.split(r"\n\s*\d+\. Test Case ID", text)[1:] if ANSWER.search(case)]
    if not cases:
        return False
    for case in cases:  # in a stateful sequence, the last request of each case is the refused one
        curls = list(CURL.finditer(case))
        urls = list(TARGET.finditer(curls[-1]["rest"])) if curls else []  # the request's URL comes last
        target = title if title in operations else (
            _operation(curls[-1]["method"], urls[-1]["path"], operations) if urls else None)
        if target is None or target not in operations:
            return False
        for answer in ANSWER.finditer(case):
            try:
                body = json.loads(answer["body"])
            except ValueError:
                return False
            fields = set((body.get("data") or {}).get("fieldErrors") or {})
            if answer["status"] != "400" or not fields or not fields <= operations[target]:
                return False
    return True


def _summary(report: str) -> str:
    start = report.find("= FAILURES =")
    return report[start:start + 12000] + "\n[...]\n" + report[-3000:] if start >= 0 else report[-6000:]


@pytest.mark.conformance
@pytest.mark.parametrize("document", list(DOCUMENTS))
def test_the_plain_schemathesis_run_finds_nothing(served: dict[str, str], document: str, tmp_path: Path) -> None:
    result = plain_run(served, document, tmp_path)
    report = result.stdout + result.stderr
    found = failures(report)
    unexplained = [title for title, text in found if not inexpressible(document, (title, text))]
    assert (result.returncode == 0 and not found) or (found and not unexplained), (
        f"plain run on {document} ({served['backend']}):\n{_summary(report)}")
    assert "Test cases:" in report, report[-3000:]
    phases = report[report.find("Test Phases:"):]
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):  # each ran, and passed unless tolerated
        assert (f"✅ {phase}" if not found else f" {phase}") in phases, f"phase {phase}:\n{report[-4000:]}"
    print(f"plain run on {document} ({served['backend']}); tolerated: {[title for title, _ in found]}\n"
          + report[report.find("= SUMMARY ="):])
