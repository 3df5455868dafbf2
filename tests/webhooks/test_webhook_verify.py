"""Tests of tessera/webhooks/verify.py (the copyable receiver-side verifier) and examples/webhook_receiver.py.

Signatures are computed by `_reference_signature`, an independent inline implementation of the specification's
formula, so that a mistake shared by `sign` and `verify` cannot make the tests pass.
"""

from __future__ import annotations

import email
import hashlib
import hmac
import http.client
import io
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from starlette.datastructures import Headers as StarletteHeaders
from werkzeug.datastructures import Headers as WerkzeugHeaders

from tessera.webhooks import verify as webhook_verify
from tessera.webhooks.verify import WebhookVerificationError, sign, verify

REPO = Path(__file__).resolve().parents[2]
RECEIVER = REPO / "examples" / "webhook_receiver.py"

NOW = 1_795_345_200
SECRET = "whsec_current"
OLD_SECRET = "whsec_previous"
BODY = (
    b'{"id": "evt_01", "type": "assets.assignment.changed", "schemaVersion": 1, '
    b'"occurredAt": "2026-11-22T06:00:00.000Z", "data": {"assetPid": "ast_1"}}'
)


def _reference_signature(secret: str | bytes, timestamp: int | str, body: bytes) -> str:
    """The spec, written out: sha256= + lowercase hex HMAC-SHA-256 of "<timestamp>.<raw body>" keyed with the secret."""
    key = secret.encode() if isinstance(secret, str) else secret
    return "sha256=" + hmac.new(key, str(timestamp).encode() + b"." + body, hashlib.sha256).hexdigest()


def _headers(signature: str, timestamp: int | str = NOW, delivery: str = "dlv_01") -> dict[str, str]:
    return {
        "X-Webhook-Timestamp": str(timestamp),
        "X-Webhook-Signature": signature,
        "X-Webhook-Delivery": delivery,
    }


def _reason(body: bytes, headers: object, secrets: object = SECRET, now: float = NOW) -> str:
    with pytest.raises(WebhookVerificationError) as info:
        verify(body, headers, secrets, now=now)  # type: ignore[arg-type]
    return info.value.reason


def verifies(*args: Any, **kwargs: Any) -> bool:
    """True when ``verify`` accepts the delivery (it returns None or raises)."""
    try:
        verify(*args, **kwargs)
    except WebhookVerificationError:
        return False
    return True


@pytest.mark.rule("webhook.signature.format")
def test_signature_from_independent_implementation_verifies() -> None:
    assert verifies(BODY, _headers(_reference_signature(SECRET, NOW, BODY)), SECRET, now=NOW)


@pytest.mark.rule("webhook.signature.format")
def test_sign_returns_the_spec_formula() -> None:
    assert sign(BODY, SECRET, NOW) == _reference_signature(SECRET, NOW, BODY)


def test_verification_error_is_a_value_error() -> None:
    assert issubclass(WebhookVerificationError, ValueError)


@pytest.mark.rule("webhook.receiver.raw-body")
def test_tampered_body_fails() -> None:
    headers = _headers(_reference_signature(SECRET, NOW, BODY))
    assert _reason(BODY.replace(b"ast_1", b"ast_2"), headers) == "signature_mismatch"


def test_wrong_secret_fails() -> None:
    headers = _headers(_reference_signature("whsec_someone_else", NOW, BODY))
    assert _reason(BODY, headers) == "signature_mismatch"


def test_signature_over_another_timestamp_fails() -> None:
    headers = _headers(_reference_signature(SECRET, NOW - 1, BODY), timestamp=NOW)
    assert _reason(BODY, headers) == "signature_mismatch"


@pytest.mark.rule("webhook.receiver.timestamp-tolerance", "limits.webhook-timestamp-tolerance")
def test_timestamp_301_seconds_old_fails() -> None:
    headers = _headers(_reference_signature(SECRET, NOW - 301, BODY), timestamp=NOW - 301)
    assert _reason(BODY, headers) == "timestamp_out_of_tolerance"


@pytest.mark.rule("webhook.receiver.timestamp-tolerance")
def test_timestamp_299_seconds_old_passes() -> None:
    headers = _headers(_reference_signature(SECRET, NOW - 299, BODY), timestamp=NOW - 299)
    assert verifies(BODY, headers, SECRET, now=NOW)


@pytest.mark.rule("webhook.receiver.timestamp-tolerance")
def test_timestamp_301_seconds_in_the_future_fails() -> None:
    headers = _headers(_reference_signature(SECRET, NOW + 301, BODY), timestamp=NOW + 301)
    assert _reason(BODY, headers) == "timestamp_out_of_tolerance"


