"""generated/postman: the Postman collection and environment `tessera generate` writes from the published document."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from tessera import cli
from tessera.registry import postman

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = yaml.safe_load((ROOT / "generated" / "open-platform.yaml").read_text(encoding="utf-8"))
COLLECTION_FILE = ROOT / postman.DIRECTORY / postman.COLLECTION
ENVIRONMENT_FILE = ROOT / postman.DIRECTORY / postman.ENVIRONMENT


def _collection() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(COLLECTION_FILE.read_text(encoding="utf-8"))
    return data


def _environment() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ENVIRONMENT_FILE.read_text(encoding="utf-8"))
    return data


def _requests(collection: dict[str, Any]) -> list[dict[str, Any]]:
    return [request for folder in collection["item"] for request in folder["item"]]


def _strings(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [text for key, value in node.items() for text in [key, *_strings(value)]]
    if isinstance(node, list):
        return [text for value in node for text in _strings(value)]
    return [node] if isinstance(node, str) else []


def _operations() -> list[tuple[str, str, dict[str, Any]]]:
    return [(method.upper(), path, operation) for path, item in DOCUMENT["paths"].items()
            for method, operation in item.items() if method in postman.METHODS]


def test_the_committed_files_are_what_the_published_document_gives() -> None:
    assert postman.files(DOCUMENT) == {
        postman.COLLECTION: COLLECTION_FILE.read_text(encoding="utf-8"),
        postman.ENVIRONMENT: ENVIRONMENT_FILE.read_text(encoding="utf-8"),
    }
    assert postman.files(DOCUMENT) == postman.files(DOCUMENT)  # deterministic: fixed ids, order and layout


def test_the_collection_is_v2_1_with_every_operation_exactly_once() -> None:
    collection = _collection()
    assert collection["info"]["schema"] == "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"
    requests = _requests(collection)
    sent = sorted((r["request"]["method"], "/" + "/".join(r["request"]["url"]["path"])) for r in requests)
    expected = sorted((method, path.replace("{pid}", ":pid")) for method, path, _ in _operations())
    assert sent == expected
    ids = [collection["info"]["_postman_id"], *(f["id"] for f in collection["item"]), *(r["id"] for r in requests)]
    assert len(ids) == len(set(ids))


def test_folders_follow_the_tags_and_requests_carry_the_documents_examples() -> None:
    collection = _collection()
    tag_order = [tag["name"] for tag in DOCUMENT["tags"]]
    folders = [folder["name"] for folder in collection["item"]]
    assert folders == [tag for tag in tag_order if tag in folders]
    by_name = {request["name"]: (folder["name"], request) for folder in collection["item"]
               for request in folder["item"]}
    for method, path, operation in _operations():
        folder, request = by_name[operation["summary"]]
        assert folder == operation["tags"][0]
        assert request["request"]["method"] == method
        content = operation.get("requestBody", {}).get("content", {})
        if "application/json" in content:
            schema = content["application/json"]["schema"]
            example = content["application/json"].get("example") or postman._resolve(DOCUMENT, schema)["example"]
            assert json.loads(request["request"]["body"]["raw"]) == example, path
        if operation.get("security") == []:
            assert request["request"]["auth"] == {"type": "noauth"}, path
        else:
            assert "auth" not in request["request"], path  # inherits the collection's OAuth 2.0


def test_the_collection_gets_tokens_by_client_credentials_at_the_token_url_variable() -> None:
    collection = _collection()
    auth = collection["auth"]
    assert auth["type"] == "oauth2"
    params = {param["key"]: param["value"] for param in auth["oauth2"]}
    assert params["grantType"] == "client_credentials"
    assert params["accessTokenUrl"] == "{{origin}}/oauth2/token"
    assert params["clientId"] == "{{clientId}}"
    assert params["clientSecret"] == "{{clientSecret}}"
    assert all(request["request"]["url"]["raw"].startswith("{{origin}}/") for request in _requests(collection))
    token = next(r for r in _requests(collection) if r["request"]["url"]["path"] == ["oauth2", "token"])
    form = {field["key"]: field["value"] for field in token["request"]["body"]["urlencoded"]}
    assert form["grant_type"] == "client_credentials"
    assert (form["client_id"], form["client_secret"]) == ("{{clientId}}", "{{clientSecret}}")


def test_neither_file_holds_a_secret() -> None:
    environment = _environment()
    values = {value["key"]: value for value in environment["values"]}
    assert values["origin"]["value"] == "http://127.0.0.1:8080"  # the server variable's default
    assert values["clientSecret"] == {"key": "clientSecret", "value": "", "type": "secret", "enabled": True}
    assert values["clientId"]["value"] == ""
    for data in (_collection(), environment):
        strings = _strings(data)
        assert not [text for text in strings if "tsec_" in text or "Basic dG" in text]
    headers = [header["key"].lower() for request in _requests(_collection()) for header in request["request"]["header"]]
    assert "authorization" not in headers
    fields = [field for request in _requests(_collection())
              for field in request["request"].get("body", {}).get("urlencoded", [])]
    assert {field["value"] for field in fields if field["key"] == "client_secret"} == {"{{clientSecret}}"}


def test_stale_names_changed_missing_and_extra_files(tmp_path: Path) -> None:
    shutil.copytree(ROOT / postman.DIRECTORY, tmp_path / postman.DIRECTORY)
    assert postman.stale(tmp_path, DOCUMENT) == []
    collection = tmp_path / postman.DIRECTORY / postman.COLLECTION
    collection.write_text(collection.read_text(encoding="utf-8").replace("oauth2/token", "oauth/token"),
                          encoding="utf-8")
    (tmp_path / postman.DIRECTORY / postman.ENVIRONMENT).unlink()
    (tmp_path / postman.DIRECTORY / "old.json").write_text("{}", encoding="utf-8")
    assert postman.stale(tmp_path, DOCUMENT) == [
        f"{postman.DIRECTORY}/{postman.COLLECTION} (differs)",
        f"{postman.DIRECTORY}/{postman.ENVIRONMENT} (missing)",
        f"{postman.DIRECTORY}/old.json (not generated)",
    ]
    assert postman.write(tmp_path, DOCUMENT) == [f"{postman.DIRECTORY}/{postman.COLLECTION}",
                                                 f"{postman.DIRECTORY}/{postman.ENVIRONMENT}"]
    assert postman.stale(tmp_path, DOCUMENT) == [f"{postman.DIRECTORY}/old.json (not generated)"]


def test_generate_check_fails_on_a_stale_collection(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = postman.files

    def changed(doc: dict[str, Any]) -> dict[str, str]:
        found = real(doc)
        return {**found, postman.COLLECTION: found[postman.COLLECTION].replace("{{origin}}", "{{baseUrl}}")}

    monkeypatch.setattr(postman, "files", changed)
    assert cli.main(["generate", "--check"]) == 1
    err = capsys.readouterr().err
    assert f"{postman.DIRECTORY}/{postman.COLLECTION} (differs)" in err
    assert postman.ENVIRONMENT not in err
