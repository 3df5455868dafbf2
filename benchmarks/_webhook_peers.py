"""The two processes around ``benchmarks/webhooks.py`` (and ``scaleout.py``): the webhook receiver and the
baseline sender.

    python benchmarks/_webhook_peers.py receive --port 8123
    python benchmarks/_webhook_peers.py send --jobs jobs.json

``receive`` is a bare ASGI app (no framework) under uvicorn with uvloop and httptools, one process on
127.0.0.1: every POST is answered ``204`` at once and kept in memory with the wall-clock time
(``time.time()``, the clock the benchmark compares with commit times) at which its headers arrived,
its path, its headers and its raw body. The benchmark reads them back with ``GET /_log?from=N``
(JSON, bodies in base64) and the running total with ``GET /_count``; paths under ``/_`` are not
recorded.

``send`` is the baseline: a bare loop with one ``httpx.Client`` configured as Tessera's worker
configures its own (``User-Agent`` ``Tessera-Webhooks/1``, default pool), sending the jobs of a JSON
file (url, delivery id, request id, secret, body) as Tessera signs and sends a delivery: HMAC-SHA-256
of ``<timestamp>.<body>``, the same headers in the same order, ``timeout=10``, no redirects. No
database, no URL check, no secret unsealing. It loads the jobs, prints ``ready``, waits for a line on
stdin carrying the wall-clock start time, sleeps until then, sends, and prints one JSON line with what
it sent, the non-2xx answers and its CPU seconds. It imports nothing from Tessera on purpose.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import hmac
import json
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any
from urllib.parse import parse_qs

USER_AGENT = "Tessera-Webhooks/1"
TIMEOUT_SECONDS = 10.0

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

# received_at, method, path, headers (lower-case names), raw body
RECORDS: list[tuple[float, str, str, dict[str, str], bytes]] = []


async def _answer(send: Send, status: int, body: bytes = b"", content_type: bytes = b"application/json") -> None:
    headers = [(b"content-type", content_type)] if body else []
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def receiver(scope: Scope, receive: Receive, send: Send) -> None:
    """The ASGI receiver: 204 for every delivery, plus the two read-back paths."""
    if scope["type"] != "http":
        return
    received_at = time.time()
    path: str = scope["path"]
    if path.startswith("/_"):
        if path == "/_count":
            await _answer(send, 200, json.dumps({"count": len(RECORDS)}).encode())
        elif path == "/_log":
            query = parse_qs(scope.get("query_string", b"").decode())
            start = int(query.get("from", ["0"])[0])
            end = int(query.get("to", [str(len(RECORDS))])[0])
            rows = [[at, method, p, headers, base64.b64encode(body).decode()]
                    for at, method, p, headers, body in RECORDS[start:end]]
            await _answer(send, 200, json.dumps(rows).encode())
        else:
            await _answer(send, 404)
        return
    chunks = []
    more = True
    while more:
        message = await receive()
        chunks.append(message.get("body", b""))
        more = message.get("more_body", False)
    headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
    RECORDS.append((received_at, scope["method"], path, headers, b"".join(chunks)))
    await _answer(send, 204)


def receive_main(args: argparse.Namespace) -> int:
    from harness.serving import run

    run(receiver, args.host, args.port, loop="uvloop", http="httptools", lifespan="off", log_level="warning")
    return 0


def sign(secret: str, timestamp: int, body: bytes) -> str:
    """Tessera's signature: ``sha256=`` HMAC-SHA-256 of ``<timestamp>.<body>``."""
    return "sha256=" + hmac.new(secret.encode(), str(timestamp).encode() + b"." + body, hashlib.sha256).hexdigest()


def send_main(args: argparse.Namespace) -> int:
    import httpx

    with open(args.jobs, encoding="utf-8") as handle:
        jobs = [(j["url"], j["delivery"], j["request_id"], j["secret"], base64.b64decode(j["body"]))
                for j in json.load(handle)]
    client = httpx.Client(headers={"User-Agent": USER_AGENT})
    print("ready", flush=True)
    start_at = float(sys.stdin.readline())
    time.sleep(max(0.0, start_at - time.time()))
    cpu_before = time.process_time()
    sent, failures = 0, []
    for url, delivery, _request_id, secret, body in jobs:
        timestamp = int(time.time())
        headers = {
            "Content-Type": "application/json",
            "User-Agent": USER_AGENT,
            "X-Webhook-Timestamp": str(timestamp),
            "X-Webhook-Signature": sign(secret, timestamp, body),
            "X-Webhook-Delivery": delivery,
        }
        try:
            response = client.post(url, content=body, headers=headers, timeout=TIMEOUT_SECONDS,
                                   follow_redirects=False)
            sent += 1
            if not 200 <= response.status_code < 300:
                failures.append(f"{delivery}: HTTP {response.status_code}")
        except httpx.HTTPError as exc:
            failures.append(f"{delivery}: {type(exc).__name__}")
    cpu = time.process_time() - cpu_before
    client.close()
    print(json.dumps({"sent": sent, "failures": failures[:20], "failed": len(failures), "cpu_seconds": cpu}),
          flush=True)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="role", required=True)
    rec = sub.add_parser("receive", help="the webhook receiver")
    rec.add_argument("--host", default="127.0.0.1")
    rec.add_argument("--port", type=int, required=True)
    rec.set_defaults(func=receive_main)
    snd = sub.add_parser("send", help="the baseline sender")
    snd.add_argument("--jobs", required=True, help="JSON file of jobs")
    snd.set_defaults(func=send_main)
    args = parser.parse_args()
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
