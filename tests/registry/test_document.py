"""generated/open-platform.yaml: derived from the skeleton and the registry, current, and served."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from openapi_spec_validator import validate

from tessera.core import yamlfile
from tessera.registry.operational import OPERATIONAL_EVENTS
from tests.conftest import Env

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "generated" / "open-platform.yaml"
ERRORS_OF_A_READ = {"400", "401", "403", "404", "429", "500"}
ERRORS_OF_A_COMMAND = {"400", "401", "403", "404", "409", "412", "413", "415", "429", "500"}


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    return yamlfile.load(GENERATED.read_text())


def test_the_document_is_valid_openapi(doc: dict[str, Any]) -> None:
    assert validate(doc) is None  # openapi-spec-validator raises on the first problem
    assert doc["openapi"].startswith("3.0.")


@pytest.mark.rule("op.record.resource-names", "op.command.code-form", "op.version.v1-segment")
def test_each_published_resource_command_and_event_source_has_one_concrete_path(doc: dict[str, Any]) -> None:
    assert set(doc["paths"]) == {
        "/oauth2/token",
        "/oauth2/introspect",
        "/oauth2/revoke",
        "/.well-known/oauth-authorization-server",
        "/api/open/v1/whoami",
        "/api/open/v1/resources/assets",
        "/api/open/v1/resources/assets/{pid}",
        "/api/open/v1/resources/inventory.stock-ins",
        "/api/open/v1/resources/inventory.stock-ins/{pid}",
        "/api/open/v1/commands/assets.assign:execute",
        "/api/open/v1/commands/inventory.stock-ins.create:execute",
        "/api/open/v1/event-sources/robot-fleet/events",
        "/api/open/v1/events",
        "/api/open/v1/events/{eventId}",
    }


@pytest.mark.rule("op.capability.no-auto-exposure", "op.record.pid")
def test_operation_ids_are_stable_and_typed(doc: dict[str, Any]) -> None:
    ids = {op["operationId"] for item in doc["paths"].values() for op in item.values()}
    assert ids == {"issueToken", "introspectToken", "revokeToken", "getAuthorizationServerMetadata", "whoami",
                   "listAssets", "getAsset", "listStockIns", "getStockIn",
                   "executeAssetsAssign", "executeInventoryStockInsCreate", "postRobotFleetEvent",
                   "listEvents", "getEvent"}
    schemas = doc["components"]["schemas"]
    assert schemas["AssetsAssignInput"]["required"] == ["assignee"]
    assert schemas["Asset"]["properties"]["status"]["enum"] == ["in_stock", "assigned", "retired"]
    assert "id" not in schemas["Asset"]["properties"] and "tenantId" not in schemas["Asset"]["properties"]


def test_the_events_api_serves_every_webhook_body_typed_by_its_type(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    bodies = {event_type: entry["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
              for event_type, entry in doc["x-webhooks"].items()}
    assert schemas["Event"]["discriminator"] == {"propertyName": "type", "mapping": bodies}
    assert schemas["Event"]["oneOf"] == [{"$ref": ref} for ref in bodies.values()]
    assert schemas["EventPage"]["properties"]["items"]["items"] == {"$ref": "#/components/schemas/Event"}
    parameters = doc["components"]["parameters"]
    assert parameters["EventType"]["schema"]["items"]["enum"] == list(bodies)
    assert {"assets.assignment.changed", "webhook.endpoint.disabled"} <= set(bodies)


def test_security_names_the_scope_of_each_operation(doc: dict[str, Any]) -> None:
    paths = doc["paths"]
    assert paths["/api/open/v1/resources/assets"]["get"]["security"] == [{"accessToken": ["assets.read"]}]
    assert paths["/api/open/v1/resources/inventory.stock-ins/{pid}"]["get"]["security"] == [
        {"accessToken": ["inventory.stockins.read"]}]
    assert paths["/api/open/v1/commands/assets.assign:execute"]["post"]["security"] == [
        {"accessToken": ["assets.manage"]}]
    flows = doc["components"]["securitySchemes"]["accessToken"]["flows"]["clientCredentials"]
    assert set(flows["scopes"]) == {"assets.read", "assets.manage", "inventory.stockins.read",
                                    "inventory.stockins.manage", "events.robot-fleet.publish"}


def test_every_error_response_is_documented(doc: dict[str, Any]) -> None:
    paths = doc["paths"]
    assert set(paths["/api/open/v1/resources/assets/{pid}"]["get"]["responses"]) >= ERRORS_OF_A_READ
    assert set(paths["/api/open/v1/resources/assets"]["get"]["responses"]) >= ERRORS_OF_A_READ - {"404"}
    assert set(paths["/api/open/v1/commands/assets.assign:execute"]["post"]["responses"]) >= ERRORS_OF_A_COMMAND


@pytest.mark.rule("op.command.if-match-required")
def test_update_commands_require_if_match_and_every_command_an_idempotency_key(doc: dict[str, Any]) -> None:
    def headers(path: str) -> set[str]:
        params = doc["paths"][path]["post"]["parameters"]
        return {p["$ref"].rsplit("/", 1)[1] for p in params}

    assert headers("/api/open/v1/commands/assets.assign:execute") >= {"IfMatch", "IdempotencyKey"}
    assert "IfMatch" not in headers("/api/open/v1/commands/inventory.stock-ins.create:execute")
    assert doc["components"]["parameters"]["IdempotencyKey"]["required"] is True


def test_links_carry_pid_and_etag_for_stateful_testing(doc: dict[str, Any]) -> None:
    read = doc["paths"]["/api/open/v1/resources/assets/{pid}"]["get"]["responses"]["200"]
    link = read["links"]["ExecuteAssetsAssign"]
    assert link["parameters"] == {"header.If-Match": "$response.header.ETag"}
    # Not `requestBody`: openapi-generator refuses a non-string there; Schemathesis gets it through a hook.
    assert "requestBody" not in link
    assert link["x-tessera-request-body"] == {"targetPid": "$response.body#/pid"}
    listing = doc["paths"]["/api/open/v1/resources/assets"]["get"]["responses"]["200"]
    assert listing["links"]["GetAsset"]["parameters"] == {"pid": "$response.body#/items/0/pid"}


def test_the_schemathesis_hook_hands_the_link_body_over_as_request_body(doc: dict[str, Any]) -> None:
    import copy
    import importlib.util

    hooks_file = ROOT / "scripts" / "schemathesis_hooks.py"
    spec = importlib.util.spec_from_file_location("tessera_schemathesis_hooks", hooks_file)
    assert spec is not None and spec.loader is not None
    hooks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hooks)
    raw = copy.deepcopy(doc)
    hooks.before_load_schema(None, raw)
    read = raw["paths"]["/api/open/v1/resources/assets/{pid}"]["get"]["responses"]["200"]
    assert read["links"]["ExecuteAssetsAssign"]["requestBody"] == {"targetPid": "$response.body#/pid"}
    assert 'hooks = "scripts/schemathesis_hooks.py"' in (ROOT / "schemathesis.toml").read_text()


def test_webhook_operations_need_no_credential_and_are_described_for_swagger_ui(doc: dict[str, Any]) -> None:
    for hook in doc["x-webhooks"].values():
        assert hook["post"]["security"] == []  # the service calls the receiver; the signature is the proof
    description = doc["info"]["description"]
    section = description.split("## Webhooks", 1)[1]  # Swagger UI shows info.description, never x-webhooks
    for event_type in doc["x-webhooks"]:
        assert f"| `{event_type}` |" in section
    parameters = doc["components"]["parameters"]
    for hook in doc["x-webhooks"].values():
        for ref in hook["post"]["parameters"]:
            header = parameters[ref["$ref"].rsplit("/", 1)[1]]
            assert f"| `{header['name']}` |" in section
            assert " ".join(header["description"].split()) in section


def test_the_server_url_is_a_variable_for_importers(doc: dict[str, Any]) -> None:
    [server] = doc["servers"]
    assert server["url"] == "{origin}"  # not baseUrl: Postman names its own collection variable so
    assert server["variables"]["origin"]["default"].startswith("http")


def test_webhook_events_are_documented_with_payloads_and_signature_headers(doc: dict[str, Any]) -> None:
    hooks = doc["x-webhooks"]
    assert set(hooks) == {"assets.assignment.changed", "inventory.stock-in.created", "webhook.endpoint.disabled",
                          "credential.rotation.due", "credential.expiry.approaching"}
    for hook in hooks.values():
        params = {p["$ref"].rsplit("/", 1)[1] for p in hook["post"]["parameters"]}
        assert params == {"WebhookTimestamp", "WebhookSignature", "WebhookDelivery",  # the tessera format
                          "StandardWebhookId", "StandardWebhookTimestamp", "StandardWebhookSignature"}
    payload = doc["components"]["schemas"]["AssetsAssignmentChangedPayload"]
    assert set(payload["required"]) == {"pid", "assignee", "status", "previousAssignee"}


def _operations(spec: dict[str, Any]) -> dict[tuple[str, str], str]:
    return {(path, method): op["operationId"] for path, item in spec["paths"].items() for method, op in item.items()}


def test_the_service_serves_the_generated_document(env: Env, doc: dict[str, Any]) -> None:
    """Connexion serves the document with its references resolved; the operations are the same."""
    served = env.client.get("/api/open/v1/openapi.json").json()
    assert _operations(served) == _operations(doc)
    assert set(served["x-webhooks"]) == set(doc["x-webhooks"])
    assert set(served["components"]["schemas"]) == set(doc["components"]["schemas"])


def test_the_session_documents_webhook_event_types_are_the_published_ones(env: Env) -> None:
    """The session document is hand-written: this catches it drifting from the registry."""
    session = yamlfile.load((ROOT / "generated" / "session-api.yaml").read_text())
    assert set(session["components"]["schemas"]["WebhookEventType"]["enum"]) == set(
        env.runtime.capabilities.webhook_events) | set(OPERATIONAL_EVENTS)



def test_examples_derive_from_the_registry_and_agree_with_each_other(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    record = schemas["Asset"]["example"]
    assert schemas["AssetPage"]["example"]["items"] == [record]
    assigned = schemas["AssetsAssignResult"]["example"]["record"]
    assert assigned["pid"] == record["pid"] == schemas["AssetsAssignRequest"]["example"]["targetPid"]
    assert assigned["assignee"] == schemas["AssetsAssignInput"]["example"]["assignee"]
    assert assigned["status"] == "assigned"
    change = schemas["AssetsAssignmentChangedEvent"]["example"]["data"]
    assert (change["assignee"], change["previousAssignee"]) == (assigned["assignee"], record["assignee"])
    created = schemas["InventoryStockInsCreateResult"]["example"]["record"]
    assert created["source"] == "open-platform"
    assert schemas["RobotFleetEvent"]["example"]["data"] == schemas["RobotFleetInventoryReceivedV1"]["example"]


def test_an_example_that_does_not_fit_its_schema_is_refused_with_its_name() -> None:
    from tessera.registry.capabilities import CapabilityError, parse_capabilities
    from tessera.registry.document import build_document
    from tessera.registry.models import load_declarations

    raw = yamlfile.load((ROOT / "capabilities.yaml").read_text())
    raw["resources"]["assets"]["example"]["status"] = "lost"
    registry = parse_capabilities(raw, load_declarations(ROOT / "models.yaml"))
    with pytest.raises(CapabilityError, match=r"resources\.assets\.example\.status"):
        build_document(ROOT / "openapi" / "open-platform.yaml", registry)
