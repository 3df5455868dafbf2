"""Every enum and object inside a schema gets the name of its place, once (tessera/registry/names.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tessera.registry.names import NameClash, name_inline_schemas, refer


def test_an_inline_enum_becomes_a_component_named_for_its_owner_and_property() -> None:
    schemas: dict[str, Any] = {"EcKey": {"type": "object", "properties": {
        "crv": {"type": "string", "enum": ["P-256"], "description": "The curve."}}}}
    name_inline_schemas(schemas)
    assert schemas["EcKeyCrv"] == {"type": "string", "enum": ["P-256"]}
    assert schemas["EcKey"]["properties"]["crv"] == {
        "type": "string", "allOf": [{"$ref": "#/components/schemas/EcKeyCrv"}], "description": "The curve."}


def test_an_inline_object_and_what_it_holds_are_named_by_their_path() -> None:
    schemas: dict[str, Any] = {"Action": {"type": "object", "properties": {"input": {
        "type": "object", "properties": {"mode": {"type": "string", "enum": ["a", "b"]}}}}}}
    name_inline_schemas(schemas)
    assert schemas["Action"]["properties"]["input"] == {"$ref": "#/components/schemas/ActionInput"}
    assert schemas["ActionInput"]["properties"]["mode"] == {"$ref": "#/components/schemas/ActionInputMode"}


def test_array_items_and_envelope_members_are_named_too() -> None:
    schemas: dict[str, Any] = {
        "Tags": {"type": "object", "properties": {"kinds": {"type": "array", "items": {"type": "string",
                                                                                     "enum": ["x"]}}}},
        "Envelope": {"allOf": [{"type": "object", "properties": {"code": {"type": "string", "enum": ["0"]}}}]},
    }
    name_inline_schemas(schemas)
    assert schemas["Tags"]["properties"]["kinds"]["items"] == {"$ref": "#/components/schemas/TagsKindsItem"}
    assert schemas["Envelope"]["allOf"][0]["properties"]["code"] == {"$ref": "#/components/schemas/EnvelopeCode"}


def test_a_place_that_may_be_null_keeps_its_enum() -> None:
    """OpenAPI 3.0's ``nullable`` adds null only beside a ``type``: a reference would refuse null."""
    role = {"type": "string", "nullable": True, "enum": ["owner", "viewer", None]}
    schemas: dict[str, Any] = {"Change": {"type": "object", "properties": {"role": dict(role)}}}
    name_inline_schemas(schemas)
    assert schemas == {"Change": {"type": "object", "properties": {"role": role}}}
    with pytest.raises(AssertionError):
        refer("MemberRole", {"nullable": True})


def test_two_different_schemas_for_one_name_are_a_clash() -> None:
    schemas: dict[str, Any] = {"ThingKind": {"type": "string", "enum": ["other"]},
                               "Thing": {"type": "object", "properties": {"kind": {"type": "string", "enum": ["a"]}}}}
    with pytest.raises(NameClash, match="ThingKind"):
        name_inline_schemas(schemas)
