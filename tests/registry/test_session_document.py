"""openapi/session-api.yaml says as much as the service checks, so generated clients and fuzzers
send what the service accepts."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import storage.audit as audit
import storage.automations as automations
import storage.openplatform.applications as applications
import storage.openplatform.credentials as credentials
import storage.openplatform.installations as installations
import storage.webhooks as webhooks
from storage.listing import ListField
from tessera.core import yamlfile
from tessera.core.clock import SystemClock
from tessera.core.errors import ValidationFailed
from tessera.core.text import NONBLANK_TEXT_PATTERN, STORABLE_TEXT_PATTERN
from tessera.lists.contract import parse_list_request
from tessera.registry.models import load_declarations
from tessera.registry.session_document import filter_value

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = (ROOT / "generated" / "session-api.yaml", ROOT / "generated" / "open-platform.yaml")
METHODS = {"get", "post", "put", "patch", "delete"}
# Each administration list and the fields its handler sorts and filters on.
LIST_FIELDS = {
    "/api/audit/list": audit.LIST_FIELDS,
    "/api/open-platform/applications/list": applications.APPLICATION_FIELDS,
    "/api/open-platform/applications/{appId}/members/list": applications.MEMBER_FIELDS,
    "/api/open-platform/applications/{appId}/installations/list": installations.INSTALLATION_FIELDS,
    "/api/open-platform/installations/{installationId}/credentials/list":
        credentials.list_fields(SystemClock().now()),
    "/api/open-platform/installations/{installationId}/webhook-endpoints/list": webhooks.ENDPOINT_FIELDS,
    "/api/open-platform/webhook-endpoints/{endpointId}/deliveries/list": webhooks.DELIVERY_FIELDS,
    "/api/open-platform/automations/list": automations.AUTOMATION_FIELDS,
    "/api/open-platform/automations/{automationId}/runs/list": automations.RUN_FIELDS,
}


@pytest.fixture(scope="module")
def session_doc() -> dict[str, Any]:
    return yamlfile.load(DOCUMENTS[0].read_text())


def _parameter(doc: dict[str, Any], path: str, name: str) -> dict[str, Any]:
    for parameter in doc["paths"][path]["get"]["parameters"]:
        resolved = doc["components"]["parameters"][parameter["$ref"].rsplit("/", 1)[1]]
        if resolved["name"] == name:
            return resolved
    raise AssertionError(f"{path} has no {name} parameter")


@pytest.mark.parametrize("path", sorted(LIST_FIELDS))
@pytest.mark.rule("session.list.contract-everywhere")
def test_each_administration_list_documents_exactly_the_fields_it_sorts_on(
        session_doc: dict[str, Any], path: str) -> None:
    sort_field = _parameter(session_doc, path, "sortField")
    assert set(_enum(session_doc, sort_field["schema"])) == set(LIST_FIELDS[path])


@pytest.mark.parametrize("path", sorted(LIST_FIELDS))
def test_each_administration_list_types_the_fields_it_filters_on_as_the_service_compares_them(
        session_doc: dict[str, Any], path: str) -> None:
    filters = _parameter(session_doc, path, "filters")
    items = filters["content"]["application/json"]["schema"]["items"]
    shapes = [_resolve(session_doc, ref) for ref in _resolve(session_doc, items)["oneOf"]]
    comparisons = [shape for shape in shapes if _enum(session_doc, shape["properties"]["operator"])[0] == "eq"]
    documented = {field: shape["properties"]["value"] for shape in comparisons
                  for field in _enum(session_doc, shape["properties"]["fieldName"])}
    assert set(documented) == set(LIST_FIELDS[path])
    for field, value in documented.items():
        assert {**_resolve(session_doc, value), "description": ""} == {
            **filter_value(LIST_FIELDS[path][field].type), "description": ""}, field
    example = filters["content"]["application/json"]["example"]
    assert all(condition["fieldName"] in LIST_FIELDS[path] for condition in example)


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_operation_documents_the_request_bounds(document: Path) -> None:
    doc = yamlfile.load(document.read_text())
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                assert {"414", "431"} <= set(operation["responses"]), f"{method.upper()} {path}"


# -- the operations generated from models.yaml ---------------------------------------------------

def _resolve(doc: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        _, kind, name = node["$ref"].lstrip("#/").split("/")
        node = doc["components"][kind][name]
    return node


def _enum(doc: dict[str, Any], node: dict[str, Any]) -> list[Any]:
    """The values of an enum, inline or a reference to a named one (under ``allOf`` when the place
    adds a description or a default)."""
    node = _resolve(doc, node)
    while "enum" not in node:
        [node] = [_resolve(doc, member) for member in node["allOf"]]
    values: list[Any] = node["enum"]
    return values


def _model_list_fields(model: str) -> dict[str, ListField]:
    from sqlalchemy import literal_column

    decl = load_declarations(ROOT / "models.yaml").models[model]
    fields = {code: ListField(code, f.type, literal_column(code), f.values) for code, f in decl.fields.items()}
    fields.update({code: ListField(code, "timestamp", literal_column(code)) for code in ("created_at", "updated_at")})
    return fields


SAMPLES: dict[str, list[Any]] = {
    "string": ["", "ThinkPad", "x" * 1000], "enum": ["in_stock", "anything"], "date": ["2026-01-15"],
    "datetime": ["2026-01-15T08:00:00Z", "2026-01-15T08:00:00+08:00"], "timestamp": ["2026-01-15T08:00:00.000Z"],
    "integer": [0, -5, 10**15], "number": [0, 1.5, -1e15], "boolean": [True],
}


def _conditions(doc: dict[str, Any], page: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(shape schema, condition) for every field and operator each condition shape admits."""
    found = []
    for ref in doc["components"]["schemas"][f"{page}FilterCondition"]["oneOf"]:
        shape = _resolve(doc, ref)
        for field in _enum(doc, shape["properties"]["fieldName"]):
            for operator in _enum(doc, shape["properties"]["operator"]):
                found.append((shape, {"fieldName": field, "operator": operator}))
    return found


