"""Background work: webhook fan-out and delivery, automation dispatch and runs.

One ``Worker.run_once`` pass does each step once; ``run_forever`` repeats it until stopped, sleeping
``TESSERA_WORKER_POLL_SECONDS`` when a pass found nothing to do. ``tessera serve`` runs one worker
in a background thread (unless ``TESSERA_WORKERS_IN_PROCESS=false``) and ``tessera worker`` runs
them as separate processes. Several workers on PostgreSQL share the work through leases claimed
with ``FOR UPDATE SKIP LOCKED``; on SQLite the single writer lock serializes claims.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field

from tessera.events import sending as deliveries
from tessera.events.automations import runner as automations
from tessera.runtime import Runtime

log = logging.getLogger("tessera.worker")


@dataclass
class Worker:
    runtime: Runtime
    stop: threading.Event = field(default_factory=threading.Event)

    def __post_init__(self) -> None:
        self.sender = deliveries.Sender(self.runtime.settings.webhook_timeout_seconds)

    def run_once(self) -> int:
        """One pass over every queue; returns how much work it did."""
        rt = self.runtime
        done = deliveries.dispatch(rt)
        done += automations.dispatch(rt)
        done += automations.run_due(rt)
        done += deliveries.dispatch(rt)  # events the automations just emitted
        done += deliveries.deliver_due(rt, self.sender)
        return done

    def run_forever(self) -> None:
        log.info("worker.started")
        while not self.stop.is_set():
            try:
                busy = self.run_once()
            except Exception:  # an outage must not kill the worker: log, wait, try again
                log.exception("worker.pass_failed")
                busy = 0
            if not busy:
                self.stop.wait(self.runtime.settings.worker_poll_seconds)
        self.sender.close()
        log.info("worker.stopped")

    def start_thread(self) -> threading.Thread:
        thread = threading.Thread(target=self.run_forever, name="tessera-worker", daemon=True)
        thread.start()
        return thread
