"""generated/postman: the Postman collections and environment `tessera generate` writes from the served documents.

These check the files; tests/system/test_newman.py runs them under newman against a live demo.
"""

from __future__ import annotations

import copy
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from codegen import postman, postman_steps
from tessera import cli
from tessera.core import yamlfile

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = yamlfile.load((ROOT / "generated" / "open-platform.yaml").read_text(encoding="utf-8"))
# The session document as the service serves it (what `tessera generate` builds the session collection from).
SESSION_DOCUMENT = yamlfile.load((ROOT / "generated" / "session-api.yaml").read_text(encoding="utf-8"))
COLLECTION_FILE = ROOT / postman.DIRECTORY / postman.COLLECTION
SESSION_FILE = ROOT / postman.DIRECTORY / postman.SESSION_COLLECTION
ENVIRONMENT_FILE = ROOT / postman.DIRECTORY / postman.ENVIRONMENT
ORIGIN = "http://127.0.0.1:8080"


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _requests(collection: dict[str, Any]) -> list[dict[str, Any]]:
    return [request for folder in collection["item"] for request in folder["item"]]


def _script(node: dict[str, Any], listen: str) -> str:
    return "\n".join(line for event in node.get("event", []) if event["listen"] == listen
                     for line in event["script"]["exec"])


def _strings(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [text for key, value in node.items() for text in [key, *_strings(value)]]
    if isinstance(node, list):
        return [text for value in node for text in _strings(value)]
    return [node] if isinstance(node, str) else []


def _operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(method.upper(), path, operation) for path, item in doc["paths"].items()
            for method, operation in item.items() if method in postman.METHODS]


def _sent(request: dict[str, Any]) -> tuple[str, str]:
    return request["request"]["method"], "/" + "/".join(request["request"]["url"]["path"])


def _as_postman(path: str) -> str:
    return re.sub(r"\{([^}]+)\}", r":\1", path)


def test_the_committed_files_are_what_the_served_documents_give() -> None:
    assert postman.files(DOCUMENT, SESSION_DOCUMENT) == {
        postman.COLLECTION: COLLECTION_FILE.read_text(encoding="utf-8"),
        postman.SESSION_COLLECTION: SESSION_FILE.read_text(encoding="utf-8"),
        postman.ENVIRONMENT: ENVIRONMENT_FILE.read_text(encoding="utf-8"),
    }
    # deterministic: fixed ids, order and layout
    assert postman.files(DOCUMENT, SESSION_DOCUMENT) == postman.files(DOCUMENT, SESSION_DOCUMENT)


def test_the_open_platform_collection_is_v2_1_with_every_operation_and_a_404_read_per_read() -> None:
    collection = _load(COLLECTION_FILE)
    assert collection["info"]["schema"] == "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"
    requests = _requests(collection)
    sent = sorted(_sent(request) for request in requests)
    reads = [(method, _as_postman(path)) for method, path, _ in _operations(DOCUMENT)
             if method == "GET" and path.endswith("}")]
    assert reads
    expected = sorted([*((method, _as_postman(path)) for method, path, _ in _operations(DOCUMENT)), *reads])
    assert sent == expected
    ids = [collection["info"]["_postman_id"], *(f["id"] for f in collection["item"]), *(r["id"] for r in requests)]
    assert len(ids) == len(set(ids))


