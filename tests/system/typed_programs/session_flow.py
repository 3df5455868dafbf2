"""A signed-in user's flow with the Python session SDK only (``tessera_session``, generated/python/session-client).

tests/system/test_typed_session_programs.py type-checks this file with ``mypy --strict`` and runs it against
``tessera serve --demo``::

    BASE_URL=... EMAIL=... PASSWORD=... python session_flow.py

It logs in, lists assets with a typed filter, creates an asset with a typed payload, finds it with typed
filters and reads it back. Prints one JSON object (what happened); a failed expectation exits non-zero.
"""

from __future__ import annotations

import json
import os
import uuid
from http import HTTPStatus
from typing import Any, TypeVar

import httpx
from tessera_session import AuthenticatedClient, Client
from tessera_session.api.auth import login
from tessera_session.api.commands import execute_assets_create_command
from tessera_session.api.dynamic import get_assets_record, list_assets_records
from tessera_session.filters import encode
from tessera_session.models import (
    Asset,
    AssetCommandEnvelope,
    AssetCreatePayload,
    AssetsCreateRequest,
    AssetsField,
    AssetsListEnvelope,
    AssetsNumberComparison,
    AssetsNumberField,
    AssetsRecordEnvelope,
    AssetStatus,
    AssetsTextComparison,
    AssetsTextField,
    AssetsTextIn,
    ComparisonOperator,
    LoginEnvelope,
    LoginRequest,
    SetOperator,
    SortOrder,
)
from tessera_session.types import Response

T = TypeVar("T")
TIMEOUT = httpx.Timeout(30.0)


def ok(response: Response[Any], model: type[T]) -> T:
    """The parsed body of a 200 answer, or a failure that shows what the service said."""
    if response.status_code != HTTPStatus.OK or not isinstance(response.parsed, model):
        raise SystemExit(f"expected 200 {model.__name__}, got {int(response.status_code)}: {response.content[:2000]!r}")
    return response.parsed


def check(condition: bool, message: str) -> None:
    if not condition:
        raise SystemExit(f"expectation failed: {message}")


def env(name: str) -> str:
    value = os.environ.get(name, "")
    if not value:
        raise SystemExit(f"{name} is not set")
    return value


def refused_by_the_types(record: Asset) -> object:
    """Never called: each line is refused by mypy --strict (an unused ``type: ignore`` fails the check)."""
    AssetCreatePayload(name="scanner")  # type: ignore[call-arg]  # `serial_no` is required
    AssetCreatePayload(name="s", serial_no="S", status="lost")  # type: ignore[arg-type]  # an enum, not text
    AssetsNumberComparison(field_name=AssetsNumberField.VALUE,
                           operator=ComparisonOperator.GTE, value="12")  # type: ignore[arg-type]
    AssetsTextComparison(field_name=AssetsNumberField.VALUE,  # type: ignore[arg-type]
                         operator=ComparisonOperator.EQ, value="x")
    return record.colour  # type: ignore[attr-defined]  # a record has no such field


def flow() -> dict[str, object]:
    base_url = env("BASE_URL")
    with Client(base_url=base_url, timeout=TIMEOUT) as anonymous:
        session = ok(login.sync_detailed(client=anonymous, body=LoginRequest(email=env("EMAIL"),
                                                                            password=env("PASSWORD"))),
                     LoginEnvelope).data
    with AuthenticatedClient(base_url=base_url, token=session.jwt, timeout=TIMEOUT) as client:
        # 1. A typed filter: retired assets, sorted by serial number.
        retired = encode([AssetsTextComparison(field_name=AssetsTextField.STATUS,
                                               operator=ComparisonOperator.EQ, value="retired")])
        before = ok(list_assets_records.sync_detailed(
            client=client, page_size=5, sort_field=AssetsField.SERIALNO,
            sort_order=SortOrder.ASC, filters=retired), AssetsListEnvelope).data
        check(all(asset.status == AssetStatus.RETIRED for asset in before.records), "the filter holds on every record")
        serials = [asset.serial_no for asset in before.records]
        check(serials == sorted(serials), f"sorted by serialNo: {serials}")

        # 2. A typed payload: a new retired asset.
        serial_no = f"PY-{uuid.uuid4().hex[:8]}"
        payload = AssetCreatePayload(name="Python scanner", serial_no=serial_no,
                                     status=AssetStatus.RETIRED, value=12.5)
        created = ok(execute_assets_create_command.sync_detailed(
            client=client, body=AssetsCreateRequest(payload=payload), x_idempotent_key=str(uuid.uuid4())),
            AssetCommandEnvelope).data
        check(created.serial_no == serial_no, "created")

        # 3. Found by typed filters (text equality, a number bound, a set of states), then read back.
        mine = encode([
            AssetsTextComparison(field_name=AssetsTextField.SERIALNO,
                                 operator=ComparisonOperator.EQ, value=serial_no),
            AssetsNumberComparison(field_name=AssetsNumberField.VALUE,
                                   operator=ComparisonOperator.GTE, value=12.5),
            AssetsTextIn(field_name=AssetsTextField.STATUS, operator=SetOperator.IN,
                         value=["retired", "in_stock"]),
        ])
        found = ok(list_assets_records.sync_detailed(client=client, filters=mine), AssetsListEnvelope).data
        ids = [asset.id for asset in found.records]
        check(found.total == 1 and ids == [created.id], f"found by the filters: {ids}")
        read: Asset = ok(get_assets_record.sync_detailed(created.id, client=client), AssetsRecordEnvelope).data
        check((read.name, read.status, read.value) == ("Python scanner", AssetStatus.RETIRED, 12.5),
              "read back as created")
        after = ok(list_assets_records.sync_detailed(client=client, page_size=1, filters=retired),
                   AssetsListEnvelope).data
        check(after.total == before.total + 1, f"one more retired asset: {before.total} -> {after.total}")
    return {
        "user": session.username,
        "tenant": session.tenant_id,
        "retiredBefore": before.total,
        "retiredAfter": after.total,
        "created": {"id": created.id, "serialNo": created.serial_no},
        "found": ids,
        "read": {"name": read.name, "serialNo": read.serial_no, "status": str(read.status), "value": read.value},
    }


if __name__ == "__main__":
    print(json.dumps(flow()))
