"""Outbound webhooks to real HTTP receivers on loopback: signing, retries, dead-letter, replay,
rotation overlap, SSRF refusals, leases."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
from collections import Counter
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select

from storage import webhooks as store
from storage.schema.tables import deliveries
from tessera.background.worker import Worker
from tessera.core.clock import ShiftedClock
from tessera.runtime import build_runtime
from tessera.webhooks import sending as delivery_service
from tessera.webhooks.verify import verify
from tests.conftest import Env, TenantUsers, make_settings
from tests.support.openplatform import Integration
from tests.support.receivers import receiver
from tests.support.webhooks import ASSIGNED, Hooked, drain, independent_signature, register, worker_pass


@pytest.mark.rule(
    "webhook.delivery.on-event",
    "webhook.header.timestamp",
    "webhook.signature.format",
    "webhook.header.delivery",
    "op.version.event-schema-version",
)
def test_a_delivery_is_signed_as_the_specification_says(env: Env, tenant: TenantUsers) -> None:
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        hooked.change("dana")
        drain(env, tenant, lambda: len(hook.requests) == 1)
    got = hook.requests[0]
    assert got.headers["x-webhook-signature"] == independent_signature(
        hooked.secret, got.headers["x-webhook-timestamp"], got.body)
    assert int(got.headers["x-webhook-timestamp"]) == pytest.approx(env.runtime.clock.time(), abs=60)
    assert got.headers["x-webhook-delivery"].startswith("dlv_")
    event = json.loads(got.body)
    assert set(event) == {"id", "type", "schemaVersion", "occurredAt", "data"}
    assert event["type"] == ASSIGNED and event["id"].startswith("evt_")
    assert event["data"] == {"pid": hooked.pid, "assignee": "dana", "status": "assigned", "previousAssignee": None}
    assert tenant.code not in got.body.decode()
    verify(got.body, got.headers, hooked.secret)


@pytest.mark.rule("webhook.retry.same-ids", "webhook.receiver.dedupe", "webhook.header.delivery")
def test_retries_reuse_the_event_id_and_the_delivery_id(env: Env, tenant: TenantUsers) -> None:
    with receiver(500, 503, 200) as hook:
        hooked = Hooked(env, tenant, hook)
        hooked.change("dana")
        drain(env, tenant, lambda: len(hook.requests) == 3)
    assert len({r.headers["x-webhook-delivery"] for r in hook.requests}) == 1
    assert len({json.loads(r.body)["id"] for r in hook.requests}) == 1
    assert len({r.body for r in hook.requests}) == 1
    [delivery] = hooked.deliveries()
    assert delivery["status"] == "delivered"
    assert [a["httpStatus"] for a in delivery["attempts"]] == [500, 503, 200]
    assert all(a["latencyMs"] is not None and a["attemptedAt"] for a in delivery["attempts"])


@pytest.mark.rule("webhook.dlq.after-retries", "webhook.dlq.replay-same-ids")
def test_after_the_last_retry_a_delivery_is_dead_and_a_replay_delivers_it(env: Env, tenant: TenantUsers) -> None:
    with receiver(500, 500, 500, 200) as hook:
        hooked = Hooked(env, tenant, hook)
        hooked.change("dana")
        drain(env, tenant, lambda: hooked.deliveries()[0]["status"] == "dead")
        assert len(hook.requests) == 3  # the first attempt and two retries ("0,0")
        [dead] = hooked.deliveries()
        response = tenant.admin_call("POST", f"/deliveries/{dead['deliveryId']}/replay")
        assert response.status_code == 200, response.text
        drain(env, tenant, lambda: hooked.deliveries()[0]["status"] == "delivered")
    assert {r.headers["x-webhook-delivery"] for r in hook.requests} == {dead["deliveryId"]}
    assert {json.loads(r.body)["id"] for r in hook.requests} == {dead["eventId"]}
    assert len(hooked.deliveries()[0]["attempts"]) == 4


@pytest.mark.rule("webhook.dlq.replay-by-owner")
def test_only_an_owner_may_replay(env: Env, tenant: TenantUsers) -> None:
    with receiver(500) as hook:
        hooked = Hooked(env, tenant, hook)
        hooked.change("dana")
        drain(env, tenant, lambda: hooked.deliveries()[0]["status"] == "dead")
    delivery = hooked.deliveries()[0]["deliveryId"]
    other = env.new_tenant()
    assert other.admin_call("POST", f"/deliveries/{delivery}/replay").status_code == 404


@pytest.mark.rule("webhook.secret.overlapping-rotation")
def test_during_a_rotation_overlap_each_delivery_carries_both_signatures(env: Env, tenant: TenantUsers) -> None:
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        rotated = tenant.admin_call("POST", f"/webhook-endpoints/{hooked.endpoint['endpointId']}/rotate-secret",
                                    json={"overlapSeconds": 3600})
        assert rotated.status_code == 200, rotated.text
        new_secret = rotated.json()["data"]["secret"]
        hooked.change("dana")
        drain(env, tenant, lambda: len(hook.requests) == 1)
    got = hook.requests[0]
    stamp = got.headers["x-webhook-timestamp"]
    assert got.headers["x-webhook-signature"] == ",".join([
        independent_signature(new_secret, stamp, got.body), independent_signature(hooked.secret, stamp, got.body)])
    verify(got.body, got.headers, hooked.secret)
    verify(got.body, got.headers, new_secret)


@pytest.mark.rule("webhook.secret.overlapping-rotation")
def test_after_the_overlap_only_the_new_secret_signs(env: Env, tenant: TenantUsers) -> None:
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        rotated = tenant.admin_call("POST", f"/webhook-endpoints/{hooked.endpoint['endpointId']}/rotate-secret",
                                    json={"overlapSeconds": 0})
        new_secret = rotated.json()["data"]["secret"]
        hooked.change("dana")
        drain(env, tenant, lambda: len(hook.requests) == 1)
    got = hook.requests[0]
    assert got.headers["x-webhook-signature"] == independent_signature(
        new_secret, got.headers["x-webhook-timestamp"], got.body)


def test_private_and_link_local_urls_are_refused(env: Env, tenant: TenantUsers) -> None:
    integration = Integration(env, tenant)
    installation = env.client.get("/api/open/v1/whoami", headers=integration.auth).json()["installation"]
    for url in ("https://10.0.0.8/hook", "https://169.254.169.254/latest", "https://192.168.1.1/",
                "ftp://127.0.0.1/", "https://user:pw@127.0.0.1/"):
        response = register(tenant, installation["installationId"], url)
        assert response.status_code == 400, url
        assert "url" in response.json()["data"]["fieldErrors"]


def test_loopback_is_refused_when_it_is_not_allowed_even_at_delivery_time(
    env: Env, tenant: TenantUsers, tmp_path: Any
) -> None:
    strict = build_runtime(make_settings(tmp_path, env.database_url, TESSERA_WEBHOOK_ALLOW_LOOPBACK="false"))
    try:
        with receiver(200) as hook:
            hooked = Hooked(env, tenant, hook)  # registered while loopback was allowed
            hooked.change("dana")
            env.run(delivery_service.dispatch, strict, tenant_id=tenant.tenant_id)
            for _ in range(5):
                env.run(delivery_service.deliver_due, strict, limit=1000, tenant_id=tenant.tenant_id)
            assert hook.requests == []
        attempts = hooked.deliveries()[0]["attempts"]
        assert attempts and all(a["error"].startswith("refused") for a in attempts)
    finally:
        env.run(strict.aclose)
        strict.close()


@pytest.mark.rule("webhook.delivery.on-event")
def test_unsubscribed_disabled_and_foreign_endpoints_get_nothing(env: Env, tenant: TenantUsers) -> None:
    with receiver(200) as hook, receiver(200) as other_hook, receiver(200) as disabled_hook:
        hooked = Hooked(env, tenant, hook)
        installation = hooked._installation_id()
        assert register(tenant, installation, other_hook.url, ("inventory.stock-in.created",)).status_code == 200
        disabled = register(tenant, installation, disabled_hook.url).json()["data"]
        assert tenant.admin_call("PUT", f"/webhook-endpoints/{disabled['endpointId']}",
                                 json={"enabled": False}).status_code == 200
        stranger = env.new_tenant()
        with receiver(200) as foreign_hook:
            Hooked(env, stranger, foreign_hook)
            hooked.change("dana")
            drain(env, tenant, lambda: len(hook.requests) == 1)
            worker_pass(env, stranger)  # sends whatever was wrongly made for the stranger's endpoint
            assert foreign_hook.requests == []
        assert other_hook.requests == [] and disabled_hook.requests == []


def test_a_worker_of_one_tenant_neither_fans_out_nor_sends_another_tenants_events(
    env: Env, tenant: TenantUsers
) -> None:
    other = env.new_tenant()
    with receiver(200) as mine_hook, receiver(200) as theirs_hook:
        mine, theirs = Hooked(env, tenant, mine_hook), Hooked(env, other, theirs_hook)
        mine.change("dana")
        theirs.change("eve")
        worker_pass(env, tenant)
        assert len(mine_hook.requests) == 1
        assert theirs.deliveries() == [] and theirs_hook.requests == []
        worker_pass(env, other)
        assert len(theirs_hook.requests) == 1


def test_a_delivery_leased_by_a_dead_worker_is_delivered_once_the_lease_lapses(env: Env, tenant: TenantUsers,
                                                                              clock: ShiftedClock) -> None:
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        hooked.change("dana")
        env.run(delivery_service.dispatch, env.runtime, tenant_id=tenant.tenant_id)
        now = clock.now()

        async def claim_and_die() -> list[Any]:
            async with env.runtime.db.write() as conn:  # a worker claims everything due, then dies
                return await store.claim_due(conn, now, now + timedelta(seconds=60), 1000, tenant.tenant_id)

        assert env.run(claim_and_die)
        worker_pass(env, tenant)
        assert hook.requests == []  # still leased to the dead worker
        clock.advance(61)
        drain(env, tenant, lambda: len(hook.requests) == 1)


def test_concurrent_workers_never_send_the_same_delivery_twice(env: Env, tenant: TenantUsers) -> None:
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        for n in range(12):
            hooked.change(f"person-{n}")
        env.run(delivery_service.dispatch, env.runtime, tenant_id=tenant.tenant_id)

        async def three_workers() -> None:
            workers = [Worker(env.runtime, tenant_id=tenant.tenant_id) for _ in range(3)]

            async def work(worker: Worker) -> None:
                for _ in range(10):
                    await worker.run_once()
                await worker.sender.close()

            await asyncio.gather(*(work(w) for w in workers))

        env.run(three_workers)
    counts = Counter(r.headers["x-webhook-delivery"] for r in hook.requests)
    assert len(counts) == 12
    assert set(counts.values()) == {1}
    with env.sql.connect() as conn:
        statuses = {r.status for r in conn.execute(select(deliveries.c.status).where(
            deliveries.c.pid.in_(list(counts))))}
    assert statuses == {"delivered"}


def test_a_receiver_that_drips_its_answer_is_cut_off_at_the_deadline(
    env: Env, tenant: TenantUsers, tmp_path: Any
) -> None:
    """The timeout is a wall-clock deadline for the whole attempt, not per socket read: the
    receiver sends a byte every 0.2 s for about 30 s, and the attempt (0.5 s) ends while it has
    sent less than half (judged by the receiver's own progress, not by a wall-clock bound)."""
    fast = build_runtime(make_settings(tmp_path, env.database_url, TESSERA_WEBHOOK_TIMEOUT_SECONDS="0.5"))
    stop = threading.Event()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    head = b"HTTP/1.1 200 OK\r\n" + b"X-Slow: yes\r\n" * 10  # 147 bytes: about 30 s at one per 0.2 s
    dripped = [0]

    def drip() -> None:
        conn, _ = listener.accept()
        conn.recv(65536)
        with contextlib.suppress(OSError):  # the client hung up
            for byte in head:
                if stop.wait(0.2):
                    break
                conn.sendall(bytes([byte]))
                dripped[0] += 1
        conn.close()

    thread = threading.Thread(target=drip, daemon=True)
    thread.start()
    try:
        with receiver(200) as hook:
            hooked = Hooked(env, tenant, hook)
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/hooks"
        assert tenant.admin_call("PUT", f"/webhook-endpoints/{hooked.endpoint['endpointId']}",
                                 json={"url": url}).status_code == 200
        hooked.change("dana")
        env.run(delivery_service.dispatch, fast, tenant_id=tenant.tenant_id)
        assert env.run(delivery_service.deliver_due, fast, limit=1000, tenant_id=tenant.tenant_id) >= 1
        assert dripped[0] < len(head) // 2, f"the attempt waited for {dripped[0]} bytes"
        [attempt] = hooked.deliveries()[0]["attempts"]
        assert attempt["error"] == "timeout"
    finally:
        stop.set()
        listener.close()
        env.run(fast.aclose)
        fast.close()


def test_an_endpoint_url_no_http_client_accepts_is_refused_at_registration(env: Env, tenant: TenantUsers) -> None:
    integration = Integration(env, tenant)
    installation = env.client.get("/api/open/v1/whoami", headers=integration.auth).json()["installation"]
    response = register(tenant, installation["installationId"], "http://127.0.0.1:9/a\x7fb")
    assert response.status_code == 400


def test_subscribing_needs_the_read_scope_of_the_events_resource(env: Env, tenant: TenantUsers) -> None:
    robots = Integration(env, tenant, scopes=("events.robot-fleet.publish",))
    installation = env.client.get("/api/open/v1/whoami", headers=robots.auth).json()["installation"]
    with receiver(200) as hook:
        response = register(tenant, installation["installationId"], hook.url)
    assert response.status_code == 400
    assert "assets.read" in response.json()["data"]["fieldErrors"]["eventTypes"]


@pytest.mark.rule("webhook.secret.shown-once")
def test_any_member_reads_an_endpoint_without_its_secret(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    created = register(tenant, cred["installationId"], "http://127.0.0.1:9/hooks").json()["data"]
    tenant.admin_call("POST", f"/applications/{cred['appId']}/members",
                      json={"userPid": tenant.user_pid("viewer"), "role": "viewer"})
    response = tenant.admin_call("GET", f"/webhook-endpoints/{created['endpointId']}", role="viewer")
    assert response.status_code == 200, response.text
    assert response.json()["data"] == {k: v for k, v in created.items() if k != "secret"}
    assert created["secret"] not in response.text
    assert env.new_tenant().admin_call("GET", f"/webhook-endpoints/{created['endpointId']}").status_code == 404
    tenant.admin_call("DELETE", f"/webhook-endpoints/{created['endpointId']}")
    assert tenant.admin_call("GET", f"/webhook-endpoints/{created['endpointId']}").status_code == 404