def test_folders_follow_the_tags_and_requests_carry_the_documents_examples() -> None:
    collection = _load(COLLECTION_FILE)
    tag_order = [tag["name"] for tag in DOCUMENT["tags"]]
    folders = [folder["name"] for folder in collection["item"]]
    assert folders == [tag for tag in tag_order if tag in folders]
    by_name = {request["name"]: (folder["name"], request) for folder in collection["item"]
               for request in folder["item"]}
    for method, path, operation in _operations(DOCUMENT):
        folder, request = by_name[operation["summary"]]
        assert folder == operation["tags"][0]
        assert request["request"]["method"] == method
        content = operation.get("requestBody", {}).get("content", {})
        if "application/json" in content:
            schema = content["application/json"]["schema"]
            example = content["application/json"].get("example") or postman_steps.resolve(DOCUMENT, schema)["example"]
            body = json.loads(request["request"]["body"]["raw"])
            # Only the fields an earlier answer gives differ from the example, and they are variables.
            assert {k: v for k, v in body.items() if not str(v).startswith("{{")} == {
                k: v for k, v in example.items() if k in body and not str(body[k]).startswith("{{")}, path
            assert set(body) == set(example), path
        security = [name for alternative in operation.get("security", []) for name in alternative]
        if "accessToken" in security:
            assert "auth" not in request["request"], path  # inherits the collection's bearer token
        elif "clientBasic" in security:  # the OAuth endpoints: the client's credentials as HTTP Basic
            assert request["request"]["auth"] == postman_steps.BASIC_AUTH, path
        else:
            assert request["request"]["auth"] == {"type": "noauth"}, path


def test_ids_come_from_earlier_answers_through_the_documents_links() -> None:
    requests = _requests(_load(COLLECTION_FILE))
    by_path = {_sent(request): request for request in requests}
    listing = by_path[("GET", "/api/open/v1/resources/assets")]
    read = next(r for r in requests if _sent(r) == ("GET", "/api/open/v1/resources/assets/:pid")
                and "unknown" not in r["name"])
    assign = by_path[("POST", "/api/open/v1/commands/assets.assign:execute")]
    assert [requests.index(r) for r in (listing, read, assign)] == sorted(requests.index(r) for r in (listing, read,
                                                                                                       assign))
    assert 'pointer(body, "/items/0/pid")' in _script(listing, "test")
    assert read["request"]["url"]["variable"][0]["value"] == "{{getAsset.pid}}"
    assert 'pm.response.headers.get("ETag")' in _script(read, "test")
    headers = {header["key"]: header for header in assign["request"]["header"]}
    assert headers["If-Match"]["value"] == "{{executeAssetsAssign.If-Match}}"
    assert "disabled" not in headers["If-Match"]
    assert headers["Idempotency-Key"]["value"] == "{{$guid}}"
    assert json.loads(assign["request"]["body"]["raw"])["targetPid"] == "{{executeAssetsAssign.targetPid}}"


@pytest.mark.rule("sdk.token.reuse-until-margin")
def test_the_collection_keeps_a_client_credentials_token_until_30_s_before_expiry() -> None:
    collection = _load(COLLECTION_FILE)
    assert collection["auth"] == {"type": "bearer", "bearer": [{"key": "token", "value": "{{accessToken}}",
                                                                "type": "string"}]}
    script = _script(collection, "prerequest")
    assert 'url: pm.variables.get("origin") + "/oauth2/token"' in script
    assert '{key: "grant_type", value: "client_credentials"}' in script
    assert 'pm.variables.get("clientSecret")' in script
    assert "Date.now() >= expiresAt - 30 * 1000" in script
    assert 'pm.collectionVariables.set("accessToken", issued.access_token)' in script
    assert 'pm.collectionVariables.unset("accessToken")' in _script(collection, "test")
    assert "oauth2" not in json.dumps(collection["auth"])  # no Postman-app-only helper
    assert all(request["request"]["url"]["raw"].startswith("{{origin}}/") for request in _requests(collection))
    token = next(r for r in _requests(collection) if r["request"]["url"]["path"] == ["oauth2", "token"])
    form = {field["key"]: field["value"] for field in token["request"]["body"]["urlencoded"]}
    assert form["grant_type"] == "client_credentials"
    assert "client_secret" not in form and token["request"]["auth"]["type"] == "basic"  # one method: Basic
    for path in (["oauth2", "introspect"], ["oauth2", "revoke"]):
        other = next(r for r in _requests(collection) if r["request"]["url"]["path"] == path)
        assert {f["key"]: f["value"] for f in other["request"]["body"]["urlencoded"]}["token"] == "{{issuedToken}}"


