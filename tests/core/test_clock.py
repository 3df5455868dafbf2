"""The one clock: what every time rule reads, and what tests move instead of waiting."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest

from tessera.core.clock import FrozenClock, ShiftedClock, SystemClock, iso
from tessera.core.crypto import SealedBox, SessionTokens, Unreadable, derive_key

START = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def test_a_frozen_clock_stands_still_until_advanced() -> None:
    clock = FrozenClock(START)
    assert clock.now() == START and clock.time() == START.timestamp()
    clock.advance(90)
    assert clock.now() == START + timedelta(seconds=90)


def test_a_frozen_clock_refuses_a_naive_start() -> None:
    with pytest.raises(ValueError, match="aware"):
        FrozenClock(datetime(2026, 11, 23, 12, 0))


def test_a_shifted_clock_follows_the_system_plus_what_was_advanced() -> None:
    clock, system = ShiftedClock(), SystemClock()
    clock.advance(3600)
    assert clock.time() - system.time() == pytest.approx(3600, abs=5)
    clock.reset()
    assert clock.time() == pytest.approx(system.time(), abs=5)


def test_now_is_aware_utc() -> None:
    assert SystemClock().now().tzinfo is UTC
    assert ShiftedClock().now().tzinfo is UTC


def test_iso_is_utc_with_milliseconds_and_z() -> None:
    assert iso(datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)) == "2026-01-02T03:04:05.678Z"
    assert iso(datetime(2026, 1, 2, 4, 4, 5, tzinfo=timezone(timedelta(hours=1)))) == "2026-01-02T04:04:05.000+01:00"


def test_a_sealed_value_expires_by_the_injected_clock() -> None:
    clock = FrozenClock(START)
    box = SealedBox(derive_key(b"k" * 32, "test"), clock)
    sealed = box.seal(b"position")
    clock.advance(100)
    assert box.open(sealed, max_age_seconds=100) == b"position"
    clock.advance(1)
    with pytest.raises(Unreadable):
        box.open(sealed, max_age_seconds=100)


def test_a_session_jwt_expires_by_the_injected_clock() -> None:
    clock = FrozenClock(START)
    tokens = SessionTokens(derive_key(b"k" * 32, "session-jwt"), 60, clock)
    token = tokens.issue("usr_1", "demo")
    clock.advance(59)
    claims = tokens.verify(token)
    assert claims is not None and (claims.user_pid, claims.tenant_code) == ("usr_1", "demo")
    clock.advance(1)
    assert tokens.verify(token) is None
