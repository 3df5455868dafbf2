"""The date-times the documents state are exactly the ones the service reads (``tessera.core.timestamps``).

Each edge is read three ways: by the service's parser, by a Rust JSON Schema engine (``jsonschema_rs``,
Schemathesis' and many tools' reading of ``format`` and ``pattern``, ECMA-262 as JSON Schema says) and
by Python's ``jsonschema`` (Connexion's reading). The three agree on every value but one kind, named
below, where Python's regular expressions part from ECMA-262's.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import jsonschema
import jsonschema_rs
import pytest

from tessera.core.timestamps import TIMESTAMP_PATTERN, UTC_TIMESTAMP_PATTERN, parse_timestamp, parse_utc_timestamp

# (value, whether the service reads it), for TIMESTAMP_PATTERN.
ZONED_EDGES = [
    ("2026-11-22T08:00:00Z", True),
    ("0001-01-01T00:00:00Z", True),                  # the first year
    ("0000-01-01T00:00:00Z", False),                 # year 0 does not exist
    ("9999-12-31T23:59:59.999Z", True),              # the last year
    ("2016-12-31T23:59:60Z", False),                 # a leap second: RFC 3339 has it, the stored form cannot
    ("2026-11-22T23:59:60+00:00", False),
    ("2024-02-29T12:00:00Z", True),                  # a leap day
    ("2023-02-29T12:00:00Z", False),                 # ... in a year without one
    ("2026-02-30T08:00:00Z", False),
    ("2026-13-01T08:00:00Z", False),
    ("2026-11-22T24:00:00Z", False),
    ("2026-11-22T08:00:00+14:00", True),             # offsets, both ways, to the minute
    ("2026-11-22T08:00:00-12:00", True),
    ("2026-11-22T08:00:00+05:45", True),
    ("2026-11-22T08:00:00+23:59", True),
    ("2026-11-22T08:00:00+24:00", False),
    ("2026-11-22T08:00:00-00:00", True),
    ("2026-11-22T08:00:00+0100", False),             # not RFC 3339
    ("2026-11-22T08:00:00+01", False),
    ("2026-11-22T08:00:00", False),                  # no offset: not an instant
    ("0001-01-01T00:00:00+01:00", False),            # before year 1 in UTC
    ("0001-06-01T00:00:00-01:00", False),            # an offset keeps years 0002 to 9998
    ("0002-01-01T00:00:00+01:00", True),
    ("9999-12-31T23:00:00-01:00", False),            # after 9999 in UTC
    ("9998-12-31T23:00:00-01:00", True),
    ("2026-11-22T08:00:00.5Z", True),                # fractions: any number of digits
    ("2026-11-22T08:00:00.123456789123456789Z", True),
    ("2026-11-22T08:00:00.Z", False),
    ("2026-11-22t08:00:00z", True),                  # RFC 3339 allows T and Z in lower case
    ("2026-11-22 08:00:00Z", False),
    ("20261122T080000Z", False),
    (" 2026-11-22T08:00:00Z", False),
    ("2026-11-22T08:00:00Z\n", False),
    ("2026-11-22T08:00Z", False),
    ("\uff12026-11-22T08:00:00Z", False),          # a full-width digit
]

# (value, whether the service reads it), for UTC_TIMESTAMP_PATTERN.
UTC_EDGES = [
    ("2026-11-22T08:00:00Z", True),
    ("2026-11-22T08:00:00+00:00", True),
    ("2026-11-22T08:00:00-00:00", True),
    ("0001-01-01T00:00:00Z", True),
    ("0000-01-01T00:00:00Z", False),
    ("9999-12-31T23:59:59.999999999Z", True),
    ("2016-12-31T23:59:60Z", False),
    ("2026-02-30T08:00:00Z", False),
    ("2026-11-22T08:00:00+02:00", False),
    ("2026-11-22t08:00:00z", False),
    ("2026-11-22T08:00:00Z\n", False),
]


def trails_a_newline(value: str) -> bool:
    """A value Python's jsonschema admits against JSON Schema's ECMA-262 reading: its ``re`` lets ``$``
    match before a final newline, and its date-time format check is a regular expression ending in
    ``$`` too. The service refuses such a value (400 naming the field), as the ECMA reading does."""
    return value.endswith("\n") and parse_timestamp(value[:-1]) is not None


def document_reads(pattern: str, value: str) -> tuple[bool, bool]:
    """Whether the document's schema admits ``value``, by the Rust engine and by Python's jsonschema."""
    schema = {"type": "string", "format": "date-time", "pattern": pattern}
    rust = jsonschema_rs.validator_for(schema, validate_formats=True).is_valid(value)
    python = jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker()).is_valid(value)
    return rust, python


@pytest.mark.parametrize(("value", "read"), ZONED_EDGES)
def test_the_zoned_pattern_admits_exactly_the_date_times_the_service_reads(value: str, read: bool) -> None:
    assert (parse_timestamp(value) is not None) is read
    assert document_reads(TIMESTAMP_PATTERN, value) == (read, read or trails_a_newline(value))


@pytest.mark.parametrize(("value", "read"), UTC_EDGES)
def test_the_utc_pattern_admits_exactly_the_date_times_the_service_reads(value: str, read: bool) -> None:
    assert (parse_utc_timestamp(value) is not None) is read
    assert document_reads(UTC_TIMESTAMP_PATTERN, value) == (read, read or trails_a_newline(value))


def test_a_zoned_date_time_is_read_as_its_instant_in_utc() -> None:
    assert parse_timestamp("2026-01-01T01:30:00+02:00") == datetime(2025, 12, 31, 23, 30, tzinfo=UTC)
    assert parse_timestamp("0002-01-01T00:30:00+01:00") == datetime(1, 12, 31, 23, 30, tzinfo=UTC)
    assert parse_timestamp("2026-11-22t08:00:00.1234567z") == datetime(2026, 11, 22, 8, 0, 0, 123456, tzinfo=UTC)


def test_every_year_the_zoned_pattern_admits_with_an_offset_stays_within_utc_years() -> None:
    """The pattern's years against the offsets that move an instant furthest: every value it admits
    is read (none overflows past year 1 or 9999 in UTC, which would raise), and none it refuses is."""
    compiled = re.compile(TIMESTAMP_PATTERN)
    for year in range(10000):
        for moment, offset in (("01-01T00:00:00", "+23:59"), ("12-31T23:59:59", "-23:59")):
            value = f"{year:04d}-{moment}{offset}"
            assert bool(compiled.fullmatch(value)) is (parse_timestamp(value) is not None), value