def test_every_request_tests_its_status_and_envelope() -> None:
    for request in _requests(_load(COLLECTION_FILE)):
        script = _script(request, "test")
        status = re.search(r"pm\.response\.to\.have\.status\((\d+)\)", script)
        assert status, request["name"]
        assert "pm.response.to.have.jsonSchema(" in script, request["name"]
        if int(status[1]) >= 400:
            assert '["code", "details", "message", "requestId"]' in script, request["name"]
            assert 'pm.response.headers.get("X-Request-Id")' in script, request["name"]
    for request in _requests(_load(SESSION_FILE)):
        script = _script(request, "test")
        assert '["code", "data", "message"]' in script, request["name"]
        assert "pm.response.to.have.jsonSchema(" in script, request["name"]
        expected = "NOT_FOUND" if "answers 404" in request["name"] else "0"
        assert f"pm.expect(body.code).to.eql({json.dumps(expected)});" in script, request["name"]


def test_the_session_collection_logs_in_once_and_walks_lists_reads_and_creates() -> None:
    collection = _load(SESSION_FILE)
    assert collection["auth"]["bearer"][0]["value"] == "{{jwt}}"
    script = _script(collection, "prerequest")
    assert 'url: pm.variables.get("origin") + "/api/auth/login"' in script
    assert 'email: pm.variables.get("email")' in script
    assert "claims.exp * 1000" in script and "expiresAt - 30 * 1000" in script
    requests = _requests(collection)
    sent = [_sent(request) for request in requests]
    login = requests[sent.index(("POST", "/api/auth/login"))]
    assert login["request"]["auth"] == {"type": "noauth"}
    assert json.loads(login["request"]["body"]["raw"]) == {"email": "{{email}}", "password": "{{password}}"}
    for page in ("assets", "stock-ins"):
        listing = sent.index(("GET", f"/api/dynamic/{page}/list"))
        read = requests[listing + 1]
        assert _sent(read) == ("GET", f"/api/dynamic/{page}/:recordId")
        assert 'pointer(body, "/data/records/0/id")' in _script(requests[listing], "test")
        assert read["request"]["url"]["variable"][0]["value"].startswith("{{")
        assert _sent(requests[listing + 2]) == _sent(read) and "answers 404" in requests[listing + 2]["name"]
        create = sent.index(("POST", f"/api/meta/commands/execute/{page}:create"))
        back = requests[create + 1]
        assert _sent(back) == ("GET", f"/api/dynamic/{page}/:recordId")
        assert 'pointer(body, "/data/id")' in _script(requests[create], "test")
        assert back["request"]["url"]["variable"][0]["value"].startswith("{{")


def test_the_session_collection_sends_every_operation_of_the_document() -> None:
    sent = {_sent(request) for request in _requests(_load(SESSION_FILE))}
    documented = {(method, _as_postman(path)) for method, path, _ in _operations(SESSION_DOCUMENT)}
    assert documented - sent == set()
    assert len(documented) == 67


def test_each_created_record_is_updated_then_deleted_then_read_as_404() -> None:
    requests = _requests(_load(SESSION_FILE))
    sent = [_sent(request) for request in requests]
    for page in ("assets", "stock-ins"):
        update = sent.index(("POST", f"/api/meta/commands/execute/{page}:update"))
        assert sent[update + 1] == ("POST", f"/api/meta/commands/execute/{page}:delete")
        assert sent[update + 2] == ("GET", f"/api/dynamic/{page}/:recordId")
        created = f"/api/meta/commands/execute/{page}:create"
        keeps = _script(requests[sent.index(("POST", created))], "test")
        for changed in (requests[update], requests[update + 1]):
            target = json.loads(changed["request"]["body"]["raw"])["targetRecordId"]
            assert target.startswith("{{") and target.strip("{}") in keeps
        assert "pm.response.to.have.status(404)" in _script(requests[update + 2], "test")


