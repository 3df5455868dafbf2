"""What the Postman collections send and check, planned from an OpenAPI document (see ``postman``).

A collection is a list of ``Step``s in the order they run: each sends one operation with the document's example
values, except where an earlier step's answer gives the value (``values``), and keeps what later steps need
(``keeps``: a collection variable and where in the answer it is). The Open Platform plan follows the
document's links; the session plan follows the paths' shapes, so that it works for templated paths
(``/api/dynamic/{pageKey}/list``) and for concrete ones (``/api/dynamic/assets/list``) alike.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from typing import Any

# Every id is derived from this namespace and a fixed name, so regenerating never changes one.
NAMESPACE = uuid.UUID("6f1d0c3e-2b7a-5e4f-9a1c-7d3e5b2f8a10")
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
# Form fields that carry the client's credentials: sent as the environment's variables, never as values.
CREDENTIAL_FIELDS = {"client_id": "{{clientId}}", "client_secret": "{{clientSecret}}"}
GENERATED_HEADERS = {"Idempotency-Key": "{{$guid}}", "X-Idempotent-Key": "{{$guid}}"}
ISSUED_TOKEN = "issuedToken"  # noqa: S105 (a variable's name: the token the token operation's own request got)
# OpenAPI keywords that JSON Schema validators do not know or that only describe.
_DESCRIPTIVE = {"example", "examples", "description", "title", "readOnly", "writeOnly", "deprecated",
                "discriminator", "xml", "externalDocs", "nullable"}


@dataclass
class Step:
    """One request of a collection: an operation, the values earlier answers give it, what it keeps."""

    key: str
    name: str
    folder: str
    path: str
    method: str
    item: dict[str, Any]
    operation: dict[str, Any]
    doc: dict[str, Any]
    status: int
    envelope: str  # "open-platform" or "session"
    values: dict[tuple[str, str], str] = field(default_factory=dict)  # (in, name) -> value; in "body": a field
    keeps: list[tuple[str, str, str]] = field(default_factory=list)  # (variable, runtime expression, what for)
    body: Any = None  # the JSON body to send instead of the document's example


def resolve(doc: dict[str, Any], node: Any) -> Any:
    """``node`` with a local ``$ref`` followed (repeatedly)."""
    while isinstance(node, dict) and "$ref" in node:
        target: Any = doc
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any], dict[str, Any]]]:
    return [(path, method, item, item[method])
            for path, item in doc.get("paths", {}).items() for method in METHODS if method in item]


# ---- examples ----------------------------------------------------------------------------------------------


def schema_example(doc: dict[str, Any], schema: Any, depth: int = 0) -> Any:
    """An example value for ``schema``: its own example, else one built from its properties."""
    schema = resolve(doc, schema)
    if not isinstance(schema, dict) or depth > 8:
        return None
    for key in ("example", "default"):
        if key in schema:
            return schema[key]
    if schema.get("enum"):
        return schema["enum"][0]
    kind = schema.get("type")
    if kind == "object" or "properties" in schema:
        return {name: schema_example(doc, sub, depth + 1) for name, sub in schema.get("properties", {}).items()}
    if kind == "array":
        return [schema_example(doc, schema.get("items", {}), depth + 1)]
    return {"integer": 0, "number": 0, "boolean": False}.get(str(kind), "")


def _scalar_example(schema: dict[str, Any]) -> Any:
    """A value ``schema`` accepts, for a scalar without an example: fresh text where the length allows, so that
    a request sent twice does not trip a unique field."""
    kind, low = schema.get("type"), schema.get("minimum", schema.get("exclusiveMinimum", 0) + 1)
    if kind in ("integer", "number"):
        return low
    if kind == "boolean":
        return False
    dates = {"date": "2026-01-15", "date-time": "2026-01-15T08:00:00Z"}
    if schema.get("format") in dates:
        return dates[schema["format"]]
    return "{{$guid}}" if schema.get("maxLength", 36) >= 36 else "{{$randomAlphaNumeric}}"


def body_example(doc: dict[str, Any], schema: Any, depth: int = 0) -> Any:
    """A request body for ``schema`` when the document gives none: its required properties, each an example."""
    schema = resolve(doc, schema)
    if not isinstance(schema, dict) or depth > 8:
        return None
    for key in ("example", "default"):
        if key in schema:
            return schema[key]
    if schema.get("enum"):
        return schema["enum"][0]
    if schema.get("type") == "object" or "properties" in schema:
        return _object_example(doc, schema, depth)
    if schema.get("type") == "array":
        return [body_example(doc, schema.get("items", {}), depth + 1)] if schema.get("minItems") else []
    return _scalar_example(schema)


def _object_example(doc: dict[str, Any], schema: dict[str, Any], depth: int) -> dict[str, Any]:
    """An object with its required properties only: the smallest body the operation accepts."""
    required = schema.get("required", [])
    return {name: body_example(doc, sub, depth + 1) for name, sub in schema.get("properties", {}).items()
            if name in required}


def media_examples(doc: dict[str, Any], media: dict[str, Any], *, sent: bool = False) -> list[Any]:
    if "example" in media:
        return [fresh_unique(doc, media.get("schema", {}), media["example"]) if sent else media["example"]]
    found = [resolve(doc, example).get("value") for example in (media.get("examples") or {}).values()]
    build = body_example if sent else schema_example
    return found or [build(doc, media.get("schema", {}))]


def fresh_unique(doc: dict[str, Any], schema: Any, value: Any, depth: int = 0) -> Any:
    """``value`` with a fresh ``{{$guid}}`` in each text field its schema marks unique
    (``x-tessera-unique``), so a collection that creates records can run again on the same data."""
    schema = resolve(doc, schema) if isinstance(schema, dict) else {}
    if depth > 8 or not isinstance(value, dict):
        return value
    fresh = {}
    for name, item in value.items():
        sub = resolve(doc, schema.get("properties", {}).get(name, {}))
        if sub.get("x-tessera-unique") and isinstance(item, str) and sub.get("maxLength", 36) >= 36:
            fresh[name] = "{{$guid}}"
        else:
            fresh[name] = fresh_unique(doc, sub, item, depth + 1)
    return fresh


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def parameters(step: Step) -> list[dict[str, Any]]:
    merged: dict[tuple[str, str], dict[str, Any]] = {}
    for parameter in [*step.item.get("parameters", []), *step.operation.get("parameters", [])]:
        parameter = resolve(step.doc, parameter)
        merged[(parameter["in"], parameter["name"])] = parameter
    return list(merged.values())


def _example_value(doc: dict[str, Any], parameter: dict[str, Any]) -> str:
    if parameter["name"] in GENERATED_HEADERS and parameter["in"] == "header":
        return GENERATED_HEADERS[parameter["name"]]
    if "example" in parameter:
        return _text(parameter["example"])
    return _text(schema_example(doc, parameter.get("schema", {})))


def _entry(step: Step, parameter: dict[str, Any]) -> dict[str, Any]:
    given = step.values.get((parameter["in"], parameter["name"]))
    value = given if given is not None else _example_value(step.doc, parameter)
    entry: dict[str, Any] = {"key": parameter["name"], "value": value}
    if parameter.get("description"):
        entry["description"] = parameter["description"].strip()
    if not parameter.get("required") and parameter["in"] != "path" and given is None:
        entry["disabled"] = True
    return entry


def _url(step: Step, params: list[dict[str, Any]]) -> dict[str, Any]:
    segments = [f":{part[1:-1]}" if part.startswith("{") and part.endswith("}") else part
                for part in step.path.strip("/").split("/")]
    url: dict[str, Any] = {"raw": "{{origin}}/" + "/".join(segments), "host": ["{{origin}}"], "path": segments}
    query = [_entry(step, p) for p in params if p["in"] == "query"]
    if query:
        url["raw"] += _query_string(query)
        url["query"] = query
    variables = [_entry(step, p) for p in params if p["in"] == "path"]
    if variables:
        url["variable"] = variables
    return url


def _query_string(query: list[dict[str, Any]]) -> str:
    """The raw URL's query: the parameters sent (a disabled one, optional and not given, is left out)."""
    enabled = [f"{q['key']}={q['value']}" for q in query if not q.get("disabled")]
    return ("?" + "&".join(enabled)) if enabled else ""


