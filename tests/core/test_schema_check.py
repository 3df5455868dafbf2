"""The compiled yes/no schema checks agree with jsonschema on every request schema of both documents.

``tessera/core/schema_check.py`` answers "valid?" for the validators' happy path, and jsonschema runs
only when it says no; so a yes where jsonschema finds an error would let a bad request through, and
a no where it finds none would only cost time. Both are held at zero here: every parameter and
request body schema of the two generated documents that compiles is checked against jsonschema (the
same validator classes the service validates with) on generated instances, valid ones and broken
ones alike.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from connexion.json_schema import Draft4RequestValidator, resolve_refs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft4Validator

from tessera.core import yamlfile
from tessera.core.schema_check import check_for, compile_check
from tessera.registry.capabilities import load_capabilities
from tessera.registry.models import load_declarations

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = ("generated/open-platform.yaml", "generated/session-api.yaml")
JUNK = (None, True, False, 0, -1, 1.5, "", "x", "0", [], {}, "a" * 600, ["x"], {"x": 1}, 10**12)


def _request_schemas() -> list[tuple[str, dict[str, Any], Any]]:
    """(where, schema, the jsonschema validator the service uses for it) for every parameter and body."""
    found: list[tuple[str, dict[str, Any], Any]] = []
    for document in DOCUMENTS:
        # As Connexion serves it (``Specification.load``: references resolved), read with libyaml.
        spec = resolve_refs(yamlfile.load((ROOT / document).read_text(encoding="utf-8")))
        for path, item in spec["paths"].items():
            for method, operation in item.items():
                if not isinstance(operation, dict) or method == "parameters":
                    continue
                for param in [*item.get("parameters", []), *operation.get("parameters", [])]:
                    schema = param.get("schema", {})
                    found.append((f"{method} {path} {param['in']} {param['name']}", schema,
                                  Draft4Validator(schema, format_checker=Draft4Validator.FORMAT_CHECKER)))
                for media, content in (operation.get("requestBody") or {}).get("content", {}).items():
                    # As Connexion hands it to the body validators (OpenAPIOperation.with_definitions).
                    schema = {**content.get("schema", {}), "components": spec["components"]}
                    found.append((f"{method} {path} body {media}", schema,
                                  Draft4RequestValidator(schema, format_checker=Draft4Validator.FORMAT_CHECKER)))
    return found


def _registry_schemas() -> list[tuple[str, dict[str, Any], Any]]:
    """Command inputs and inbound event data, with the validators the services check them with."""
    capabilities = load_capabilities(ROOT / "capabilities.yaml", load_declarations(ROOT / "models.yaml"))
    found = [(f"command {code} input", command.input_schema, command.input_validator)
             for code, command in capabilities.commands.items()]
    for code, source in capabilities.event_sources.items():
        found += [(f"event {code} {kind} v{version} data", validator.schema, validator)
                  for (kind, version), validator in source.validators.items()]
    return found


SCHEMAS = [*_request_schemas(), *_registry_schemas()]
COMPILED = [(where, check, validator) for where, _, validator in SCHEMAS
            if (check := compile_check(validator.schema, validator.format_checker)) is not None]


def _strings(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    low, high = schema.get("minLength", 0), min(schema.get("maxLength", 40), 80)
    if "pattern" in schema:
        return st.one_of(st.from_regex(re.compile(schema["pattern"]), fullmatch=True).filter(
            lambda s: low <= len(s) <= high + 1), st.text(max_size=high + 1))
    return st.text(min_size=max(0, low - 1), max_size=high + 1)


def _numbers(schema: dict[str, Any], integral: bool) -> st.SearchStrategy[Any]:
    low, high = schema.get("minimum"), schema.get("maximum")
    ints = st.integers(min_value=None if low is None else int(low) - 2,
                       max_value=None if high is None else int(high) + 2)
    return ints if integral else st.one_of(ints, st.floats(allow_nan=False, allow_infinity=False))


def _objects(schema: dict[str, Any], depth: int) -> st.SearchStrategy[Any]:
    properties = schema.get("properties", {})
    required = [name for name in schema.get("required", []) if name in properties]
    whole = st.fixed_dictionaries({name: instances(properties[name], depth + 1) for name in required},
                                  optional={name: instances(sub, depth + 1) for name, sub in properties.items()
                                            if name not in required})
    return st.one_of(whole, whole.map(lambda d: {**d, "unexpected": 1}),
                     whole.map(lambda d: dict(list(d.items())[1:])))


def instances(schema: dict[str, Any], depth: int = 0) -> st.SearchStrategy[Any]:
    """Instances near ``schema``: mostly shaped like it, some broken, some junk of any type."""
    kind = schema.get("type")
    shaped: st.SearchStrategy[Any]
    if depth > 4 or kind is None:
        shaped = st.sampled_from(JUNK)
    elif kind == "string":
        shaped = _strings(schema)
    elif kind in ("integer", "number"):
        shaped = _numbers(schema, kind == "integer")
    elif kind == "boolean":
        shaped = st.booleans()
    elif kind == "array":
        shaped = st.lists(instances(schema.get("items", {}), depth + 1), max_size=schema.get("maxItems", 3) + 1)
    elif kind == "object":
        shaped = _objects(schema, depth)
    else:
        shaped = st.sampled_from(JUNK)
    if "enum" in schema:  # its members, and the values equality could confuse with them (1.0, True)
        members = st.sampled_from(schema["enum"])
        shaped = st.one_of(shaped, members, members.map(lambda m: float(m) if isinstance(m, int) else m),
                           st.sampled_from((True, False, 1.0, 0.0)))
    if "format" in schema:
        shaped = st.one_of(shaped, st.datetimes().map(lambda d: d.isoformat() + "Z"), st.dates().map(str),
                           st.sampled_from(("2026-11-26T12:00:00Z", "2026-11-26", "2026-13-01T00:00:00Z", "now")))
    return st.one_of(shaped, shaped, shaped, st.sampled_from(JUNK))


def test_the_checks_compile_for_the_hot_schemas() -> None:
    compiled = {where for where, _, _ in COMPILED}
    assert "post /oauth2/token body application/x-www-form-urlencoded" in compiled
    assert "get /api/open/v1/resources/assets/{pid} path pid" in compiled
    assert "post /api/open/v1/commands/inventory.stock-ins.create:execute body application/json" in compiled
    assert "command inventory.stock-ins.create input" in compiled
    assert len(COMPILED) >= len(SCHEMAS) // 2


@pytest.mark.parametrize(("where", "check", "validator"), COMPILED, ids=[where for where, _, _ in COMPILED])
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(data=st.data())
def test_a_compiled_check_says_valid_exactly_where_jsonschema_finds_no_error(
        where: str, check: Any, validator: Any, data: st.DataObject) -> None:
    schema = validator.schema
    instance = data.draw(instances(schema), label=where)
    assert check(instance) == (next(iter(validator.iter_errors(instance)), None) is None)


@pytest.mark.parametrize(("where", "validator"), [(where, validator) for where, _, validator in SCHEMAS],
                         ids=[where for where, _, _ in SCHEMAS])
def test_check_for_answers_like_its_validator_compiled_or_not(where: str, validator: Any) -> None:
    check = check_for(validator)
    for instance in JUNK:
        assert check(instance) == (next(iter(validator.iter_errors(instance)), None) is None), where
