"""Every refusal of the OAuth endpoints is audited, per client, error and minute
(storage/openplatform/token_refusals.py).

The entries are written when their minute is over; these tests write them at once with
``flush(final=True)``, as a shutdown does. Time is the app's clock, moved by the ``clock`` fixture.
"""

from __future__ import annotations

import base64
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select

from storage.openplatform.token_refusals import ACTION, TokenRefusals
from storage.schema.tables import audit_log
from tessera.core.clock import FrozenClock, ShiftedClock
from tests.conftest import Env, TenantUsers

TOKEN = "/oauth2/token"


def _refusals(env: Env, actor: str | None) -> list[dict[str, Any]]:
    """The refusal entries of ``actor`` (written now), oldest first: their summary, tenant and request id."""
    env.run(env.runtime.token_refusals.flush, final=True)
    where = audit_log.c.actor.is_(None) if actor is None else audit_log.c.actor == actor
    with env.sql.connect() as conn:
        rows = conn.execute(select(audit_log).where(audit_log.c.action == ACTION, where).order_by(audit_log.c.id))
        return [{**row.after, "tenant": row.tenant_id, "requestId": row.request_id} for row in rows]


def _basic(client_id: str, secret: str) -> dict[str, str]:
    return {"Authorization": "Basic " + base64.b64encode(f"{client_id}:{secret}".encode()).decode()}


@pytest.mark.rule("op.token-endpoint.audited")
def test_every_kind_of_token_refusal_is_audited_under_its_client(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install(scopes=("assets.read",))
    client_id, secret = cred["clientId"], cred["clientSecret"]
    grant = {"grant_type": "client_credentials"}
    answers = {
        "invalid_client": env.client.post(TOKEN, data=grant, headers=_basic(client_id, secret + "x")),
        "invalid_scope": env.client.post(TOKEN, data={**grant, "scope": "assets.manage"},
                                         headers=_basic(client_id, secret)),
        "unsupported_grant_type": env.client.post(TOKEN, data={"grant_type": "password"},
                                                  headers=_basic(client_id, secret)),
        "invalid_request": env.client.post(TOKEN, data={}, headers=_basic(client_id, secret)),
    }
    assert {error: (r.status_code, r.json()["error"]) for error, r in answers.items()} == {
        "invalid_client": (401, "invalid_client"), "invalid_scope": (400, "invalid_scope"),
        "unsupported_grant_type": (400, "unsupported_grant_type"), "invalid_request": (400, "invalid_request")}
    entries = _refusals(env, client_id)
    assert sorted(e["error"] for e in entries) == sorted(answers)
    assert all(e["endpoint"] == "token" and e["count"] == 1 and e["tenant"] == tenant.tenant_id for e in entries)
    by_error = {e["error"]: e["requestId"] for e in entries}
    assert by_error == {error: r.headers["X-Request-Id"] for error, r in answers.items()}


@pytest.mark.rule("op.token-endpoint.audited")
def test_a_refusal_in_the_form_fields_and_an_unknown_client_are_audited_too(env: Env) -> None:
    unknown = f"tcli_{uuid.uuid4().hex}"
    refused = env.client.post(TOKEN, data={"grant_type": "client_credentials", "client_id": unknown,
                                           "client_secret": "s"})
    assert refused.status_code == 401
    in_url = env.client.post(TOKEN, params={"client_id": unknown}, data={"grant_type": "client_credentials"})
    assert in_url.status_code == 400
    entries = _refusals(env, unknown)
    assert [(e["error"], e["tenant"]) for e in entries] == [("invalid_client", None)]


@pytest.mark.rule("op.token-endpoint.audited")
def test_repeats_within_a_minute_are_one_entry_with_their_count(env: Env, tenant: TenantUsers,
                                                                clock: ShiftedClock) -> None:
    cred = tenant.install()
    wrong = _basic(cred["clientId"], "not-the-secret")
    with clock.held():  # the five within one minute however long they take
        first = [env.client.post(TOKEN, data={"grant_type": "client_credentials"}, headers=wrong) for _ in range(5)]
    assert {r.status_code for r in first} == {401}
    clock.advance(60)
    env.client.post(TOKEN, data={"grant_type": "client_credentials"}, headers=wrong)
    entries = _refusals(env, cred["clientId"])
    assert [e["count"] for e in entries] == [5, 1]
    assert entries[0]["requestId"] == first[0].headers["X-Request-Id"]  # the first refusal of the minute
    assert datetime.fromisoformat(entries[0]["until"]) == datetime.fromisoformat(entries[0]["from"]) + \
        (datetime.fromisoformat(entries[1]["from"]) - datetime.fromisoformat(entries[0]["from"]))


@pytest.mark.rule("op.token-endpoint.audited")
def test_introspection_and_revocation_refusals_are_audited_by_endpoint(env: Env, tenant: TenantUsers) -> None:
    cred = tenant.install()
    wrong = _basic(cred["clientId"], "not-the-secret")
    assert env.client.post("/oauth2/introspect", data={"token": "x"}, headers=wrong).status_code == 401
    assert env.client.post("/oauth2/revoke", data={"token": "x"}, headers=wrong).status_code == 401
    entries = _refusals(env, cred["clientId"])
    assert sorted((e["endpoint"], e["error"]) for e in entries) == [("introspection", "invalid_client"),
                                                                    ("revocation", "invalid_client")]


class _NoDatabase:
    """Stands where the database goes: these tests only count what would be written."""


def test_a_flood_of_invented_client_ids_costs_a_bounded_number_of_entries() -> None:
    clock = FrozenClock(datetime(2026, 11, 28, 12, 0, 5, tzinfo=UTC))
    refusals = TokenRefusals(_NoDatabase(), clock, max_keys=3)  # type: ignore[arg-type]
    for number in range(1000):
        refusals.record(f"tcli_invented_{number}", "invalid_client", "token", f"req-{number}")
    taken = refusals._take(final=True)
    kept = sorted((b.client_id or "(others)", b.count, b.other_clients) for b in taken)
    assert kept == [("(others)", 997, True), ("tcli_invented_0", 1, False), ("tcli_invented_1", 1, False),
                    ("tcli_invented_2", 1, False)]