def request_content(step: Step) -> dict[str, Any]:
    body = resolve(step.doc, step.operation.get("requestBody"))
    return dict(body.get("content", {})) if body else {}


def json_example(step: Step) -> Any:
    """The JSON body the step sends: its own, else the document's first example, with the given fields."""
    media = request_content(step)["application/json"]
    example = step.body if step.body is not None else media_examples(step.doc, media, sent=True)[0]
    fields = {name: value for (place, name), value in step.values.items() if place == "body"}
    return {**example, **fields} if isinstance(example, dict) and fields else example


def _body(step: Step) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The request's body and the Content-Type header it needs (none for a form: Postman sets that one)."""
    content = request_content(step)
    if not content:
        return None, []
    if "application/json" in content:
        return ({"mode": "raw", "raw": json.dumps(json_example(step), indent=2, ensure_ascii=False),
                 "options": {"raw": {"language": "json"}}},
                [{"key": "Content-Type", "value": "application/json"}])
    if "application/x-www-form-urlencoded" in content:
        example = media_examples(step.doc, content["application/x-www-form-urlencoded"])[0] or {}
        fields = [{"key": key, "value": step.values.get(("body", key), CREDENTIAL_FIELDS.get(key, _text(value))),
                   "type": "text"} for key, value in example.items()]
        return {"mode": "urlencoded", "urlencoded": fields}, []
    media_type, media = next(iter(content.items()))
    return ({"mode": "raw", "raw": _text(media_examples(step.doc, media)[0])},
            [{"key": "Content-Type", "value": media_type}])


