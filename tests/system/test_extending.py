"""A team extends the product the way the docs say, and every surface follows.

A copy of ``models.yaml`` and ``capabilities.yaml`` gains a ``vendor`` model (a page, three commands,
two permissions, the viewer template granted ``vendors:view``), a published resource, an Open
Platform command and a webhook event. Over a database the demo seeded *before* the change (SQLite and
PostgreSQL): ``tessera migrate --plan`` says what will happen and changes nothing, ``tessera migrate``
does it, and ``tessera serve`` with the new files serves the model on both surfaces: session create,
filtered list, partial update (every other field unchanged), the viewer's read (a role of a tenant
that existed before the change), the Open Platform list, read and command under ``If-Match``, and a
webhook subscribed to the new event type and delivered signed. A client generated from the served
session document by a stock generator (openapi-python-client) makes a typed partial update.
Each mistake a team makes in those files is refused by ``tessera check`` with one line naming it.
"""

from __future__ import annotations

import copy
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from tests.conftest import BACKENDS, create_pg_database, drop_pg_database
from tests.support.live_server import ROOT, TESSERA, tessera_env, tessera_serve
from tests.support.receivers import receiver
from tests.support.sdk_calls import first_delivery

try:
    from tessera_open_platform.webhooks import verify_event
except ModuleNotFoundError as exc:  # never a silent skip: the suite's command installs it
    raise ImportError(f"the generated Open Platform SDK is not installed ({exc})") from exc

PASSWORD = "extending-password"
ADMIN, VIEWER = "admin@demo.example", "viewer@demo.example"
RATED = "vendors.rating.changed"
TIMEOUT = 30.0

VENDOR_MODEL = {"label": "Vendor", "fields": {
    "name": {"type": "string", "required": True, "searchable": True, "maxLength": 200, "label": "Name"},
    "contactEmail": {"type": "string", "nullable": True, "maxLength": 200, "label": "Contact email"},
    "rating": {"type": "integer", "minimum": 0, "maximum": 5, "label": "Rating"},
    "active": {"type": "boolean", "default": True, "label": "Active"},
    "tier": {"type": "enum", "values": ["gold", "silver", "bronze"], "default": "bronze", "label": "Tier"},
    "since": {"type": "date", "label": "Supplier since"},
}}
VENDOR_RESOURCE = {
    "model": "vendor", "schemaName": "Vendor", "pluralName": "Vendors", "readScope": "vendors.read",
    "description": "Suppliers of the tenant.", "fields": ["name", "rating", "active", "tier"],
    "example": {"name": "Nordic Parts AB", "rating": 4, "active": True, "tier": "gold"},
}
RATE_COMMAND = {
    "resource": "vendors", "action": "update", "summary": "Rate a vendor", "description": "Sets the rating.",
    "scope": "vendors.manage", "emits": RATED,
    "input": {"type": "object", "additionalProperties": False, "required": ["rating"],
              "properties": {"rating": {"type": "integer", "minimum": 0, "maximum": 5}}, "example": {"rating": 5}},
    "apply": {"rating": {"input": "rating"}},
}
RATED_EVENT = {"description": "A vendor's rating changed.", "resource": "vendors", "trigger": "update",
               "whenChanged": ["rating"], "fields": ["name", "rating"], "previous": ["rating"]}


def extended(models: dict[str, Any], capabilities: dict[str, Any]) -> None:
    """What the team adds, in place (copies: a test's change must not reach the next one's)."""
    models["models"]["vendor"] = copy.deepcopy(VENDOR_MODEL)
    models["pages"]["vendors"] = {"model": "vendor", "permission": "vendors:view"}
    for action in ("create", "update", "delete"):
        models["commands"][f"vendors:{action}"] = {"page": "vendors", "action": action, "permission": "vendors:manage"}
    models["permissions"] |= {"vendors:view": "List and read vendors.", "vendors:manage": "Change vendors."}
    models["roles"]["viewer"]["permissions"].append("vendors:view")
    capabilities["resources"]["vendors"] = copy.deepcopy(VENDOR_RESOURCE)
    capabilities["commands"]["vendors.rate"] = copy.deepcopy(RATE_COMMAND)
    capabilities["webhookEvents"][RATED] = copy.deepcopy(RATED_EVENT)