def test_now_defaults_to_the_current_time() -> None:
    timestamp = int(time.time())
    assert verifies(BODY, _headers(_reference_signature(SECRET, timestamp, BODY), timestamp=timestamp), SECRET)


@pytest.mark.parametrize("missing", ["X-Webhook-Timestamp", "X-Webhook-Signature", "X-Webhook-Delivery"])
def test_missing_header_fails_with_missing_header(missing: str) -> None:
    headers = _headers(_reference_signature(SECRET, NOW, BODY))
    del headers[missing]
    assert _reason(BODY, headers) == "missing_header"


@pytest.mark.parametrize("timestamp", ["abc", "-5", "+1795345200", "1795345200.0", "1e9", "\u0661\u0662\u0663"])
@pytest.mark.rule("webhook.header.timestamp")
def test_non_digit_timestamp_fails(timestamp: str) -> None:
    headers = _headers(_reference_signature(SECRET, timestamp, BODY), timestamp=timestamp)
    assert _reason(BODY, headers) == "bad_timestamp"


@pytest.mark.parametrize(
    "signature",
    [
        "deadbeef",
        "sha256=",
        "sha256=abc123",
        "sha1=" + "0" * 40,
        "SHA256=" + "0" * 64,
        "sha256=" + "A" * 64,
        "sha256=" + "0" * 65,
        "sha256=" + "0" * 64 + ",",
        "sha256=" + "0" * 64 + ";sha256=" + "1" * 64,
    ],
)
def test_malformed_signature_header_fails(signature: str) -> None:
    assert _reason(BODY, _headers(signature)) == "bad_signature_header"


@pytest.mark.parametrize("separator", [",", ", "])
@pytest.mark.parametrize("receiver_secret", [SECRET, OLD_SECRET])
@pytest.mark.rule("webhook.secret.overlapping-rotation")
def test_overlap_header_verifies_with_either_secret_alone(receiver_secret: str, separator: str) -> None:
    newest_first = _reference_signature(SECRET, NOW, BODY) + separator + _reference_signature(OLD_SECRET, NOW, BODY)
    assert verifies(BODY, _headers(newest_first), receiver_secret, now=NOW)


def test_overlap_header_fails_when_no_signature_matches() -> None:
    both = _reference_signature(SECRET, NOW, BODY) + ", " + _reference_signature(OLD_SECRET, NOW, BODY)
    assert _reason(BODY, _headers(both), secrets="whsec_unrelated") == "signature_mismatch"


def test_second_of_several_receiver_secrets_verifies() -> None:
    headers = _headers(_reference_signature(SECRET, NOW, BODY))
    assert verifies(BODY, headers, ["whsec_unrelated", SECRET], now=NOW)


def _http_client_headers(items: dict[str, str]) -> http.client.HTTPMessage:
    raw = "".join(f"{name}: {value}\r\n" for name, value in items.items()) + "\r\n"
    return http.client.parse_headers(io.BytesIO(raw.encode("latin-1")))


@pytest.mark.parametrize(
    "make_headers",
    [
        lambda items: {name.lower(): value for name, value in items.items()},
        lambda items: {name.upper(): value for name, value in items.items()},
        lambda items: {name.swapcase(): value for name, value in items.items()},
        lambda items: _http_client_headers({name.lower(): value for name, value in items.items()}),
        lambda items: email.message_from_string("".join(f"{k.upper()}: {v}\n" for k, v in items.items())),
        lambda items: StarletteHeaders(headers=items),
        lambda items: WerkzeugHeaders([(name.lower(), value) for name, value in items.items()]),
    ],
    ids=["dict-lower", "dict-upper", "dict-swapcase", "http.client", "email.message", "starlette", "werkzeug"],
)
def test_header_names_in_other_cases_work(make_headers: object) -> None:
    headers = make_headers(_headers(_reference_signature(SECRET, NOW, BODY)))  # type: ignore[operator]
    assert verifies(BODY, headers, SECRET, now=NOW)


@pytest.mark.parametrize("secret", [SECRET, SECRET.encode()], ids=["str", "bytes"])
def test_bytes_and_str_secrets_both_work(secret: str | bytes) -> None:
    assert verifies(BODY, _headers(_reference_signature(SECRET, NOW, BODY)), secret, now=NOW)
    assert verifies(BODY, _headers(_reference_signature(SECRET, NOW, BODY)), [secret], now=NOW)


def test_non_ascii_str_secret_is_utf8_encoded() -> None:
    secret = "whsec_\u00e9t\u00e9"
    assert verifies(BODY, _headers(_reference_signature(secret.encode("utf-8"), NOW, BODY)), secret, now=NOW)