def sends_bearer(step: Step) -> bool:
    """Whether the operation takes the collection's bearer token: one of its security alternatives names an
    OAuth 2.0, OpenID Connect or HTTP bearer scheme (client authentication at the token endpoint, HTTP Basic or
    the form, is the form's own fields)."""
    schemes = step.doc.get("components", {}).get("securitySchemes", {})
    alternatives = step.operation.get("security", step.doc.get("security", []))
    return any(schemes.get(name, {}).get("type") in ("oauth2", "openIdConnect")
               or str(schemes.get(name, {}).get("scheme", "")).lower() == "bearer"
               for alternative in alternatives for name in alternative)


def sends_basic(step: Step) -> bool:
    """Whether the operation takes HTTP Basic client authentication (the Open Platform's OAuth
    endpoints): one of its security alternatives names an HTTP ``basic`` scheme."""
    schemes = step.doc.get("components", {}).get("securitySchemes", {})
    alternatives = step.operation.get("security", step.doc.get("security", []))
    return any(str(schemes.get(name, {}).get("scheme", "")).lower() == "basic"
               for alternative in alternatives for name in alternative)


# The client's credentials as HTTP Basic, from the environment (Postman's v2.1 ``basic`` auth).
BASIC_AUTH = {"type": "basic", "basic": [{"key": "username", "value": "{{clientId}}", "type": "string"},
                                         {"key": "password", "value": "{{clientSecret}}", "type": "string"}]}


def request(step: Step) -> dict[str, Any]:
    """The Postman request of ``step``."""
    params = parameters(step)
    body, body_headers = _body(step)
    # Authorization comes from the collection's auth, never from an example value.
    headers = body_headers + [_entry(step, p) for p in params if p["in"] == "header"
                              and p["name"].lower() not in ("content-type", "authorization")]
    sent: dict[str, Any] = {"method": step.method.upper(), "header": headers}
    if sends_basic(step):
        sent["auth"] = BASIC_AUTH
    elif not sends_bearer(step):
        sent["auth"] = {"type": "noauth"}
    if body is not None:
        sent["body"] = body
    sent["url"] = _url(step, params)
    description = (step.operation.get("description") or "").strip()
    if description:
        sent["description"] = description
    return sent


# ---- tests -------------------------------------------------------------------------------------------------


def _schema_keyword(doc: dict[str, Any], key: str, value: Any, seen: tuple[str, ...]) -> Any:
    if key == "properties":
        return {name: json_schema(doc, sub, seen) for name, sub in value.items()}
    if key in ("items", "additionalProperties", "not"):
        return json_schema(doc, value, seen)
    if key in ("allOf", "anyOf", "oneOf"):
        return [json_schema(doc, sub, seen) for sub in value]
    return value


def json_schema(doc: dict[str, Any], node: Any, seen: tuple[str, ...] = ()) -> Any:
    """``node`` (an OpenAPI 3.0 schema) as JSON Schema: ``$ref``s inlined, ``nullable`` as a null type."""
    if isinstance(node, dict) and "$ref" in node:
        if node["$ref"] in seen:
            return {}
        return json_schema(doc, resolve(doc, {"$ref": node["$ref"]}), (*seen, node["$ref"]))
    if not isinstance(node, dict):
        return node
    out = {key: _schema_keyword(doc, key, value, seen) for key, value in node.items()
           if key not in _DESCRIPTIVE and not key.startswith("x-")}
    return _or_null(out) if node.get("nullable") else out