def test_administration_takes_ids_from_what_it_created_and_ends_it_last() -> None:
    folder = next(node for node in _load(SESSION_FILE)["item"] if node["name"] == "administration")
    sent = [_sent(request) for request in folder["item"]]
    assert sent[-1] == ("DELETE", "/api/open-platform/applications/:appId")
    ends = [i for i, (method, path) in enumerate(sent) if method == "DELETE" or path.endswith("/revoke")]
    assert ends == list(range(len(sent) - len(ends), len(sent)))  # every ending after all else
    create_app = sent.index(("POST", "/api/open-platform/applications"))
    for request in folder["item"][create_app + 1:]:
        for variable in request["request"]["url"].get("variable", []):
            if variable["key"] == "appId":
                assert variable["value"].startswith("{{"), request["name"]
    # Nothing here creates a delivery or a parked run: their example ids must answer 404.
    for path in ("/api/open-platform/deliveries/:deliveryId/replay", "/api/open-platform/automation-runs/:runId/retry"):
        request = folder["item"][sent.index(("POST", path))]
        assert "pm.response.to.have.status(404)" in _script(request, "test"), path
    member = json.loads(folder["item"][sent.index(("POST", "/api/open-platform/applications/:appId/members"))]
                        ["request"]["body"]["raw"])
    assert member["email"] == "{{memberEmail}}" and "userPid" not in member
    endpoint = json.loads(folder["item"][sent.index(
        ("POST", "/api/open-platform/installations/:installationId/webhook-endpoints"))]["request"]["body"]["raw"])
    assert endpoint["url"] == "{{webhookUrl}}"


def _templated_session() -> dict[str, Any]:
    """A session document with templated page and command routes (as the hand-written one had)."""
    doc = copy.deepcopy(SESSION_DOCUMENT)
    paths = doc["paths"]
    paths["/api/dynamic/{pageKey}/list"] = copy.deepcopy(paths["/api/dynamic/assets/list"])
    paths["/api/dynamic/{pageKey}/{recordId}"] = copy.deepcopy(paths["/api/dynamic/assets/{recordId}"])
    paths["/api/meta/commands/execute/{commandCode}"] = copy.deepcopy(paths["/api/meta/commands/execute/assets:create"])
    for name in [p for p in paths if p.startswith(("/api/dynamic/assets", "/api/dynamic/stock-ins",
                                                    "/api/meta/commands/execute/"))
                 and "{pageKey}" not in p and "{commandCode}" not in p]:
        del paths[name]
    page = {"name": "pageKey", "in": "path", "required": True, "schema": {"type": "string"}, "example": "assets"}
    command = {"name": "commandCode", "in": "path", "required": True, "schema": {"type": "string"},
               "example": "assets:create"}
    for path, parameter in (("/api/dynamic/{pageKey}/list", page), ("/api/dynamic/{pageKey}/{recordId}", page),
                            ("/api/meta/commands/execute/{commandCode}", command)):
        for operation in paths[path].values():
            operation["operationId"] += "Templated"
            operation["parameters"] = [parameter, *operation.get("parameters", [])]
    return doc


def test_the_session_plan_follows_the_paths_shapes_for_templated_routes_too() -> None:
    requests = _requests(postman.session_collection(_templated_session(), ORIGIN))
    sent = [(r["request"]["method"], r["request"]["url"]["raw"]) for r in requests]
    listing = sent.index(("GET", "{{origin}}/api/dynamic/:pageKey/list"))
    read = requests[listing + 1]
    values = {v["key"]: v["value"] for v in read["request"]["url"]["variable"]}
    assert values["pageKey"] == "assets"
    assert values["recordId"].startswith("{{") and values["recordId"].endswith(".recordId}}")
    create = sent.index(("POST", "{{origin}}/api/meta/commands/execute/:commandCode"))
    back = {v["key"]: v["value"] for v in requests[create + 1]["request"]["url"]["variable"]}
    assert back["pageKey"] == "assets" and back["recordId"] != values["recordId"]


def test_neither_file_holds_a_secret() -> None:
    environment = _load(ENVIRONMENT_FILE)
    values = {value["key"]: value for value in environment["values"]}
    assert values["origin"]["value"] == ORIGIN  # the server variable's default
    assert values["clientSecret"] == {"key": "clientSecret", "value": "", "type": "secret", "enabled": True}
    assert values["password"] == {"key": "password", "value": "", "type": "secret", "enabled": True}
    assert values["clientId"]["value"] == values["email"]["value"] == ""
    for data in (_load(COLLECTION_FILE), _load(SESSION_FILE), environment):
        strings = _strings(data)
        assert not [text for text in strings if "tsec_" in text or "Basic dG" in text or "eyJ" in text]
    for collection in (_load(COLLECTION_FILE), _load(SESSION_FILE)):
        headers = [h["key"].lower() for request in _requests(collection) for h in request["request"]["header"]]
        assert "authorization" not in headers
    basic = [part for request in _requests(_load(COLLECTION_FILE)) if request["request"].get("auth", {}).get("basic")
             for part in request["request"]["auth"]["basic"]]
    assert {part["value"] for part in basic if part["key"] == "password"} == {"{{clientSecret}}"}