def write_registries(folder: Path, change: Any = None) -> tuple[Path, Path]:
    models = yaml.safe_load((ROOT / "models.yaml").read_text())
    capabilities = yaml.safe_load((ROOT / "capabilities.yaml").read_text())
    extended(models, capabilities)
    if change is not None:
        change(models, capabilities)
    folder.mkdir(parents=True, exist_ok=True)
    paths = folder / "models.yaml", folder / "capabilities.yaml"
    paths[0].write_text(yaml.safe_dump(models, sort_keys=False))
    paths[1].write_text(yaml.safe_dump(capabilities, sort_keys=False))
    return paths


def tessera(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*TESSERA, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
                          check=False)


@pytest.fixture(params=BACKENDS)
def seeded_before(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[dict[str, str]]:
    """The demo seeded with the shipped registries: the deployment as it was before the change."""
    database_url = f"sqlite:///{tmp_path / 'tessera.db'}" if request.param == "sqlite" else create_pg_database()
    env = tessera_env(tmp_path / "var", TESSERA_DATABASE_URL=database_url, TESSERA_DEMO_PASSWORD=PASSWORD,
                      TESSERA_PASSWORD_HASH_COST="minimal", TESSERA_WEBHOOK_ALLOW_LOOPBACK="true",
                      TESSERA_WEBHOOK_RETRY_SCHEDULE="0,0", TESSERA_WORKER_POLL_SECONDS="0.2",
                      TESSERA_REDIS_PREFIX=f"tessera-extending-{uuid.uuid4().hex[:8]}")
    seeded = tessera(env, "seed")
    assert seeded.returncode == 0, seeded.stderr[-3000:]
    try:
        yield env
    finally:
        if request.param == "postgresql":
            drop_pg_database(database_url)


def test_a_model_declared_in_yaml_reaches_every_surface_of_a_deployment_seeded_before_it(
        seeded_before: dict[str, str], tmp_path: Path) -> None:
    models, capabilities = write_registries(tmp_path / "registries")
    env = {**seeded_before, "TESSERA_MODELS_FILE": str(models), "TESSERA_CAPABILITIES_FILE": str(capabilities)}

    planned = tessera(env, "migrate", "--plan")
    assert planned.returncode == 0, planned.stderr[-3000:]
    assert "roles: demo: viewer + vendors:view" in planned.stdout
    assert "indexes: build ix_rdx_vendor_rating" in planned.stdout
    assert "nothing done" in planned.stdout
    migrated = tessera(env, "migrate")
    assert migrated.returncode == 0, migrated.stderr[-3000:]
    assert "roles: demo: viewer + vendors:view" in migrated.stdout
    again = tessera(env, "migrate", "--plan")
    assert "vendors:view" not in again.stdout and "indexes: build" not in again.stdout  # the plan was done

    with tessera_serve(env, demo=False, log_path=tmp_path / "serve.log") as base, \
            httpx.Client(base_url=base, timeout=TIMEOUT) as http, receiver(200) as hook:
        admin = {"Authorization": f"Bearer {login(http, ADMIN)}"}
        # Session: create, filtered list, partial update that leaves every other field as it was.
        made = envelope(http.post("/api/meta/commands/execute/vendors:create", headers=admin, json={"payload": {
            "name": "Nordic Parts AB", "contactEmail": "orders@nordic.example", "rating": 3, "active": False,
            "tier": "gold", "since": "2019-04-01"}}))
        assert (made["active"], made["tier"]) == (False, "gold")  # given values, not the defaults
        found = envelope(http.get("/api/dynamic/vendors/list", headers=admin, params={
            "filters": '[{"fieldName": "tier", "operator": "eq", "value": "gold"}]'}))
        assert [record["id"] for record in found["records"]] == [made["id"]] and found["total"] == 1
        envelope(http.post("/api/meta/commands/execute/vendors:update", headers=admin, json={
            "operationType": "UPDATE", "targetRecordId": made["id"], "payload": {"rating": 4}}))
        read = envelope(http.get(f"/api/dynamic/vendors/{made['id']}", headers=admin))
        assert {k: read[k] for k in ("name", "contactEmail", "rating", "active", "tier", "since")} == {
            "name": "Nordic Parts AB", "contactEmail": "orders@nordic.example", "rating": 4, "active": False,
            "tier": "gold", "since": "2019-04-01"}
        # The demo's viewer, whose role existed before the change, got the template's new grant.
        viewer = {"Authorization": f"Bearer {login(http, VIEWER)}"}
        assert envelope(http.get("/api/dynamic/vendors/list", headers=viewer))["total"] == 1

        # Open Platform: an integration with the new scopes lists, reads and rates the vendor.
        token, installation = integration(http, admin, ("vendors.read", "vendors.manage"))
        bearer = {"Authorization": f"Bearer {token}"}
        endpoint = envelope(http.post(f"/api/open-platform/installations/{installation}/webhook-endpoints",
                                      headers=admin, json={"url": hook.url, "eventTypes": [RATED]}))
        page = http.get("/api/open/v1/resources/vendors", headers=bearer)
        assert page.status_code == 200, page.text
        pid = page.json()["items"][0]["pid"]
        one = http.get(f"/api/open/v1/resources/vendors/{pid}", headers=bearer)
        assert one.status_code == 200 and one.json()["rating"] == 4 and one.json()["tier"] == "gold"
        rated = http.post("/api/open/v1/commands/vendors.rate:execute", json={"targetPid": pid, "input": {"rating": 5}},
                          headers={**bearer, "If-Match": one.headers["ETag"], "Idempotency-Key": str(uuid.uuid4())})
        assert rated.status_code == 200, rated.text
        assert rated.json()["record"]["rating"] == 5 and rated.json()["record"]["active"] is False

        # The webhook of the new event type reaches the receiver, signed.
        got = first_delivery(hook.requests, TIMEOUT)
        event = verify_event(got.body, got.headers, endpoint["secret"])
        assert event["type"] == RATED
        assert (event["data"]["pid"], event["data"]["rating"], event["data"]["previousRating"]) == (pid, 5, 4)

        # A client a stock generator makes from the served document updates one field of a vendor and
        # of an asset (a model with a default too: its status), typed; nothing else changes.
        asset = envelope(http.get("/api/dynamic/assets/list", headers=admin, params={
            "filters": '[{"fieldName": "status", "operator": "eq", "value": "retired"}]', "pageSize": 1}))["records"][0]
        typed_partial_update(http, tmp_path, admin["Authorization"], made["id"], asset["id"])
        after = envelope(http.get(f"/api/dynamic/vendors/{made['id']}", headers=admin))
        assert (after["name"], after["rating"], after["active"], after["tier"]) == ("Renamed AB", 5, False, "gold")
        changed = envelope(http.get(f"/api/dynamic/assets/{asset['id']}", headers=admin))
        assert {**changed, "value": asset["value"], "updated_at": asset["updated_at"]} == asset
        assert changed["value"] == 777.0 and changed["status"] == "retired"


def login(http: httpx.Client, email: str) -> str:
    return str(envelope(http.post("/api/auth/login", json={"email": email, "password": PASSWORD}))["jwt"])


def envelope(response: httpx.Response) -> Any:
    assert response.status_code == 200, response.text
    assert response.json()["code"] == "0", response.text
    return response.json()["data"]


def integration(http: httpx.Client, admin: dict[str, str], scopes: tuple[str, ...]) -> tuple[str, str]:
    """An application installed into demo with ``scopes``; its token and installation id."""
    app = envelope(http.post("/api/open-platform/applications", headers=admin, json={"name": "Vendor sync"}))
    installation = envelope(http.post(f"/api/open-platform/applications/{app['appId']}/installations", headers=admin,
                                      json={"tenantId": "demo", "environment": "production", "scopes": list(scopes)}))
    credential = envelope(http.post(f"/api/open-platform/installations/{installation['installationId']}/credentials",
                                    headers=admin))
    token = http.post("/oauth2/token", data={"grant_type": "client_credentials", "client_id": credential["clientId"],
                                             "client_secret": credential["clientSecret"], "scope": " ".join(scopes)})
    assert token.status_code == 200, token.text
    return str(token.json()["access_token"]), str(installation["installationId"])


TYPED_UPDATE = """
import sys
from vendor_client import AuthenticatedClient
from vendor_client.api.commands import execute_assets_update_command, execute_vendors_update_command
from vendor_client.models import (AssetsUpdateRequest, AssetsUpdateRequestOperationType, AssetUpdatePayload,
                                  VendorsUpdateRequest, VendorsUpdateRequestOperationType, VendorUpdatePayload)

base, token, vendor_id, asset_id = sys.argv[1:]
with AuthenticatedClient(base_url=base, token=token.removeprefix("Bearer "), prefix="Bearer") as client:
    body = VendorsUpdateRequest(operation_type=VendorsUpdateRequestOperationType.UPDATE, target_record_id=vendor_id,
                                payload=VendorUpdatePayload(name="Renamed AB"))
    print(body.to_dict())
    answer = execute_vendors_update_command.sync_detailed(client=client, body=body)
    assert answer.status_code == 200, answer.content
    asset = AssetsUpdateRequest(operation_type=AssetsUpdateRequestOperationType.UPDATE, target_record_id=asset_id,
                                payload=AssetUpdatePayload(value=777.0))
    print(asset.to_dict())
    answer = execute_assets_update_command.sync_detailed(client=client, body=asset)
    assert answer.status_code == 200, answer.content
"""


def typed_partial_update(http: httpx.Client, tmp: Path, authorization: str, vendor_id: str, asset_id: str) -> None:
    """openapi-python-client on the served session document, then a typed update of ``name`` alone."""
    document = tmp / "session-api.json"
    document.write_bytes(http.get("/api/openapi.json").content)
    out = tmp / "vendor-client"
    made = subprocess.run([sys.executable, "-m", "openapi_python_client", "generate", "--path", str(document),
                           "--output-path", str(out), "--meta", "none"], cwd=tmp, capture_output=True, text=True,
                          timeout=240, check=False)
    assert made.returncode == 0, made.stdout[-3000:] + made.stderr[-3000:]
    package = next(path.parent for path in out.rglob("client.py"))
    (tmp / "vendor_client").symlink_to(package)
    started = time.monotonic()
    ran = subprocess.run([sys.executable, "-c", TYPED_UPDATE, str(http.base_url).rstrip("/"), authorization,
                          vendor_id, asset_id], cwd=tmp, capture_output=True, text=True, timeout=60, check=False)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert "'payload': {'name': 'Renamed AB'}" in ran.stdout, ran.stdout  # nothing but the field given
    assert "'payload': {'value': 777.0}" in ran.stdout, ran.stdout
    assert time.monotonic() - started < 60


def _set_in(section: str, path: str, value: Any) -> Any:
    def change(models: dict[str, Any], capabilities: dict[str, Any]) -> None:
        node = models if section == "models" else capabilities
        *parents, last = path.split("/")
        for key in parents:
            node = node[key]
        node[last] = value
    return change


@pytest.mark.parametrize(("change", "named"), [
    (_set_in("models", "pages/vendors/permission", "vendor:view"),
     "models.yaml: pages.vendors.permission: 'vendor:view' is not a declared permission"),
    (_set_in("models", "models/vendor/fields/rating/default", 9),
     "models.yaml: models.vendor.fields.rating.default: 9 is above maximum 5"),
    (_set_in("models", "models/vendor/fields/rating/type", "integr"), "models.yaml: models.vendor.fields.rating.type"),
    (_set_in("models", "models/vendor/fields/since/renamedFrom", "name"),
     "models.vendor.fields.since.renamedFrom: 'name' is still a field of vendor"),
    (_set_in("capabilities", "commands/vendors.rate/input/properties/rating/maximum", 10),
     "capabilities.yaml: commands.vendors.rate.input.properties.rating: maximum 10 over the field's largest value 5"),
    (_set_in("capabilities", "commands/vendors.rate/apply", {"score": {"input": "rating"}}),
     "commands.vendors.rate.apply.score: not a field of model vendor"),
    (_set_in("capabilities", f"webhookEvents/{RATED}/whenChanged", ["stars"]),
     f"webhookEvents.{RATED}.whenChanged: 'stars' is not a field of model vendor"),
    (_set_in("capabilities", "resources/vendors/fields", ["name", "score"]),
     "resources.vendors.fields: 'score' is not a field"),
], ids=["permission-typo", "default-out-of-bounds", "type-typo", "rename-from-a-declared-field",
        "input-wider-than-field", "apply-unknown-field", "webhook-unknown-field", "resource-unknown-field"])
def test_each_mistake_in_the_registries_is_refused_by_check_in_one_line_naming_it(
        change: Any, named: str, tmp_path: Path) -> None:
    models, capabilities = write_registries(tmp_path, change)
    env = tessera_env(tmp_path / "var", TESSERA_MODELS_FILE=str(models), TESSERA_CAPABILITIES_FILE=str(capabilities))
    checked = tessera(env, "check")
    assert checked.returncode == 2, checked.stdout + checked.stderr
    assert named in checked.stderr, checked.stderr
    assert "Traceback" not in checked.stderr and len(checked.stderr.strip().splitlines()) == 1, checked.stderr