def _or_null(out: dict[str, Any]) -> dict[str, Any]:
    """A schema that also accepts null: JSON Schema has no ``nullable``, so null joins the type (and the enum,
    which would refuse it otherwise), or the whole schema becomes one alternative beside ``{"type": "null"}``."""
    if "type" not in out:
        return {"anyOf": [out, {"type": "null"}]}
    out["type"] = [out["type"], "null"]
    if "enum" in out and None not in out["enum"]:
        out["enum"] = [*out["enum"], None]
    return out


def response(step: Step, status: int) -> dict[str, Any]:
    found = step.operation.get("responses", {}).get(str(status))
    return dict(resolve(step.doc, found)) if found else {}


def response_schema(step: Step, status: int) -> Any:
    media = response(step, status).get("content", {}).get("application/json")
    return media.get("schema") if media else None


def documented_code(step: Step, status: int) -> str | None:
    """The error code the document's example gives for ``status`` (``None`` when it has none)."""
    media = response(step, status).get("content", {}).get("application/json") or {}
    examples = media_examples(step.doc, media) if media else []
    example = examples[0] if examples else None
    return str(example["code"]) if isinstance(example, dict) and "code" in example else None


_POINTER = ('function pointer(node, path) {\n'
            '  return path.split("/").slice(1).reduce(function (at, part) {\n'
            '    return at === undefined || at === null ? undefined\n'
            '      : at[part.replace(/~1/g, "/").replace(/~0/g, "~")];\n'
            '  }, node);\n'
            '}')


def _expression(expression: str) -> str:
    """A runtime expression of OpenAPI links as JavaScript over ``body`` and the response."""
    if expression.startswith("$response.body#"):
        return f"pointer(body, {json.dumps(expression.removeprefix('$response.body#'))})"
    if expression.startswith("$response.header."):
        return f"pm.response.headers.get({json.dumps(expression.removeprefix('$response.header.'))})"
    raise ValueError(f"unsupported runtime expression {expression!r}")


def _test(title: str, *lines: str) -> list[str]:
    return [f"pm.test({json.dumps(title, ensure_ascii=False)}, function () {{", *(f"  {line}" for line in lines),
            "});"]


def _envelope_tests(step: Step) -> list[str]:
    code = documented_code(step, step.status)
    if step.envelope == "open-platform":
        if step.status < 400:
            return []
        title = "the error envelope is {code, message, requestId, details}" + (f" with code {code}" if code else "")
        return _test(title,
                     'pm.expect(body).to.be.an("object");',
                     'pm.expect(Object.keys(body).sort()).to.eql(["code", "details", "message", "requestId"]);',
                     'pm.expect(body.message).to.be.a("string");',
                     'pm.expect(body.details).to.be.an("object");',
                     'pm.expect(body.requestId).to.eql(pm.response.headers.get("X-Request-Id"));',
                     f"pm.expect(body.code).to.eql({json.dumps(code)});" if code
                     else 'pm.expect(body.code).to.be.a("string").and.not.empty;')
    expected = "0" if step.status < 400 else code
    return _test(f"the envelope is {{code, message, data}} with code {json.dumps(expected)}",
                 'pm.expect(body).to.be.an("object");',
                 'pm.expect(Object.keys(body).sort()).to.eql(["code", "data", "message"]);',
                 'pm.expect(body.message).to.be.a("string");',
                 f"pm.expect(body.code).to.eql({json.dumps(expected)});" if expected
                 else 'pm.expect(body.code).to.be.a("string").and.not.eql("0");')


