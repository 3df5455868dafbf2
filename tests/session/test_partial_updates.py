"""An update changes exactly the fields it sends: no update payload states a default, so no SDK or
generated client fills one in and resets a field the caller did not name."""

from __future__ import annotations

from typing import Any

import pytest
from tessera_session.models import AssetStatus, AssetsUpdateRequest, AssetUpdatePayload
from tessera_session.models.assets_update_request_operation_type import AssetsUpdateRequestOperationType

from tessera.core import yamlfile
from tests.conftest import Env, TenantUsers
from tests.support.live_server import ROOT


def _schemas(document: str) -> dict[str, Any]:
    loaded: dict[str, Any] = yamlfile.load((ROOT / "generated" / document).read_text(encoding="utf-8"))
    return dict(loaded["components"]["schemas"])


@pytest.mark.rule("session.command.update-shape")
def test_no_update_payload_of_the_session_document_states_a_default() -> None:
    updates = {name: schema for name, schema in _schemas("session-api.yaml").items() if name.endswith("UpdatePayload")}
    assert updates, "the document has no update payloads"
    defaults = [(name, field) for name, schema in updates.items()
                for field, prop in schema["properties"].items() if "default" in prop]
    assert defaults == []


def test_the_python_sdks_update_payload_sends_only_what_the_caller_set() -> None:
    assert AssetUpdatePayload(name="Renamed").to_dict() == {"name": "Renamed"}


@pytest.mark.rule("session.command.update-shape")
def test_an_update_built_with_the_python_sdk_changes_only_the_field_it_names(env: Env, tenant: TenantUsers) -> None:
    record = tenant.create("assets", {"name": "Keep me", "serialNo": "PU-1", "status": "retired", "value": 12.5})
    body = AssetsUpdateRequest(operation_type=AssetsUpdateRequestOperationType.UPDATE, target_record_id=record["id"],
                               payload=AssetUpdatePayload(name="Renamed")).to_dict()
    answer = env.client.post("/api/meta/commands/execute/assets:update", json=body, headers=tenant.headers())
    assert answer.status_code == 200, answer.text
    read = env.client.get(f"/api/dynamic/assets/{record['id']}", headers=tenant.headers()).json()["data"]
    assert (read["name"], read["status"], read["value"], read["serialNo"]) == (
        "Renamed", AssetStatus.RETIRED.value, 12.5, "PU-1")
