"""A minimal Tessera webhook receiver, standard library only.

Run it with the endpoint's secret(s), comma-separated (several during your own secret rotation)::

    WEBHOOK_SECRETS='twsec_new,twsec_old' python examples/webhook_receiver.py --port 9000

It listens on 127.0.0.1, accepts a POST on any path, verifies the signature over the raw body before parsing
it (either signature format: ``tessera``'s ``X-Webhook-*`` headers or Standard Webhooks' ``webhook-*``), answers
401 when verification fails and 204 otherwise, and prints one line per new event to stdout:
``<delivery id> <event id> <type>``. Delivery is at-least-once, so a repeated event id is acknowledged (204)
without being processed again. The set of seen ids lives in memory only: a real receiver records them durably
(for example a unique constraint on the event id, committed together with the work the event triggers).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

# Integrators without the tessera package can copy tessera/webhooks/verify.py (standard library only, a single
# file) next to this script instead; the fallback import below then picks it up.
try:
    from tessera.webhooks.verify import DELIVERY_HEADER, STANDARD_ID_HEADER, WebhookVerificationError, verify
except ModuleNotFoundError:  # pragma: no cover - only when running from a copied file
    from webhook_verify import (  # type: ignore[no-redef]
        DELIVERY_HEADER,
        STANDARD_ID_HEADER,
        WebhookVerificationError,
        verify,
    )

HOST = "127.0.0.1"
# Events are small; refusing larger bodies before reading them keeps an unauthenticated caller from making the
# receiver buffer arbitrary amounts of data.
MAX_BODY_BYTES = 1024 * 1024


class ReceiverServer(ThreadingHTTPServer):
    """The HTTP server plus the receiver's state, shared by the request-handling threads."""

    daemon_threads = True

    def __init__(self, port: int, secrets: list[str]) -> None:
        super().__init__((HOST, port), WebhookHandler)
        self.secrets = secrets
        self.seen_event_ids: set[str] = set()
        # Handler threads run concurrently, and a retry can arrive while the first attempt is still being
        # processed: the check-and-claim of an event id must be atomic.
        self.seen_lock = threading.Lock()


class WebhookHandler(BaseHTTPRequestHandler):
    server: ReceiverServer

    def do_POST(self) -> None:
        body = self._read_body()
        if body is None:
            return
        delivery_id = self.headers.get(DELIVERY_HEADER) or self.headers.get(STANDARD_ID_HEADER) or "-"
        try:
            # Over the raw bytes, before json.loads: the signature covers exactly what was sent.
            verify(body, self.headers, self.server.secrets)
        except WebhookVerificationError as exc:
            print(f"rejected delivery {delivery_id}: {exc.reason}", file=sys.stderr, flush=True)
            self._answer(401, {"error": exc.reason})
            return

        try:
            event = json.loads(body)
        except ValueError:
            self._answer(400, {"error": "body_not_json"})
            return
        event_id = event.get("id") if isinstance(event, dict) else None
        if not isinstance(event_id, str) or not event_id:
            self._answer(400, {"error": "missing_event_id"})
            return

        with self.server.seen_lock:
            duplicate = event_id in self.server.seen_event_ids
            self.server.seen_event_ids.add(event_id)
        if duplicate:
            self._answer(204)  # acknowledged: Tessera stops retrying; the work was already done
            return
        try:
            process(delivery_id, event)
        except Exception:
            # Release the claim so that Tessera's retry gets processed; a non-2xx answer makes it retry.
            with self.server.seen_lock:
                self.server.seen_event_ids.discard(event_id)
            self._answer(500, {"error": "processing_failed"})
            raise
        self._answer(204)

    def _read_body(self) -> bytes | None:
        length_text = self.headers.get("Content-Length")
        if length_text is None:
            self._answer(411, {"error": "length_required"})
            return None
        try:
            length = int(length_text)
        except ValueError:
            length = -1
        if length < 0:
            self._answer(400, {"error": "bad_content_length"})
            return None
        if length > MAX_BODY_BYTES:
            self._answer(413, {"error": "body_too_large"})
            return None
        return self.rfile.read(length)

    def _answer(self, status: int, payload: dict[str, Any] | None = None) -> None:
        self.send_response(status)
        if payload is None:
            self.end_headers()
            return
        data = json.dumps(payload).encode()
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        """Keep the default access log off: stdout carries the event lines only, rejections go to stderr."""


def process(delivery_id: str, event: dict[str, Any]) -> None:
    """Your business logic goes here. Keep it quick: Tessera expects a 2xx answer within 10 seconds."""
    print(f"{delivery_id} {event['id']} {event.get('type', '-')}", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Receive and verify Tessera webhook deliveries.")
    parser.add_argument("--port", type=int, default=9000, help="TCP port on 127.0.0.1 (default: 9000)")
    args = parser.parse_args(argv)

    secrets = [secret.strip() for secret in os.environ.get("WEBHOOK_SECRETS", "").split(",") if secret.strip()]
    if not secrets:
        parser.error("set WEBHOOK_SECRETS to the webhook secret (several: comma-separated)")

    # Turn SIGTERM into a normal exit so that the listening socket is closed by the `with` block below.
    signal.signal(signal.SIGTERM, lambda _signum, _frame: sys.exit(0))
    with ReceiverServer(args.port, secrets) as server:
        print(f"listening on http://{HOST}:{server.server_address[1]}", file=sys.stderr, flush=True)
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C
            server.serve_forever()


if __name__ == "__main__":
    main()
