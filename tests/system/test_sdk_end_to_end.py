"""The integrator flow with the generated SDKs only, against `tessera serve --demo` as a real process.

Every call to the service goes through ``tessera_session`` (generated from openapi/session-api.yaml) or
``tessera_open_platform`` (generated from generated/open-platform.yaml); the test makes no HTTP request of its
own to the API. The webhook is delivered by the server's in-process worker to a loopback receiver and verified
there with the SDK's helper (``tessera_open_platform.webhooks``). Runs on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from http import HTTPStatus
from pathlib import Path

import httpx
import pytest

from tests.conftest import BACKENDS
from tests.support.live_server import demo_on
from tests.support.receivers import receiver
from tests.support.sdk_calls import first_delivery, ok

try:
    from tessera_open_platform import AuthenticatedClient as OpenPlatformClient
    from tessera_open_platform import Client as OpenPlatformAnonymous
    from tessera_open_platform.api.assets import execute_assets_assign, get_asset, list_assets
    from tessera_open_platform.api.oauth import (
        get_authorization_server_metadata,
        introspect_token,
        issue_token,
        revoke_token,
    )
    from tessera_open_platform.models import (
        AssetPage,
        AssetsAssignInput,
        AssetsAssignRequest,
        AssetsAssignResult,
        AuthorizationServerMetadata,
        IntrospectionRequest,
        IntrospectionResponse,
        RevocationRequest,
        RevocationResponse,
        TokenRequest,
        TokenRequestGrantType,
        TokenResponse,
    )
    from tessera_open_platform.webhooks import WebhookVerificationError, verify_event
    from tessera_session import AuthenticatedClient as SessionClient
    from tessera_session import Client as SessionAnonymous
    from tessera_session.api.auth import login
    from tessera_session.api.commands import execute_assets_create_command, execute_assets_delete_command
    from tessera_session.api.dynamic import get_assets_record, list_assets_records
    from tessera_session.api.open_platform import create_application, create_credential, create_installation
    from tessera_session.api.webhooks import create_webhook_endpoint, list_deliveries
    from tessera_session.filters import encode
    from tessera_session.models import (
        ApplicationEnvelope,
        AssetCommandEnvelope,
        AssetCreatePayload,
        AssetsCreateRequest,
        AssetsDeleteRequest,
        AssetsDeleteRequestOperationType,
        AssetsListEnvelope,
        AssetsRecordEnvelope,
        AssetStatus,
        AssetsTextComparison,
        AssetsTextField,
        ComparisonOperator,
        CreateApplicationRequest,
        CreatedWebhookEndpointEnvelope,
        CreateInstallationRequest,
        CreateWebhookEndpointRequest,
        CredentialEnvelope,
        DeletedRecordEnvelope,
        DeliveryListEnvelope,
        Environment,
        InstallationEnvelope,
        LoginEnvelope,
        LoginRequest,
        ScopeListItem,
        WebhookEventType,
    )
except ModuleNotFoundError as exc:  # never a silent skip: the suite's command installs them
    raise ImportError(
        f"the generated SDKs are not installed ({exc}): run `pip install -e generated/python/open-platform-client "
        "-e generated/python/session-client` (scripts/test.sh does)"
    ) from exc

PASSWORD = "sdk-end-to-end-password"
ADMIN = "admin@demo.example"
DEMO_ASSETS = 120  # docs/getting-started.md, "Demo data": 120 assets in tenant demo
ASSIGNED = "assets.assignment.changed"
DELIVERY_DEADLINE_SECONDS = 30
TIMEOUT = httpx.Timeout(30.0)


@pytest.fixture(params=BACKENDS)
def base_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh `tessera serve --demo` (its in-process worker delivers webhooks) on one backend."""
    settings = {
        "TESSERA_DEMO_PASSWORD": PASSWORD,
        "TESSERA_WEBHOOK_ALLOW_LOOPBACK": "true",
        "TESSERA_WEBHOOK_RETRY_SCHEDULE": "0,0",
        "TESSERA_WORKER_POLL_SECONDS": "0.2",
        "TESSERA_REDIS_PREFIX": f"tessera-sdk-{uuid.uuid4().hex[:8]}",
    }
    with demo_on(request.param, tmp_path, **settings) as (base, _env):
        yield base


@pytest.fixture
def closing() -> Iterator[ExitStack]:
    """Closes the SDK clients and the receiver the test opens."""
    with ExitStack() as stack:
        yield stack






