"""POST /api/meta/commands/execute/{commandCode}: create, update and soft delete, and their errors."""

from __future__ import annotations

from typing import Any

import pytest
from httpx import Response

from tests.conftest import Env, TenantUsers

LAPTOP = {"name": "ThinkPad X1", "serialNo": "SN-000123", "value": 1899.5, "purchasedAt": "2026-01-15"}


def execute(env: Env, tenant: TenantUsers, code: str, body: Any, role: str = "admin") -> Response:
    return env.client.post(f"/api/meta/commands/execute/{code}", json=body, headers=tenant.headers(role))


def field_errors(response: Response) -> dict[str, str]:
    assert response.status_code == 400, response.text
    body = response.json()
    assert body["code"] == "VALIDATION_ERROR"
    return body["data"]["fieldErrors"]


def total(env: Env, tenant: TenantUsers, page: str = "assets") -> int:
    response = env.client.get(f"/api/dynamic/{page}/list", headers=tenant.headers())
    assert response.status_code == 200, response.text
    return response.json()["data"]["total"]


def detail(env: Env, tenant: TenantUsers, record_id: str, page: str = "assets") -> Response:
    return env.client.get(f"/api/dynamic/{page}/{record_id}", headers=tenant.headers())


def update(env: Env, tenant: TenantUsers, record_id: str, payload: Any) -> Response:
    return execute(env, tenant, "assets:update",
                   {"operationType": "UPDATE", "targetRecordId": record_id, "payload": payload})


def delete(env: Env, tenant: TenantUsers, record_id: str) -> Response:
    return execute(env, tenant, "assets:delete", {"operationType": "DELETE", "targetRecordId": record_id})


# -- create ----------------------------------------------------------------------------------------

@pytest.mark.rule("session.command.endpoint", "session.command.create-shape")
def test_create_returns_the_record_with_a_random_public_id(env: Env, tenant: TenantUsers) -> None:
    response = execute(env, tenant, "assets:create", {"payload": LAPTOP})
    assert response.status_code == 200
    body = response.json()
    assert body["code"] == "0"
    record = body["data"]
    assert isinstance(record["id"], str)
    assert record["id"].startswith("rec_")
    assert not record["id"].removeprefix("rec_").isdigit()
    assert len(record["id"]) > len("rec_") + 16
    assert {k: record[k] for k in LAPTOP} == LAPTOP


def test_two_creates_get_unrelated_ids(tenant: TenantUsers) -> None:
    first = tenant.create("assets", {"name": "A", "serialNo": "S-1"})["id"]
    second = tenant.create("assets", {"name": "B", "serialNo": "S-2"})["id"]
    assert first != second
    assert first[:10] != second[:10] or first[-10:] != second[-10:]


def test_create_applies_defaults_and_nulls_absent_optional_fields(tenant: TenantUsers) -> None:
    record = tenant.create("assets", {"name": "Scanner", "serialNo": "S-1"})
    assert record["status"] == "in_stock"
    assert record["assignee"] is None
    assert record["value"] is None
    assert record["purchasedAt"] is None
    assert record["created_at"].endswith("Z")
    assert record["updated_at"] == record["created_at"]


def test_a_created_record_can_be_read_back(env: Env, tenant: TenantUsers) -> None:
    record = tenant.create("assets", LAPTOP)
    response = detail(env, tenant, record["id"])
    assert response.status_code == 200
    assert response.json()["data"] == record


def test_a_created_record_without_unique_fields_answers_exactly_as_it_reads_back(
        env: Env, tenant: TenantUsers) -> None:
    """Its insert is queued, not read back (``RecordRepository.insert``): the answer is built from
    what was written, so its text, key order included, must be what a read of the row gives."""
    response = execute(env, tenant, "stock-ins:create", {"payload": {
        "warehouse": "W-2", "sku": "SKU-9", "quantity": 3, "receivedAt": "2026-11-26T08:00:00Z", "source": "dock"}})
    assert response.status_code == 200, response.text
    record = response.json()["data"]
    read = detail(env, tenant, record["id"], page="stock-ins")
    assert list(read.json()["data"].items()) == list(record.items())


@pytest.mark.rule("session.error.validation")
def test_create_reports_every_bad_field_and_creates_nothing(env: Env, tenant: TenantUsers) -> None:
    payload = {"value": -1, "status": "lost", "purchasedAt": "2026-02-30", "colour": "red"}
    errors = field_errors(execute(env, tenant, "assets:create", {"payload": payload}))
    assert set(errors) == {"name", "serialNo", "value", "status", "purchasedAt", "colour"}
    assert all(isinstance(message, str) and message for message in errors.values())
    assert total(env, tenant) == 0


