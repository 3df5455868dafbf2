"""Session JWTs are verified once per process: later calls with the same token only check its expiry."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import jwt
import pytest

from tessera.core import crypto
from tessera.core.clock import FrozenClock
from tessera.core.crypto import SessionTokens, derive_key

START = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


def _tokens(clock: FrozenClock, remembered: int = 100) -> SessionTokens:
    return SessionTokens(derive_key(b"k" * 32, "session-jwt"), 60, clock, remembered)


def _decodes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    decode = jwt.decode

    def counted(token: str, *args: Any, **kwargs: Any) -> Any:
        calls.append(token)
        return decode(token, *args, **kwargs)

    monkeypatch.setattr(crypto.jwt, "decode", counted)
    return calls


def test_a_token_seen_before_is_not_decoded_again(monkeypatch: pytest.MonkeyPatch) -> None:
    tokens = _tokens(FrozenClock(START))
    token = tokens.issue("usr_1", "demo")
    decodes = _decodes(monkeypatch)
    first, second = tokens.verify(token), tokens.verify(token)
    assert first is not None and first == second
    assert decodes == [token]


def test_a_remembered_token_still_expires_by_the_clock() -> None:
    clock = FrozenClock(START)
    tokens = _tokens(clock)
    token = tokens.issue("usr_1", "demo")
    assert tokens.verify(token) is not None
    clock.advance(60)
    assert tokens.verify(token) is None


def test_a_forged_token_is_decoded_every_time_and_never_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    tokens = _tokens(FrozenClock(START))
    forged = tokens.issue("usr_1", "demo")[:-4] + "AAAA"
    decodes = _decodes(monkeypatch)
    assert tokens.verify(forged) is None
    assert tokens.verify(forged) is None
    assert decodes == [forged, forged]


def test_the_memory_is_bounded_and_forgets_the_oldest_first(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FrozenClock(START)
    tokens = _tokens(clock, remembered=2)
    first, second, third = (tokens.issue(f"usr_{n}", "demo") for n in range(3))
    for token in (first, second, third):
        assert tokens.verify(token) is not None
    decodes = _decodes(monkeypatch)
    assert tokens.verify(third) is not None and tokens.verify(second) is not None
    assert decodes == []
    assert tokens.verify(first) is not None  # forgotten, so verified again
    assert decodes == [first]
