"""Verify Tessera webhook deliveries (standard library only: copy this single file into your receiver).

Every delivery is an HTTP POST whose body is one JSON event
(``{"id": "evt_...", "type": "...", "schemaVersion": 1, "occurredAt": "...", "data": {...}}``) and which
carries three headers:

- ``X-Webhook-Timestamp``: Unix time in seconds when this attempt was signed (digits only).
- ``X-Webhook-Signature``: ``sha256=`` followed by the lowercase hex HMAC-SHA-256 of the string
  ``<timestamp>.<raw body>``, keyed with the webhook secret. While Tessera rotates a webhook secret the header
  carries one ``sha256=<hex>`` per active secret, comma-separated (optional spaces after the commas), newest
  first; holding any one of those secrets is enough.
- ``X-Webhook-Delivery``: the delivery id (retries and replays reuse it).

Receiver rules, all applied by :func:`verify`:

- verify over the *raw* body, before parsing it: re-serialised JSON is not byte-identical to what was signed;
- reject a timestamp more than ``tolerance`` (300) seconds away from the current time, in the past or in the
  future, so that a captured delivery cannot be replayed later;
- compare signatures in constant time (:func:`hmac.compare_digest`), so that response timing does not reveal
  how much of a forged signature was right.

Delivery is at-least-once: after a successful :func:`verify`, deduplicate on the event ``id`` (or on
``X-Webhook-Delivery``) before acting. A receiver that rotates its own secret passes every secret it currently
accepts; the delivery verifies when any (signature, secret) pair matches.

Usage::

    import json, os
    from webhook_verify import WebhookVerificationError, verify  # or: from tessera.events.verify import ...

    def handle(raw_body: bytes, headers) -> int:  # headers: any mapping, header names in any case
        try:  # over the raw bytes, before json.loads; WEBHOOK_SECRETS="new,old" during your own rotation
            verify(raw_body, headers, os.environ["WEBHOOK_SECRETS"].split(","))
        except WebhookVerificationError as exc:
            return 401  # exc.reason says why, e.g. "signature_mismatch"
        event = json.loads(raw_body)
        process_once(event["id"], event)  # at-least-once delivery: deduplicate on the event id
        return 204
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from collections.abc import Mapping, Sequence
from typing import Any, Final

__all__ = [
    "DEFAULT_TOLERANCE",
    "DELIVERY_HEADER",
    "SIGNATURE_HEADER",
    "TIMESTAMP_HEADER",
    "WebhookVerificationError",
    "sign",
    "verify",
    "verify_event",
]

TIMESTAMP_HEADER: Final = "X-Webhook-Timestamp"
SIGNATURE_HEADER: Final = "X-Webhook-Signature"
DELIVERY_HEADER: Final = "X-Webhook-Delivery"
DEFAULT_TOLERANCE: Final = 300

# One signature is "sha256=" and exactly 64 lowercase hex digits (the spec's format); anything else in the header is
# malformed rather than merely non-matching, which tells an integrator their header handling is broken.
_SIGNATURE_RE: Final = re.compile(r"sha256=([0-9a-f]{64})")
_TIMESTAMP_RE: Final = re.compile(r"[0-9]{1,20}")
# Tessera sends one signature per active secret (two during an overlap). The cap bounds the HMAC work an
# unauthenticated caller can cause with a single request.
_MAX_SIGNATURES: Final = 16


class WebhookVerificationError(ValueError):
    """The delivery is not authentic or not fresh; answer 401 and do not process it.

    ``reason`` is a short machine-readable code, safe to log and to return to the sender:
    ``missing_header``, ``bad_timestamp``, ``timestamp_out_of_tolerance``, ``bad_signature_header`` or
    ``signature_mismatch``.
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def sign(raw_body: bytes, secret: str | bytes, timestamp: int) -> str:
    """Return the ``X-Webhook-Signature`` value (``sha256=<hex>``) for one secret.

    Handy for building signed test fixtures; Tessera computes the same value when it delivers.
    """
    if isinstance(timestamp, bool) or not isinstance(timestamp, int) or timestamp < 0:
        raise ValueError("timestamp must be a non-negative integer (Unix time in seconds)")
    return "sha256=" + _hex_digest(_key(secret), str(timestamp), _body_bytes(raw_body))