def test_script(step: Step) -> str:
    """The test script of ``step``: its status, its body's envelope and schema, and what it keeps."""
    lines = [f"// {step.method.upper()} {step.path}: generated by `tessera generate`; every pm.test runs each time.",
             "let body;", "try {", "  body = pm.response.json();", "} catch (error) {", "  body = undefined;", "}"]
    if any(expression.startswith("$response.body#") for _, expression, _ in step.keeps):
        lines.append(_POINTER)
    lines += _test(f"answers {step.status}", f"pm.response.to.have.status({step.status});")
    lines += _envelope_tests(step)
    schema = response_schema(step, step.status)
    if schema is not None:
        name = schema["$ref"].rsplit("/", 1)[1] if isinstance(schema, dict) and "$ref" in schema else "response"
        compact = json.dumps(json_schema(step.doc, schema), ensure_ascii=False, separators=(",", ":"))
        lines += _test(f"the body is the documented {name}",
                       f"pm.response.to.have.jsonSchema({compact}, {{unknownFormats: \"ignore\"}});")
    for variable, expression, purpose in step.keeps:
        lines += _test(f"keeps {expression.removeprefix('$response.')} for {purpose}",
                       f"const value = {_expression(expression)};",
                       f"pm.expect(value, {json.dumps(expression)}).to.be.a(\"string\").and.not.empty;",
                       f"pm.collectionVariables.set({json.dumps(variable)}, value);")
    return "\n".join(lines) + "\n"


# ---- plans -------------------------------------------------------------------------------------------------


def success_status(operation: dict[str, Any]) -> int:
    return min(int(code) for code in operation.get("responses", {}) if str(code).startswith("2"))


def plan_step(doc: dict[str, Any], path: str, method: str, envelope: str, key: str | None = None) -> Step:
    item = doc["paths"][path]
    operation = item[method]
    name = operation.get("operationId") or f"{method.upper()} {path}"
    return Step(key=key or name, name=operation.get("summary") or name, folder=(operation.get("tags") or ["other"])[0],
                path=path, method=method, item=item, operation=operation, doc=doc,
                status=success_status(operation), envelope=envelope)


def _param(step: Step, name: str) -> dict[str, Any] | None:
    return next((p for p in parameters(step) if p["name"] == name and p["in"] in ("path", "query", "header")), None)


def bind_value(source: Step, target: Step, place: str, name: str, expression: str) -> None:
    variable = f"{target.key}.{name}"
    target.values[(place, name)] = f"{{{{{variable}}}}}"
    source.keeps.append((variable, expression, f"{target.name} ({name})"))


def apply_link(source: Step, target: Step, link: dict[str, Any]) -> None:
    """Bind ``target``'s parameters and body fields that an OpenAPI link of ``source`` gives."""
    for given, expression in (link.get("parameters") or {}).items():
        place, _, name = given.rpartition(".")
        parameter = _param(target, name)
        if parameter is not None and not str(expression).startswith("$request."):
            bind_value(source, target, place or parameter["in"], name, str(expression))
    for name, expression in (link.get("x-tessera-request-body") or {}).items():
        bind_value(source, target, "body", name, str(expression))


def _unknown_id(read: Step, key: str) -> Step | None:
    """A read with the document's example id instead of a real one: it must answer 404 in the envelope."""
    if "404" not in read.operation.get("responses", {}):
        return None
    step = plan_step(read.doc, read.path, read.method, read.envelope, key=key)
    step.values = {place: value for place, value in read.values.items() if "{{" not in value}
    last = read.path.rstrip("/").rsplit("/", 1)[1][1:-1]
    step.name = f"{read.name}: an unknown {last} answers 404"
    step.status = 404
    return step


def open_platform(doc: dict[str, Any]) -> list[Step]:
    """Every operation once, in the document's order; ids through its links; each read by pid then a 404 one."""
    plan = [plan_step(doc, path, method, "open-platform") for path, method, _, _ in operations(doc)]
    by_id = {step.operation.get("operationId"): step for step in plan}
    for index in range(len(plan)):
        _link_later(doc, plan, by_id, index)
        _pass_issued_token(doc, plan, index)
    return _with_unknown_reads(plan)


def _link_later(doc: dict[str, Any], plan: list[Step], by_id: dict[Any, Step], index: int) -> None:
    """Bind what the document's links of ``plan[index]``'s answers name into the steps they lead to; only
    what runs later can use a value, so a link back to an earlier step is left out."""
    step = plan[index]
    for answer in step.operation.get("responses", {}).values():
        for link in (resolve(doc, answer).get("links") or {}).values():
            target = by_id.get(link.get("operationId"))
            if target is not None and plan.index(target) > index:
                apply_link(step, target, resolve(doc, link))


