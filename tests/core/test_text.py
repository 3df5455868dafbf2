"""The documents' patterns say what the service's checks do: text, pids, cursors, UTC timestamps.

Each pattern is compared with the check it states, character by character where that is finite,
with Python's ``re`` (Connexion's reading) and a Rust engine (``jsonschema_rs``, Schemathesis' and
many tools' reading) alike.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import jsonschema_rs
import pytest

from tessera.core.clock import FrozenClock
from tessera.core.crypto import SEALED_MIN_LENGTH, SEALED_PATTERN, SealedBox
from tessera.core.ids import new_pid, pid_pattern
from tessera.core.text import (
    NONBLANK_TEXT_PATTERN,
    STORABLE_TEXT_PATTERN,
    WHITESPACE,
    nonblank_text,
    storable,
    storable_text,
)
from tessera.core.timestamps import UTC_TIMESTAMP_PATTERN
from tessera.inbound.events import _occurred_at

EVERY_BMP_CHARACTER = [chr(code) for code in range(0x10000) if not 0xD800 <= code <= 0xDFFF]


def readers(pattern: str, **schema: object) -> list[object]:
    rust = jsonschema_rs.validator_for({"type": "string", "pattern": pattern, **schema})
    python = re.compile(pattern)
    return [rust.is_valid, lambda value: bool(python.search(value))]


@pytest.mark.parametrize("reader", readers(STORABLE_TEXT_PATTERN))
def test_the_storable_text_pattern_refuses_exactly_nul(reader: object) -> None:
    for char in [*EVERY_BMP_CHARACTER, "\U0001f600"]:
        assert reader(f"a{char}b") is storable_text(f"a{char}b"), repr(char)  # type: ignore[operator]


@pytest.mark.parametrize("reader", readers(NONBLANK_TEXT_PATTERN))
def test_the_nonblank_pattern_refuses_exactly_blanks_and_nul(reader: object) -> None:
    for char in [*EVERY_BMP_CHARACTER, "\U0001f600"]:
        for value in (char, f" {char}\t", f"{char}{char}"):
            assert reader(value) is nonblank_text(value), repr(value)  # type: ignore[operator]
    assert reader("") is False  # type: ignore[operator]
    assert reader(WHITESPACE) is False  # type: ignore[operator]


def test_no_whitespace_lies_outside_the_bmp() -> None:
    # WHITESPACE is computed over the BMP only; the patterns would miss an astral one.
    assert not [code for code in range(0x10000, 0x110000) if chr(code).isspace()]


def test_lone_surrogates_are_refused_by_the_check_the_pattern_cannot_state() -> None:
    assert not storable_text("a\ud800b") and not nonblank_text("\udfff")


@pytest.mark.parametrize("reader", readers(pid_pattern("rec")))
def test_the_pid_pattern_fits_every_pid_and_nothing_shorter(reader: object) -> None:
    for _ in range(200):
        assert reader(new_pid("rec"))  # type: ignore[operator]
    for wrong in ("rec_" + "0" * 25, "rec_" + "0" * 27, "ins_" + "0" * 26, "rec_" + "i" * 26, "0"):
        assert not reader(wrong), wrong  # type: ignore[operator]


@pytest.mark.parametrize("reader", readers(SEALED_PATTERN))
def test_the_cursor_pattern_fits_every_sealed_value(reader: object) -> None:
    box = SealedBox(b"k" * 32, FrozenClock(datetime(2026, 11, 22, tzinfo=UTC)))
    for size in range(0, 120, 7):
        sealed = box.seal(b"x" * size)
        assert reader(sealed) and len(sealed) >= SEALED_MIN_LENGTH, sealed  # type: ignore[operator]
    for wrong in ("0", "3k=O", "gAAAAA" + "A" * 93, "gAAAAA" + "A" * 94 + "=" * 3, "hAAAAA" + "A" * 94):
        assert not reader(wrong) or len(wrong) < SEALED_MIN_LENGTH, wrong  # type: ignore[operator]


@pytest.mark.parametrize(
    ("value", "accepted"),
    [
        ("2026-11-22T08:00:00Z", True),
        ("2026-11-22T08:00:00.123456789Z", True),
        ("2026-11-22T08:00:00+00:00", True),
        ("2026-11-22T08:00:00-00:00", True),
        ("2026-11-22T08:00:00+02:00", False),
        ("2026-11-22t08:00:00z", False),
        ("2026-11-22 08:00:00Z", False),
        ("20261122T080000Z", False),
        ("2026-11-22T08:00:00Z\n", False),
        ("2026-02-30T08:00:00Z", None),  # the pattern admits it; `format: date-time` and the service refuse it
    ],
)
@pytest.mark.rule("op.event-body.occurred-at")
def test_occurred_at_is_accepted_exactly_where_the_document_says(value: str, accepted: bool | None) -> None:
    errors: dict[str, object] = {}
    service = _occurred_at(value, errors) is not None  # type: ignore[arg-type]
    document = jsonschema_rs.validator_for(
        {"type": "string", "format": "date-time", "pattern": UTC_TIMESTAMP_PATTERN}, validate_formats=True,
    ).is_valid(value)
    assert service is document
    if accepted is not None:
        assert service is accepted


@pytest.mark.parametrize(("given", "kept"), [
    ("/plain/path", "/plain/path"),
    ("/a\x00b", "/a%00b"),
    ("/\ud800x", "/%ED%A0%80x"),
    ("/caf\u00e9\x00", "/caf\u00e9%00"),
])
def test_storable_escapes_exactly_what_no_backend_can_store(given: str, kept: str) -> None:
    assert storable(given) == kept
    assert storable_text(storable(given))
