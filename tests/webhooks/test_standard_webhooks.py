"""Standard Webhooks: an endpoint with ``signatureFormat: standard-webhooks`` is signed as the specification
says, proven by the specification's own Python library (``standardwebhooks`` from PyPI) verifying real
deliveries to a receiver on loopback, with the secret exactly as the API returned it; the ``tessera`` format
stays the default, unchanged.

The library is an independent implementation: nothing of the service's signing code is shared with it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
from typing import Any

import pytest
from standardwebhooks import Webhook
from standardwebhooks import WebhookVerificationError as StandardVerificationError

from storage import webhooks as store
from tessera.webhooks.verify import WebhookVerificationError, sign_standard, standard_key, verify
from tests.conftest import Env, TenantUsers
from tests.support.receivers import Received, receiver
from tests.support.webhooks import Hooked, drain, independent_signature

STANDARD = {"signatureFormat": "standard-webhooks"}
STANDARD_SECRET = re.compile(r"whsec_[A-Za-z0-9+/]{43}=")
TESSERA_SECRET = re.compile(r"twsec_[A-Za-z0-9_-]{43}")
V1 = re.compile(r"v1,[A-Za-z0-9+/]{43}=")


def _official(secret: str | bytes, got: Received) -> Any:
    """The official library's verification of a received delivery: the parsed event, or it raises."""
    return Webhook(secret).verify(got.body, got.headers)


def _rotate(hooked: Hooked, overlap: int) -> str:
    rotated = hooked.tenant.admin_call("POST", f"/webhook-endpoints/{hooked.endpoint['endpointId']}/rotate-secret",
                                       json={"overlapSeconds": overlap})
    assert rotated.status_code == 200, rotated.text
    return str(rotated.json()["data"]["secret"])


def _endpoint(hooked: Hooked) -> dict[str, Any]:
    response = hooked.tenant.admin_call("GET", f"/webhook-endpoints/{hooked.endpoint['endpointId']}")
    assert response.status_code == 200, response.text
    return dict(response.json()["data"])


def _update(hooked: Hooked, **changes: Any) -> Any:
    return hooked.tenant.admin_call("PUT", f"/webhook-endpoints/{hooked.endpoint['endpointId']}", json=changes)


# -- real deliveries, verified by the official library --------------------------------------------------------------
def test_a_delivery_in_the_standard_format_verifies_with_the_official_library(env: Env, tenant: TenantUsers) -> None:
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook, **STANDARD)
        hooked.change("dana")
        drain(env, tenant, lambda: len(hook.requests) == 1)
    got = hook.requests[0]
    assert hooked.endpoint["signatureFormat"] == "standard-webhooks"
    assert STANDARD_SECRET.fullmatch(hooked.secret)
    event = _official(hooked.secret, got)
    assert event == json.loads(got.body) and event["type"] == "assets.assignment.changed"
    assert event["data"]["assignee"] == "dana"
    [delivery] = hooked.deliveries()
    assert got.headers["webhook-id"] == delivery["deliveryId"]
    assert int(got.headers["webhook-timestamp"]) == pytest.approx(env.runtime.clock.time(), abs=60)
    assert V1.fullmatch(got.headers["webhook-signature"])
    assert not {"x-webhook-signature", "x-webhook-timestamp", "x-webhook-delivery"} & set(got.headers)
    verify(got.body, got.headers, hooked.secret, signature_format="standard-webhooks")  # the published helper too
    with pytest.raises(StandardVerificationError):
        _official("whsec_" + base64.b64encode(secrets.token_bytes(32)).decode(), got)
    with pytest.raises(StandardVerificationError):
        Webhook(hooked.secret).verify(got.body + b" ", got.headers)


@pytest.mark.rule("webhook.retry.same-ids")
def test_retries_keep_the_webhook_id_and_each_attempt_verifies(env: Env, tenant: TenantUsers) -> None:
    with receiver(500, 200) as hook:
        hooked = Hooked(env, tenant, hook, **STANDARD)
        hooked.change("dana")
        drain(env, tenant, lambda: len(hook.requests) == 2)
    assert len({r.headers["webhook-id"] for r in hook.requests}) == 1
    for got in hook.requests:
        _official(hooked.secret, got)


