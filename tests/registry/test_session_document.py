"""openapi/session-api.yaml says as much as the service checks, so generated clients and fuzzers
send what the service accepts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

import storage.applications as applications
import storage.audit as audit
import storage.automations as automations
import storage.credentials as credentials
import storage.installations as installations
import storage.webhooks as webhooks
from tessera.core.clock import SystemClock

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = (ROOT / "openapi" / "session-api.yaml", ROOT / "generated" / "open-platform.yaml")
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
    return yaml.safe_load(DOCUMENTS[0].read_text())


def _parameter(doc: dict[str, Any], path: str, name: str) -> dict[str, Any]:
    for parameter in doc["paths"][path]["get"]["parameters"]:
        resolved = doc["components"]["parameters"][parameter["$ref"].rsplit("/", 1)[1]]
        if resolved["name"] == name:
            return resolved
    raise AssertionError(f"{path} has no {name} parameter")


@pytest.mark.parametrize("path", sorted(LIST_FIELDS))
def test_each_administration_list_documents_exactly_the_fields_it_sorts_on(
        session_doc: dict[str, Any], path: str) -> None:
    sort_field = _parameter(session_doc, path, "sortField")
    assert set(sort_field["schema"]["enum"]) == set(LIST_FIELDS[path])


@pytest.mark.parametrize("path", sorted(LIST_FIELDS))
def test_each_administration_list_documents_the_fields_it_filters_on_and_a_valid_example(
        session_doc: dict[str, Any], path: str) -> None:
    filters = _parameter(session_doc, path, "filters")
    narrowed = filters["x-decoded-schema"]["items"]["allOf"][1]["properties"]["fieldName"]["enum"]
    assert set(narrowed) == set(LIST_FIELDS[path])
    example = yaml.safe_load(filters["example"])
    assert all(condition["fieldName"] in LIST_FIELDS[path] for condition in example)


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: p.name)
def test_every_operation_documents_the_request_bounds(document: Path) -> None:
    doc = yaml.safe_load(document.read_text())
    for path, item in doc["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                assert {"414", "431"} <= set(operation["responses"]), f"{method.upper()} {path}"
