"""The ``clock`` fixture's teardown: rows a test wrote after moving the clock are brought back to the
present, and rows made before the test keep their timestamps (tests/support/moved_time.py)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select

from storage.schema.tables import tenants
from tessera.core.clock import ShiftedClock
from tests.conftest import Env
from tests.support import moved_time

MONTH = 30 * 86400.0


def _created_at(env: Env, tenant_id: int) -> datetime:
    with env.sql.connect() as conn:
        return conn.execute(select(tenants.c.created_at).where(tenants.c.id == tenant_id)).scalar_one()


def test_rows_made_after_the_clock_moved_are_brought_back_to_the_present(env: Env, clock: ShiftedClock) -> None:
    before = moved_time.marks(env.sql)
    clock.advance(MONTH)
    made = env.new_tenant()
    clock.reset()
    now = clock.now()
    assert _created_at(env, made.tenant_id) > now
    assert moved_time.bring_back(env.sql, before, now) >= 1
    assert _created_at(env, made.tenant_id) == now


def test_rows_made_before_the_marks_keep_their_timestamps(env: Env, clock: ShiftedClock) -> None:
    clock.advance(MONTH)
    earlier = env.new_tenant()
    after_it = moved_time.marks(env.sql)
    clock.reset()
    moved_time.bring_back(env.sql, after_it, clock.now())
    assert _created_at(env, earlier.tenant_id) > clock.now()  # the fixture's own teardown brings it back
