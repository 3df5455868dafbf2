"""Names for the schemas of both documents, so that every generator makes one class per concept.

A schema written inline where a field appears becomes a class per appearance and per generator's
taste: openapi-python-client made ``AssetStatus``, ``AssetCreatePayloadStatus`` and
``AssetUpdatePayloadStatus`` of the one ``status`` field, and datamodel-code-generator, which names
an inline schema by its property alone, numbered every collision (``Operator1`` to ``Operator83``,
``Status5``). The builders therefore reference named components for what they share (a model
field's values, the filter operators), and ``name_inline_schemas`` gives every enum and object still
left inline under a component the name of its place (``EcPublicJwk.alg`` becomes ``EcPublicJwkAlg``).
``tests/system/test_stock_generators.py`` runs datamodel-code-generator on both served documents and
refuses a numbered class.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from tessera.registry.models import DeclarationError

REF = "$ref"
# Where an inline schema sits in its parent besides a property, and what its name adds to the parent's.
_CHILDREN = (("items", "Item"), ("additionalProperties", "Value"))
_COMPOSITIONS = ("allOf", "oneOf", "anyOf")


class NameClash(DeclarationError):
    """Two different schemas would take one component name: a model, page or field named like a
    schema of the skeleton; the message names it (``tessera check`` reports it as any declaration error)."""


def ref(name: str) -> dict[str, str]:
    return {REF: f"#/components/schemas/{name}"}


def refer(name: str, siblings: dict[str, Any]) -> dict[str, Any]:
    """A reference to the schema ``name`` with ``siblings`` (a description, a default), which OpenAPI
    3.0 ignores beside a ``$ref`` and honours under ``allOf``. A ``type`` among them stays beside the
    ``allOf`` (Connexion's form and query parsers read a property's own type). Never for a place that
    may be null: see ``may_be_null``."""
    assert not siblings.get("nullable"), "a place that may be null keeps its schema inline (may_be_null)"
    if set(siblings) <= {"type"}:
        return ref(name)
    typed = {"type": siblings["type"]} if "type" in siblings else {}
    return {**typed, "allOf": [ref(name)], **{k: v for k, v in siblings.items() if k != "type"}}


def may_be_null(schema: dict[str, Any]) -> bool:
    """Whether a place may be null, which a reference to a named schema cannot say in OpenAPI 3.0.

    ``nullable`` only adds null beside a ``type`` in the same schema object, and ``allOf: [$ref]``
    still asks the named schema, which refuses null: Connexion's response check, Spectral and Redocly
    all read it so (``{allOf: [$ref], nullable: true}`` fails each). One of the named schema and a
    null-only schema would be exact, but openapi-generator turns a null-only schema into code that
    does not compile (python, typescript-fetch) and wraps the union in a model of its own. So such a
    place keeps its enum inline; OpenAPI 3.1 (``anyOf: [$ref, {type: "null"}]``) would lift this."""
    return schema.get("nullable") is True or None in (schema.get("enum") or [])


def add_shared(schemas: dict[str, Any], name: str, schema: dict[str, Any]) -> None:
    """Add a component several builders share; the same name for a different schema is a clash."""
    if name in schemas and schemas[name] != schema:
        raise NameClash(f"models.yaml: two different schemas would be named {name!r}; rename the model, "
                        "page or field that makes one of them")
    schemas[name] = schema


def camel(dotted: str) -> str:
    """``inventory.stock-ins.create`` -> ``InventoryStockInsCreate``; ``assets:create`` -> ``AssetsCreate``."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[.\-_:]", dotted) if part)


def _named(schema: Any) -> bool:
    """Whether a generator makes a class of this inline schema (an enum, or an object with properties)
    that a reference can replace (not where null is allowed: ``may_be_null``)."""
    return (isinstance(schema, dict) and REF not in schema and ("enum" in schema or "properties" in schema)
            and not may_be_null(schema))


