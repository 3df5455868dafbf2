"""Health without authentication: liveness (GET /api/health) and readiness (GET /api/health/ready).

Liveness says the process is up and serving; it checks no dependency, so a database outage never
gets a healthy process restarted. Readiness says whether it can serve now: the database answers
``SELECT 1`` and commits a write (``databaseWrite``: a read-only, full or locked store answers
reads but cannot serve commands), and Redis answers when ``TESSERA_REDIS_URL`` is set; 503 when any
does not, with ``data`` naming the check that failed.
"""

from __future__ import annotations

import asyncio
from typing import Any

from handlers.session.base import runtime
from tessera.core.i18n import N_, translate
from tessera.web.envelopes import ok

CHECK_SECONDS = 3.0  # each dependency's answer is awaited at most this long


async def health() -> tuple[dict[str, Any], int, dict[str, str]]:
    return ok({"status": "up"})


async def ready() -> tuple[dict[str, Any], int, dict[str, str]]:
    rt = runtime()
    database = await _answers(rt.db.ping())
    checks: dict[str, str] = {"database": "up" if database else "down",
                              "databaseWrite": "up" if database and await _answers(rt.db.can_write()) else "down"}
    ping = getattr(rt.rate_limiter.store, "ping", None)  # Redis; the in-process store has nothing to check
    if ping is not None:
        checks["redis"] = "up" if await _answers(ping()) else "down"
    if "down" not in checks.values():
        return ok({"status": "up", **checks})
    if checks["database"] == "down":
        message = N_("The database is not reachable.")
    elif checks["databaseWrite"] == "down":
        message = N_("The database does not accept writes.")
    else:
        message = N_("Redis is not reachable.")
    body = {"code": "SERVICE_UNAVAILABLE", "message": translate(message), "data": {"status": "down", **checks}}
    return body, 503, {}


async def _answers(check: Any) -> bool:
    try:
        return bool(await asyncio.wait_for(check, CHECK_SECONDS))
    except Exception:  # unreachable, refused, timed out: not ready
        return False