def test_during_a_rotation_the_official_library_accepts_the_old_or_the_new_secret(
    env: Env, tenant: TenantUsers
) -> None:
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook, **STANDARD)
        new_secret = _rotate(hooked, 3600)
        hooked.change("dana")
        drain(env, tenant, lambda: len(hook.requests) == 1)
    got = hook.requests[0]
    assert STANDARD_SECRET.fullmatch(new_secret) and new_secret != hooked.secret
    signatures = got.headers["webhook-signature"].split(" ")
    assert len(signatures) == 2 and all(V1.fullmatch(s) for s in signatures)  # newest first, space-separated
    assert signatures[0] == sign_standard(got.body, new_secret, int(got.headers["webhook-timestamp"]),
                                          got.headers["webhook-id"])
    assert _official(hooked.secret, got) == _official(new_secret, got) == json.loads(got.body)
    with pytest.raises(StandardVerificationError):
        _official("whsec_" + base64.b64encode(secrets.token_bytes(32)).decode(), got)
    for secret in (hooked.secret, new_secret):
        verify(got.body, got.headers, secret)


def test_after_the_overlap_only_the_new_secret_signs(env: Env, tenant: TenantUsers) -> None:
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook, **STANDARD)
        new_secret = _rotate(hooked, 0)
        hooked.change("dana")
        drain(env, tenant, lambda: len(hook.requests) == 1)
    got = hook.requests[0]
    assert V1.fullmatch(got.headers["webhook-signature"])
    _official(new_secret, got)
    with pytest.raises(StandardVerificationError):
        _official(hooked.secret, got)


# -- the tessera format, the default ---------------------------------------------------------------------------------
def test_the_tessera_format_stays_the_default_with_a_prefix_of_its_own(env: Env, tenant: TenantUsers) -> None:
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        hooked.change("dana")
        drain(env, tenant, lambda: len(hook.requests) == 1)
    got = hook.requests[0]
    assert hooked.endpoint["signatureFormat"] == "tessera"
    assert TESSERA_SECRET.fullmatch(hooked.secret)
    assert got.headers["x-webhook-signature"] == independent_signature(
        hooked.secret, got.headers["x-webhook-timestamp"], got.body)
    assert got.headers["x-webhook-delivery"].startswith("dlv_")
    assert not {"webhook-id", "webhook-timestamp", "webhook-signature"} & set(got.headers)
    rotated = _rotate(hooked, 60)
    assert TESSERA_SECRET.fullmatch(rotated)


def test_a_secret_issued_before_the_formats_keeps_signing_as_before(env: Env, tenant: TenantUsers) -> None:
    """An endpoint of before migration 0008 holds a ``whsec_`` + base64url secret, keyed by the whole string."""
    legacy = "whsec_" + secrets.token_urlsafe(32)
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        _replace_secrets(env, hooked.endpoint["endpointId"], legacy)
        hooked.change("dana")
        drain(env, tenant, lambda: len(hook.requests) == 1)
    got = hook.requests[0]
    assert got.headers["x-webhook-signature"] == independent_signature(
        legacy, got.headers["x-webhook-timestamp"], got.body)
    verify(got.body, got.headers, legacy)


def _replace_secrets(env: Env, endpoint_pid: str, secret: str) -> None:
    async def replace() -> None:
        rt = env.runtime
        now = rt.clock.now()
        async with rt.db.write() as conn:
            endpoint = await store.endpoint_by_pid(conn, endpoint_pid)
            assert endpoint is not None
            await store.expire_secrets(conn, endpoint.id, now, now=now)
            await store.add_secret(conn, endpoint.id, rt.secret_box.seal(secret.encode()), now=now)

    env.run(replace)


# -- the option on the API -------------------------------------------------------------------------------------------
def test_the_format_is_read_listed_and_changed_like_the_other_fields(env: Env, tenant: TenantUsers) -> None:
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        assert _endpoint(hooked)["signatureFormat"] == "tessera"
        changed = _update(hooked, signatureFormat="standard-webhooks")
        assert changed.status_code == 200, changed.text
        assert changed.json()["data"]["signatureFormat"] == "standard-webhooks"
        assert _endpoint(hooked)["signatureFormat"] == "standard-webhooks"
        listed = tenant.admin_call("GET", f"/installations/{hooked.endpoint['installationId']}/webhook-endpoints/list")
        assert listed.status_code == 200, listed.text
        assert [e["signatureFormat"] for e in listed.json()["data"]["records"]] == ["standard-webhooks"]
        assert _update(hooked, signatureFormat="tessera").json()["data"]["signatureFormat"] == "tessera"


@pytest.mark.parametrize("value", ["svix", "Standard-Webhooks", "", None, 1])
def test_an_unknown_format_is_a_validation_error(env: Env, tenant: TenantUsers, value: Any) -> None:
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        refused = _update(hooked, signatureFormat=value)
        created = tenant.admin_call("POST", f"/installations/{hooked.endpoint['installationId']}/webhook-endpoints",
                                    json={"url": hook.url, "eventTypes": ["assets.assignment.changed"],
                                          "signatureFormat": value})
    for response in (refused, created):
        assert response.status_code == 400, response.text
        assert response.json()["code"] == "VALIDATION_ERROR"
        assert set(response.json()["data"]["fieldErrors"]) == {"signatureFormat"}
    assert _endpoint(hooked)["signatureFormat"] == "tessera"