@pytest.mark.parametrize(("field", "value"), [
    ("name", ""),
    ("name", "   "),
    ("name", 42),
    ("name", "x" * 201),
    ("serialNo", None),
    ("status", "IN_STOCK"),
    ("value", "12"),
    ("value", True),
    ("purchasedAt", "2026/01/15"),
    ("purchasedAt", "2026-01-15T00:00:00Z"),
    ("purchasedAt", "20260115xx"),
    ("purchasedAt", "2026-W03-4"),
])
def test_create_rejects_a_bad_value(env: Env, tenant: TenantUsers, field: str, value: Any) -> None:
    errors = field_errors(execute(env, tenant, "assets:create", {"payload": {**LAPTOP, field: value}}))
    assert set(errors) == {field}
    assert total(env, tenant) == 0


@pytest.mark.rule("session.command-body.payload")
def test_create_without_a_payload_is_a_validation_error(env: Env, tenant: TenantUsers) -> None:
    assert "payload" in field_errors(execute(env, tenant, "assets:create", {}))


@pytest.mark.rule("session.command-body.operation-type", "session.command.create-shape")
def test_create_with_an_operation_type_or_target_is_a_validation_error(env: Env, tenant: TenantUsers) -> None:
    errors = field_errors(execute(env, tenant, "assets:create",
                                  {"operationType": "UPDATE", "targetRecordId": "rec_x", "payload": LAPTOP}))
    assert set(errors) == {"operationType", "targetRecordId"}
    assert total(env, tenant) == 0


@pytest.mark.parametrize(("field", "value"), [("name", "a\x00b"), ("serialNo", "SN\x00-1")])
def test_text_with_a_nul_character_is_a_validation_error_not_a_server_error(
    env: Env, tenant: TenantUsers, field: str, value: str
) -> None:
    errors = field_errors(execute(env, tenant, "assets:create", {"payload": {**LAPTOP, field: value}}))
    assert len(errors) == 1
    assert next(iter(errors)).endswith(field)
    assert total(env, tenant) == 0


def test_a_lone_surrogate_in_a_payload_is_a_validation_error_even_with_an_idempotency_key(
    env: Env, tenant: TenantUsers
) -> None:
    response = env.client.post(
        "/api/meta/commands/execute/assets:create", content=b'{"payload":{"name":"x\\ud800","serialNo":"S-1"}}',
        headers={**tenant.headers(), "Content-Type": "application/json", "X-Idempotent-Key": "surrogate-1"})
    errors = field_errors(response)
    assert len(errors) == 1
    assert next(iter(errors)).endswith("name")
    assert total(env, tenant) == 0


def test_a_client_request_id_with_a_nul_character_is_a_validation_error(env: Env, tenant: TenantUsers) -> None:
    response = execute(env, tenant, "assets:create", {"payload": LAPTOP, "clientRequestId": "a\x00b"})
    assert set(field_errors(response)) == {"clientRequestId"}
    assert total(env, tenant) == 0


# -- uniqueness ------------------------------------------------------------------------------------

def test_a_second_create_with_the_same_serial_no_is_a_duplicate_value_conflict(env: Env,
                                                                               tenant: TenantUsers) -> None:
    # Well-formed, but the value is taken: a conflict with the tenant's records (409), not a 400.
    tenant.create("assets", LAPTOP)
    response = execute(env, tenant, "assets:create", {"payload": {**LAPTOP, "name": "Other"}})
    assert response.status_code == 409
    assert response.json()["code"] == "DUPLICATE_VALUE"
    assert set(response.json()["data"]["fieldErrors"]) == {"serialNo"}
    assert total(env, tenant) == 1


def test_the_same_serial_no_in_another_tenant_is_fine(env: Env, tenant: TenantUsers) -> None:
    other = env.new_tenant()
    other.create("assets", LAPTOP)
    record = tenant.create("assets", LAPTOP)
    assert record["serialNo"] == LAPTOP["serialNo"]


def test_a_serial_no_can_be_reused_after_soft_delete(env: Env, tenant: TenantUsers) -> None:
    first = tenant.create("assets", LAPTOP)
    assert delete(env, tenant, first["id"]).status_code == 200
    second = tenant.create("assets", LAPTOP)
    assert second["id"] != first["id"]
    assert total(env, tenant) == 1


