"""Declared models as storage sees them (``storage.records.RecordModel``), for storage tests that need a
model of their own rather than one of ``models.yaml``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Field:
    type: str
    values: tuple[str, ...] = ()
    renamed_from: str | None = None


@dataclass(frozen=True)
class Model:
    code: str
    fields: Mapping[str, Field]
    searchable: tuple[str, ...] = ()
    unique: tuple[str, ...] = field(default=())
