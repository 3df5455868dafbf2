"""A yes/no check of a JSON Schema (draft 4), compiled to plain Python, for the valid-request path.

``jsonschema`` walks a schema keyword by keyword on every call, building its machinery as it goes:
about 55 us for the token endpoint's form, 10-20 us for one query parameter, and nearly all of it
spent on requests that are valid. ``compile_check`` turns a schema into nested closures that answer
only "valid or not", with the exact rules of draft 4 as ``jsonschema`` applies them; the validators
(``tessera/web/connexion/validators.py``) call it first and run ``jsonschema`` only when it says no,
to name every error as before. So the check must never say yes where ``jsonschema`` finds an error,
and to be fast it should say yes wherever ``jsonschema`` finds none: tests/core/test_schema_check.py
holds the two together on every schema of both documents, over generated instances.

Only the keywords whose rules are written out below are compiled (``format`` by asking the very
format checker the validators use); a schema (or any part of it) using another one (``$ref``,
``uniqueItems``, ``nullable``, an ``enum`` holding a bool, null, array or object, ...) compiles to
None, and its validator keeps using ``jsonschema`` alone. Annotations that validate nothing
(``description``, ``example``, ``default``, ``discriminator``, ``x-`` extensions, the
``components`` Connexion adds to body schemas) are ignored, as ``jsonschema`` ignores them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from jsonschema import Draft4Validator, FormatChecker
from jsonschema.protocols import Validator

Check = Callable[[Any], bool]
Formats = FormatChecker | None

# Keywords that validate nothing. ``components`` (which Connexion adds to every body schema for its
# ``$ref``s) and ``definitions`` only hold ``$ref`` targets, and a ``$ref`` is not compiled.
_ANNOTATIONS = frozenset({"description", "example", "examples", "default", "discriminator", "title", "components",
                          "definitions"})
# Draft 4's types as jsonschema's draft 4 type checker tests them (a bool is no integer or number).
_TYPES: dict[str, Check] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "null": lambda v: v is None,
}
_IS_STRING, _IS_NUMBER = _TYPES["string"], _TYPES["number"]
# Draft 4's format checker: what the document validators check formats with.
DRAFT4_FORMATS = Draft4Validator.FORMAT_CHECKER
_IS_OBJECT, _IS_ARRAY = _TYPES["object"], _TYPES["array"]


class Unsupported(Exception):
    """A keyword (or value of one) this module does not compile."""


def compile_check(schema: Any, formats: Formats = DRAFT4_FORMATS) -> Check | None:
    """A function that says whether an instance is valid against ``schema`` (draft 4, ``format``
    checked by ``formats``), or None when the schema uses anything this module does not compile."""
    try:
        return _compile(schema, formats)
    except Unsupported:
        return None


def check_for(validator: Validator) -> Check:
    """Whether an instance is valid, as ``validator`` (a draft 4 one) would say: compiled where the
    schema compiles, else asking the validator itself."""
    draft4 = "draft-04" in str(validator.META_SCHEMA.get("$schema", ""))
    formats: Formats = getattr(validator, "format_checker", None)  # every jsonschema validator has one
    compiled = compile_check(validator.schema, formats) if draft4 else None
    return compiled or (lambda v: next(iter(validator.iter_errors(v)), None) is None)


def _compile(schema: Any, formats: Formats) -> Check:
    if not isinstance(schema, Mapping):
        raise Unsupported(schema)
    checks: list[Check] = []
    for keyword, value in schema.items():
        if keyword in _ANNOTATIONS or keyword.startswith("x-"):
            continue
        compiler = _KEYWORDS.get(keyword)
        if compiler is None:
            raise Unsupported(keyword)
        found = compiler(value, schema, formats)
        if found is not None:
            checks.append(found)
    return _all(checks)


def _all(checks: list[Check]) -> Check:
    if not checks:
        return lambda _v: True
    if len(checks) == 1:
        return checks[0]
    return lambda v: all(check(v) for check in checks)


def _type(value: Any, _schema: Mapping[str, Any], _formats: Formats) -> Check:
    names = [value] if isinstance(value, str) else value
    if not isinstance(names, list) or not names or any(name not in _TYPES for name in names):
        raise Unsupported(value)
    tests = [_TYPES[name] for name in names]
    return tests[0] if len(tests) == 1 else (lambda v: any(test(v) for test in tests))


def _on(applies: Check, test: Check) -> Check:
    """A keyword that constrains one kind of instance and lets every other kind through."""
    return lambda v: not applies(v) or test(v)


def _pattern(value: Any, _schema: Mapping[str, Any], _formats: Formats) -> Check:
    if not isinstance(value, str):
        raise Unsupported(value)
    search = re.compile(value).search  # jsonschema: re.search(pattern, instance)
    return _on(_IS_STRING, lambda v: search(v) is not None)


def _max_length(value: Any, _schema: Mapping[str, Any], _formats: Formats) -> Check:
    limit = _count(value)
    return _on(_IS_STRING, lambda v: len(v) <= limit)


def _min_length(value: Any, _schema: Mapping[str, Any], _formats: Formats) -> Check:
    limit = _count(value)
    return _on(_IS_STRING, lambda v: len(v) >= limit)


def _count(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise Unsupported(value)
    return value


def _enum(value: Any, _schema: Mapping[str, Any], _formats: Formats) -> Check:
    """jsonschema's ``enum`` of strings and numbers: a string equals only a string, a bool equals
    no number (``True`` is not ``1``), and ``1`` equals ``1.0``; other members are not compiled."""
    if not isinstance(value, list) or not value or not all(_plain(item) for item in value):
        raise Unsupported(value)
    return _members(frozenset(item for item in value if isinstance(item, str)),
                    frozenset(item for item in value if not isinstance(item, str)))


def _members(strings: frozenset[str], numbers: frozenset[int | float]) -> Check:
    return lambda v: v in strings if isinstance(v, str) else (_IS_NUMBER(v) and v in numbers)


def _plain(item: Any) -> bool:
    """A string or a number that is no bool: the enum members compiled."""
    return isinstance(item, str) or _IS_NUMBER(item)


def _format(value: Any, _schema: Mapping[str, Any], formats: Formats) -> Check | None:
    """The validator's own format checker, asked the same question (none: formats are not checked)."""
    if not isinstance(value, str):
        raise Unsupported(value)
    if formats is None:
        return None
    return lambda v: formats.conforms(v, value)


