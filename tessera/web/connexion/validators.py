"""Connexion validators that report every bad field at once, with translatable messages.

Connexion's built-in validators stop at the first error and phrase it in English; the session API
promises ``data.fieldErrors`` with one translated entry per bad field. These subclasses collect
all errors (``iter_errors``) and raise ``RequestInvalid``, which the error renderers turn into
``VALIDATION_ERROR`` / ``invalid_request``. Schemas are compiled once per operation, not per request.
"""

from __future__ import annotations

import json
import typing as t
from functools import cached_property

from connexion.datastructures import MediaTypeDict
from connexion.exceptions import BadRequestProblem
from connexion.json_schema import Draft4RequestValidator
from connexion.lifecycle import ConnexionRequest
from connexion.utils import is_null, is_nullable
from connexion.validators import (
    VALIDATOR_MAP,
    FormDataValidator,
    JSONRequestBodyValidator,
    MultiPartFormDataValidator,
    ParameterValidator,
)
from jsonschema import Draft4Validator, ValidationError

from tessera.core.errors import FieldError, PreconditionFailed
from tessera.core.i18n import N_
from tessera.records.payloads import storable_text


class RequestInvalid(BadRequestProblem):
    """The request breaks its documented schema; ``field_errors`` names every bad part."""

    def __init__(self, field_errors: dict[str, FieldError]) -> None:
        super().__init__(detail="; ".join(f"{k}: {v.message}" for k, v in field_errors.items()))
        self.field_errors = field_errors


def message_for(error: ValidationError) -> FieldError:
    """A translatable message for one JSON Schema error."""
    keyword, value = error.validator, error.validator_value
    match keyword:
        case "required":
            return FieldError(N_("This field is required."))
        case "type":
            names = value if isinstance(value, list) else [value]
            if "integer" in names:
                return FieldError(N_("Must be an integer."))
            if "number" in names:
                return FieldError(N_("Must be a number."))
            if "boolean" in names:
                return FieldError(N_("Must be true or false."))
            if "object" in names:
                return FieldError(N_("Must be an object."))
            if "array" in names:
                return FieldError(N_("Must be an array."))
            return FieldError(N_("Must be a string."))
        case "enum":
            return FieldError(N_("Must be one of: {values}."), values=", ".join(map(str, value)))
        case "minimum":
            return FieldError(N_("Must be at least {minimum}."), minimum=value)
        case "maximum":
            return FieldError(N_("Must be at most {maximum}."), maximum=value)
        case "minLength":
            return FieldError(N_("Must be at least {minLength} characters."), minLength=value)
        case "maxLength":
            return FieldError(N_("Must be at most {maxLength} characters."), maxLength=value)
        case "pattern":
            return FieldError(N_("Has an invalid format."))
        case "additionalProperties":
            return FieldError(N_("Unknown field."))
        case _:
            return FieldError(N_("Is not valid."))


def collect(errors: t.Iterable[ValidationError], prefix: str = "") -> dict[str, FieldError]:
    """Map each error to the dotted path of the field it concerns (first error per field wins)."""
    result: dict[str, FieldError] = {}
    for error in sorted(errors, key=lambda e: [str(p) for p in e.absolute_path]):
        path = [str(p) for p in error.absolute_path]
        if error.validator == "required":
            missing = [name for name in error.validator_value if isinstance(error.instance, dict)
                       and name not in error.instance]
            for name in missing:
                result.setdefault(".".join([*path, name]) if path else prefix + name, message_for(error))
            continue
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = set((error.schema.get("properties") or {}).keys())
            for name in error.instance:
                if name not in allowed:
                    key = ".".join([*path, str(name)])
                    result.setdefault(key, message_for(error))
            continue
        key = ".".join(path) if path else (prefix.rstrip(".") or "body")
        result.setdefault(key, message_for(error))
    return result


BAD_TEXT = N_("Must not contain NUL characters or invalid Unicode.")
# No document of either API comes near this depth; every walker below stays far from the stack limit.
MAX_JSON_DEPTH = 32
TOO_DEEP = FieldError(N_("Must be JSON nested at most {depth} levels deep."), depth=MAX_JSON_DEPTH)


