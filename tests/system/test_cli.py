"""The `tessera` command as the README uses it: check, and serve with demo data on a real port."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.support.live_server import ROOT, TESSERA, tessera_env, tessera_serve


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    return tessera_env(tmp_path / "var", **extra)


def test_check_validates_documents_and_models(tmp_path: Path) -> None:
    result = subprocess.run([*TESSERA, "check"], cwd=ROOT, env=_env(tmp_path), capture_output=True, text=True,
                            timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert "session-api.yaml: valid" in result.stdout


def test_a_bad_setting_stops_the_start_with_a_clear_message(tmp_path: Path) -> None:
    result = subprocess.run([*TESSERA, "check"], cwd=ROOT, env=_env(tmp_path, TESSERA_RATE_LIMIT_READ="lots"),
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 2
    assert "TESSERA_RATE_LIMIT_READ" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.rule("session.ratelimit.per-user-per-60s")
def test_serve_with_several_processes_and_no_redis_refuses_to_start(tmp_path: Path) -> None:
    """Each process would count the rate limits apart: N processes, N times every limit."""
    env = {k: v for k, v in _env(tmp_path).items() if k != "TESSERA_REDIS_URL"}
    result = subprocess.run([*TESSERA, "serve", "--port", "1", "--workers", "2"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 2
    assert "--workers 2 needs TESSERA_REDIS_URL" in result.stderr
    assert "Traceback" not in result.stderr and "listening" not in result.stdout


def test_serve_with_a_bad_capabilities_file_stops_with_one_line_and_never_says_it_listens(tmp_path: Path) -> None:
    bad = tmp_path / "capabilities.yaml"
    bad.write_text((ROOT / "capabilities.yaml").read_text(encoding="utf-8").replace(
        "fields: [name, serialNo, status,", "fields: [name, serialNumber, status,", 1), encoding="utf-8")
    result = subprocess.run([*TESSERA, "serve", "--port", "1"], cwd=ROOT,
                            env=_env(tmp_path, TESSERA_CAPABILITIES_FILE=str(bad)),
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2, result.stdout + result.stderr
    assert "serialNumber" in result.stderr and "Traceback" not in result.stderr
    assert "listening" not in result.stdout


def test_serve_demo_runs_on_sqlite_with_demo_data(tmp_path: Path) -> None:
    with tessera_serve(_env(tmp_path, TESSERA_DEMO_PASSWORD="cli-demo-password")) as root:
        base = f"{root}/api"
        login = httpx.post(f"{base}/auth/login", json={"email": "admin@demo.example", "password": "cli-demo-password"})
        token = login.json()["data"]["jwt"]
        listing = httpx.get(f"{base}/dynamic/assets/list", headers={"Authorization": f"Bearer {token}"})
        assert listing.json()["data"]["total"] == 120
        assert (tmp_path / "var" / "tessera.db").exists()
        _robot_event_becomes_a_stock_in(base, {"Authorization": f"Bearer {token}"})


def _robot_event_becomes_a_stock_in(base: str, auth: dict[str, str]) -> None:
    """The worker inside `tessera serve` runs the demo automation: an event in, a stock-in out."""
    admin = f"{base}/open-platform"
    app = httpx.post(f"{admin}/applications", json={"name": "Robots"}, headers=auth).json()["data"]
    inst = httpx.post(f"{admin}/applications/{app['appId']}/installations", headers=auth, json={
        "tenantId": "demo", "environment": "development",
        "scopes": ["events.robot-fleet.publish", "inventory.stockins.read"]}).json()["data"]
    cred = httpx.post(f"{admin}/installations/{inst['installationId']}/credentials", headers=auth).json()["data"]
    root = base.removesuffix("/api")
    token = httpx.post(f"{root}/oauth2/token", data={"grant_type": "client_credentials", "client_id": cred["clientId"],
                                                     "client_secret": cred["clientSecret"]}).json()["access_token"]
    bearer = {"Authorization": f"Bearer {token}"}
    event = {"type": "inventory.received", "schemaVersion": 1, "occurredAt": "2026-11-22T08:00:00Z",
             "data": {"sku": "CLI-ROBOT-1", "quantity": 2, "warehouse": "W2"}}
    posted = httpx.post(f"{root}/api/open/v1/event-sources/robot-fleet/events", json=event,
                        headers={**bearer, "Idempotency-Key": "cli-robot-1"})
    assert posted.status_code == 202, posted.text
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        page = httpx.get(f"{root}/api/open/v1/resources/inventory.stock-ins", params={"limit": 200},
                         headers=bearer).json()
        if any(item["sku"] == "CLI-ROBOT-1" and item["source"] == "robot-fleet" for item in page["items"]):
            return
        time.sleep(0.3)
    raise AssertionError("the demo automation did not create the stock-in within 20 s")


def test_worker_runs_until_terminated_and_stops_cleanly(tmp_path: Path) -> None:
    import signal

    proc = subprocess.Popen([*TESSERA, "worker", "--tasks", "2"], cwd=ROOT,
                            env=_env(tmp_path, TESSERA_WORKER_POLL_SECONDS="0.1"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        assert "worker running" in proc.stdout.readline()
        time.sleep(1)
        assert proc.poll() is None
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert "Traceback" not in (proc.stderr.read() if proc.stderr else "")


def _quickstart(env: dict[str, str], email: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*TESSERA, "op-quickstart", "--email", email, "--tenant", "demo"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120, check=False)


def test_op_quickstart_acts_through_the_session_actor_checks_and_refuses_a_disabled_user(tmp_path: Path) -> None:
    env = _env(tmp_path, TESSERA_DEMO_PASSWORD="cli-demo-password", TESSERA_PASSWORD_HASH_COST="minimal")
    seeded = subprocess.run([*TESSERA, "seed"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
                            check=False)
    assert seeded.returncode == 0, seeded.stderr
    with sqlite3.connect(tmp_path / "var" / "tessera.db") as db:
        db.execute("UPDATE users SET status = 'disabled' WHERE email = 'viewer@demo.example'")
    refused = _quickstart(env, "viewer@demo.example")
    assert refused.returncode == 2 and refused.stdout == ""
    assert "viewer@demo.example is not an active member of tenant 'demo'" in refused.stderr
    assert _quickstart(env, "nobody@demo.example").returncode == 2
    done = _quickstart(env, "admin@demo.example")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["clientId"].startswith("tcli_")


# `tessera seed` in a process of its own (it configures logging and starts the log writer thread), its
# stdout replaced by one that keeps each write call apart; the calls are printed as JSON at the end.
_EACH_WRITE = """
import json, sys
from tessera import cli

class Writes:
    def __init__(self): self.calls = []
    def write(self, text): self.calls.append(text); return len(text)
    def flush(self): pass

real, sys.stdout = sys.stdout, Writes()
code = cli.main(["seed"])
writes, sys.stdout = sys.stdout, real
print(json.dumps({"code": code, "calls": writes.calls}))
"""


def test_each_line_the_command_prints_is_one_write_so_no_log_line_falls_inside_it(tmp_path: Path) -> None:
    # The log writer thread writes to the same terminal while the command prints; with
    # PYTHONUNBUFFERED a print's text and newline were two writes, and a log line once fell between
    # a printed demo password and its newline.
    result = subprocess.run([sys.executable, "-c", _EACH_WRITE], cwd=ROOT, env=_env(tmp_path, PYTHONUNBUFFERED="1"),
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    written = json.loads(result.stdout.strip().splitlines()[-1])
    assert written["code"] == 0
    assert any(call.startswith("Demo users' password (TESSERA_DEMO_PASSWORD unset, generated): ")
               for call in written["calls"])
    assert all(call.endswith("\n") and call.count("\n") == 1 for call in written["calls"]), written["calls"]
