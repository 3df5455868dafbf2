"""Secrets and tokens: never logged, never audited, stored only as keyed digests, compared in constant time."""

from __future__ import annotations

import base64
import hmac
import logging

import pytest
from sqlalchemy import select

from storage.schema.tables import access_tokens, audit_log, credentials, open_api_calls
from tessera.core import crypto as crypto_module
from tessera.core.logs import JsonFormatter
from tests.conftest import Env, TenantUsers, bearer, issue_token


def _flow(env: Env, tenant: TenantUsers) -> list[str]:
    """Everything an integration does with secrets; returns every secret and token seen."""
    cred = tenant.install()
    rotated = tenant.admin_call("POST", f"/credentials/{cred['clientId']}/rotate", json={"graceSeconds": 300})
    new = rotated.json()["data"]
    form_token = issue_token(env, cred["clientId"], cred["clientSecret"]).json()["access_token"]
    basic = base64.b64encode(f"{new['clientId']}:{new['clientSecret']}".encode()).decode()
    basic_token = env.client.post("/oauth2/token", data={"grant_type": "client_credentials"},
                                  headers={"Authorization": f"Basic {basic}"}).json()["access_token"]
    env.client.get("/api/open/v1/whoami", headers=bearer(form_token))
    env.client.get("/api/open/v1/whoami", headers=bearer(basic_token + "x"))
    issue_token(env, cred["clientId"], cred["clientSecret"] + "-wrong")
    env.client.post(f"/oauth2/token?client_secret={new['clientSecret']}", data={"grant_type": "client_credentials"})
    return [cred["clientSecret"], new["clientSecret"], form_token, basic_token]


@pytest.mark.rule("security.no-secrets-in-logs")
def test_secrets_and_tokens_never_reach_the_logs(
    env: Env, tenant: TenantUsers, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG):
        values = _flow(env, tenant)
    formatter = JsonFormatter()
    # httpx/httpcore are the test's own in-process client (it logs the URLs it sends, including the
    # deliberately refused query-string secret); everything else is the service.
    service = [r for r in caplog.records if not r.name.startswith(("httpx", "httpcore"))]
    text = "\n".join(formatter.format(record) for record in service)
    assert text, "the flow should have logged something"
    for value in values:
        assert value not in text


@pytest.mark.rule("security.no-secrets-in-logs")
def test_secrets_and_tokens_never_reach_the_audit_log_or_the_call_audit(env: Env, tenant: TenantUsers) -> None:
    values = _flow(env, tenant)
    env.run(env.runtime.call_audit.flush)
    with env.sql.connect() as conn:
        rows = [str(tuple(r)) for r in conn.execute(select(audit_log))]
        rows += [str(tuple(r)) for r in conn.execute(select(open_api_calls))]
    dump = "\n".join(rows)
    for value in values:
        assert value not in dump


@pytest.mark.rule("op.credential.secret-hashed", "op.token-response.access-token")
def test_only_keyed_digests_of_secrets_and_tokens_are_stored(env: Env, tenant: TenantUsers) -> None:
    values = _flow(env, tenant)
    env.run(env.runtime.call_audit.flush)
    with env.sql.connect() as conn:
        stored = [str(tuple(r)) for r in conn.execute(select(credentials))]
        stored += [str(tuple(r)) for r in conn.execute(select(access_tokens))]
    dump = "\n".join(stored)
    for value in values:
        assert value not in dump
        assert env.runtime.digests.digest(value) in dump


@pytest.mark.rule("op.credential.secret-hashed")
def test_secrets_are_compared_in_constant_time(env: Env, tenant: TenantUsers, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, str]] = []
    real = hmac.compare_digest

    def spy(a: str, b: str) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(crypto_module.hmac, "compare_digest", spy)
    cred = tenant.install()
    issue_token(env, cred["clientId"], cred["clientSecret"] + "-wrong")
    issue_token(env, "tcli_000000000000000000000000", "tsec_unknown")
    digest_compares = [c for c in calls if all(isinstance(x, str) and len(x) == 64 for x in c)]
    assert len(digest_compares) == 2, "a wrong secret and an unknown client both go through compare_digest"


@pytest.mark.rule("op.tenant.derived-from-token", "op.tenant.no-header-or-query")
def test_a_token_reads_only_its_own_installations_tenant(env: Env, tenant: TenantUsers) -> None:
    other = env.new_tenant()
    mine, theirs = tenant.install(), other.install()
    token = issue_token(env, mine["clientId"], mine["clientSecret"]).json()["access_token"]
    who = env.client.get(f"/api/open/v1/whoami?tenantId={other.code}",
                         headers={**bearer(token), "X-Tenant-Id": other.code})
    # an unknown query parameter is refused; the header is ignored
    assert who.status_code == 400
    who = env.client.get("/api/open/v1/whoami", headers={**bearer(token), "X-Tenant-Id": other.code})
    assert who.json()["tenant"] == {"tenantId": tenant.code}
    assert who.json()["installation"]["installationId"] != theirs["installationId"]
