"""Credential hygiene: the age of each credential, the rotation baseline and the optional maximum age.

The specification makes 90-day rotation the baseline. A credential in use (active, not rotated) is
*rotation due* once it is ``TESSERA_CREDENTIAL_ROTATION_DAYS`` (90) days old: the administration
lists show it beside its age, the metrics count such credentials per tenant, and a worker announces
it once, to the application's webhook endpoints that subscribe to ``credential.rotation.due`` and in
the audit log its owners read in the console. Rotating the credential (a new one with a grace
window) is what clears it; nothing is refused for being due.

``TESSERA_CREDENTIAL_MAX_AGE_DAYS`` (0: none, the default) is a hard limit: a credential that old
stops obtaining tokens (``invalid_client``, like an expired grace window; tokens it already obtained
live out their own lifetime) and is listed as ``expired``. It is announced
``TESSERA_CREDENTIAL_EXPIRY_NOTICE_DAYS`` (14) days before (``credential.expiry.approaching``; at
once when a maximum set later is already near or past), and the end itself is audited
(``credential.expire``). The refusal is decided by the clock at the token request, never by the
worker, so a late worker cannot let an old credential through.

Each announcement is noted on the credential's row (migration 0011) in the transaction that writes
its audit entry and outbox event, with a conditional update: two workers announce it once.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from storage import audit, outbox
from storage.drivers.engine import DatabaseUnavailable, Executor
from storage.openplatform import credentials as store
from storage.openplatform.credentials import CredentialWithInstallationRow, CrossingRow
from tessera.core.clock import iso
from tessera.core.settings import Settings
from tessera.registry.operational import CREDENTIAL_EXPIRY_APPROACHING, CREDENTIAL_ROTATION_DUE
from tessera.runtime import Runtime

log = logging.getLogger("tessera.credentials")

ACTOR = "system:credentials"
DAY = timedelta(days=1)


def rotation_born_before(settings: Settings, now: datetime) -> datetime:
    """A credential created at or before this is past the rotation baseline at ``now``."""
    return now - timedelta(days=settings.credential_rotation_days)


def max_age_born_before(settings: Settings, now: datetime) -> datetime | None:
    """A credential created at or before this is past the maximum age at ``now`` (None: no maximum)."""
    days = settings.credential_max_age_days
    return now - timedelta(days=days) if days else None


def notice_born_before(settings: Settings, now: datetime) -> datetime | None:
    """A credential created at or before this is told its maximum age is near (None: no maximum)."""
    days = settings.credential_max_age_days
    if not days:
        return None
    return now - timedelta(days=max(days - settings.credential_expiry_notice_days, 0))


def past_max_age(settings: Settings, created_at: datetime, now: datetime) -> bool:
    """Whether a credential created at ``created_at`` may no longer obtain tokens at ``now``."""
    born_before = max_age_born_before(settings, now)
    return born_before is not None and created_at <= born_before


def usable(settings: Settings, cred: CredentialWithInstallationRow, now: datetime) -> bool:
    """Whether a credential may authenticate at ``now`` at all, whatever it presents: active, of an
    enabled installation of an active application, inside its grace window if it has one, and
    younger than the maximum age."""
    return cred.status == "active" and cred.inst_status == "enabled" and cred.app_status == "active" \
        and (cred.expires_at is None or now < cred.expires_at) and not past_max_age(settings, cred.created_at, now)


def age_fields(settings: Settings, created_at: datetime, in_use: bool, now: datetime) -> dict[str, Any]:
    """What a credential's record says of its age: ``ageDays`` (whole days), ``rotationDueAt``,
    ``rotationDue`` (a credential in use past the baseline) and ``maxAgeExpiresAt`` (null
    without a maximum age)."""
    due_at = created_at + timedelta(days=settings.credential_rotation_days)
    days = settings.credential_max_age_days
    return {
        "ageDays": max((now - created_at) // DAY, 0),
        "rotationDueAt": iso(due_at),
        "rotationDue": in_use and now >= due_at,
        "maxAgeExpiresAt": iso(created_at + timedelta(days=days)) if days else None,
    }


def _payload(row: CrossingRow) -> dict[str, Any]:
    return {"clientId": row.client_id, "installationId": row.installation_pid, "applicationId": row.application_pid,
            "createdAt": iso(row.created_at)}


async def _announce(conn: Executor, row: CrossingRow, column: str, *, action: str, event: str | None,
                    data: dict[str, Any], now: datetime, before: dict[str, Any] | None = None) -> bool:
    """Note the line crossed, audit it and (for ``event``) queue the operational event, once."""
    if not await store.mark_announced(conn, row.id, column, now):
        return False
    await audit.append(conn, tenant_id=row.tenant_id, actor_user_id=None, actor=ACTOR, action=action,
                       target_type="credential", target_id=row.client_id, before=before, after=data,
                       request_id=None, application_id=row.application_id, now=now)
    if event is not None:
        await outbox.append(conn, tenant_id=row.tenant_id, event_type=event, request_id=None,
                            payload={**_payload(row), **data}, now=now, application_id=row.application_id)
    log.info("credential.announced", extra={"clientId": row.client_id, "action": action})
    return True


async def announce(rt: Runtime, now: datetime, *, tenant_id: int | None = None) -> int:
    """Announce every credential (of ``tenant_id``, or all) that crossed a line since the last
    pass; returns how many announcements were made."""
    settings = rt.settings
    rotation_before = rotation_born_before(settings, now)
    notice_before = notice_born_before(settings, now)
    max_age_before = max_age_born_before(settings, now)
    made = 0
    async with rt.db.read() as conn:  # most passes find nothing, and take no writer's lock for it
        rows = await store.crossing(conn, rotation_before=rotation_before, notice_before=notice_before,
                                    max_age_before=max_age_before, tenant_id=tenant_id)
    if not rows:
        return 0
    async with rt.db.write() as conn:
        for row in rows:
            made += await _announce_rotation(conn, settings, row, rotation_before, now)
            if notice_before is not None and max_age_before is not None:
                made += await _announce_max_age(conn, settings, row, notice_before, max_age_before, now)
    if made:
        rt.work.notify()
    return made


async def _announce_rotation(conn: Executor, settings: Settings, row: CrossingRow, rotation_before: datetime,
                             now: datetime) -> int:
    """The rotation baseline: announced once the credential is old enough (``rotation_before``)."""
    if row.rotation_due_announced_at is None and row.created_at <= rotation_before:
        return int(await _announce(
            conn, row, store.ROTATION_DUE, action="credential.rotation_due", event=CREDENTIAL_ROTATION_DUE,
            data={"rotationDays": settings.credential_rotation_days,
                  "rotationDueAt": iso(row.created_at + timedelta(days=settings.credential_rotation_days))},
            now=now))
    return 0


async def _announce_max_age(conn: Executor, settings: Settings, row: CrossingRow, notice_before: datetime,
                            max_age_before: datetime, now: datetime) -> int:
    """The maximum age (when one is set): its approach announced once the notice period began
    (``notice_before``), and its end audited once it is reached (``max_age_before``)."""
    made = 0
    expires_at = iso(row.created_at + timedelta(days=settings.credential_max_age_days))
    if row.expiry_announced_at is None and row.created_at <= notice_before:
        made += await _announce(
            conn, row, store.EXPIRY_APPROACHING, action="credential.expiry_approaching",
            event=CREDENTIAL_EXPIRY_APPROACHING,
            data={"maxAgeDays": settings.credential_max_age_days, "expiresAt": expires_at}, now=now)
    if row.aged_out_at is None and row.created_at <= max_age_before:
        made += await _announce(
            conn, row, store.AGED_OUT, action="credential.expire", event=None, before={"status": "active"},
            data={"status": "expired", "reason": "maximum age", "maxAgeDays": settings.credential_max_age_days,
                  "expiresAt": expires_at}, now=now)
    return made


class Schedule:
    """When a worker looks for credentials that crossed a line: on its first pass, then every
    ``TESSERA_CREDENTIAL_CHECK_INTERVAL_SECONDS`` (1 hour) by the runtime's clock."""

    def __init__(self, rt: Runtime) -> None:
        self.runtime = rt
        self.interval = timedelta(seconds=rt.settings.credential_check_interval_seconds)
        self.next_at = rt.clock.now()

    async def run_if_due(self, *, tenant_id: int | None = None) -> int:
        """Announce what is due if it is time; the announcements made."""
        rt = self.runtime
        now = rt.clock.now()
        if now < self.next_at:
            return 0
        self.next_at = now + self.interval
        try:
            return await announce(rt, now, tenant_id=tenant_id)
        except DatabaseUnavailable:
            self.next_at = now  # the worker pauses; the next pass after the outage tries again
            raise
        except Exception:  # one failed check: the next comes an interval later
            log.exception("credential.check_failed")
            return 0
