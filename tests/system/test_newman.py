"""The Postman collections in generated/postman run clean under newman against a live demo, on both databases.

For each database, `tessera serve --demo` runs as its own process on loopback (rate limits raised for the run,
response validation on) and `tessera op-quickstart` makes an Open Platform credential holding every published
scope. `newman run` then runs each collection as a QA team would: the committed collection and environment
files, with only the origin and the credentials given as `--env-var` (client id and secret for the Open
Platform, email and password for the session API), and for the session collection's administration the
user it adds to an application and the webhook receiver it registers (a real one on loopback). The
collections get and keep their token or JWT themselves (their collection-level pre-request script) and take
ids from earlier answers; the test requires no failure of any kind and exactly the requests and assertions
the collection holds, so that it cannot pass by running less.

newman is pinned in tests/system/newman/package-lock.json and installed into tests/system/newman/node_modules
with `npm ci --ignore-scripts` when that is missing or the lock file changed (as scripts/lint_openapi.sh does
for lint/). Needs Node.js >= 20 and npm: never skipped.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from codegen import postman
from tests.conftest import BACKENDS
from tests.support.live_server import ROOT, TESSERA, demo_on
from tests.support.receivers import receiver

NEWMAN_DIR = ROOT / "tests" / "system" / "newman"
NEWMAN = NEWMAN_DIR / "node_modules" / ".bin" / "newman"
STAMP = NEWMAN_DIR / "node_modules" / ".tessera-lock.sha256"
COLLECTIONS = (postman.COLLECTION, postman.SESSION_COLLECTION)
ENVIRONMENT = ROOT / postman.DIRECTORY / postman.ENVIRONMENT
PASSWORD = "newman-demo-password"
ADMIN = "admin@demo.example"
MEMBER = "viewer@demo.example"  # another user of the demo tenant, whom the session collection adds to an application
SCOPES = "assets.read assets.manage inventory.stockins.read inventory.stockins.manage events.robot-fleet.publish"
RAISED_LIMITS = {f"TESSERA_RATE_LIMIT_{kind}": "1000000" for kind in ("READ", "WRITE", "LOGIN", "TOKEN", "OPEN")}
TESTS = re.compile(r"^\s*pm\.test\(", re.MULTILINE)


def _lock_sum() -> str:
    return hashlib.sha256((NEWMAN_DIR / "package-lock.json").read_bytes()).hexdigest()


@pytest.fixture(scope="session")
def newman() -> Path:
    """newman from the lock file, installed on demand.

    The install is in place, and each xdist worker that runs a newman test asks for it: the first
    installs while the others wait on a lock (two ``npm ci`` in one folder fail with ENOTEMPTY)."""
    npm = shutil.which("npm")
    assert npm and shutil.which("node"), "the newman runs need node and npm (Node.js >= 20; apt-get install nodejs npm)"
    checkout = hashlib.sha256(bytes(NEWMAN_DIR)).hexdigest()[:16]  # one lock per checkout
    with open(Path(tempfile.gettempdir()) / f"tessera-newman-{checkout}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not NEWMAN.is_file() or not STAMP.is_file() or STAMP.read_text(encoding="utf-8") != _lock_sum():
            done = subprocess.run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"],
                                  cwd=NEWMAN_DIR, capture_output=True, text=True, timeout=600, check=False)
            assert done.returncode == 0, (
                f"npm ci in {NEWMAN_DIR} failed (is the npm registry reachable?):\n{done.stderr}")
            STAMP.write_text(_lock_sum(), encoding="utf-8")
    return NEWMAN


@pytest.fixture(scope="module", params=BACKENDS)
def running_demo(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """A demo server on one database, and the variables the collections need."""
    backend = request.param
    # The session collection registers a webhook endpoint at {{webhookUrl}}: a receiver on loopback here.
    settings = {"TESSERA_DEMO_PASSWORD": PASSWORD, "TESSERA_RESPONSE_VALIDATION": "true",
                "TESSERA_WEBHOOK_ALLOW_LOOPBACK": "true", **RAISED_LIMITS}
    with receiver(200) as hooks, \
            demo_on(backend, tmp_path_factory.mktemp(f"newman-{backend}"), **settings) as (base, server_env):
        quickstart = subprocess.run(
            [*TESSERA, "op-quickstart", "--email", ADMIN, "--tenant", "demo", "--environment", "production",
             "--scopes", SCOPES],
            cwd=ROOT, env=server_env, capture_output=True, text=True, timeout=60, check=True,
        )
        credential = json.loads(quickstart.stdout)
        yield {"origin": base, "clientId": credential["clientId"], "clientSecret": credential["clientSecret"],
               "email": ADMIN, "password": PASSWORD, "memberEmail": MEMBER, "webhookUrl": hooks.url,
               "backend": backend}


def _requests(node: dict[str, Any]) -> list[dict[str, Any]]:
    """Every request of a collection or folder, in order."""
    return [found for item in node.get("item", [])
            for found in (_requests(item) if "item" in item else [item])]


def _tests_in(item: dict[str, Any]) -> int:
    """How many assertions a request's test script makes (each pm.test in it runs unconditionally)."""
    return sum(len(TESTS.findall("\n".join(event["script"]["exec"])))
               for event in item.get("event", []) if event["listen"] == "test")


