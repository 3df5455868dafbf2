"""Whether what an Open Platform command may send fits the model field it is applied to.

A command's ``input`` schema is what the published document advertises; the model field is what the
service stores and checks. An input wider than its field (a longer ``maxLength``, a larger
``maximum``, another type, an enum value the field lacks) would let the document promise values the
service then refuses, so ``tessera check`` refuses the declaration instead, naming the entry. A
constant (``{value: ...}``) must be a value of its field, and a create must be able to fill every
required field.
"""

from __future__ import annotations

from typing import Any

from tessera.core.bounds import MAX_INTEGER, MAX_NUMBER
from tessera.registry.models import FieldDecl, ModelDecl, value_problem

# The JSON types an input may have for each field type (an integer is a number too).
_INPUT_TYPES: dict[str, frozenset[str]] = {
    "string": frozenset({"string"}), "enum": frozenset({"string"}), "date": frozenset({"string"}),
    "datetime": frozenset({"string"}), "boolean": frozenset({"boolean"}),
    "integer": frozenset({"integer"}), "number": frozenset({"integer", "number"}),
}
_FORMATS = {"date": "date", "datetime": "date-time"}


def input_problem(prop: dict[str, Any], decl: FieldDecl) -> str | None:
    """What the input property ``prop`` may carry that the field ``decl`` refuses, or None."""
    problem = _kind_problem(prop, decl)
    if problem is not None or "enum" in prop:
        return problem
    if decl.type == "string":
        return _length_problem(prop, decl)
    if decl.type in ("integer", "number"):
        return _low_problem(prop, decl) or _high_problem(prop, decl)
    return None


def _kind_problem(prop: dict[str, Any], decl: FieldDecl) -> str | None:
    """The input's type, null, enum values and format against the field's."""
    if prop.get("type") not in _INPUT_TYPES[decl.type]:
        return f"a {prop.get('type', 'untyped')} input for a {decl.type} field (the input must be of type " \
               f"{' or '.join(sorted(_INPUT_TYPES[decl.type]))})"
    if prop.get("nullable") and not decl.nullable:
        return "a nullable input for a field that cannot be null"
    return _values_problem(prop, decl)


def _values_problem(prop: dict[str, Any], decl: FieldDecl) -> str | None:
    """An input's enum within the field's values, or the format a date or date-time field needs."""
    if "enum" in prop:
        bad = [value for value in prop["enum"] if value_problem(decl, value) is not None]
        return f"enum values the field refuses: {bad}" if bad else None
    if decl.type == "enum":
        return f"any text for an enum field (give the input an enum within {list(decl.values)})"
    if decl.type in _FORMATS and prop.get("format") != _FORMATS[decl.type]:
        return f"any text for a {decl.type} field (give the input format {_FORMATS[decl.type]})"
    return None


def constant_problem(value: Any, decl: FieldDecl) -> str | None:
    """What is wrong with a constant a command applies, as a value of its field, or None."""
    if value is None:
        return None if decl.nullable else "null for a field that cannot be null"
    return value_problem(decl, value)


def unfilled_fields(model: ModelDecl, apply: dict[str, dict[str, Any]], required_inputs: list[str]) -> list[str]:
    """The required fields of ``model`` a create leaves empty: neither a constant, nor a required input,
    nor a default fills them."""
    filled = {field for field, source in apply.items()
              if "value" in source or source.get("input") in required_inputs}
    return [code for code, decl in model.fields.items()
            if decl.required and decl.default is None and code not in filled]


def _length_problem(prop: dict[str, Any], decl: FieldDecl) -> str | None:
    if decl.max_length is not None and prop.get("maxLength", decl.max_length + 1) > decl.max_length:
        return f"maxLength {prop.get('maxLength', 'unbounded')} over the field's maxLength {decl.max_length}"
    return None


def _low_problem(prop: dict[str, Any], decl: FieldDecl) -> str | None:
    """The input's lower bound at or above the field's (its ``minimum`` or ``exclusiveMinimum``, else
    the smallest value stored)."""
    bound, name = _field_floor(decl)
    low = prop.get("minimum")
    if low is not None and (low > bound or (low == bound and (
            name != "exclusiveMinimum" or bool(prop.get("exclusiveMinimum"))))):
        return None
    return f"minimum {low if low is not None else 'unbounded'} below the field's {name} {bound:g}"


def _field_floor(decl: FieldDecl) -> tuple[float, str]:
    """The field's lower bound and what it is called."""
    if decl.exclusive_minimum is not None:
        return decl.exclusive_minimum, "exclusiveMinimum"
    if decl.minimum is not None:
        return decl.minimum, "minimum"
    return -_largest(decl), "smallest value"


def _high_problem(prop: dict[str, Any], decl: FieldDecl) -> str | None:
    """The input's upper bound at or below the field's (its ``maximum``, else the largest value stored)."""
    high = prop.get("maximum")
    ceiling = decl.maximum if decl.maximum is not None else _largest(decl)
    if high is None or high > ceiling:
        return f"maximum {high if high is not None else 'unbounded'} over the field's largest value {ceiling:g}"
    return None


def _largest(decl: FieldDecl) -> float:
    return MAX_INTEGER if decl.type == "integer" else MAX_NUMBER