def test_json_schema_turns_nullable_and_refs_into_json_schema() -> None:
    doc = {"components": {"schemas": {"Name": {"type": "string", "nullable": True, "example": "x",
                                               "x-extra": 1},
                                      "Kind": {"type": "string", "enum": ["a"], "nullable": True}}}}
    schema = {"type": "object", "description": "d", "properties": {
        "name": {"$ref": "#/components/schemas/Name"}, "kind": {"$ref": "#/components/schemas/Kind"},
        "any": {"allOf": [{"$ref": "#/components/schemas/Name"}], "nullable": True}}}
    assert postman_steps.json_schema(doc, schema) == {"type": "object", "properties": {
        "name": {"type": ["string", "null"]}, "kind": {"type": ["string", "null"], "enum": ["a", None]},
        "any": {"anyOf": [{"allOf": [{"type": ["string", "null"]}]}, {"type": "null"}]}}}


def test_a_nullable_enum_that_names_null_keeps_it_once() -> None:
    """A duplicate in ``enum`` makes the whole schema invalid for Postman's validator (MemberChange.role)."""
    role = {"type": "string", "nullable": True, "enum": ["owner", "viewer", None]}
    assert postman_steps.json_schema({}, role) == {"type": ["string", "null"], "enum": ["owner", "viewer", None]}


def test_stale_names_changed_missing_and_extra_files(tmp_path: Path) -> None:
    shutil.copytree(ROOT / postman.DIRECTORY, tmp_path / postman.DIRECTORY)
    assert postman.stale(tmp_path, DOCUMENT, SESSION_DOCUMENT) == []
    collection = tmp_path / postman.DIRECTORY / postman.COLLECTION
    collection.write_text(collection.read_text(encoding="utf-8").replace("oauth2/token", "oauth/token"),
                          encoding="utf-8")
    (tmp_path / postman.DIRECTORY / postman.ENVIRONMENT).unlink()
    (tmp_path / postman.DIRECTORY / "old.json").write_text("{}", encoding="utf-8")
    assert postman.stale(tmp_path, DOCUMENT, SESSION_DOCUMENT) == [
        f"{postman.DIRECTORY}/{postman.COLLECTION} (differs)",
        f"{postman.DIRECTORY}/{postman.ENVIRONMENT} (missing)",
        f"{postman.DIRECTORY}/old.json (not generated)",
    ]
    assert postman.write(tmp_path, DOCUMENT, SESSION_DOCUMENT) == [f"{postman.DIRECTORY}/{postman.COLLECTION}",
                                                                   f"{postman.DIRECTORY}/{postman.ENVIRONMENT}"]
    assert postman.stale(tmp_path, DOCUMENT, SESSION_DOCUMENT) == [f"{postman.DIRECTORY}/old.json (not generated)"]


@pytest.mark.tools  # the whole `generate --check`: the TypeScript SDKs' generator runs on Node
def test_generate_check_fails_on_a_stale_collection(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = postman.files

    def changed(doc: dict[str, Any], session_doc: dict[str, Any]) -> dict[str, str]:
        found = real(doc, session_doc)
        return {**found, postman.SESSION_COLLECTION: found[postman.SESSION_COLLECTION].replace("{{jwt}}", "{{t}}")}

    monkeypatch.setattr(postman, "files", changed)
    assert cli.main(["generate", "--check"]) == 1
    err = capsys.readouterr().err
    assert f"{postman.DIRECTORY}/{postman.SESSION_COLLECTION} (differs)" in err
    assert postman.COLLECTION not in err
    assert postman.ENVIRONMENT not in err
