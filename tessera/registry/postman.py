"""The Postman collection (v2.1) and environment in ``generated/postman/``, from the published Open Platform document.

``tessera generate`` writes them from the document it writes to ``generated/open-platform.yaml`` (``--check``
compares and writes nothing). The conversion is written here rather than run through a converter from npm, so
that the output depends on the document alone: ids are UUIDv5 of fixed names, folders follow the document's
tags in order, requests its paths in order, and the JSON is written with a fixed layout.

- one folder per tag (tags without operations are left out), one request per operation (its first tag's
  folder), named by the operation's summary, with its example body (the media type's ``example``, else the
  schema's), its required headers and its query parameters (optional ones disabled);
- the collection authenticates with OAuth 2.0 client credentials against ``{{origin}}/oauth2/token`` with
  ``{{clientId}}``, ``{{clientSecret}}`` and ``{{scope}}`` (empty: every granted scope); operations the
  document marks ``security: []`` (the token endpoint and its neighbours) send no token;
- client credentials in form bodies are the same variables, ``Idempotency-Key`` is Postman's ``{{$guid}}``,
  and ``Authorization`` header parameters (the token endpoint's optional Basic form) are left out;
- the environment holds ``origin`` (the server variable's default) and empty ``clientId``,
  ``clientSecret`` (a secret) and ``scope``: no secret is ever written.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

DIRECTORY = "generated/postman"
COLLECTION = "tessera-open-platform.postman_collection.json"
ENVIRONMENT = "tessera.postman_environment.json"
SCHEMA = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"
TOKEN_PATH = "/oauth2/token"  # noqa: S105 (a path, not a password)
# Every id is derived from this namespace and a fixed name, so regenerating never changes one.
NAMESPACE = uuid.UUID("6f1d0c3e-2b7a-5e4f-9a1c-7d3e5b2f8a10")
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
# Form fields that carry the client's credentials: sent as the environment's variables, never as values.
CREDENTIAL_FIELDS = {"client_id": "{{clientId}}", "client_secret": "{{clientSecret}}"}
GENERATED_HEADERS = {"Idempotency-Key": "{{$guid}}"}


def _id(name: str) -> str:
    return str(uuid.uuid5(NAMESPACE, name))


def _resolve(doc: dict[str, Any], node: Any) -> Any:
    """``node`` with a local ``$ref`` followed (repeatedly)."""
    while isinstance(node, dict) and "$ref" in node:
        target: Any = doc
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def _schema_example(doc: dict[str, Any], schema: Any, depth: int = 0) -> Any:
    """An example value for ``schema``: its own example, else one built from its properties."""
    schema = _resolve(doc, schema)
    if not isinstance(schema, dict) or depth > 8:
        return None
    for key in ("example", "default"):
        if key in schema:
            return schema[key]
    if schema.get("enum"):
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        return {name: _schema_example(doc, sub, depth + 1) for name, sub in schema.get("properties", {}).items()}
    if kind == "array":
        return [_schema_example(doc, schema.get("items", {}), depth + 1)]
    return {"integer": 0, "number": 0, "boolean": False}.get(str(kind), "")


def _media_example(doc: dict[str, Any], media: dict[str, Any]) -> Any:
    if "example" in media:
        return media["example"]
    examples = media.get("examples") or {}
    for example in examples.values():
        return _resolve(doc, example).get("value")
    return _schema_example(doc, media.get("schema", {}))


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def _parameters(doc: dict[str, Any], item: dict[str, Any], operation: dict[str, Any]) -> list[dict[str, Any]]:
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    for parameter in [*item.get("parameters", []), *operation.get("parameters", [])]:
        parameter = _resolve(doc, parameter)
        merged[(parameter["in"], parameter["name"])] = parameter
    return list(merged.values())


def _parameter_value(doc: dict[str, Any], parameter: dict[str, Any]) -> str:
    if parameter["name"] in GENERATED_HEADERS and parameter["in"] == "header":
        return GENERATED_HEADERS[parameter["name"]]
    if "example" in parameter:
        return _text(parameter["example"])
    return _text(_schema_example(doc, parameter.get("schema", {})))


def _entry(doc: dict[str, Any], parameter: dict[str, Any]) -> dict[str, Any]:
    entry: dict[str, Any] = {"key": parameter["name"], "value": _parameter_value(doc, parameter)}
    if parameter.get("description"):
        entry["description"] = parameter["description"].strip()
    if not parameter.get("required") and parameter["in"] != "path":
        entry["disabled"] = True
    return entry


def _url(path: str, parameters: list[dict[str, Any]], doc: dict[str, Any]) -> dict[str, Any]:
    segments = [f":{part[1:-1]}" if part.startswith("{") and part.endswith("}") else part
                for part in path.strip("/").split("/")]
    url: dict[str, Any] = {"raw": "{{origin}}/" + "/".join(segments), "host": ["{{origin}}"], "path": segments}
    query = [_entry(doc, p) for p in parameters if p["in"] == "query"]
    if query:
        enabled = [f"{q['key']}={q['value']}" for q in query if not q.get("disabled")]
        url["raw"] += ("?" + "&".join(enabled)) if enabled else ""
        url["query"] = query
    variables = [_entry(doc, p) for p in parameters if p["in"] == "path"]
    if variables:
        url["variable"] = variables
    return url


def _body(doc: dict[str, Any], operation: dict[str, Any]) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The request's body and the Content-Type header it needs (none for a form: Postman sets that one)."""
    body = _resolve(doc, operation.get("requestBody"))
    if not body:
        return None, []
    content = body.get("content", {})
    if "application/json" in content:
        example = _media_example(doc, content["application/json"])
        return ({"mode": "raw", "raw": json.dumps(example, indent=2, ensure_ascii=False),
                 "options": {"raw": {"language": "json"}}},
                [{"key": "Content-Type", "value": "application/json"}])
    if "application/x-www-form-urlencoded" in content:
        example = _media_example(doc, content["application/x-www-form-urlencoded"]) or {}
        fields = [{"key": key, "value": CREDENTIAL_FIELDS.get(key, _text(value)), "type": "text"}
                  for key, value in example.items()]
        return {"mode": "urlencoded", "urlencoded": fields}, []
    media_type, media = next(iter(content.items()))
    return ({"mode": "raw", "raw": _text(_media_example(doc, media))},
            [{"key": "Content-Type", "value": media_type}])


