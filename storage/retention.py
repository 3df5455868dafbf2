"""Retention: the statements that delete rows past their period, one bounded batch at a time.

Every rule is one statement that deletes at most ``limit`` rows, chosen by primary key::

    DELETE FROM t WHERE t.id IN (SELECT old.id FROM t AS old WHERE <rule> LIMIT :limit) AND <rule>

which runs unchanged on SQLite and PostgreSQL (neither needs ``DELETE ... LIMIT``). The rule is
checked again on the deleted row itself: on PostgreSQL a row changed between the choice and the
delete (a delivery replayed, a key claimed afresh) is re-read and kept if it no longer qualifies.

A row is only deleted once nothing references it, so no foreign key is ever violated and nothing
cascades: attempts go before their delivery, deliveries before their outbox event, automation runs
before their inbound event (a pass runs the rules in that order). Which period applies to which
rule, and the periods themselves, are the caller's (``tessera.background.retention``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, Table, bindparam, delete, exists, select
from sqlalchemy.sql import FromClause
from sqlalchemy.sql.elements import BindParameter

from storage.drivers.engine import Executor, Row, Statement
from storage.schema.tables import (
    access_tokens,
    automation_runs,
    client_assertion_jtis,
    credentials,
    deliveries,
    delivery_attempts,
    idempotency_keys,
    inbound_events,
    open_api_calls,
    open_idempotency_keys,
    outbox_events,
)

# Which period a rule's ``cutoff`` is computed from.
IDEMPOTENCY = "idempotency"
TOKENS = "tokens"
CALL_AUDIT = "call_audit"
DELIVERY_ATTEMPTS = "delivery_attempts"
EVENTS = "events"
ASSERTIONS = "assertions"  # used client-assertion jtis: kept only until the assertion expired

FINISHED_DELIVERIES = ("delivered", "dead")  # "pending" and "retrying" are still at work
SUCCEEDED_RUN = "succeeded"  # a parked run waits for an administrator: never purged

Where = Callable[[FromClause], list[ColumnElement[bool]]]

_CUTOFF: BindParameter[datetime] = bindparam("cutoff")
_NOW: BindParameter[datetime] = bindparam("now")


@dataclass(frozen=True)
class Rule:
    """One kind of row that goes: the count it adds to (its table), its period, its statement."""

    table: str
    period: str
    statement: Statement[Row]  # a DELETE: only its rowcount is read


def _rule(table: Table, period: str, where: Where) -> Rule:
    old = table.alias("old")
    chosen = select(old.c.id).where(*where(old)).limit(bindparam("limit"))
    return Rule(table.name, period, Statement(delete(table).where(table.c.id.in_(chosen), *where(table))))


def _idempotency_keys(t: FromClause) -> list[ColumnElement[bool]]:
    return [t.c.created_at < _CUTOFF]


def _open_idempotency_keys(t: FromClause) -> list[ColumnElement[bool]]:
    # A claim whose lease still runs belongs to a command still running (in theory): kept.
    return [t.c.created_at < _CUTOFF, t.c.locked_until < _NOW]


def _expired_tokens(t: FromClause) -> list[ColumnElement[bool]]:
    return [t.c.expires_at < _CUTOFF]


def _revoked_tokens(t: FromClause) -> list[ColumnElement[bool]]:
    revoked = select(credentials.c.id).where(credentials.c.status == "revoked", credentials.c.revoked_at < _CUTOFF)
    return [t.c.credential_id.in_(revoked)]


def _used_jtis(t: FromClause) -> list[ColumnElement[bool]]:
    return [t.c.expires_at < _CUTOFF]


def _calls(t: FromClause) -> list[ColumnElement[bool]]:
    return [t.c.created_at < _CUTOFF]


def _attempts(t: FromClause) -> list[ColumnElement[bool]]:
    return [t.c.attempted_at < _CUTOFF]


def _deliveries(t: FromClause) -> list[ColumnElement[bool]]:
    # A delivery is made after its event was dispatched, so ``updated_at < cutoff`` implies the
    # event's ``dispatched_at < cutoff``: the event condition changes nothing but lets the
    # database start from the few old events (ix_outbox_events_pending) instead of every delivery.
    old_events = select(outbox_events.c.id).where(outbox_events.c.dispatched_at < _CUTOFF)
    return [t.c.event_id.in_(old_events), t.c.status.in_(FINISHED_DELIVERIES), t.c.updated_at < _CUTOFF,
            ~exists().where(delivery_attempts.c.delivery_id == t.c.id)]


def _outbox_events(t: FromClause) -> list[ColumnElement[bool]]:
    return [t.c.dispatched_at < _CUTOFF, ~exists().where(deliveries.c.event_id == t.c.id)]


def _runs(t: FromClause) -> list[ColumnElement[bool]]:
    old_events = select(inbound_events.c.id).where(inbound_events.c.dispatched_at < _CUTOFF)
    return [t.c.inbound_event_id.in_(old_events), t.c.status == SUCCEEDED_RUN, t.c.updated_at < _CUTOFF]


def _inbound_events(t: FromClause) -> list[ColumnElement[bool]]:
    return [t.c.dispatched_at < _CUTOFF, ~exists().where(automation_runs.c.inbound_event_id == t.c.id)]


# In the order a pass runs them: what references a row goes before the row.
RULES: tuple[Rule, ...] = (
    _rule(idempotency_keys, IDEMPOTENCY, _idempotency_keys),
    _rule(open_idempotency_keys, IDEMPOTENCY, _open_idempotency_keys),
    _rule(access_tokens, TOKENS, _expired_tokens),
    _rule(access_tokens, TOKENS, _revoked_tokens),
    _rule(client_assertion_jtis, ASSERTIONS, _used_jtis),
    _rule(open_api_calls, CALL_AUDIT, _calls),
    _rule(delivery_attempts, DELIVERY_ATTEMPTS, _attempts),
    _rule(deliveries, EVENTS, _deliveries),
    _rule(outbox_events, EVENTS, _outbox_events),
    _rule(automation_runs, EVENTS, _runs),
    _rule(inbound_events, EVENTS, _inbound_events),
)


async def purge_batch(conn: Executor, rule: Rule, *, cutoff: datetime, now: datetime, limit: int) -> int:
    """Delete at most ``limit`` rows the rule finds older than ``cutoff``; how many went."""
    result = await conn.execute(rule.statement, {"cutoff": cutoff, "now": now, "limit": limit})
    return max(result.rowcount, 0)