def verify(
    raw_body: bytes,
    headers: Mapping[str, str],
    secrets: str | bytes | Sequence[str | bytes],
    *,
    tolerance: int = DEFAULT_TOLERANCE,
    now: float | None = None,
) -> None:
    """Return ``None`` if the delivery is authentic and fresh; raise :class:`WebhookVerificationError` otherwise.

    ``raw_body`` must be the exact bytes received (not re-encoded JSON): the signature covers those bytes.
    ``headers`` may be any mapping (``dict``, ``http.client.HTTPMessage``, Starlette or Werkzeug headers...);
    names are matched case-insensitively because HTTP header names are case-insensitive and proxies and
    frameworks change their case. ``secrets`` is one secret or several (during the receiver's own rotation).
    ``now`` overrides the clock (Unix seconds), for tests.
    """
    body = _body_bytes(raw_body)
    keys = _keys(secrets)
    if tolerance < 0:
        raise ValueError("tolerance must not be negative")

    timestamp_value = _header(headers, TIMESTAMP_HEADER)
    signature_value = _header(headers, SIGNATURE_HEADER)
    _header(headers, DELIVERY_HEADER)  # required by the spec; receivers use it to deduplicate

    timestamp_text = timestamp_value.strip()
    if not _TIMESTAMP_RE.fullmatch(timestamp_text):
        raise WebhookVerificationError("bad_timestamp", f"{TIMESTAMP_HEADER} must be Unix time in seconds (digits)")
    current = time.time() if now is None else now
    if abs(current - int(timestamp_text)) > tolerance:
        # Checked before the HMAC: a stale or far-future delivery is rejected whatever its signature, and cheaply.
        raise WebhookVerificationError(
            "timestamp_out_of_tolerance", f"{TIMESTAMP_HEADER} is more than {tolerance} s from the current time"
        )

    provided = _parse_signatures(signature_value)
    # The signed string uses the header's timestamp text exactly as sent (the sender signs what it sends).
    expected = [_hex_digest(key, timestamp_text, body) for key in keys]

    # Every (signature, secret) pair is compared, without stopping early, so that timing reveals neither which
    # position matched nor how many pairs were tried before it; each comparison itself is constant-time.
    matched = False
    for candidate in provided:
        for digest in expected:
            if hmac.compare_digest(candidate, digest):
                matched = True
    if not matched:
        raise WebhookVerificationError("signature_mismatch", "no signature matches any of the secrets")


def verify_event(
    raw_body: bytes,
    headers: Mapping[str, str],
    secrets: str | bytes | Sequence[str | bytes],
    *,
    tolerance: int = DEFAULT_TOLERANCE,
    now: float | None = None,
) -> dict[str, Any]:
    """:func:`verify` the delivery, then parse it: return the event (``id``, ``type``, ``schemaVersion``,
    ``occurredAt``, ``data``) as a ``dict``.

    Raises :class:`WebhookVerificationError` (answer 401) exactly as :func:`verify` does; a body that verifies but
    is not a JSON object raises :class:`ValueError` (answer 400). Deduplicate on the returned event's ``id``.
    """
    verify(raw_body, headers, secrets, tolerance=tolerance, now=now)
    event = json.loads(bytes(raw_body))
    if not isinstance(event, dict):
        raise ValueError("the delivery body is not a JSON object")
    return event


def _header(headers: Mapping[str, str], name: str) -> str:
    """Find a header whatever the mapping type and whatever the case of its stored names.

    A plain ``dict`` is case-sensitive, so the exact-case lookup is only a fast path; the fallback scans the items.
    """
    value = headers.get(name)
    if value is None:
        wanted = name.lower()
        for key, item in headers.items():
            key_text = key.decode("latin-1") if isinstance(key, bytes) else str(key)
            if key_text.lower() == wanted:
                value = item
                break
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    if value is None or not str(value).strip():
        raise WebhookVerificationError("missing_header", f"{name} header is missing")
    return str(value)


def _parse_signatures(value: str) -> list[str]:
    """Split the signature header into its hex digests, rejecting anything not in the spec's format."""
    parts = [part.strip() for part in value.split(",")]
    if len(parts) > _MAX_SIGNATURES:
        raise WebhookVerificationError("bad_signature_header", f"{SIGNATURE_HEADER} carries too many signatures")
    digests = []
    for part in parts:
        match = _SIGNATURE_RE.fullmatch(part)
        if match is None:
            raise WebhookVerificationError(
                "bad_signature_header", f"{SIGNATURE_HEADER} must be comma-separated sha256=<64 lowercase hex digits>"
            )
        digests.append(match.group(1))
    return digests


def _hex_digest(key: bytes, timestamp: str, body: bytes) -> str:
    return hmac.new(key, timestamp.encode("ascii") + b"." + body, hashlib.sha256).hexdigest()


def _body_bytes(raw_body: bytes) -> bytes:
    # A str body is refused on purpose: it means the body was decoded (and maybe re-serialised) before verifying.
    if not isinstance(raw_body, bytes | bytearray | memoryview):
        raise TypeError("raw_body must be the raw request body as bytes, not a decoded or parsed value")
    return bytes(raw_body)


def _key(secret: str | bytes) -> bytes:
    if isinstance(secret, str):
        key = secret.encode("utf-8")
    elif isinstance(secret, bytes | bytearray):
        key = bytes(secret)
    else:
        raise TypeError("a secret must be str or bytes")
    if not key:
        # An empty key is a configuration mistake (e.g. an unset variable), never a real secret.
        raise ValueError("a webhook secret must not be empty")
    return key


def _keys(secrets: str | bytes | Sequence[str | bytes]) -> list[bytes]:
    # str and bytes are themselves sequences, so a single secret must be recognised before iterating.
    if isinstance(secrets, str | bytes | bytearray):
        return [_key(secrets)]
    keys = [_key(secret) for secret in secrets]
    if not keys:
        raise ValueError("at least one webhook secret is required")
    return keys