def _request(doc: dict[str, Any], path: str, method: str, item: dict[str, Any],
             operation: dict[str, Any]) -> dict[str, Any]:
    name = operation.get("operationId") or f"{method.upper()} {path}"
    parameters = _parameters(doc, item, operation)
    body, body_headers = _body(doc, operation)
    # Authorization comes from the collection's (or the request's) auth, never from an example value.
    headers = body_headers + [_entry(doc, p) for p in parameters if p["in"] == "header"
                              and p["name"].lower() not in ("content-type", "authorization")]
    request: dict[str, Any] = {"method": method.upper(), "header": headers}
    if operation.get("security") == []:
        request["auth"] = {"type": "noauth"}
    if body is not None:
        request["body"] = body
    request["url"] = _url(path, parameters, doc)
    description = (operation.get("description") or "").strip()
    if description:
        request["description"] = description
    return {"id": _id(f"request:{name}"), "name": operation.get("summary") or name, "request": request,
            "response": []}


def _operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    return [(path, method, item, item[method])
            for path, item in doc.get("paths", {}).items() for method in METHODS if method in item]


def _auth() -> dict[str, Any]:
    params = [("grantType", "client_credentials"), ("accessTokenUrl", "{{origin}}" + TOKEN_PATH),
              ("clientId", "{{clientId}}"), ("clientSecret", "{{clientSecret}}"), ("scope", "{{scope}}"),
              ("client_authentication", "body"), ("tokenName", "tessera"), ("addTokenTo", "header")]
    return {"type": "oauth2", "oauth2": [{"key": key, "value": value, "type": "string"} for key, value in params]}


def _origin(doc: dict[str, Any]) -> str:
    server = (doc.get("servers") or [{}])[0]
    url = str(server.get("url", ""))
    for name, variable in (server.get("variables") or {}).items():
        url = url.replace(f"{{{name}}}", str(variable.get("default", "")))
    return url.rstrip("/")


def collection(doc: dict[str, Any]) -> dict[str, Any]:
    """The Postman collection (v2.1) of every operation of ``doc``, one folder per tag."""
    info = doc.get("info", {})
    tags = [tag["name"] for tag in doc.get("tags", [])]
    descriptions = {tag["name"]: tag.get("description", "") for tag in doc.get("tags", [])}
    by_tag: dict[str, list[dict[str, Any]]] = {}
    for path, method, item, operation in _operations(doc):
        tag = (operation.get("tags") or ["other"])[0]
        if tag not in tags:
            tags.append(tag)
        by_tag.setdefault(tag, []).append(_request(doc, path, method, item, operation))
    folders = []
    for tag in tags:
        if by_tag.get(tag):
            folder: dict[str, Any] = {"id": _id(f"folder:{tag}"), "name": tag}
            if descriptions.get(tag):
                folder["description"] = descriptions[tag]
            folder["item"] = by_tag[tag]
            folders.append(folder)
    return {
        "info": {
            "_postman_id": _id("collection"),
            "name": f"{info.get('title', 'Tessera Open Platform')} {info.get('version', '')}".strip(),
            "description": (info.get("description") or "").strip(),
            "schema": SCHEMA,
        },
        "item": folders,
        "auth": _auth(),
        "variable": [{"key": "origin", "value": _origin(doc), "type": "string"}],
    }


def environment(doc: dict[str, Any]) -> dict[str, Any]:
    """The environment the collection reads: the origin, and empty client credentials to fill in."""
    values = [("origin", _origin(doc), "default"), ("clientId", "", "default"), ("clientSecret", "", "secret"),
              ("scope", "", "default")]
    return {
        "id": _id("environment"),
        "name": "Tessera",
        "values": [{"key": key, "value": value, "type": kind, "enabled": True} for key, value, kind in values],
        "_postman_variable_scope": "environment",
    }


def _render(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def files(doc: dict[str, Any]) -> dict[str, str]:
    """What ``generated/postman/`` holds for ``doc``: file name -> text."""
    return {COLLECTION: _render(collection(doc)), ENVIRONMENT: _render(environment(doc))}


def stale(root: Path, doc: dict[str, Any]) -> list[str]:
    """Paths (relative to ``root``, with what is wrong) where ``generated/postman/`` is not what ``doc`` gives."""
    directory = root / DIRECTORY
    wanted = files(doc)
    found = []
    for name, text in wanted.items():
        path = directory / name
        if not path.is_file():
            found.append(f"{DIRECTORY}/{name} (missing)")
        elif path.read_text(encoding="utf-8") != text:
            found.append(f"{DIRECTORY}/{name} (differs)")
    if directory.is_dir():
        found += [f"{DIRECTORY}/{path.name} (not generated)" for path in sorted(directory.iterdir())
                  if path.name not in wanted]
    return found


def write(root: Path, doc: dict[str, Any]) -> list[str]:
    """Write ``generated/postman/`` for ``doc``; the relative paths that changed."""
    directory = root / DIRECTORY
    directory.mkdir(parents=True, exist_ok=True)
    changed = []
    for name, text in files(doc).items():
        path = directory / name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            changed.append(f"{DIRECTORY}/{name}")
    return changed