def json_depth(value: t.Any) -> int:
    """How deeply a parsed JSON value nests arrays and objects, measured without recursion."""
    deepest = 0
    stack: list[tuple[t.Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict):
            children: t.Iterable[t.Any] = node.values()
        elif isinstance(node, list):
            children = node
        else:
            continue
        deepest = max(deepest, depth)
        if deepest > MAX_JSON_DEPTH:
            return deepest
        stack.extend((child, depth + 1) for child in children)
    return deepest


def is_bad_text(text: str) -> bool:
    """NUL and lone surrogates: valid JSON, but no database stores them as text."""
    return not storable_text(text)


def bad_text_paths(value: t.Any, path: str = "") -> dict[str, FieldError]:
    """Every place in a JSON value (keys included) holding text the database would refuse."""
    found: dict[str, FieldError] = {}
    if isinstance(value, str):
        if is_bad_text(value):
            found[path or "body"] = FieldError(BAD_TEXT)
    elif isinstance(value, dict):
        for key, item in value.items():
            child = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and is_bad_text(key):
                found[path or "body"] = FieldError(BAD_TEXT)
                continue
            found.update(bad_text_paths(item, child))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.update(bad_text_paths(item, f"{path}[{index}]" if path else f"[{index}]"))
    return found


class _CompiledSchema:
    """Compile the body schema once per validator instead of on every ``_validator`` access."""

    _schema: dict[str, t.Any]

    @cached_property
    def _compiled(self) -> Draft4Validator:
        return Draft4RequestValidator(self._schema, format_checker=Draft4Validator.FORMAT_CHECKER)

    @property
    def _validator(self) -> Draft4Validator:
        return self._compiled


class CollectingJSONBodyValidator(_CompiledSchema, JSONRequestBodyValidator):

    async def _parse(self, stream: t.AsyncGenerator[bytes, None], scope: t.Any) -> t.Any:
        raw = b"".join([message async for message in stream])
        if not raw.strip():
            return None
        try:
            value = json.loads(raw.decode(self._encoding))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise RequestInvalid({"body": FieldError(N_("Must be valid JSON."))}) from None
        except RecursionError:  # nested deeper than the decoder's stack allows
            raise RequestInvalid({"body": TOO_DEEP}) from None
        if json_depth(value) > MAX_JSON_DEPTH:
            # Validation, the bad-text scan and storage all walk the document recursively.
            raise RequestInvalid({"body": TOO_DEEP})
        return value

    def _validate(self, body: t.Any) -> dict[str, t.Any] | None:
        if body is None:
            if self._nullable:
                return None
            raise RequestInvalid({"body": FieldError(N_("A JSON body is required."))})
        errors = {**collect(self._compiled.iter_errors(body)), **bad_text_paths(body)}
        if errors:
            raise RequestInvalid(errors)
        return None


class CollectingFormValidator(_CompiledSchema, FormDataValidator):

    def _validate(self, body: t.Any) -> dict[str, t.Any] | None:
        if body is None:
            raise RequestInvalid({"body": FieldError(N_("A form body is required."))})
        errors = collect(self._compiled.iter_errors(body))
        if errors:
            raise RequestInvalid(errors)
        return None


class CollectingParameterValidator(ParameterValidator):
    """Validates every query, path and header parameter and reports all failures together."""

    def __init__(self, parameters: t.Any, uri_parser: t.Any, strict_validation: bool = False,
                 security_query_params: t.Any = None) -> None:
        super().__init__(parameters, uri_parser, strict_validation, security_query_params)
        self._compiled: dict[tuple[str, str], Draft4Validator] = {}
        for location, params in self.parameters.items():
            for param in params:
                schema = param.get("schema", param)
                self._compiled[(location, param["name"])] = Draft4Validator(
                    schema, format_checker=Draft4Validator.FORMAT_CHECKER
                )

    def _check(self, location: str, param: dict[str, t.Any], value: t.Any) -> FieldError | None:
        if is_nullable(param) and is_null(value):
            return None
        if value is None and param.get("required") and param.get("x-missing-status") == 412:
            # The Open Platform's If-Match: the specification answers its absence with 412.
            raise PreconditionFailed()
        if value is None:
            return FieldError(N_("This field is required.")) if param.get("required") else None
        if isinstance(value, str) and is_bad_text(value):
            return FieldError(BAD_TEXT)
        error = next(iter(self._compiled[(location, param["name"])].iter_errors(value)), None)
        return message_for(error) if error is not None else None

    def validate_request(self, request: ConnexionRequest) -> None:
        errors: dict[str, FieldError] = {}
        if self.strict_validation:
            for name in sorted(self.validate_query_parameter_list(request, self.security_query_params)):
                errors[name] = FieldError(N_("Unknown parameter."))
        sources = {
            "query": lambda p: request.query_params.get(p["name"]),
            "path": lambda p: request.path_params.get(p["name"].replace("-", "_")),
            "header": lambda p: request.headers.get(p["name"]),
            "cookie": lambda p: request.cookies.get(p["name"]),
        }
        for location, getter in sources.items():
            for param in self.parameters.get(location, []):
                try:
                    value = getter(param)
                except (TypeError, ValueError):
                    errors[param["name"]] = FieldError(N_("Is not valid."))
                    continue
                problem = self._check(location, param, value)
                if problem is not None:
                    errors.setdefault(param["name"], problem)
        if errors:
            raise RequestInvalid(errors)


def validator_map() -> dict[str, t.Any]:
    return {
        "parameter": CollectingParameterValidator,
        "body": MediaTypeDict(
            {
                "*/*json": CollectingJSONBodyValidator,
                "application/x-www-form-urlencoded": CollectingFormValidator,
                "multipart/form-data": MultiPartFormDataValidator,
            }
        ),
        "response": VALIDATOR_MAP["response"],
    }