def test_every_declared_page_has_a_typed_list_and_read_and_no_templated_route(session_doc: dict[str, Any]) -> None:
    paths = session_doc["paths"]
    assert not any("{pageKey}" in path or "{commandCode}" in path for path in paths)
    for page in ("assets", "stock-ins"):
        assert f"/api/dynamic/{page}/list" in paths and f"/api/dynamic/{page}/{{recordId}}" in paths
    asset = session_doc["components"]["schemas"]["Asset"]
    assert asset["properties"]["status"] == {"type": "string", "enum": ["in_stock", "assigned", "retired"],
                                             "nullable": True, "description": "Status"}
    assert _enum(session_doc, asset["properties"]["status"]) == ["in_stock", "assigned", "retired"]
    assert asset["properties"]["assignee"]["nullable"] is True
    assert asset["properties"]["id"]["readOnly"] is True
    assert set(asset["required"]) == {"id", "name", "serialNo", "created_at", "updated_at"}


def test_sort_field_is_an_enum_of_exactly_the_fields_the_service_sorts_on(session_doc: dict[str, Any]) -> None:
    parameter = session_doc["components"]["parameters"]["AssetsSortField"]
    assert _enum(session_doc, parameter["schema"]) == list(_model_list_fields("asset"))


@pytest.mark.parametrize("page", ["Assets", "StockIns"])
def test_every_filter_condition_the_document_admits_the_service_accepts(session_doc: dict[str, Any],
                                                                          page: str) -> None:
    fields = _model_list_fields("asset" if page == "Assets" else "stockIn")
    for shape, condition in _conditions(session_doc, page):
        if "value" not in shape["properties"]:
            parse_list_request({"filters": json.dumps([condition])}, fields)
            continue
        value_schema = _resolve(session_doc, shape["properties"]["value"])
        ftype = fields[condition["fieldName"]].type
        for sample in SAMPLES[ftype]:
            value = [sample] if value_schema["type"] == "array" else sample
            parse_list_request({"filters": json.dumps([{**condition, "value": value}])}, fields)