@pytest.mark.rule("webhook.receiver.constant-time")
def test_comparison_uses_hmac_compare_digest(monkeypatch: pytest.MonkeyPatch) -> None:
    real_compare_digest = hmac.compare_digest
    calls: list[tuple[object, object]] = []

    def recording_compare_digest(a: object, b: object) -> bool:
        calls.append((a, b))
        return real_compare_digest(a, b)  # type: ignore[arg-type]

    monkeypatch.setattr(webhook_verify.hmac, "compare_digest", recording_compare_digest)
    expected_hex = _reference_signature(SECRET, NOW, BODY).removeprefix("sha256=")
    verify(BODY, _headers("sha256=" + expected_hex), SECRET, now=NOW)
    assert calls == [(expected_hex, expected_hex)]


@pytest.mark.rule("webhook.receiver.constant-time")
def test_every_signature_secret_pair_is_compared(monkeypatch: pytest.MonkeyPatch) -> None:
    real_compare_digest = hmac.compare_digest
    calls: list[tuple[object, object]] = []

    def recording_compare_digest(a: object, b: object) -> bool:
        calls.append((a, b))
        return real_compare_digest(a, b)  # type: ignore[arg-type]

    monkeypatch.setattr(webhook_verify.hmac, "compare_digest", recording_compare_digest)
    header = _reference_signature("whsec_a", NOW, BODY) + ", " + _reference_signature("whsec_b", NOW, BODY)
    assert _reason(BODY, _headers(header), secrets=["whsec_c", "whsec_d"]) == "signature_mismatch"
    assert len(calls) == 4


@pytest.mark.rule("webhook.receiver.raw-body")
def test_str_body_is_refused() -> None:
    with pytest.raises(TypeError):
        verify(BODY.decode(), _headers(_reference_signature(SECRET, NOW, BODY)), SECRET, now=NOW)  # type: ignore[arg-type]


def test_no_secret_is_a_configuration_error_not_a_verification_failure() -> None:
    for secrets in ([], "", [""]):
        with pytest.raises(ValueError) as info:
            verify(BODY, _headers(_reference_signature(SECRET, NOW, BODY)), secrets, now=NOW)
        assert not isinstance(info.value, WebhookVerificationError)


# --- examples/webhook_receiver.py, end to end -------------------------------------------------------------------


def _free_loopback_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_until_listening(proc: subprocess.Popen[str], port: int, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"receiver exited early with code {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    pytest.fail(f"receiver did not listen on port {port} within {timeout} s")


def _delivery(secret: str, event_id: str, delivery_id: str, signed_later: int = 0) -> tuple[bytes, dict[str, str]]:
    body = json.dumps(
        {
            "id": event_id,
            "type": "assets.assignment.changed",
            "schemaVersion": 1,
            "occurredAt": "2026-11-22T06:00:00.000Z",
            "data": {"assetPid": "ast_1"},
        }
    ).encode()
    timestamp = int(time.time()) + signed_later
    headers = _headers(_reference_signature(secret, timestamp, body), timestamp=timestamp, delivery=delivery_id)
    return body, {**headers, "Content-Type": "application/json"}


@pytest.mark.rule("webhook.receiver.dedupe")
def test_example_receiver_verifies_rejects_and_deduplicates() -> None:
    port = _free_loopback_port()
    env = {
        **os.environ,
        # The receiver holds two secrets (its own rotation); deliveries are signed with the second one.
        "WEBHOOK_SECRETS": "whsec_receiver_old, whsec_receiver_new",
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": os.pathsep.join([str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])]),
    }
    proc = subprocess.Popen(
        [sys.executable, str(RECEIVER), "--port", str(port)],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        _wait_until_listening(proc, port)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10.0) as client:
            body, headers = _delivery("whsec_receiver_new", "evt_e2e_1", "dlv_e2e_1")
            assert client.post("/webhooks", content=body, headers=headers).status_code == 204

            bad_body, bad_headers = _delivery("whsec_not_ours", "evt_e2e_forged", "dlv_e2e_2")
            rejected = client.post("/webhooks", content=bad_body, headers=bad_headers)
            assert rejected.status_code == 401
            assert rejected.json() == {"error": "signature_mismatch"}

            # A retry of the first event: same event and delivery id, signed again at a new time.
            body_again, headers_again = _delivery("whsec_receiver_new", "evt_e2e_1", "dlv_e2e_1", signed_later=5)
            assert headers_again["X-Webhook-Timestamp"] != headers["X-Webhook-Timestamp"]
            assert client.post("/webhooks", content=body_again, headers=headers_again).status_code == 204
    finally:
        proc.terminate()
        try:
            stdout, stderr = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            stdout, stderr = proc.communicate()

    event_lines = [line for line in stdout.splitlines() if line.strip()]
    assert event_lines == ["dlv_e2e_1 evt_e2e_1 assets.assignment.changed"], stderr
    assert "signature_mismatch" in stderr
