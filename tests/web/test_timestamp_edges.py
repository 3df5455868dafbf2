"""Every date-time a request carries is accepted exactly where the served document's schema admits it.

For each kind of date-time input of both surfaces (a command payload field, list filters on a
datetime field and on a timestamp column, the recovery time of deliveries, an Open Platform command
input, an inbound event's `occurredAt`, the events API's `since`), the edges of the calendar and of
the offsets are sent to the service, and the answer is compared with the schema the service serves
for that input, read by a JSON Schema engine with formats on (``jsonschema_rs``, as Schemathesis
reads it): admitted means accepted, refused means 400 naming the input.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

import jsonschema_rs
import pytest
from httpx import Response

from tessera.core import yamlfile
from tessera.core.timestamps import TIMESTAMP_PATTERN, UTC_TIMESTAMP_PATTERN
from tests.conftest import Env, TenantUsers
from tests.support.live_server import ROOT
from tests.support.openplatform import CREATE_STOCK_IN, EVENTS, Integration, new_key
from tests.support.receivers import receiver
from tests.support.webhooks import Hooked

EDGES = [
    "2026-11-22T08:00:00Z",
    "0001-01-01T00:00:00Z",
    "0000-01-01T00:00:00Z",
    "9999-12-31T23:59:59.999Z",
    "2016-12-31T23:59:60Z",
    "2026-11-22T08:00:00+05:45",
    "2026-11-22T08:00:00-00:00",
    "0001-01-01T00:00:00+01:00",
    "9999-12-31T23:00:00-01:00",
    "2026-11-22t08:00:00.123456789z",
    "2026-02-30T08:00:00Z",
]

SESSION_DOC = "/api/openapi.json"
OPEN_DOC = "/api/open/v1/openapi.json"


def walk(doc: dict[str, Any], node: Any, *path: str | int) -> Any:
    """The schema at ``path`` under ``node``, following references at every step."""
    node = deref(doc, node)
    for step in path:
        node = deref(doc, node[step])
    return node


def deref(doc: dict[str, Any], node: Any) -> Any:
    while isinstance(node, dict) and "$ref" in node:
        target: Any = doc
        for part in str(node["$ref"]).split("/")[1:]:
            target = target[part]
        node = target
    return node


def operation(doc: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    return deref(doc, doc["paths"][path][method])  # type: ignore[no-any-return]


def body_schema(doc: dict[str, Any], method: str, path: str) -> Any:
    return walk(doc, operation(doc, method, path), "requestBody", "content", "application/json", "schema")


def parameter_schema(doc: dict[str, Any], method: str, path: str, name: str) -> Any:
    for parameter in operation(doc, method, path)["parameters"]:
        parameter = deref(doc, parameter)
        if parameter["name"] == name:
            return deref(doc, parameter["schema"])
    raise KeyError(name)


def filter_value_schema(doc: dict[str, Any], page: str, field: str) -> Any:
    """The `value` schema of an `eq` condition on ``field`` among the page's filter conditions."""
    for parameter in operation(doc, "get", f"/api/dynamic/{page}/list")["parameters"]:
        parameter = deref(doc, parameter)
        if parameter["name"] == "filters":
            conditions = walk(doc, parameter, "content", "application/json", "schema", "items")
            for shape in conditions["oneOf"]:
                shape = deref(doc, shape)
                props = shape["properties"]
                names, operators = deref(doc, props["fieldName"])["enum"], deref(doc, props["operator"])["enum"]
                if field in names and "eq" in operators and "value" in props:
                    return deref(doc, props["value"])
    raise KeyError(field)


def admitted(schema: dict[str, Any], value: str) -> bool:
    return bool(jsonschema_rs.validator_for(schema, validate_formats=True).is_valid(value))


class Inputs:
    """One tenant, its signed-in admin, an installation with every scope and a webhook endpoint."""

    def __init__(self, env: Env, tenant: TenantUsers, hooked: Hooked) -> None:
        self.env, self.tenant, self.hooked = env, tenant, hooked
        self.session_doc = env.client.get(SESSION_DOC).json()
        self.open_doc = env.client.get(OPEN_DOC).json()
        scopes = ("inventory.stockins.read", "inventory.stockins.manage", "events.robot-fleet.publish",
                  "assets.read")
        self.op = Integration(env, tenant, scopes=scopes)


@pytest.fixture
def inputs(env: Env, tenant: TenantUsers) -> Iterator[Inputs]:
    with receiver(200) as hook:
        yield Inputs(env, tenant, Hooked(env, tenant, hook))