def test_updating_to_a_serial_no_in_use_is_a_duplicate_value_conflict(env: Env, tenant: TenantUsers) -> None:
    tenant.create("assets", {"name": "A", "serialNo": "S-1"})
    second = tenant.create("assets", {"name": "B", "serialNo": "S-2"})
    response = update(env, tenant, second["id"], {"serialNo": "S-1"})
    assert response.status_code == 409
    assert response.json()["code"] == "DUPLICATE_VALUE"
    assert set(response.json()["data"]["fieldErrors"]) == {"serialNo"}
    assert detail(env, tenant, second["id"]).json()["data"]["serialNo"] == "S-2"


def test_a_serial_no_freed_by_an_update_can_be_used_again(env: Env, tenant: TenantUsers) -> None:
    first = tenant.create("assets", {"name": "A", "serialNo": "S-1"})
    assert update(env, tenant, first["id"], {"serialNo": "S-9"}).status_code == 200
    assert tenant.create("assets", {"name": "B", "serialNo": "S-1"})["serialNo"] == "S-1"
    taken = execute(env, tenant, "assets:create", {"payload": {"name": "C", "serialNo": "S-9"}})
    assert taken.status_code == 409
    assert set(taken.json()["data"]["fieldErrors"]) == {"serialNo"}


def test_updating_a_record_to_its_own_serial_no_is_fine(env: Env, tenant: TenantUsers) -> None:
    record = tenant.create("assets", LAPTOP)
    response = update(env, tenant, record["id"], {"serialNo": LAPTOP["serialNo"], "name": "Renamed"})
    assert response.status_code == 200, response.text


# -- update ----------------------------------------------------------------------------------------

@pytest.mark.rule("session.command.update-shape")
def test_update_changes_only_the_given_fields(env: Env, tenant: TenantUsers) -> None:
    record = tenant.create("assets", LAPTOP)
    response = update(env, tenant, record["id"], {"status": "assigned", "assignee": "alice"})
    assert response.status_code == 200
    updated = response.json()["data"]
    assert updated == {**record, "status": "assigned", "assignee": "alice", "updated_at": updated["updated_at"]}
    assert updated["updated_at"] >= record["updated_at"]
    assert detail(env, tenant, record["id"]).json()["data"] == updated


def test_update_can_clear_an_optional_field(env: Env, tenant: TenantUsers) -> None:
    record = tenant.create("assets", {**LAPTOP, "assignee": "bob"})
    response = update(env, tenant, record["id"], {"assignee": None})
    assert response.status_code == 200
    assert response.json()["data"]["assignee"] is None


@pytest.mark.parametrize("field", ["name", "serialNo"])
def test_update_of_a_required_field_to_null_is_a_validation_error(
    env: Env, tenant: TenantUsers, field: str
) -> None:
    record = tenant.create("assets", LAPTOP)
    assert set(field_errors(update(env, tenant, record["id"], {field: None}))) == {field}
    assert detail(env, tenant, record["id"]).json()["data"] == record


def test_update_reports_every_bad_field(env: Env, tenant: TenantUsers) -> None:
    record = tenant.create("assets", LAPTOP)
    errors = field_errors(update(env, tenant, record["id"], {"value": -5, "status": "lost", "colour": "red"}))
    assert set(errors) == {"value", "status", "colour"}


def test_update_of_an_unknown_record_is_not_found(env: Env, tenant: TenantUsers) -> None:
    response = update(env, tenant, "rec_doesnotexist", {"name": "x"})
    assert response.status_code == 404
    assert response.json()["code"] == "NOT_FOUND"


@pytest.mark.parametrize("target", ["' OR 1=1 --", "x'; DROP TABLE records; --", "rec_%", "rec__"])
def test_update_and_delete_of_a_target_that_is_sql_are_not_found(env: Env, tenant: TenantUsers, target: str) -> None:
    record = tenant.create("assets", LAPTOP)
    assert update(env, tenant, target, {"name": "x"}).status_code == 404
    assert delete(env, tenant, target).status_code == 404
    assert detail(env, tenant, record["id"]).json()["data"] == record


def test_a_target_with_a_nul_character_is_refused_not_a_server_error(env: Env, tenant: TenantUsers) -> None:
    record = tenant.create("assets", LAPTOP)
    for response in (update(env, tenant, "rec_\x00", {"name": "x"}), delete(env, tenant, "rec_\x00")):
        assert response.status_code in (400, 404), response.text
        assert response.json()["code"] in ("VALIDATION_ERROR", "NOT_FOUND")
    assert detail(env, tenant, record["id"]).json()["data"] == record


