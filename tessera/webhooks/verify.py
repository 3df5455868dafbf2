"""Verify Tessera webhook deliveries (standard library only: copy this single file into your receiver).

Every delivery is an HTTP POST whose body is one JSON event
(``{"id": "evt_...", "type": "...", "schemaVersion": 1, "occurredAt": "...", "data": {...}}``), signed in the
format its endpoint chose (``signatureFormat``). The ``tessera`` format (the default) carries three headers:

- ``X-Webhook-Timestamp``: Unix time in seconds when this attempt was signed (digits only).
- ``X-Webhook-Signature``: ``sha256=`` followed by the lowercase hex HMAC-SHA-256 of the string
  ``<timestamp>.<raw body>``, keyed with the UTF-8 bytes of the webhook secret (the whole string, prefix
  included). While Tessera rotates a webhook secret the header carries one ``sha256=<hex>`` per active secret,
  comma-separated (optional spaces after the commas), newest first; holding any one of those secrets is enough.
- ``X-Webhook-Delivery``: the delivery id (retries and replays reuse it).

The ``standard-webhooks`` format is the Standard Webhooks specification's (https://www.standardwebhooks.com),
which its official libraries (``pip install standardwebhooks``, ``npm install standardwebhooks``) verify:

- ``webhook-id``: the delivery id (retries and replays reuse it);
- ``webhook-timestamp``: Unix time in seconds when this attempt was signed;
- ``webhook-signature``: ``v1,`` followed by the standard base64 HMAC-SHA-256 of ``<id>.<timestamp>.<raw body>``;
  during a rotation one ``v1,<base64>`` per active secret, **space-separated**, newest first. The key of a
  ``whsec_<base64>`` secret is its base64-decoded part; a secret issued for the ``tessera`` format (``twsec_...``,
  or a ``whsec_`` one issued before the format existed) keeps its UTF-8 bytes as the key (the official
  libraries' "raw" secret: ``Webhook(secret.encode())`` in Python, ``new Webhook(secret, {format: "raw"})`` in
  Node).

Receiver rules, all applied by :func:`verify`:

- verify over the *raw* body, before parsing it: re-serialised JSON is not byte-identical to what was signed;
- reject a timestamp more than ``tolerance`` (300) seconds away from the current time, in the past or in the
  future, so that a captured delivery cannot be replayed later;
- compare signatures in constant time (:func:`hmac.compare_digest`), so that response timing does not reveal
  how much of a forged signature was right.

:func:`verify` takes either format: it reads the one the delivery carries, or only ``signature_format`` when
given (pin it to the format your endpoint uses). Delivery is at-least-once: after a successful :func:`verify`,
deduplicate on the event ``id`` (or on ``X-Webhook-Delivery`` / ``webhook-id``) before acting. A receiver that
rotates its own secret passes every secret it currently accepts; the delivery verifies when any (signature,
secret) pair matches.

Usage::

    import json, os
    from webhook_verify import WebhookVerificationError, verify  # or: from tessera.webhooks.verify import ...

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

import base64
import binascii
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
    "SIGNATURE_FORMATS",
    "SIGNATURE_HEADER",
    "STANDARD_ID_HEADER",
    "STANDARD_SIGNATURE_HEADER",
    "STANDARD_TIMESTAMP_HEADER",
    "STANDARD_WEBHOOKS",
    "TESSERA",
    "TIMESTAMP_HEADER",
    "WebhookVerificationError",
    "sign",
    "sign_standard",
    "standard_key",
    "verify",
    "verify_event",
]

TIMESTAMP_HEADER: Final = "X-Webhook-Timestamp"
SIGNATURE_HEADER: Final = "X-Webhook-Signature"
DELIVERY_HEADER: Final = "X-Webhook-Delivery"
STANDARD_ID_HEADER: Final = "webhook-id"
STANDARD_TIMESTAMP_HEADER: Final = "webhook-timestamp"
STANDARD_SIGNATURE_HEADER: Final = "webhook-signature"
DEFAULT_TOLERANCE: Final = 300
TESSERA: Final = "tessera"
STANDARD_WEBHOOKS: Final = "standard-webhooks"
SIGNATURE_FORMATS: Final = (TESSERA, STANDARD_WEBHOOKS)
STANDARD_SECRET_PREFIX: Final = "whsec_"  # noqa: S105 - a prefix, not a secret

# One signature is "sha256=" and exactly 64 lowercase hex digits (the spec's format); anything else in the header is
# malformed rather than merely non-matching, which tells an integrator their header handling is broken.
_SIGNATURE_RE: Final = re.compile(r"sha256=([0-9a-f]{64})")
_TIMESTAMP_RE: Final = re.compile(r"[0-9]{1,20}")
# A Standard Webhooks signature: its version, a comma, and a value; "v1" (HMAC-SHA-256) is the standard base64 of
# 32 bytes. Other versions (``v1a``, asymmetric) are skipped, as the specification's verifiers do.
_STANDARD_ENTRY_RE: Final = re.compile(r"([a-z0-9]+),(\S+)")
_STANDARD_V1_RE: Final = re.compile(r"[A-Za-z0-9+/]{43}=")
# The signed string is "<id>.<timestamp>.<body>": an id with a full stop in it could shift the parts.
_STANDARD_ID_RE: Final = re.compile(r"[\x21-\x2d\x2f-\x7e]{1,256}")
# Tessera sends one signature per active secret (two during an overlap). The cap bounds the HMAC work an
# unauthenticated caller can cause with a single request.
_MAX_SIGNATURES: Final = 16


class WebhookVerificationError(ValueError):
    """The delivery is not authentic or not fresh; answer 401 and do not process it.

    ``reason`` is a short machine-readable code, safe to log and to return to the sender:
    ``missing_header``, ``bad_timestamp``, ``timestamp_out_of_tolerance``, ``bad_signature_header``,
    ``bad_message_id`` (``webhook-id``) or ``signature_mismatch``.
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


