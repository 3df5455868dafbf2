"""What a delivery sends: its body, the same bytes on every attempt, and the headers that sign one
attempt, computed per attempt in the endpoint's ``signature_format``, one signature per active
secret, newest first.

- ``tessera``: ``X-Webhook-Timestamp``, ``X-Webhook-Signature`` (``sha256=`` hex HMAC of
  ``<timestamp>.<body>``, comma-separated) and ``X-Webhook-Delivery``, the delivery id, the same on
  retries and replays;
- ``standard-webhooks`` (the Standard Webhooks specification): ``webhook-id`` (the delivery id),
  ``webhook-timestamp`` and ``webhook-signature`` (``v1,`` base64 HMAC of ``<id>.<timestamp>.<body>``,
  space-separated).

Receivers check both with ``tessera.webhooks.verify``, the file the SDK ships; the signatures are made
by the same file's ``sign`` and ``sign_standard``, so the two cannot disagree.
"""

from __future__ import annotations

import json

from storage import webhooks as store
from tessera.feed.bodies import event_body
from tessera.webhooks.verify import STANDARD_WEBHOOKS, sign, sign_standard


def signature_headers(signature_format: str, secrets: list[str], timestamp: int, delivery_id: str,
                      body: bytes) -> dict[str, str]:
    """The headers that sign one attempt, in the endpoint's format, one signature per active secret."""
    if signature_format == STANDARD_WEBHOOKS:
        return {"webhook-id": delivery_id, "webhook-timestamp": str(timestamp),
                "webhook-signature": " ".join(sign_standard(body, s, timestamp, delivery_id) for s in secrets)}
    return {"X-Webhook-Timestamp": str(timestamp),
            "X-Webhook-Signature": ",".join(sign(body, s, timestamp) for s in secrets),
            "X-Webhook-Delivery": delivery_id}


def body_of(row: store.ClaimedDeliveryRow) -> bytes:
    """The delivery body: identical on every attempt of the same event."""
    document = event_body(row.event_pid, row.event_type, row.occurred_at, row.payload)
    return json.dumps(document, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()