def test_update_of_another_tenants_record_is_not_found(env: Env, tenant: TenantUsers) -> None:
    other = env.new_tenant()
    record = other.create("assets", LAPTOP)
    assert update(env, tenant, record["id"], {"name": "Stolen"}).status_code == 404
    response = env.client.get(f"/api/dynamic/assets/{record['id']}", headers=other.headers())
    assert response.json()["data"]["name"] == LAPTOP["name"]


@pytest.mark.rule("session.command-body.operation-type", "session.command.update-shape")
def test_update_with_operation_type_delete_is_a_validation_error(env: Env, tenant: TenantUsers) -> None:
    record = tenant.create("assets", LAPTOP)
    response = execute(env, tenant, "assets:update",
                       {"operationType": "DELETE", "targetRecordId": record["id"], "payload": {"name": "x"}})
    assert set(field_errors(response)) == {"operationType"}
    assert detail(env, tenant, record["id"]).status_code == 200


@pytest.mark.rule("session.command-body.target-record-id", "session.command.update-shape")
def test_update_without_target_record_id_is_a_validation_error(env: Env, tenant: TenantUsers) -> None:
    response = execute(env, tenant, "assets:update", {"operationType": "UPDATE", "payload": {"name": "x"}})
    assert set(field_errors(response)) == {"targetRecordId"}


@pytest.mark.rule("session.error.not-found")
def test_update_of_a_soft_deleted_record_is_not_found(env: Env, tenant: TenantUsers) -> None:
    record = tenant.create("assets", LAPTOP)
    delete(env, tenant, record["id"])
    assert update(env, tenant, record["id"], {"name": "x"}).status_code == 404


# -- delete ----------------------------------------------------------------------------------------

@pytest.mark.rule("session.record.soft-delete-not-found", "session.command.delete-shape")
def test_delete_soft_deletes_the_record(env: Env, tenant: TenantUsers) -> None:
    record = tenant.create("assets", LAPTOP)
    keep = tenant.create("assets", {"name": "Keep", "serialNo": "KEEP-1"})
    response = delete(env, tenant, record["id"])
    assert response.status_code == 200
    assert response.json()["data"] == {"id": record["id"], "deleted": True}
    assert detail(env, tenant, record["id"]).status_code == 404
    listing = env.client.get("/api/dynamic/assets/list", headers=tenant.headers()).json()["data"]
    assert listing["total"] == 1
    assert [r["id"] for r in listing["records"]] == [keep["id"]]


@pytest.mark.rule("session.record.soft-delete-not-found")
def test_deleting_again_is_not_found(env: Env, tenant: TenantUsers) -> None:
    record = tenant.create("assets", LAPTOP)
    assert delete(env, tenant, record["id"]).status_code == 200
    response = delete(env, tenant, record["id"])
    assert response.status_code == 404
    assert response.json()["code"] == "NOT_FOUND"


@pytest.mark.rule("session.command-body.target-record-id", "session.command.delete-shape")
def test_delete_without_target_record_id_is_a_validation_error(env: Env, tenant: TenantUsers) -> None:
    assert set(field_errors(execute(env, tenant, "assets:delete", {"operationType": "DELETE"}))) == {
        "targetRecordId"}


# -- permissions and command codes ------------------------------------------------------------------

@pytest.mark.rule("session.error.forbidden")
def test_a_viewer_creating_an_asset_is_forbidden_and_nothing_is_created(env: Env, tenant: TenantUsers) -> None:
    response = execute(env, tenant, "assets:create", {"payload": LAPTOP}, role="viewer")
    assert response.status_code == 403
    body = response.json()
    assert body["code"] == "FORBIDDEN"
    assert body["data"]["permission"] == "assets:create"
    assert total(env, tenant) == 0


def test_a_viewer_is_forbidden_even_with_a_bad_body(env: Env, tenant: TenantUsers) -> None:
    response = execute(env, tenant, "assets:create", {"payload": {}}, role="viewer")
    assert response.status_code == 403


@pytest.mark.rule("session.command.code-form")
def test_an_unknown_command_is_not_found(env: Env, tenant: TenantUsers) -> None:
    response = execute(env, tenant, "nothing:create", {"payload": {"name": "x"}})
    assert response.status_code == 404
    assert response.json()["code"] == "NOT_FOUND"