def sign_standard(raw_body: bytes, secret: str | bytes, timestamp: int, message_id: str) -> str:
    """Return one ``webhook-signature`` entry (``v1,<base64>``) of the Standard Webhooks format for one secret."""
    if isinstance(timestamp, bool) or not isinstance(timestamp, int) or timestamp < 0:
        raise ValueError("timestamp must be a non-negative integer (Unix time in seconds)")
    if not _STANDARD_ID_RE.fullmatch(message_id):
        raise ValueError("message_id must be 1 to 256 printable ASCII characters without a full stop")
    return "v1," + _standard_digest(standard_key(secret), message_id, str(timestamp), _body_bytes(raw_body))


def standard_key(secret: str | bytes) -> bytes:
    """The HMAC key of ``secret`` in the Standard Webhooks format.

    ``whsec_`` followed by padded standard base64 (what Tessera issues to ``standard-webhooks`` endpoints): the
    decoded bytes, as the official libraries read it. Any other secret, such as one issued for the ``tessera``
    format: its UTF-8 bytes, the key that format uses too (pass it to the official libraries as a raw secret).
    Bytes are a raw key already.
    """
    key = _key(secret)
    if isinstance(secret, str) and secret.startswith(STANDARD_SECRET_PREFIX):
        try:
            decoded = base64.b64decode(secret[len(STANDARD_SECRET_PREFIX):], validate=True)
        except (binascii.Error, ValueError):
            return key
        if decoded:
            return decoded
    return key


def verify(
    raw_body: bytes,
    headers: Mapping[str, str],
    secrets: str | bytes | Sequence[str | bytes],
    *,
    tolerance: int = DEFAULT_TOLERANCE,
    now: float | None = None,
    signature_format: str | None = None,
) -> None:
    """Return ``None`` if the delivery is authentic and fresh; raise :class:`WebhookVerificationError` otherwise.

    ``raw_body`` must be the exact bytes received (not re-encoded JSON): the signature covers those bytes.
    ``headers`` may be any mapping (``dict``, ``http.client.HTTPMessage``, Starlette or Werkzeug headers...);
    names are matched case-insensitively because HTTP header names are case-insensitive and proxies and
    frameworks change their case. ``secrets`` is one secret or several (during the receiver's own rotation).
    ``signature_format`` (``"tessera"`` or ``"standard-webhooks"``) accepts that format only; by default the
    delivery's own (``webhook-signature`` without ``X-Webhook-Signature``: Standard Webhooks). ``now``
    overrides the clock (Unix seconds), for tests.
    """
    body = _body_bytes(raw_body)
    if isinstance(secrets, str | bytes | bytearray):
        secrets = [secrets]
    keys = _keys(secrets)
    if tolerance < 0:
        raise ValueError("tolerance must not be negative")
    if signature_format is None:
        standard = _find(headers, STANDARD_SIGNATURE_HEADER) is not None and _find(headers, SIGNATURE_HEADER) is None
    elif signature_format in SIGNATURE_FORMATS:
        standard = signature_format == STANDARD_WEBHOOKS
    else:
        raise ValueError(f"signature_format must be one of {', '.join(SIGNATURE_FORMATS)}")
    if standard:
        _verify_standard(body, headers, [standard_key(secret) for secret in secrets], tolerance, now)
        return

    timestamp_value = _header(headers, TIMESTAMP_HEADER)
    signature_value = _header(headers, SIGNATURE_HEADER)
    _header(headers, DELIVERY_HEADER)  # required by the spec; receivers use it to deduplicate

    timestamp_text = _fresh_timestamp(timestamp_value, TIMESTAMP_HEADER, tolerance, now)
    provided = _parse_signatures(signature_value)
    # The signed string uses the header's timestamp text exactly as sent (the sender signs what it sends).
    _match(provided, [_hex_digest(key, timestamp_text, body) for key in keys])