@pytest.mark.parametrize("condition", [
    {"fieldName": "status", "operator": "is_null", "value": None},  # a null test has no value
    {"fieldName": "value", "operator": "like", "value": "1"},  # like is for text fields only
    {"fieldName": "status", "operator": "in", "value": []},  # 1 to 100 values
    {"fieldName": "status", "operator": "in", "value": ["x"] * 101},
    {"fieldName": "name", "operator": "eq", "value": "x" * 1001},
    {"fieldName": "name", "operator": "eq", "value": "a\u0000"},
    {"fieldName": "purchasedAt", "operator": "eq", "value": "2026-1-5"},
    {"fieldName": "colour", "operator": "eq", "value": "red"},
    {"fieldName": "name", "operator": "eq", "value": "x", "extra": 1},
])
def test_a_filter_condition_the_document_refuses_the_service_refuses(condition: dict[str, Any]) -> None:
    with pytest.raises(ValidationFailed):
        parse_list_request({"filters": json.dumps([condition])}, _model_list_fields("asset"))


def _refs(node: Any) -> set[str]:
    if isinstance(node, dict):
        own = {node["$ref"]} if "$ref" in node else set()
        return own.union(*(_refs(value) for value in node.values()))
    if isinstance(node, list):
        return set().union(*(_refs(value) for value in node))
    return set()


def test_an_enum_field_has_one_named_enum_wherever_it_may_not_be_null(session_doc: dict[str, Any]) -> None:
    """The payloads refer to the field's enum; the record, where it may be null, states the same values
    inline (OpenAPI 3.0 cannot add null to a reference: tessera/registry/names.py, may_be_null)."""
    schemas = session_doc["components"]["schemas"]
    assert schemas["AssetStatus"]["enum"] == ["in_stock", "assigned", "retired"]
    for where in ("AssetCreatePayload", "AssetUpdatePayload"):
        assert _refs(schemas[where]["properties"]["status"]) == {"#/components/schemas/AssetStatus"}, where
    record = schemas["Asset"]["properties"]["status"]
    assert record["nullable"] is True and record["enum"] == schemas["AssetStatus"]["enum"]


def test_filter_conditions_share_their_operators_and_name_the_fields_of_their_list(
        session_doc: dict[str, Any]) -> None:
    schemas = session_doc["components"]["schemas"]
    comparison = schemas["AssetsNumberComparison"]["properties"]
    assert comparison["operator"] == {"$ref": "#/components/schemas/ComparisonOperator"}
    assert comparison["fieldName"] == {"$ref": "#/components/schemas/AssetsNumberField"}
    assert schemas["StockInsIntegerComparison"]["properties"]["operator"] == comparison["operator"]
    assert schemas["AssetsNullTest"]["properties"]["fieldName"] == {"$ref": "#/components/schemas/AssetsField"}
    assert _refs(session_doc["components"]["parameters"]["AssetsSortField"]) == {"#/components/schemas/AssetsField"}


def test_no_enum_or_object_is_left_inline_under_a_schema_but_where_it_may_be_null(
        session_doc: dict[str, Any]) -> None:
    """Each becomes one named class in every generator (datamodel-code-generator numbers inline ones)."""
    def inline(node: Any, top: bool) -> bool:
        if not isinstance(node, dict):
            return False
        if not top and "$ref" not in node and ("enum" in node or "properties" in node) and not node.get("nullable"):
            return True
        children = [*(node.get("properties") or {}).values(), node.get("items"), node.get("additionalProperties")]
        members = [m for key in ("allOf", "oneOf", "anyOf") for m in node.get(key) or []]
        return any(inline(child, False) for child in children) or any(inline(m, True) for m in members)

    left = [name for name, schema in session_doc["components"]["schemas"].items() if inline(schema, True)]
    assert left == []


def test_the_create_payload_states_each_rule_of_the_payload_checks(session_doc: dict[str, Any]) -> None:
    schemas = session_doc["components"]["schemas"]
    payload = schemas["AssetCreatePayload"]
    assert payload["additionalProperties"] is False and payload["required"] == ["name", "serialNo"]
    assert payload["properties"]["name"]["pattern"] == NONBLANK_TEXT_PATTERN  # required: not blank
    assert payload["properties"]["assignee"]["pattern"] == STORABLE_TEXT_PATTERN
    assert payload["properties"]["assignee"]["nullable"] is True
    assert payload["properties"]["value"] == {"type": "number", "minimum": 0, "maximum": 1e15, "description": "Value"}
    quantity = schemas["StockInCreatePayload"]["properties"]["quantity"]
    assert (quantity["minimum"], quantity["exclusiveMinimum"], quantity["maximum"]) == (0, True, 2**53)
    assert "required" not in schemas["AssetUpdatePayload"]