@pytest.mark.parametrize("code", ["assets-create", "Assets:create", "assets:create:now", "assets:", "1x:create"])
@pytest.mark.rule("session.command.code-form")
def test_a_command_code_that_is_not_declared_has_no_route(env: Env, tenant: TenantUsers, code: str) -> None:
    # Each declared command is a path of its own in the generated document; any other is no route.
    response = execute(env, tenant, code, {"payload": LAPTOP})
    assert response.status_code == 404
    assert response.json() == {"code": "NOT_FOUND", "message": "The resource was not found.", "data": None}


# -- request bodies ---------------------------------------------------------------------------------

@pytest.mark.rule("session.content-type.json-required")
def test_a_body_that_is_not_json_is_unsupported_media_type(env: Env, tenant: TenantUsers) -> None:
    response = env.client.post("/api/meta/commands/execute/assets:create", content=b"name=x",
                               headers={**tenant.headers(), "Content-Type": "text/plain"})
    assert response.status_code == 415
    assert response.json()["code"] == "UNSUPPORTED_MEDIA_TYPE"
    assert total(env, tenant) == 0


@pytest.mark.rule("session.error.field-map-always")
def test_malformed_json_is_a_validation_error_on_body(env: Env, tenant: TenantUsers) -> None:
    response = env.client.post("/api/meta/commands/execute/assets:create", content=b'{"payload": {"name": ',
                               headers={**tenant.headers(), "Content-Type": "application/json"})
    assert set(field_errors(response)) == {"body"}


def test_a_body_that_is_a_json_array_is_a_validation_error(env: Env, tenant: TenantUsers) -> None:
    assert "body" in field_errors(execute(env, tenant, "assets:create", [{"payload": LAPTOP}]))
    assert total(env, tenant) == 0


@pytest.mark.parametrize("payload", ["ThinkPad", 42, [LAPTOP], None])
@pytest.mark.rule("session.command-body.payload")
def test_a_payload_that_is_not_an_object_is_a_validation_error(
    env: Env, tenant: TenantUsers, payload: Any
) -> None:
    assert "payload" in field_errors(execute(env, tenant, "assets:create", {"payload": payload}))


def test_an_unknown_key_in_the_body_is_a_validation_error(env: Env, tenant: TenantUsers) -> None:
    assert "extra" in field_errors(execute(env, tenant, "assets:create", {"payload": LAPTOP, "extra": 1}))
    assert total(env, tenant) == 0


# -- stock-ins -------------------------------------------------------------------------------------

@pytest.mark.parametrize("quantity", [0, -1, 1.5, "3", True])
def test_stock_in_quantity_must_be_an_integer_above_zero(env: Env, tenant: TenantUsers, quantity: Any) -> None:
    errors = field_errors(execute(env, tenant, "stock-ins:create", {"payload": {"sku": "SKU-1", "quantity": quantity}}))
    assert set(errors) == {"quantity"}
    assert total(env, tenant, "stock-ins") == 0


def test_stock_in_quantity_1_is_accepted(tenant: TenantUsers) -> None:
    assert tenant.create("stock-ins", {"sku": "SKU-1", "quantity": 1})["quantity"] == 1


@pytest.mark.parametrize("received_at", ["2026-01-01", "2026-01-01T10:00:00", "yesterday", "2026-13-01T10:00:00Z",
                                         "0001-01-01T00:00:00+01:00", "9999-12-31T23:59:59-01:00"])
def test_stock_in_received_at_must_be_a_date_time_with_a_zone(
    env: Env, tenant: TenantUsers, received_at: str
) -> None:
    errors = field_errors(execute(env, tenant, "stock-ins:create",
                                  {"payload": {"sku": "SKU-1", "receivedAt": received_at}}))
    assert set(errors) == {"receivedAt"}


def test_stock_in_received_at_is_stored_in_utc(env: Env, tenant: TenantUsers) -> None:
    record = tenant.create("stock-ins", {"sku": "SKU-1", "quantity": 3, "receivedAt": "2026-01-01T10:00:00+08:00"})
    assert record["receivedAt"] == "2026-01-01T02:00:00.000Z"
    stored = detail(env, tenant, record["id"], page="stock-ins").json()["data"]
    assert stored["receivedAt"] == "2026-01-01T02:00:00.000Z"


def test_stock_in_update_normalises_received_at_too(env: Env, tenant: TenantUsers) -> None:
    record = tenant.create("stock-ins", {"sku": "SKU-1", "quantity": 3})
    response = execute(env, tenant, "stock-ins:update", {
        "operationType": "UPDATE", "targetRecordId": record["id"],
        "payload": {"receivedAt": "2026-06-30T23:30:00-02:00"}})
    assert response.status_code == 200
    assert response.json()["data"]["receivedAt"] == "2026-07-01T01:30:00.000Z"