def test_every_request_has_tests_on_status_and_envelope() -> None:
    for name in COLLECTIONS:
        collection = json.loads((ROOT / postman.DIRECTORY / name).read_text(encoding="utf-8"))
        requests = _requests(collection)
        assert len(requests) >= 10, name
        for item in requests:
            script = "\n".join(line for event in item["event"] if event["listen"] == "test"
                               for line in event["script"]["exec"])
            assert "pm.response.to.have.status(" in script, item["name"]
            assert "envelope" in script or "jsonSchema" in script, item["name"]
            assert _tests_in(item) >= 2, item["name"]
        events = {event["listen"]: "\n".join(event["script"]["exec"]) for event in collection["event"]}
        assert "pm.sendRequest(" in events["prerequest"]
        assert "pm.test(" not in events["prerequest"] + events["test"]  # the counts below stay exact


def _expiring(collection: dict[str, Any], tmp_path: Path) -> Path:
    """A copy of ``collection`` that starts with a kept credential 20 s from its expiry (inside the 30 s margin)
    and not valid at all: only a script that replaces it in time passes."""
    kept = {"accessToken": "accessTokenExpiresAt", "jwt": "jwtExpiresAt"}
    soon = str(int(time.time() * 1000) + 20_000)
    for variable in collection["variable"]:
        if variable["key"] in kept:
            variable["value"] = "expiring-credential"
        elif variable["key"] in kept.values():
            variable["value"] = soon
    path = tmp_path / "expiring.postman_collection.json"
    path.write_text(json.dumps(collection), encoding="utf-8")
    return path


@pytest.mark.parametrize("expiring", [False, True], ids=["fresh", "expiring-credential"])
@pytest.mark.parametrize("name", COLLECTIONS)
def test_the_collection_runs_clean_under_newman(newman: Path, running_demo: dict[str, str], name: str,
                                                expiring: bool, tmp_path: Path) -> None:
    collection_file = ROOT / postman.DIRECTORY / name
    collection = json.loads(collection_file.read_text(encoding="utf-8"))
    if expiring:
        collection_file = _expiring(collection, tmp_path)
    report = tmp_path / "newman.json"
    variables = [arg for key in ("origin", "clientId", "clientSecret", "email", "password", "memberEmail", "webhookUrl")
                 for arg in ("--env-var", f"{key}={running_demo[key]}")]
    done = subprocess.run(
        [str(newman), "run", str(collection_file), "--environment", str(ENVIRONMENT), *variables,
         "--reporters", "cli,json", "--reporter-json-export", str(report), "--color", "off", "--timeout-request",
         "30000"],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
    )
    output = done.stdout[-12000:] + done.stderr[-4000:]
    label = f"{name} ({running_demo['backend']}{', kept credential expiring' if expiring else ''})"
    assert report.is_file(), f"newman wrote no report for {label} (exit {done.returncode}):\n{output}"
    run = json.loads(report.read_text(encoding="utf-8"))["run"]
    failures = [(failure["source"].get("name"), failure["error"].get("message")) for failure in run["failures"]]
    assert failures == [], f"newman found failures in {label}:\n{output}"
    assert done.returncode == 0, f"newman exited {done.returncode} on {label}:\n{output}"
    stats = run["stats"]
    requests = _requests(collection)
    assert stats["items"] == {"total": len(requests), "pending": 0, "failed": 0}, label
    ran = [execution["item"]["id"] for execution in run["executions"]]
    # The json reporter lists a pre-request script's own request as one more execution of the item that sent it.
    assert [item for index, item in enumerate(ran) if index == 0 or ran[index - 1] != item] == [
        item["id"] for item in requests], label
    # Each request of the collection, and one more: the token or login of the pre-request script, which kept it.
    assert stats["requests"] == {"total": len(requests) + 1, "pending": 0, "failed": 0}, label
    assert stats["assertions"] == {"total": sum(_tests_in(item) for item in requests), "pending": 0,
                                   "failed": 0}, label
    for kind in ("testScripts", "prerequestScripts"):
        assert stats[kind]["failed"] == 0, (label, kind)
    summary = output[output.find("┌"):output.find("total run duration")]
    print(f"\nnewman {label}: {len(requests)} requests (+1 credential), {stats['assertions']['total']} assertions, "
          f"{len(failures)} failures\n{summary}")
