"""The `tessera` command as the README uses it: check, and serve with demo data on a real port."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from tests.live_server import free_port

ROOT = Path(__file__).resolve().parent.parent
TESSERA = [sys.executable, "-m", "tessera.cli"]


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TESSERA_")}
    env.update(TESSERA_VAR_DIR=str(tmp_path / "var"), **extra)
    return env


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


def test_serve_demo_runs_on_sqlite_with_demo_data(tmp_path: Path) -> None:
    port = free_port()
    proc = subprocess.Popen(
        [*TESSERA, "serve", "--demo", "--port", str(port)], cwd=ROOT,
        env=_env(tmp_path, TESSERA_DEMO_PASSWORD="cli-demo-password"),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    base = f"http://127.0.0.1:{port}/api"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
            assert time.monotonic() < deadline, "tessera serve did not answer within 60 s"
            time.sleep(0.2)
        login = httpx.post(f"{base}/auth/login", json={"email": "admin@demo.example", "password": "cli-demo-password"})
        token = login.json()["data"]["jwt"]
        listing = httpx.get(f"{base}/dynamic/assets/list", headers={"Authorization": f"Bearer {token}"})
        assert listing.json()["data"]["total"] == 120
        assert (tmp_path / "var" / "tessera.db").exists()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