def _pass_issued_token(doc: dict[str, Any], plan: list[Step], index: int) -> None:
    """When ``plan[index]`` is the token operation, keep the token it issues and send it in each later form
    with a ``token`` field (introspection and revocation)."""
    step = plan[index]
    schema = resolve(doc, response_schema(step, step.status)) or {}
    if "access_token" not in schema.get("properties", {}):
        return
    for later in plan[index + 1:]:
        form = request_content(later).get("application/x-www-form-urlencoded")
        if form and "token" in (media_examples(doc, form)[0] or {}):
            later.values[("body", "token")] = f"{{{{{ISSUED_TOKEN}}}}}"
    step.keeps.append((ISSUED_TOKEN, "$response.body#/access_token", "introspection and revocation"))


def _with_unknown_reads(plan: list[Step]) -> list[Step]:
    """The plan with, after each read by id, the same read of an unknown id (where it documents a 404)."""
    ordered: list[Step] = []
    for step in plan:
        ordered.append(step)
        if step.method == "get" and step.path.endswith("}"):
            missing = _unknown_id(step, f"{step.key}.unknown")
            ordered += [missing] if missing else []
    return ordered


def token_path(doc: dict[str, Any]) -> str:
    """The path of the operation that issues access tokens (its 200 answer has ``access_token``)."""
    for path, method, item, operation in operations(doc):
        step = Step("", "", "", path, method, item, operation, doc, 200, "")
        schema = resolve(doc, response_schema(step, 200)) or {}
        if "access_token" in schema.get("properties", {}):
            return path
    raise ValueError("the document has no operation that issues an access_token")


def login_path(doc: dict[str, Any]) -> str:
    """The path of the session login: the unauthenticated POST whose body has ``email`` and ``password``."""
    for path, method, _, operation in operations(doc):
        if method == "post" and operation.get("security") == [] and _login_body(doc, operation):
            return path
    raise ValueError("the document has no login operation (an unauthenticated POST of email and password)")


def _login_body(doc: dict[str, Any], operation: dict[str, Any]) -> bool:
    body = resolve(doc, operation.get("requestBody")) or {}
    schema = resolve(doc, body.get("content", {}).get("application/json", {}).get("schema")) or {}
    return {"email", "password"} <= set(schema.get("properties", {}))


def path_params(path: str) -> list[str]:
    return [part[1:-1] for part in path.split("/") if part.startswith("{") and part.endswith("}")]


def _record_properties(doc: dict[str, Any], schema: Any, trail: tuple[str, ...]) -> set[str]:
    """The property names at ``trail`` (``items``: an array's item) in ``schema``, through ``allOf``."""
    schema = resolve(doc, schema)
    if not isinstance(schema, dict):
        return set()
    found: set[str] = set()
    for sub in schema.get("allOf", []):
        found |= _record_properties(doc, sub, trail)
    if not trail:
        return found | set(schema.get("properties", {}))
    inner = schema.get("items") if trail[0] == "items" else schema.get("properties", {}).get(trail[0])
    return found | (_record_properties(doc, inner, trail[1:]) if inner is not None else set())


def _id_field(listing: Step, parameter: str) -> str:
    """Which field of a listed record is the read's ``parameter``: the field of that name, else ``id``."""
    fields = _record_properties(listing.doc, response_schema(listing, listing.status), ("data", "records", "items"))
    return parameter if parameter in fields else "id"


def _resolved(step: Step, path: str) -> str:
    """``path`` with the parameters ``step`` sends as examples filled in."""
    for name in path_params(path):
        parameter = _param(step, name)
        if parameter is not None and ("path", name) not in step.values:
            path = path.replace(f"{{{name}}}", _example_value(step.doc, parameter))
    return path


def _pairs(doc: dict[str, Any]) -> list[tuple[Step, Step | None]]:
    """Each list (``.../list``) and the read of one of its records (``.../{id}`` beside it), where there is one.

    A list whose path has parameters of its own is kept only when it has such a read (a page's templated list);
    lists under another object (``/applications/{appId}/members/list``) are left out."""
    paths = doc.get("paths", {})
    found: list[tuple[Step, Step | None]] = []
    for path, method, _, _ in operations(doc):
        if method != "get" or not path.endswith("/list"):
            continue
        reads = _record_reads(paths, path)
        listing = plan_step(doc, path, "get", "session")
        read = plan_step(doc, reads[0], "get", "session") if reads else None
        if read is not None or not path_params(path):
            found.append((listing, read))
    return found


def _record_reads(paths: dict[str, Any], listing: str) -> list[str]:
    """The reads beside the list at ``listing``: GETs in the same folder whose last segment is a parameter."""
    prefix = listing.removesuffix("/list")
    return [other for other in paths if "get" in paths[other] and other.rsplit("/", 1)[0] == prefix
            and path_params(other)[-1:] == [other.rsplit("/", 1)[1][1:-1]] and other != listing]


