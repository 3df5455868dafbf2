"""Background work: webhook fan-out and delivery, automation dispatch and runs, retention, and the
announcements of credentials past the rotation baseline or near their maximum age.

One ``Worker.run_once`` pass does each step once; ``run_forever`` repeats it until ``stop``,
sleeping ``TESSERA_WORKER_POLL_SECONDS`` when a pass found nothing to do. A worker is a task on an
event loop and uses the same async data path as requests: ``tessera serve`` runs one on its loop
(unless ``TESSERA_WORKERS_IN_PROCESS=false``, or with ``--workers N`` above 1, where one separate
worker process serves them all) and ``tessera worker --tasks N`` runs N as a process of their own.
Several workers on PostgreSQL share the work through leases claimed with ``FOR UPDATE SKIP
LOCKED``; on SQLite the single writer lock serializes claims.

A worker made with a ``tenant_id`` serves only that tenant's queues (its outbox events,
deliveries, inbound events and automation runs: a drain of one tenant, as the tests use) and
runs no retention purge, which is the whole database's.

When the database cannot be reached (``DatabaseUnavailable``) the worker pauses: it says so once
(``worker.paused``), tries a pass each poll interval, and says ``worker.resumed`` after the first
pass that succeeds. Nothing is lost or done twice across the pause: work waits in the outbox and
the queues, and a lease taken before the outage lapses and is claimed again (a delivery sent but
not recorded is sent again with the same delivery id, and its attempt reads ``unknown``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import socket

from storage.drivers.engine import DatabaseUnavailable
from tessera.automations import runner as automations
from tessera.background import retention
from tessera.openplatform.identity import hygiene
from tessera.runtime import Runtime
from tessera.webhooks import sending as deliveries

log = logging.getLogger("tessera.worker")
_numbers = itertools.count()
WORK_CHANNEL = "tessera_work"  # the NOTIFY channel of storage/schema/migrations 0006's triggers


class Worker:
    def __init__(self, runtime: Runtime, poll_seconds: float | None = None, *, tenant_id: int | None = None) -> None:
        self.runtime = runtime
        self.tenant_id = tenant_id  # None: every tenant's work
        self.poll_seconds = runtime.settings.worker_poll_seconds if poll_seconds is None else poll_seconds
        # Recorded with every delivery attempt, so an operator can tell which process made it.
        self.name = f"{socket.gethostname()}:{os.getpid()}/{next(_numbers)}"
        self.sender = deliveries.Sender(runtime.settings.webhook_timeout_seconds)
        self._stopped = False
        self._wake: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.paused = False  # the last pass found the database unreachable
        self._listener: asyncio.Task[None] | None = None
        # The retention purge: at most once per TESSERA_RETENTION_INTERVAL_SECONDS of rt.clock.
        self.retention = retention.Schedule(runtime)
        # Credentials past the rotation baseline or near their maximum age, announced once: on the
        # first pass, then every TESSERA_CREDENTIAL_CHECK_INTERVAL_SECONDS of rt.clock.
        self.credentials = hygiene.Schedule(runtime)

    async def run_once(self) -> int:
        """One pass over every queue; returns how much work it did."""
        rt, tenant = self.runtime, self.tenant_id
        await self.credentials.run_if_due(tenant_id=tenant)  # its events are fanned out just below
        done = await deliveries.dispatch(rt, tenant_id=tenant)
        done += await automations.dispatch(rt, tenant_id=tenant)
        done += await automations.run_due(rt, tenant_id=tenant)
        done += await deliveries.dispatch(rt, tenant_id=tenant)  # events the automations just emitted
        done += await deliveries.deliver_due(rt, self.sender, worker=self.name, tenant_id=tenant)
        if tenant is None:
            done += await self.retention.run_if_due()
        return done

    async def run_forever(self) -> None:
        """Passes until stopped. Between passes it sleeps until woken: by this process's services
        as they commit work (``rt.work``), by PostgreSQL's NOTIFY for any process's commits, or
        by the poll interval, the fallback."""
        self._loop = asyncio.get_running_loop()
        self._wake = self.runtime.work.subscribe()
        if self.runtime.db.dialect == "postgresql":
            self._listener = self._loop.create_task(self._listen(self._wake), name="tessera-worker-listen")
        log.info("worker.started", extra={"worker": self.name})
        try:
            while not self._stopped:
                busy = await self.guarded_pass()
                if not busy and not self._stopped:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._wake.wait(), self._idle_seconds())
                self._wake.clear()
        finally:
            self.runtime.work.unsubscribe(self._wake)
            if self._listener is not None:
                self._listener.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._listener
            await self.sender.close()
            log.info("worker.stopped", extra={"worker": self.name})

    async def guarded_pass(self) -> int:
        """One pass that never raises: an unreachable database pauses the worker (said once per
        outage), any other failure is logged with its trace; either way the next pass tries again."""
        try:
            done = await self.run_once()
        except DatabaseUnavailable:
            if not self.paused:
                self.paused = True
                log.warning("worker.paused", extra={"worker": self.name, "reason": "database unavailable"})
            return 0
        except Exception:
            log.exception("worker.pass_failed")
            return 0
        if self.paused:
            self.paused = False
            log.info("worker.resumed", extra={"worker": self.name})
        return done

    def _idle_seconds(self) -> float:
        """The poll interval, or less when a rate-limited delivery is due sooner."""
        wake_at = self.sender.wake_at
        if wake_at is None:
            return self.poll_seconds
        remaining = (wake_at - self.runtime.clock.now()).total_seconds()
        if remaining <= 0:  # its time has come: one pass now, then the poll again
            self.sender.wake_at = None
            return 0.0
        return min(self.poll_seconds, remaining)

    async def _listen(self, wake: asyncio.Event) -> None:
        """Set ``wake`` whenever PostgreSQL says work was committed (reconnecting after failures)."""
        notifications = getattr(self.runtime.db, "notifications", None)
        if notifications is None:
            return
        while not self._stopped:
            try:
                async for _ in notifications(WORK_CHANNEL):
                    wake.set()
            except Exception as exc:  # a restart of the database: poll meanwhile, listen again
                log.warning("worker.listen_failed", extra={"error": type(exc).__name__})
                await asyncio.sleep(1.0)

    def stop(self) -> None:
        """Ask ``run_forever`` to end after its current pass (from any thread or a signal)."""
        self._stopped = True
        if self._loop is not None and self._wake is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._wake.set)
