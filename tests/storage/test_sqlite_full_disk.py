"""A full disk under SQLite is an outage, not an internal error, on a small file system of the test's own.

The database lives on a tmpfs mounted here (a few megabytes; the shared disks are never filled),
which a filler file then fills to the last byte, after SQLite's write-ahead log is truncated so
that any write needs new space. What the service is held to: every write answers 503 in its
surface's envelope with ``Retry-After`` (as a PostgreSQL outage does), never a 500; reads still
answer; nothing half-written is left; and once there is room again the same writes succeed,
a command retried with its key exactly once.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import func, select
from starlette.testclient import TestClient

from storage.drivers.db import make_engine
from storage.schema.migrate import upgrade
from storage.schema.tables import records
from tessera.app import create_app
from tessera.demo import seed_demo
from tessera.registry.models import load_declarations
from tessera.runtime import build_runtime
from tests.conftest import DEMO_PASSWORD, Env, make_settings
from tests.support.openplatform import ASSIGN, Integration, new_key, seed_assets

pytestmark = pytest.mark.allows_5xx  # the 503s are the point; a 500 is asserted against below

DISK = "16m"


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A tmpfs of ``DISK`` mounted for this test alone."""
    if os.geteuid() != 0:
        pytest.fail("this test mounts a small tmpfs of its own and needs root (the test image runs as root)",
                    pytrace=False)
    mount = tmp_path / "disk"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={DISK}", "tessera-full-disk", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


@pytest.fixture
def full_env(small_disk: Path, tmp_path: Path) -> Iterator[Env]:
    database = small_disk / "tessera.db"
    settings = make_settings(tmp_path, f"sqlite:///{database}")
    upgrade(settings.database_url, models=load_declarations(settings.models_file).models.values())
    runtime = build_runtime(settings)
    sql = make_engine(settings.database_url)
    with TestClient(create_app(settings, runtime), raise_server_exceptions=False) as client:
        env = Env("sqlite", runtime, client, settings.database_url, sql)
        env.run(seed_demo, runtime, DEMO_PASSWORD)
        yield env
    sql.dispose()
    runtime.close()


def _fill(disk: Path) -> Path:
    """The write-ahead log truncated (so that any write needs new space), then the disk filled."""
    with sqlite3.connect(disk / "tessera.db") as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    filler = disk / "filler"
    fd = os.open(filler, os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        while True:
            os.write(fd, b"\0" * 65536)
    except OSError:
        pass
    try:
        while True:  # the last few bytes
            os.write(fd, b"\0")
    except OSError:
        pass
    finally:
        os.close(fd)
    return filler


def _assets_named(env: Env, serial: str) -> int:
    with env.sql.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(records).where(
            records.c.data["serialNo"].as_string() == serial)).scalar_one())


def test_a_full_disk_answers_503_with_retry_after_on_both_surfaces_and_writes_resume(
        full_env: Env, small_disk: Path) -> None:
    env = full_env
    tenant = env.new_tenant()
    integration = Integration(env, tenant)
    pid = seed_assets(tenant, 1)[0]
    headers = {**tenant.headers(), "X-Idempotent-Key": "full-disk-1"}
    create = {"payload": {"name": "On a full disk", "serialNo": "FULL-1"}}
    filler = _fill(small_disk)

    refused = env.client.post("/api/meta/commands/execute/assets:create", json=create, headers=headers)
    assert refused.status_code == 503, refused.text
    assert refused.json()["code"] == "SERVICE_UNAVAILABLE" and refused.headers["Retry-After"] == "1"
    key = new_key()
    assign = integration.assign(pid, "dana", if_match=integration.etag(pid), key=key)
    assert assign.status_code == 503, assign.text
    assert assign.json()["code"] == "service_unavailable" and assign.headers["Retry-After"] == "1"
    token = integration.env.client.post("/oauth2/token", data={
        "grant_type": "client_credentials", "client_id": integration.cred["clientId"],
        "client_secret": integration.cred["clientSecret"]})
    assert token.status_code == 503, token.text
    assert (token.json()["code"], token.json()["error"]) == ("service_unavailable", "server_error")
    assert token.headers["Retry-After"] == "1"
    # Reads need no room.
    assert env.client.get("/api/dynamic/assets/list", headers=tenant.headers()).status_code == 200
    assert _assets_named(env, "FULL-1") == 0  # nothing half-written

    filler.unlink()
    again = env.client.post("/api/meta/commands/execute/assets:create", json=create, headers=headers)
    assert again.status_code == 200, again.text
    replay = env.client.post("/api/meta/commands/execute/assets:create", json=create, headers=headers)
    assert replay.json()["code"] == "IDEMPOTENT_REPLAY"
    assert _assets_named(env, "FULL-1") == 1
    retried = env.client.post(ASSIGN, json={"targetPid": pid, "input": {"assignee": "dana"}},
                              headers={**integration.auth, "If-Match": integration.etag(pid), "Idempotency-Key": key})
    assert retried.status_code == 200, retried.text
