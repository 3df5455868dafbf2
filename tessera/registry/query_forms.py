"""A query form beside every list of the session document whose ``filters`` is a JSON query parameter.

A ``content`` query parameter is what code generators cannot send: openapi-python-client leaves every such
operation out, openapi-generator sends an array comma-joined. A page's list has its own typed query
operation (``POST /api/dynamic/<page>/query``, from the skeleton's template); this gives the same to the
lists the skeleton writes by hand (audit, data sources, the Open Platform administration): for
``GET .../list`` a ``POST .../query`` whose JSON body holds the list's parameters (``{Prefix}ListQuery``,
each property the parameter's own schema), with the list's other parameters (path, ``datasourceId``, the
headers), tags, responses and links. ``x-tessera-query-of`` names the list it answers for:
``handlers/session/queries.py`` runs that list's own handler with the body's parameters, so the two
cannot answer differently (same permission, read rate limit, records, order and total).
"""

from __future__ import annotations

import copy
import re
from typing import Any

from tessera.registry.names import ref

QUERY_OF = "x-tessera-query-of"
LIST_PARAMETERS = ("pageNum", "pageSize", "keyword", "sortField", "sortOrder", "filters")
# What a body adds to a list's answers: a body too large, or not JSON.
BODY_RESPONSES = {"413": "PayloadTooLarge", "415": "UnsupportedMediaType"}


def query_path(list_path: str) -> str:
    return list_path.removesuffix("/list") + "/query"


def query_operation_id(list_id: str) -> str:
    """``listApplications`` -> ``queryApplications``; ``searchAudit`` -> ``queryAudit``."""
    return re.sub(r"^(list|search)", "query", list_id)


def _resolve(doc: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    if "$ref" not in node:
        return node
    found: dict[str, Any] = doc["components"]["parameters"][node["$ref"].rsplit("/", 1)[1]]
    return found


def add_query_forms(doc: dict[str, Any], body_schema: Any) -> None:
    """Give every hand-written list with a JSON ``filters`` parameter its query form (see the module).

    ``body_schema(parameters, what)`` builds the body from the list's parameters by name."""
    paths: dict[str, Any] = {}
    for path, item in doc["paths"].items():
        paths[path] = item
        listing = item.get("get")
        if path.endswith("/list") and listing is not None and query_path(path) not in doc["paths"]:
            form = _query_form(doc, path, listing, body_schema)
            if form is not None:
                paths[query_path(path)] = {"post": form}
    doc["paths"] = paths


def _query_form(doc: dict[str, Any], path: str, listing: dict[str, Any], body_schema: Any) -> dict[str, Any] | None:
    """The query form of the list at ``path`` (its body schema added to the document), or None when the
    list has no JSON ``filters`` parameter."""
    listed, kept = _split(doc, listing)
    if "filters" not in listed or "content" not in listed["filters"][1]:
        return None
    prefix = listed["filters"][0]["$ref"].rsplit("/", 1)[1].removesuffix("Filters")
    doc["components"]["schemas"][f"{prefix}ListQuery"] = body_schema(
        {name: listed[name][1] for name in LIST_PARAMETERS if name in listed}, f"`{listing['operationId']}`")
    return _operation(path, listing, kept, prefix, listed["filters"][1])


def _split(doc: dict[str, Any], listing: dict[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The list's parameters by name (as written, and resolved), and its other parameters as written."""
    listed: dict[str, Any] = {}
    kept: list[dict[str, Any]] = []
    for raw in listing.get("parameters", []):
        parameter = _resolve(doc, raw)
        if parameter["in"] == "query" and parameter["name"] in LIST_PARAMETERS:
            listed[parameter["name"]] = (raw, parameter)
        else:
            kept.append(raw)
    return listed, kept


def _operation(path: str, listing: dict[str, Any], kept: list[dict[str, Any]], prefix: str,
               filters: dict[str, Any]) -> dict[str, Any]:
    example = {"pageNum": 1, "pageSize": 10, "sortOrder": "desc",
               "filters": copy.deepcopy(filters["content"]["application/json"].get("example", []))}
    responses = copy.deepcopy(listing["responses"])
    responses.update({code: {"$ref": f"#/components/responses/{name}"} for code, name in BODY_RESPONSES.items()})
    operation: dict[str, Any] = {
        "tags": list(listing.get("tags", [])),
        "operationId": query_operation_id(listing["operationId"]),
        "summary": f"{listing['summary']}, the conditions in a JSON body",
        "description": (
            f"The list of `GET {path}` (`{listing['operationId']}`: same items, order, paging, total, "
            "permission and read rate limit), with its parameters as a typed JSON body instead of the query "
            "string: `filters` is an array of condition objects, which code generators type and send as they "
            "are. It changes nothing, so it needs no idempotency key; repeating it is safe."),
        QUERY_OF: path,
    }
    if "x-openapi-router-controller" in listing:
        operation["x-openapi-router-controller"] = listing["x-openapi-router-controller"]
    operation["parameters"] = copy.deepcopy(kept)
    operation["requestBody"] = {"required": True, "content": {"application/json": {
        "schema": ref(f"{prefix}ListQuery"), "example": example}}}
    operation["responses"] = dict(sorted(responses.items()))
    return operation
