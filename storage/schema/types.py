"""Column types that behave the same on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, BigInteger, DateTime, Integer
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.types import TypeDecorator

# SQLite only auto-increments an INTEGER PRIMARY KEY; PostgreSQL gets a real bigint.
BigId = BigInteger().with_variant(Integer(), "sqlite")

# JSONB on PostgreSQL (indexable, binary), plain JSON text on SQLite.
JsonDoc = JSON().with_variant(JSONB(), "postgresql")


class UTCDateTime(TypeDecorator[datetime]):
    """Stores naive UTC, returns aware UTC: one representation on both databases."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(
        self,
        value: datetime | None,
        dialect: Any,  # noqa: ARG002 - TypeDecorator's signature; same conversion on every dialect
    ) -> datetime | None:
        """To the naive UTC the column stores; a naive value is refused rather than guessed at."""
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetimes are not accepted; use aware UTC values")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(
        self,
        value: datetime | None,
        dialect: Any,  # noqa: ARG002 - TypeDecorator's signature; same conversion on every dialect
    ) -> datetime | None:
        """Back to aware UTC: the column holds naive UTC."""
        if value is None:
            return None
        return value.replace(tzinfo=UTC)