def _verify_standard(body: bytes, headers: Mapping[str, str], keys: list[bytes], tolerance: int,
                     now: float | None) -> None:
    """The Standard Webhooks format: ``webhook-id``, ``webhook-timestamp`` and ``webhook-signature``."""
    message_id = _header(headers, STANDARD_ID_HEADER).strip()
    timestamp_value = _header(headers, STANDARD_TIMESTAMP_HEADER)
    signature_value = _header(headers, STANDARD_SIGNATURE_HEADER)
    if not _STANDARD_ID_RE.fullmatch(message_id):
        raise WebhookVerificationError(
            "bad_message_id", f"{STANDARD_ID_HEADER} must be printable ASCII without a full stop"
        )
    timestamp_text = _fresh_timestamp(timestamp_value, STANDARD_TIMESTAMP_HEADER, tolerance, now)
    provided = _parse_standard_signatures(signature_value)
    _match(provided, [_standard_digest(key, message_id, timestamp_text, body) for key in keys])


def _fresh_timestamp(value: str, name: str, tolerance: int, now: float | None) -> str:
    timestamp_text = value.strip()
    if not _TIMESTAMP_RE.fullmatch(timestamp_text):
        raise WebhookVerificationError("bad_timestamp", f"{name} must be Unix time in seconds (digits)")
    current = time.time() if now is None else now
    if abs(current - int(timestamp_text)) > tolerance:
        # Checked before the HMAC: a stale or far-future delivery is rejected whatever its signature, and cheaply.
        raise WebhookVerificationError(
            "timestamp_out_of_tolerance", f"{name} is more than {tolerance} s from the current time"
        )
    return timestamp_text


def _match(provided: list[str], expected: list[str]) -> None:
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
    signature_format: str | None = None,
) -> dict[str, Any]:
    """:func:`verify` the delivery, then parse it: return the event (``id``, ``type``, ``schemaVersion``,
    ``occurredAt``, ``data``) as a ``dict``.

    Raises :class:`WebhookVerificationError` (answer 401) exactly as :func:`verify` does; a body that verifies but
    is not a JSON object raises :class:`ValueError` (answer 400). Deduplicate on the returned event's ``id``.
    """
    verify(raw_body, headers, secrets, tolerance=tolerance, now=now, signature_format=signature_format)
    event = json.loads(bytes(raw_body))
    if not isinstance(event, dict):
        raise ValueError("the delivery body is not a JSON object")
    return event


def _header(headers: Mapping[str, str], name: str) -> str:
    value = _find(headers, name)
    if value is None or not value.strip():
        raise WebhookVerificationError("missing_header", f"{name} header is missing")
    return value


def _find(headers: Mapping[str, str], name: str) -> str | None:
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
    return None if value is None else str(value)


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


def _parse_standard_signatures(value: str) -> list[str]:
    """The ``v1`` signatures of a space-separated ``webhook-signature`` header (other versions are skipped)."""
    parts = value.split()
    if len(parts) > _MAX_SIGNATURES:
        raise WebhookVerificationError("bad_signature_header",
                                       f"{STANDARD_SIGNATURE_HEADER} carries too many signatures")
    found = []
    for part in parts:
        match = _STANDARD_ENTRY_RE.fullmatch(part)
        if match is None or (match.group(1) == "v1" and not _STANDARD_V1_RE.fullmatch(match.group(2))):
            raise WebhookVerificationError(
                "bad_signature_header", f"{STANDARD_SIGNATURE_HEADER} must be space-separated v1,<base64 of 32 bytes>"
            )
        if match.group(1) == "v1":
            found.append(match.group(2))
    if not found:
        raise WebhookVerificationError("bad_signature_header", f"{STANDARD_SIGNATURE_HEADER} has no v1 signature")
    return found


def _hex_digest(key: bytes, timestamp: str, body: bytes) -> str:
    return hmac.new(key, timestamp.encode("ascii") + b"." + body, hashlib.sha256).hexdigest()


def _standard_digest(key: bytes, message_id: str, timestamp: str, body: bytes) -> str:
    signed = message_id.encode("ascii") + b"." + timestamp.encode("ascii") + b"." + body
    return base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode("ascii")


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


def _keys(secrets: Sequence[str | bytes]) -> list[bytes]:
    keys = [_key(secret) for secret in secrets]
    if not keys:
        raise ValueError("at least one webhook secret is required")
    return keys
