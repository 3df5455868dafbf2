"""A new record's unique values, claimed with its insert on both databases (on PostgreSQL in the
insert's own statement): every clash is named at once, and a clash leaves nothing behind."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import func, select

from storage.records import DuplicateValues, FieldShape, RecordRepository
from storage.schema.tables import record_unique_values, records
from tests.conftest import Env, TenantUsers

AT = datetime(2026, 11, 26, 9, 0, tzinfo=UTC)


@dataclass(frozen=True)
class TwoKeys:
    """A model of its own with two unique fields, so no declared model's records are touched."""

    code: str = field(default_factory=lambda: f"twokeys{uuid.uuid4().hex[:8]}")
    fields: Mapping[str, FieldShape] = field(default_factory=dict)
    searchable: tuple[str, ...] = ()
    unique: tuple[str, ...] = ("serial", "tag")


async def _insert(env: Env, tenant_id: int, model: TwoKeys, data: dict[str, Any]) -> Any:
    async with env.runtime.db.write() as tx:
        return await RecordRepository(tx, tenant_id, model).insert(data, None, now=AT)


def _counts(env: Env, model: TwoKeys) -> tuple[int, int]:
    with env.sql.connect() as conn:
        kept = conn.execute(select(func.count()).select_from(records).where(records.c.model == model.code)).scalar()
        claims = conn.execute(select(func.count()).select_from(record_unique_values)
                              .where(record_unique_values.c.model == model.code)).scalar()
    return int(kept or 0), int(claims or 0)


def test_a_new_record_claims_each_unique_value_and_comes_back_whole(env: Env, tenant: TenantUsers) -> None:
    model = TwoKeys()
    row = env.run(_insert, env, tenant.tenant_id, model, {"serial": "S-1", "tag": 7, "note": "x"})
    assert (row.model, row.version, row.data, row.created_at) == (model.code, 1, {"serial": "S-1", "tag": 7,
                                                                                  "note": "x"}, AT)
    assert _counts(env, model) == (1, 2)


@pytest.mark.parametrize(("second", "clashes"), [
    ({"serial": "S-1", "tag": 7}, ["serial", "tag"]),
    ({"serial": "S-2", "tag": 7}, ["tag"]),
    ({"serial": "S-1"}, ["serial"]),
])
def test_every_clash_is_named_at_once_and_the_clashing_record_is_not_kept(
        env: Env, tenant: TenantUsers, second: dict[str, Any], clashes: list[str]) -> None:
    model = TwoKeys()
    env.run(_insert, env, tenant.tenant_id, model, {"serial": "S-1", "tag": 7})
    with pytest.raises(DuplicateValues) as raised:
        env.run(_insert, env, tenant.tenant_id, model, second)
    assert raised.value.fields == clashes
    assert _counts(env, model) == (1, 2)
