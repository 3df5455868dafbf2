"""The date-times the service reads, stated once as patterns the documents publish.

Every `format: date-time` a request may carry (command payload fields, list filters, the Open
Platform's command inputs, event times, `since`/`until`) is read by one of the two parsers here,
and its schema carries the pattern beside it, so that a generator, a validator or a fuzzer reading
the document accepts exactly what the service accepts:

- ``TIMESTAMP_PATTERN``: an RFC 3339 date-time with its offset (``Z`` or ``±hh:mm``, ``T`` and
  ``Z`` in either case, any number of fraction digits, kept to the microsecond). Years 0001 to 9999;
  with an offset other than zero, 0002 to 9998, so that the instant stays within 0001 to 9999 in
  UTC, where the service stores it. No leap second (``:60``): the stored form cannot hold one.
- ``UTC_TIMESTAMP_PATTERN``: the same in UTC only (``Z``, ``+00:00`` or ``-00:00``), where the
  specification says "ISO 8601 UTC timestamp".

``format: date-time`` adds what a pattern cannot say (February 30th is no date), and the parsers
refuse that too.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

# 0001-9999, and 0002-9998 for an offset that could carry the instant past either end in UTC.
_YEAR = "(?:000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-9][0-9]{3})"
_INNER_YEAR = "(?:000[2-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-8][0-9]{3}|9[0-8][0-9]{2}|99[0-8][0-9]|999[0-8])"
_MONTH_DAY = "-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])"
_TIME = "(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?"
_ZERO_OFFSET = "(?:Z|[+-]00:00)"

UTC_TIMESTAMP_PATTERN = f"^{_YEAR}{_MONTH_DAY}T{_TIME}{_ZERO_OFFSET}$"

TIMESTAMP_PATTERN = (
    f"^(?:{_YEAR}{_MONTH_DAY}[Tt]{_TIME}(?:[Zz]|[+-]00:00)"
    f"|{_INNER_YEAR}{_MONTH_DAY}[Tt]{_TIME}[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])$"
)

_UTC_TIMESTAMP = re.compile(UTC_TIMESTAMP_PATTERN)
_TIMESTAMP = re.compile(TIMESTAMP_PATTERN)


def parse_timestamp(value: str) -> datetime | None:
    """The instant (in UTC) ``value`` names when it matches ``TIMESTAMP_PATTERN`` and is a real
    date (not February 30th); None otherwise."""
    if not _TIMESTAMP.fullmatch(value):
        return None
    return _instant(value.upper())


def parse_utc_timestamp(value: str) -> datetime | None:
    """The instant ``value`` names when it matches ``UTC_TIMESTAMP_PATTERN`` and is a real date;
    None otherwise."""
    if not _UTC_TIMESTAMP.fullmatch(value):
        return None
    return _instant(value)


def _instant(value: str) -> datetime | None:
    try:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:  # a day the month does not have
        return None
    return parsed.astimezone(UTC)  # within 0001-9999 by the patterns' years