def _inline(owner: str, schema: dict[str, Any]) -> Iterator[tuple[dict[str, Any], str, str]]:
    """(container, key, name) of every inline schema under ``schema`` that a generator would name,
    outermost first, through properties, items and compositions (which add nothing to the name)."""
    for member in _members(schema):
        yield from _inline(owner, member)
    properties = schema.get("properties") or {}
    for key in properties:
        yield from _child(properties, key, f"{owner}{camel(key)}")
    for key, suffix in _CHILDREN:
        yield from _child(schema, key, f"{owner}{suffix}")


def _members(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The inline members of the schema's ``allOf``, ``oneOf`` and ``anyOf``."""
    return [member for key in _COMPOSITIONS for member in schema.get(key) or []
            if isinstance(member, dict) and REF not in member]


def _child(container: dict[str, Any], key: str, name: str) -> Iterator[tuple[dict[str, Any], str, str]]:
    child = container.get(key)
    if not isinstance(child, dict):
        return
    if _named(child):
        yield container, key, name
    else:
        yield from _inline(name, child)


def _hoisted(schema: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The component an inline schema becomes, and what stays where it was (what belongs to the use:
    its description, default and example)."""
    kept_keys = ("description", "default", "example", "readOnly", "writeOnly", "deprecated")
    if "enum" in schema:
        return ({k: v for k, v in schema.items() if k not in kept_keys},
                {k: schema[k] for k in ("type", *kept_keys) if k in schema})
    return dict(schema), {}


def name_inline_schemas(schemas: dict[str, Any]) -> None:
    """Every enum and object left inline under a component becomes a component named for its place.

    Names are the owner's and the property path's (``EcPublicJwk.alg``: ``EcPublicJwkAlg``; array
    items add ``Item``); a place that may be null keeps its schema (``may_be_null``). A name another
    schema holds already is a ``NameClash``: the builder or the skeleton names that schema by hand."""
    pending = list(schemas.items())
    while pending:
        owner, schema = pending.pop(0)
        if not isinstance(schema, dict):
            continue
        for container, key, name in list(_inline(owner, schema)):
            component, siblings = _hoisted(container[key])
            add_shared(schemas, name, component)
            container[key] = refer(name, siblings)
            pending.append((name, component))


def add_referred(schemas: dict[str, Any], offered: dict[str, dict[str, Any]]) -> None:
    """Add those of ``offered`` that a schema refers to (an unused component is a lint warning)."""
    found = _refs(schemas)
    for name, schema in offered.items():
        if ref(name)[REF] in found:
            add_shared(schemas, name, schema)


def _refs(node: Any) -> set[str]:
    found: set[str] = set()
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, dict):
            if isinstance(current.get(REF), str):
                found.add(current[REF])
            stack.extend(current.values())
        elif isinstance(current, list):
            stack.extend(current)
    return found


# The operationIds of the operations the registries generate, one rule for both sides: the documents'
# templates take each id whole (``${listOperation}``), and the handlers bind by the same functions.
def list_records_id(page_key: str) -> str:
    return f"list{camel(page_key)}Records"


def query_records_id(page_key: str) -> str:
    return f"query{camel(page_key)}Records"


def get_record_id(page_key: str) -> str:
    return f"get{camel(page_key)}Record"


def execute_command_id(command_code: str) -> str:
    """A session command's execute (``executeAssetsCreateCommand``)."""
    return f"execute{camel(command_code)}Command"


def list_resource_id(plural_name: str) -> str:
    """An Open Platform resource's list (``listAssets``)."""
    return f"list{plural_name}"


def get_resource_id(schema_name: str) -> str:
    """An Open Platform resource's read by pid (``getAsset``)."""
    return f"get{schema_name}"


def execute_capability_id(command_code: str) -> str:
    """An Open Platform command's execute (``executeAssetsAssign``)."""
    return f"execute{camel(command_code)}"


def post_event_id(source_code: str) -> str:
    """An event source's inbound operation (``postRobotFleetEvent``)."""
    return f"post{camel(source_code)}Event"