def test_switching_to_the_standard_format_keeps_the_secret_as_a_raw_key(env: Env, tenant: TenantUsers) -> None:
    """After a change of format the next deliveries use the new format with the same secret (the official
    library takes a ``twsec_`` secret as raw key bytes); the next rotation issues a ``whsec_`` secret."""
    with receiver(200) as hook:
        hooked = Hooked(env, tenant, hook)
        assert _update(hooked, signatureFormat="standard-webhooks").status_code == 200
        hooked.change("dana")
        drain(env, tenant, lambda: len(hook.requests) == 1)
        new_secret = _rotate(hooked, 3600)
        hooked.change("erin")
        drain(env, tenant, lambda: len(hook.requests) == 2)
    first, second = hook.requests
    assert _official(hooked.secret.encode(), first)["data"]["assignee"] == "dana"
    assert STANDARD_SECRET.fullmatch(new_secret)
    assert _official(new_secret, second) == _official(hooked.secret.encode(), second)
    verify(second.body, second.headers, [hooked.secret])
    verify(second.body, second.headers, [new_secret])


# -- the published helper (tessera/webhooks/verify.py) against the official library, no database -----------------------
BODY = b'{"data":{"assignee":"dana"},"id":"evt_01","type":"assets.assignment.changed"}'


def _standard_headers(signature: str, timestamp: int, message_id: str = "dlv_01") -> dict[str, str]:
    return {"webhook-id": message_id, "webhook-timestamp": str(timestamp), "webhook-signature": signature}


def test_the_helper_signs_what_the_official_library_signs() -> None:
    import time
    from datetime import UTC, datetime

    secret = "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()
    now = int(time.time())
    official = Webhook(secret).sign("dlv_01", datetime.fromtimestamp(now, tz=UTC), BODY.decode())
    assert sign_standard(BODY, secret, now, "dlv_01") == official
    assert Webhook(secret).verify(BODY, _standard_headers(official, now)) == json.loads(BODY)
    verify(BODY, _standard_headers(official, now), secret)
    raw = "twsec_" + secrets.token_urlsafe(32)
    assert sign_standard(BODY, raw, now, "dlv_01") == Webhook(raw.encode()).sign(
        "dlv_01", datetime.fromtimestamp(now, tz=UTC), BODY.decode())


def test_the_key_of_each_secret() -> None:
    key = secrets.token_bytes(32)
    assert standard_key("whsec_" + base64.b64encode(key).decode()) == key
    legacy = "whsec_" + secrets.token_urlsafe(32)  # base64url without padding: a raw key, as it always was
    assert standard_key(legacy) == legacy.encode()
    assert standard_key("twsec_abc") == b"twsec_abc"
    assert standard_key(b"\x00\x01") == b"\x00\x01"


def test_the_helper_checks_the_standard_format_strictly() -> None:
    secret = "whsec_" + base64.b64encode(b"k" * 32).decode()
    now = 1_795_345_200
    good = sign_standard(BODY, secret, now, "dlv_01")

    def reason(headers: dict[str, str], **kwargs: Any) -> str:
        with pytest.raises(WebhookVerificationError) as info:
            verify(BODY, headers, secret, now=now, **kwargs)
        return info.value.reason

    verify(BODY, _standard_headers("v1a,c2lnbmVk " + good, now), secret, now=now)  # other versions are skipped
    assert reason(_standard_headers(good, now - 301)) == "timestamp_out_of_tolerance"
    assert reason(_standard_headers(good.replace("v1,", "v1,A", 1)[:-1], now)) == "bad_signature_header"
    assert reason(_standard_headers("v1a,c2lnbmVk", now)) == "bad_signature_header"
    assert reason(_standard_headers(good, now, message_id="dlv.01")) == "bad_message_id"
    assert reason(_standard_headers(sign_standard(BODY, secret, now, "dlv_02"), now)) == "signature_mismatch"
    assert reason(_standard_headers(good, now), signature_format="tessera") == "missing_header"
    headers = {"X-Webhook-Timestamp": str(now), "X-Webhook-Delivery": "dlv_01",
               "X-Webhook-Signature": "sha256=" + hmac.new(secret.encode(), f"{now}.".encode() + BODY,
                                                           hashlib.sha256).hexdigest()}
    verify(BODY, headers, secret, now=now)
    assert reason(headers, signature_format="standard-webhooks") == "missing_header"