def session_create(inputs: Inputs, value: str) -> tuple[Any, Response]:
    path = "/api/meta/commands/execute/stock-ins:create"
    schema = walk(inputs.session_doc, body_schema(inputs.session_doc, "post", path), "properties", "payload",
                  "properties", "receivedAt")
    return schema, inputs.env.client.post(path, json={"payload": {"sku": "SKU-1", "receivedAt": value}},
                                          headers=inputs.tenant.headers())


def session_filter(page: str, field: str) -> Callable[[Inputs, str], tuple[Any, Response]]:
    def send(inputs: Inputs, value: str) -> tuple[Any, Response]:
        schema = filter_value_schema(inputs.session_doc, page, field)
        filters = json.dumps([{"fieldName": field, "operator": "eq", "value": value}])
        return schema, inputs.env.client.get(f"/api/dynamic/{page}/list", params={"filters": filters},
                                             headers=inputs.tenant.headers())
    return send


def recover_since(inputs: Inputs, value: str) -> tuple[Any, Response]:
    path = "/api/open-platform/webhook-endpoints/{endpointId}/deliveries/recover"
    schema = walk(inputs.session_doc, body_schema(inputs.session_doc, "post", path), "properties", "since")
    endpoint = inputs.hooked.endpoint["endpointId"]
    return schema, inputs.tenant.admin_call("POST", f"/webhook-endpoints/{endpoint}/deliveries/recover",
                                            json={"since": value})


def open_command(inputs: Inputs, value: str) -> tuple[Any, Response]:
    schema = walk(inputs.open_doc, body_schema(inputs.open_doc, "post", CREATE_STOCK_IN),
                  "properties", "input", "properties", "receivedAt")
    return schema, inputs.env.client.post(
        CREATE_STOCK_IN, json={"input": {"sku": "SKU-1", "quantity": 1, "warehouse": "W1", "receivedAt": value}},
        headers={**inputs.op.auth, "Idempotency-Key": new_key()})


def inbound_event(inputs: Inputs, value: str) -> tuple[Any, Response]:
    schema = walk(inputs.open_doc, body_schema(inputs.open_doc, "post", EVENTS), "properties", "occurredAt")
    body = {"type": "inventory.received", "schemaVersion": 1, "occurredAt": value,
            "data": {"sku": "SKU-1", "quantity": 1, "warehouse": "W1"}}
    return schema, inputs.env.client.post(EVENTS, json=body, headers={**inputs.op.auth, "Idempotency-Key": new_key()})


def events_since(inputs: Inputs, value: str) -> tuple[Any, Response]:
    schema = parameter_schema(inputs.open_doc, "get", "/api/open/v1/events", "since")
    return schema, inputs.env.client.get("/api/open/v1/events", params={"since": value}, headers=inputs.op.auth)


SENDERS: dict[str, Callable[[Inputs, str], tuple[Any, Response]]] = {
    "session command payload": session_create,
    "session filter on a datetime field": session_filter("stock-ins", "receivedAt"),
    "session filter on a timestamp column": session_filter("assets", "created_at"),
    "recovery of deliveries": recover_since,
    "open platform command input": open_command,
    "inbound event occurredAt": inbound_event,
    "events api since": events_since,
}


@pytest.mark.parametrize("where", list(SENDERS))
def test_a_date_time_is_accepted_exactly_where_the_served_document_admits_it(inputs: Inputs, where: str) -> None:
    disagreements = []
    for value in EDGES:
        schema, response = SENDERS[where](inputs, value)
        assert response.status_code < 500, response.text
        accepted = response.status_code != 400
        if accepted is not admitted(schema, value):
            disagreements.append((value, response.status_code, response.text[:200]))
    assert not disagreements, disagreements


def request_schemas(doc: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """Every schema reachable from an operation's parameters and request body, references followed."""
    stack: list[Any] = []
    for item in doc["paths"].values():
        for op in item.values():
            if isinstance(op, dict):
                stack.extend(deref(doc, parameter) for parameter in op.get("parameters", []))
                stack.append(deref(doc, op.get("requestBody", {})))
    seen: set[int] = set()
    while stack:
        node = deref(doc, stack.pop())
        if isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict) and id(node) not in seen:
            seen.add(id(node))
            yield node
            stack.extend(value for key, value in node.items() if key not in ("example", "examples", "enum"))


@pytest.mark.parametrize("document", ["generated/session-api.yaml", "generated/open-platform.yaml"])
def test_every_date_time_a_request_carries_states_the_pattern_the_service_reads(document: str) -> None:
    doc = yamlfile.load((ROOT / document).read_text(encoding="utf-8"))
    found = [schema for schema in request_schemas(doc) if schema.get("format") == "date-time"]
    assert found
    assert all(schema.get("pattern") in (TIMESTAMP_PATTERN, UTC_TIMESTAMP_PATTERN) for schema in found), found
