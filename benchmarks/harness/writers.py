"""A colleague writing while the readers read: commands at a fixed rate, in a thread of their own.

Why: a list benchmark on a still table measures a tenant nobody works in. Every write to a model
reaches the list caches of that model (``storage.record_cache``), so the figures that matter are
the ones with writes going on. ``Writer`` sends session commands through the service at ``rate``
per second (open loop: the next write is due at the next tick whatever the last one took), in a
rotation of four that touches what a list filters and sorts on:

- a create (a new asset, its name in a kind of the seeded data, status drawn 2:1:1 as seeded);
- an update of ``name`` (moves the record in a sort by name, and in or out of a keyword);
- an update of ``status`` (moves it in or out of a status filter);
- a delete (soft: out of every list).

Updates and deletes pick from ``pids`` (records of the seeded data), each deleted one taken out of
the pool. Every answer is checked (200, code "0"); failures are counted with a sample.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import httpx

from harness import stats

STATUSES = ("in_stock", "in_stock", "assigned", "retired")


@dataclass
class Writes:
    """What one writer did while a scenario ran."""

    rate: float
    sent: int = 0
    failed: int = 0
    latencies: list[float] = field(default_factory=list)
    samples: list[str] = field(default_factory=list)
    by_kind: dict[str, int] = field(default_factory=dict)

    def figures(self) -> dict[str, Any]:
        ordered = sorted(self.latencies)
        return {"rate": self.rate, "sent": self.sent, "failed": self.failed, "by_kind": self.by_kind,
                "p50_ms": stats.percentile_ms(ordered, 50), "p95_ms": stats.percentile_ms(ordered, 95),
                "samples": self.samples[:3]}


class Writer:
    """Commands at ``rate`` per second against ``base_url`` until ``stop``; ``rate`` 0 writes nothing."""

    def __init__(self, base_url: str, headers: dict[str, str], page_key: str, pids: Sequence[str],
                 kinds: Sequence[str], rate: float, seed: int = 7) -> None:
        self.base_url = base_url
        self.headers = headers
        self.page_key = page_key
        self.pids = list(pids)
        self.kinds = list(kinds)
        self.rate = rate
        self.rng = random.Random(seed)
        self.writes = Writes(rate)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._turn = 0

    def __enter__(self) -> Writer:
        self.writes = Writes(self.rate)
        self._stop.clear()
        if self.rate > 0:
            self._thread = threading.Thread(target=lambda: asyncio.run(self._run()), daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=60)
            self._thread = None

    def _next(self) -> tuple[str, dict[str, Any]]:
        """The next command of the rotation: (command code, body)."""
        self._turn += 1
        kind = ("create", "rename", "status", "delete")[self._turn % 4]
        if kind == "create" or len(self.pids) < 2:
            # Unique across writers of one database: each writer of a run starts its rotation afresh.
            serial = f"{self._turn:06d}-{secrets.token_hex(4)}"
            status = self.rng.choice(STATUSES)
            payload = {"name": f"{self.rng.choice(self.kinds)} #W{serial}", "serialNo": f"BW-SN-{serial}",
                       "status": status, "value": round(self.rng.uniform(50, 5000), 2)}
            if status == "assigned":
                payload["assignee"] = "writer"
            return "create", {"payload": payload}
        pid = self.rng.choice(self.pids)
        if kind == "delete":
            self.pids.remove(pid)
            return "delete", {"operationType": "DELETE", "targetRecordId": pid}
        if kind == "rename":
            payload = {"name": f"{self.rng.choice(self.kinds)} #R{self._turn:06d}"}
        else:
            payload = {"status": self.rng.choice(("in_stock", "retired"))}
        return kind, {"operationType": "UPDATE", "targetRecordId": pid, "payload": payload}

    async def _run(self) -> None:
        interval = 1.0 / self.rate
        async with httpx.AsyncClient(timeout=30.0) as client:
            due = time.perf_counter()
            while not self._stop.is_set():
                kind, body = self._next()
                command = {"rename": "update", "status": "update"}.get(kind, kind)
                started = time.perf_counter()
                try:
                    response = await client.post(
                        f"{self.base_url}/api/meta/commands/execute/{self.page_key}:{command}",
                        headers=self.headers, json=body)
                    ok = response.status_code == 200 and response.json().get("code") == "0"
                    problem = None if ok else f"{kind}: HTTP {response.status_code} {response.text[:200]}"
                except httpx.HTTPError as exc:
                    problem = f"{kind}: {type(exc).__name__}: {exc}"
                self.writes.sent += 1
                self.writes.by_kind[kind] = self.writes.by_kind.get(kind, 0) + 1
                if problem is None:
                    self.writes.latencies.append(time.perf_counter() - started)
                else:
                    self.writes.failed += 1
                    self.writes.samples.append(problem)
                due += interval
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