def test_the_integrator_flow_with_the_generated_sdks_only(base_url: str, closing: ExitStack) -> None:
    # 1. Sign in to the session API (session SDK) and set up an integration as the demo administrator.
    with SessionAnonymous(base_url=base_url, timeout=TIMEOUT) as anonymous:
        session = ok(login.sync_detailed(client=anonymous, body=LoginRequest(email=ADMIN, password=PASSWORD)),
                      LoginEnvelope).data
    assert session.tenant_id == "demo"
    admin = closing.enter_context(SessionClient(base_url=base_url, token=session.jwt, timeout=TIMEOUT))
    app = ok(create_application.sync_detailed(
        client=admin, body=CreateApplicationRequest(name="SDK end-to-end")), ApplicationEnvelope).data
    installation = ok(create_installation.sync_detailed(
        app.app_id, client=admin,
        body=CreateInstallationRequest(tenant_id="demo", environment=Environment.PRODUCTION,
                                       scopes=[ScopeListItem.ASSETS_READ, ScopeListItem.ASSETS_MANAGE])),
        InstallationEnvelope).data
    assert sorted(installation.scopes) == ["assets.manage", "assets.read"]
    credential = ok(create_credential.sync_detailed(installation.installation_id, client=admin),
                     CredentialEnvelope).data
    demo_total = ok(list_assets_records.sync_detailed(client=admin, page_size=1), AssetsListEnvelope).data.total
    assert demo_total == DEMO_ASSETS
    # Typed records, filters and payloads: create an asset, find it by a typed filter, read it back.
    created = ok(execute_assets_create_command.sync_detailed(client=admin, body=AssetsCreateRequest(
        payload=AssetCreatePayload(name="SDK scanner", serial_no="SDK-E2E-1", status=AssetStatus.RETIRED,
                                   value=12.5))), AssetCommandEnvelope).data
    only = encode([AssetsTextComparison(field_name=AssetsTextField.SERIALNO,
                                        operator=ComparisonOperator.EQ, value="SDK-E2E-1")])
    found = ok(list_assets_records.sync_detailed(client=admin, filters=only), AssetsListEnvelope).data
    assert [record.id for record in found.records] == [created.id]
    read = ok(get_assets_record.sync_detailed(created.id, client=admin), AssetsRecordEnvelope).data
    assert (read.name, read.status, read.value) == ("SDK scanner", AssetStatus.RETIRED, 12.5)
    ok(execute_assets_delete_command.sync_detailed(client=admin, body=AssetsDeleteRequest(
        operation_type=AssetsDeleteRequestOperationType.DELETE, target_record_id=created.id)), DeletedRecordEnvelope)

    # 2. Trade the credential for a token (Open Platform SDK: POST /oauth2/token with a form body).
    with OpenPlatformAnonymous(base_url=base_url, timeout=TIMEOUT) as anonymous:
        token = ok(issue_token.sync_detailed(client=anonymous, body=TokenRequest(
            grant_type=TokenRequestGrantType.CLIENT_CREDENTIALS, client_id=credential.client_id,
            client_secret=credential.client_secret, scope="assets.read assets.manage")), TokenResponse)
    assert set(token.scope.split()) == {"assets.read", "assets.manage"}
    op = closing.enter_context(OpenPlatformClient(base_url=base_url, token=token.access_token, timeout=TIMEOUT))
    hook = closing.enter_context(receiver(200))  # a loopback webhook receiver recording raw requests

    # 3. Walk every asset by cursor until nextCursor is null: each pid once, as many as the tenant has.
    seen: list[str] = []
    cursor: str | None = None
    pages = 0
    while True:
        page = ok(list_assets.sync_detailed(client=op, limit=50, **({"cursor": cursor} if cursor else {})),
                   AssetPage)
        seen += [asset.pid for asset in page.items]
        pages += 1
        cursor = page.next_cursor
        if cursor is None:
            break
        assert pages < 100, "the cursor walk does not end"
    assert len(seen) == len(set(seen)), "a pid was returned twice by the cursor walk"
    assert len(seen) == demo_total == DEMO_ASSETS
    assert pages == 3  # 50 + 50 + 20

    # 4. Read one asset: its strong ETag comes in the response headers.
    pid = seen[-1]
    read = get_asset.sync_detailed(pid, client=op)
    assert read.status_code == HTTPStatus.OK and read.parsed is not None and read.parsed.pid == pid
    etag = read.headers["ETag"]
    assert etag.startswith('"'), etag
    before = read.parsed.assignee

    # 5. Subscribe a loopback receiver to assignments (session SDK, administration surface).
    endpoint = ok(create_webhook_endpoint.sync_detailed(
        installation.installation_id, client=admin,
        body=CreateWebhookEndpointRequest(url=hook.url, event_types=[WebhookEventType.ASSETS_ASSIGNMENT_CHANGED])),
        CreatedWebhookEndpointEnvelope).data
    assert endpoint.secret

    # 6. Assign it under If-Match and an Idempotency-Key, then replay the same key and body.
    key = str(uuid.uuid4())
    assignee = f"dana-{key[:8]}"  # differs from any seeded assignee, so the assignment emits its event
    body = AssetsAssignRequest(target_pid=pid, input_=AssetsAssignInput(assignee=assignee))
    first = execute_assets_assign.sync_detailed(client=op, body=body, if_match=etag, idempotency_key=key)
    assigned = ok(first, AssetsAssignResult)
    assert assigned.idempotent_replay is False
    assert (assigned.record.assignee, str(assigned.record.status)) == (assignee, "assigned")
    assert "Idempotent-Replayed" not in first.headers
    replay = execute_assets_assign.sync_detailed(client=op, body=body, if_match=etag, idempotency_key=key)
    replayed = ok(replay, AssetsAssignResult)
    assert replayed.idempotent_replay is True
    assert replay.headers["Idempotent-Replayed"] == "true"
    assert replayed.record.to_dict() == assigned.record.to_dict()
    # No second change: the record is exactly as the first call left it (its ETag is no longer the old one).
    after = get_asset.sync_detailed(pid, client=op)
    assert after.status_code == HTTPStatus.OK and after.parsed is not None
    assert after.parsed.to_dict() == assigned.record.to_dict()
    assert after.headers["ETag"] != etag

    # 7. The delivery reaches the receiver signed; the SDK's helper verifies it over the raw body.
    got = first_delivery(hook.requests, DELIVERY_DEADLINE_SECONDS)
    event = verify_event(got.body, got.headers, endpoint.secret)
    assert event["type"] == ASSIGNED and event["id"].startswith("evt_")
    assert event["data"] == {"pid": pid, "assignee": assignee, "status": "assigned", "previousAssignee": before}
    assert got.headers["x-webhook-delivery"].startswith("dlv_")
    with pytest.raises(WebhookVerificationError) as refused:
        verify_event(got.body, got.headers, "whsec_not-the-secret")
    assert refused.value.reason == "signature_mismatch"

    # Exactly one event for the two calls: the replay changed nothing and emitted nothing.
    deliveries = ok(list_deliveries.sync_detailed(endpoint.endpoint_id, client=admin),
                     DeliveryListEnvelope).data.records
    assert [(d.event_id, d.event_type) for d in deliveries] == [(event["id"], ASSIGNED)]
    assert {r.headers["x-webhook-delivery"] for r in hook.requests} == {deliveries[0].delivery_id}

    # 8. Discover the OAuth endpoints, introspect the token, revoke it: the next business call is 401.
    client_auth = {"client_id": credential.client_id, "client_secret": credential.client_secret}
    with OpenPlatformAnonymous(base_url=base_url, timeout=TIMEOUT) as anonymous:
        meta = ok(get_authorization_server_metadata.sync_detailed(client=anonymous), AuthorizationServerMetadata)
        assert (meta.issuer, meta.revocation_endpoint) == (base_url, f"{base_url}/oauth2/revoke")
        live = ok(introspect_token.sync_detailed(client=anonymous, body=IntrospectionRequest(
            token=token.access_token, **client_auth)), IntrospectionResponse)
        assert live.active is True and live.client_id == credential.client_id
        ok(revoke_token.sync_detailed(client=anonymous, body=RevocationRequest(
            token=token.access_token, **client_auth)), RevocationResponse)
        gone = ok(introspect_token.sync_detailed(client=anonymous, body=IntrospectionRequest(
            token=token.access_token, **client_auth)), IntrospectionResponse)
        assert gone.to_dict() == {"active": False}
    assert get_asset.sync_detailed(pid, client=op).status_code == HTTPStatus.UNAUTHORIZED