def _bound(value: Any) -> int | float:
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise Unsupported(value)
    return value


def _minimum(value: Any, schema: Mapping[str, Any], _formats: Formats) -> Check:
    low = _bound(value)
    if schema.get("exclusiveMinimum") is True:
        return _on(_IS_NUMBER, lambda v: v > low)
    return _on(_IS_NUMBER, lambda v: v >= low)


def _maximum(value: Any, schema: Mapping[str, Any], _formats: Formats) -> Check:
    high = _bound(value)
    if schema.get("exclusiveMaximum") is True:
        return _on(_IS_NUMBER, lambda v: v < high)
    return _on(_IS_NUMBER, lambda v: v <= high)


def _exclusive(value: Any, _schema: Mapping[str, Any], _formats: Formats) -> None:
    """Draft 4's exclusiveMinimum/Maximum: a flag read by minimum/maximum (alone, it checks nothing)."""
    if not isinstance(value, bool):
        raise Unsupported(value)


def _properties(value: Any, _schema: Mapping[str, Any], formats: Formats) -> Check:
    if not isinstance(value, Mapping):
        raise Unsupported(value)
    compiled = [(name, _compile(sub, formats)) for name, sub in value.items()]
    return _on(_IS_OBJECT, lambda v: all(check(v[name]) for name, check in compiled if name in v))


def _required(value: Any, _schema: Mapping[str, Any], _formats: Formats) -> Check:
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise Unsupported(value)
    names = tuple(value)
    return _on(_IS_OBJECT, lambda v: all(name in v for name in names))


def _additional(value: Any, schema: Mapping[str, Any], formats: Formats) -> Check | None:
    if "patternProperties" in schema:
        raise Unsupported("patternProperties")
    declared = frozenset(schema.get("properties") or ())
    if value is True:
        return None
    if value is False:
        return _on(_IS_OBJECT, lambda v: all(key in declared for key in v))
    check = _compile(value, formats)
    return _on(_IS_OBJECT, lambda v: all(check(item) for key, item in v.items() if key not in declared))


def _min_properties(value: Any, _schema: Mapping[str, Any], _formats: Formats) -> Check:
    limit = _count(value)
    return _on(_IS_OBJECT, lambda v: len(v) >= limit)


def _max_properties(value: Any, _schema: Mapping[str, Any], _formats: Formats) -> Check:
    limit = _count(value)
    return _on(_IS_OBJECT, lambda v: len(v) <= limit)


def _items(value: Any, _schema: Mapping[str, Any], formats: Formats) -> Check:
    if not isinstance(value, Mapping):  # a list of schemas (tuple validation) is not compiled
        raise Unsupported(value)
    check = _compile(value, formats)
    return _on(_IS_ARRAY, lambda v: all(check(item) for item in v))


def _min_items(value: Any, _schema: Mapping[str, Any], _formats: Formats) -> Check:
    limit = _count(value)
    return _on(_IS_ARRAY, lambda v: len(v) >= limit)


def _max_items(value: Any, _schema: Mapping[str, Any], _formats: Formats) -> Check:
    limit = _count(value)
    return _on(_IS_ARRAY, lambda v: len(v) <= limit)


def _subschemas(value: Any, formats: Formats) -> list[Check]:
    if not isinstance(value, list) or not value:
        raise Unsupported(value)
    return [_compile(sub, formats) for sub in value]


def _any_of(value: Any, _schema: Mapping[str, Any], formats: Formats) -> Check:
    checks = _subschemas(value, formats)
    return lambda v: any(check(v) for check in checks)


def _one_of(value: Any, _schema: Mapping[str, Any], formats: Formats) -> Check:
    checks = _subschemas(value, formats)
    return lambda v: sum(1 for check in checks if check(v)) == 1


def _all_of(value: Any, _schema: Mapping[str, Any], formats: Formats) -> Check:
    return _all(_subschemas(value, formats))


def _not(value: Any, _schema: Mapping[str, Any], formats: Formats) -> Check:
    check = _compile(value, formats)
    return lambda v: not check(v)


_KEYWORDS: dict[str, Callable[[Any, Mapping[str, Any], Formats], Check | None]] = {
    "type": _type, "format": _format, "pattern": _pattern, "maxLength": _max_length, "minLength": _min_length,
    "enum": _enum,
    "minimum": _minimum, "maximum": _maximum, "exclusiveMinimum": _exclusive, "exclusiveMaximum": _exclusive,
    "properties": _properties, "required": _required, "additionalProperties": _additional,
    "minProperties": _min_properties, "maxProperties": _max_properties,
    "items": _items, "minItems": _min_items, "maxItems": _max_items,
    "anyOf": _any_of, "oneOf": _one_of, "allOf": _all_of, "not": _not,
}