@pytest.mark.parametrize(("command", "required"), [
    ("AssetsCreate", ["payload"]),
    ("AssetsUpdate", ["operationType", "targetRecordId", "payload"]),
    ("AssetsDelete", ["operationType", "targetRecordId"]),
])
def test_each_command_body_is_typed_by_its_action(session_doc: dict[str, Any], command: str,
                                                  required: list[str]) -> None:
    request = session_doc["components"]["schemas"][f"{command}Request"]
    assert request["required"] == required
    assert request["additionalProperties"] is False
    assert set(request["properties"]) == {*required, "clientRequestId"}


@pytest.mark.parametrize("text", ["", "$", "Acme", "$x", "$.occurredAt", "$.eventId", "$.data.sku", "$.data.",
                                  "$.data", "$.foo", "$.data.a.b", "$.type", "$.schemaVersion"])
def test_the_template_pattern_admits_exactly_the_paths_the_runner_resolves(text: str) -> None:
    from tessera.automations.mapping import path_ok, paths_in
    from tessera.registry.session_document import TEMPLATE_TEXT_PATTERN

    resolvable = all(path_ok(path) for path in paths_in(text))
    assert bool(re.search(TEMPLATE_TEXT_PATTERN, text)) == resolvable


def _extended(tmp_path: Path) -> tuple[Any, Any]:
    """The registries with one more webhook event declared in a copy of capabilities.yaml."""
    from tessera.registry.capabilities import load_capabilities

    copy = tmp_path / "capabilities.yaml"
    copy.write_text((ROOT / "capabilities.yaml").read_text(encoding="utf-8").replace(
        "webhookEvents:\n", "webhookEvents:\n  assets.retired:\n    description: An asset was retired.\n"
        "    resource: assets\n    trigger: update\n    whenChanged: [status]\n    fields: [status]\n", 1),
        encoding="utf-8")
    declarations = load_declarations(ROOT / "models.yaml")
    return declarations, load_capabilities(copy, declarations)


def test_a_webhook_event_declared_in_capabilities_yaml_can_be_subscribed_in_the_session_document(
        tmp_path: Path) -> None:
    from tessera.registry.operational import OPERATIONAL_EVENTS
    from tessera.registry.session_document import build_session_document

    declarations, capabilities = _extended(tmp_path)
    doc = build_session_document(ROOT / "openapi" / "session-api.yaml", declarations, capabilities)
    assert doc["components"]["schemas"]["WebhookEventType"]["enum"] == [
        *capabilities.webhook_events, *OPERATIONAL_EVENTS]
    assert "assets.retired" in doc["components"]["schemas"]["WebhookEventType"]["enum"]


def test_the_hand_written_skeleton_lists_no_value_a_registry_drives() -> None:
    """Webhook event types, scopes and data source ids are written by `tessera generate` from the registries."""
    skeleton = yamlfile.load((ROOT / "openapi" / "session-api.yaml").read_text(encoding="utf-8"))
    schemas = skeleton["components"]["schemas"]
    assert "enum" not in schemas["WebhookEventType"]
    assert "enum" not in schemas["ScopeList"]["items"]
    sources = next(p for p in skeleton["paths"]["/api/datasource/list"]["get"]["parameters"]
                   if p.get("name") == "datasourceId")
    assert "enum" not in sources["schema"] and "example" not in sources
    declared = yamlfile.load((ROOT / "models.yaml").read_text(encoding="utf-8"))["datasources"]
    text = (ROOT / "openapi" / "session-api.yaml").read_text(encoding="utf-8")
    assert not [code for code in declared if code in text]  # not even in a description


def test_a_password_states_the_text_rule_the_service_applies() -> None:
    """Found by the exploration run: a password with a NUL fitted the document and got 400
    (``format: password`` only asks a form to mask it; it is text like any other)."""
    doc = yamlfile.load((ROOT / "generated" / "session-api.yaml").read_text(encoding="utf-8"))
    password = doc["components"]["schemas"]["LoginRequest"]["properties"]["password"]
    assert password["pattern"] == STORABLE_TEXT_PATTERN
    assert re.fullmatch(password["pattern"], "with\x00nul") is None
