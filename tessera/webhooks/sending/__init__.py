"""Webhook delivery: outbox fan-out, signed POSTs, retries with backoff, dead-letter, replay.

1. ``dispatch`` (``fanout``) turns each new outbox event into one delivery per enabled endpoint
   (of an enabled installation of the event's tenant) subscribed to its type, and stamps the event
   dispatched, in one transaction.
2. ``deliver_due`` (``batch``) leases due deliveries, applies the owners' throttles
   (``tessera.webhooks.throttle``), then sends them concurrently outside any transaction, each under
   a hard wall-clock deadline, so a batch always ends inside its lease (``sender``). The body is
   the same bytes on every attempt; the signature headers are computed per attempt, in the
   endpoint's ``signature_format`` (``signing``). Every attempt is recorded with time, status and
   latency, and recorded before its request goes out (``journal``). A 2xx delivers; anything else
   retries after the next delay of the retry schedule (with +-20% jitter), and after the last
   retry the delivery is dead (the dead-letter queue) until an owner replays it (``outcomes``).
   A 410 Gone or a long failing streak disables the endpoint (``disabling``).
3. The URL is checked against the SSRF rules again before every attempt (once per batch), and the
   connection goes to the addresses that check vetted, never resolved again
   (``tessera.webhooks.pinning``: no DNS rebinding between the check and the send); redirects are not followed.
4. Every request a worker sends has its attempt row committed first (``journal``): a worker killed
   mid-request leaves a row that reads ``unknown``, so the delivery log lists every request a
   receiver may have got.

The worker, the tests and the benchmarks use the names below from this package.
"""

from __future__ import annotations

from tessera.webhooks.sending.batch import LEASE_MARGIN_SECONDS, deliver_due
from tessera.webhooks.sending.fanout import dispatch
from tessera.webhooks.sending.outcomes import AttemptResult, retry_after_seconds
from tessera.webhooks.sending.sender import USER_AGENT, Sender
from tessera.webhooks.sending.signing import body_of, signature_headers

__all__ = [
    "LEASE_MARGIN_SECONDS",
    "USER_AGENT",
    "AttemptResult",
    "Sender",
    "body_of",
    "deliver_due",
    "dispatch",
    "retry_after_seconds",
    "signature_headers",
]