def _create_commands(doc: dict[str, Any]) -> list[Step]:
    """Each command whose code (its last path segment, or that parameter's example) ends with ``:create``."""
    found = []
    for path, method, _, _ in operations(doc):
        if method != "post" or "/commands/" not in path:
            continue
        step = plan_step(doc, path, method, "session")
        content = request_content(step)
        if "application/json" in content and _resolved(step, path).rsplit("/", 1)[1].endswith(":create"):
            examples = media_examples(doc, content["application/json"], sent=True)
            step.body = next((e for e in examples if isinstance(e, dict) and "operationType" not in e), examples[0])
            found.append(step)
    return found


def session(doc: dict[str, Any]) -> list[Step]:
    """The login; each list and the read of its first record (then a read of an unknown id); each create
    command and the read of the record it created."""
    login = next(plan_step(doc, path, "post", "session") for path in [login_path(doc)])
    login.body = {"email": "{{email}}", "password": "{{password}}"}
    plan: list[Step] = [login]
    reads: list[tuple[Step, str]] = []
    for listing, read in _pairs(doc):
        plan.append(listing)
        if read is None:
            continue
        parameter = path_params(read.path)[-1]
        field_name = _id_field(listing, parameter)
        read.folder = listing.folder
        bind_value(listing, read, "path", parameter, f"$response.body#/data/records/0/{field_name}")
        plan.append(read)
        missing = _unknown_id(read, f"{read.key}.unknown")
        plan += [missing] if missing else []
        reads.append((read, field_name))
    for create in _create_commands(doc):
        plan.append(create)
        read_back = _read_back(doc, create, reads)
        plan += [read_back] if read_back else []
        plan += record_changes(doc, create, read_back)
    return _by_folder(doc, plan)


def _read_back(doc: dict[str, Any], create: Step, reads: list[tuple[Step, str]]) -> Step | None:
    """The read of the record ``create`` made, where its module has a read."""
    module = _resolved(create, create.path).rsplit("/", 1)[1].split(":")[0]
    for read, field_name in reads:
        if _resolved(read, read.path.rsplit("/", 1)[0]).rsplit("/", 1)[1] == module:
            back = plan_step(doc, read.path, "get", "session", key=f"{read.key}.created-by.{create.key}")
            back.folder = create.folder
            back.name = f"{read.name}: the one that {create.key} created"
            back.values = {place: value for place, value in read.values.items() if "{{" not in value}
            bind_value(create, back, "path", path_params(read.path)[-1], f"$response.body#/data/{field_name}")
            return back
    return None


def record_changes(doc: dict[str, Any], create: Step, read: Step | None) -> list[Step]:
    """The created record changed by its model's ``:update`` and removed by its ``:delete`` (``targetRecordId``:
    the id ``create`` answered), then read once more (``read``), which answers 404."""
    planned: list[Step] = []
    base = create.path.rsplit(":", 1)[0]
    for action in ("update", "delete"):
        path = f"{base}:{action}"
        if "post" not in doc["paths"].get(path, {}):
            continue
        step = plan_step(doc, path, "post", "session")
        step.folder = create.folder
        examples = media_examples(doc, request_content(step)["application/json"], sent=True)
        step.body = next((e for e in examples if isinstance(e, dict) and "targetRecordId" in e), examples[0])
        bind_value(create, step, "body", "targetRecordId", "$response.body#/data/id")
        planned.append(step)
    if read is not None and planned and planned[-1].path.endswith(":delete"):
        gone = plan_step(doc, read.path, "get", "session", key=f"{read.key}.deleted-by.{planned[-1].key}")
        gone.folder, gone.status = create.folder, 404
        gone.name = f"{read.name}: the one {planned[-1].key} deleted answers 404"
        bind_value(create, gone, "path", path_params(read.path)[-1], "$response.body#/data/id")
        planned.append(gone)
    return planned


def _by_folder(doc: dict[str, Any], plan: list[Step]) -> list[Step]:
    """``plan`` grouped by folder in the tags' order (the order within a folder kept)."""
    tags = [tag["name"] for tag in doc.get("tags", [])]
    tags += [step.folder for step in plan if step.folder not in tags]
    return sorted(plan, key=lambda step: tags.index(step.folder))
