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
from jsonschema import Draft4Validator
from starlette.datastructures import FormData, Headers
from starlette.formparsers import FormParser

from tessera.core.errors import FieldError, PreconditionFailed
from tessera.core.i18n import N_
from tessera.core.schema import collect, message_for
from tessera.core.schema_check import Check, check_for
from tessera.core.text import BAD_TEXT, bad_text_paths, storable_text
from tessera.web.connexion import bodies, paths


class RequestInvalid(BadRequestProblem):
    """The request breaks its documented schema; ``field_errors`` names every bad part."""

    def __init__(self, field_errors: dict[str, FieldError]) -> None:
        super().__init__(detail="; ".join(f"{k}: {v.message}" for k, v in field_errors.items()))
        self.field_errors = field_errors


# Marks a parameter or a request body schema whose rules the service that reads it checks itself:
# the generated list and command operations of the session document (``filters``, ``sortField``,
# command bodies). Their checks name the bad field by its code (``name``, ``filters[1].value``) and
# report every bad one together, which a ``oneOf`` or nested schema error cannot; the document's
# schema states the same rules, and tests/registry/test_session_document.py holds the two together.
SERVICE_CHECKS = "x-tessera-service-checks"

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


class _CompiledSchema:
    """Compile the body schema once per validator instead of on every ``_validator`` access."""

    _schema: dict[str, t.Any]

    @cached_property
    def _compiled(self) -> Draft4Validator:
        return Draft4RequestValidator(self._schema, format_checker=Draft4Validator.FORMAT_CHECKER)

    @property
    def _validator(self) -> Draft4Validator:
        return self._compiled

    @cached_property
    def _valid(self) -> Check:
        """Whether a body is valid, compiled (``schema_check``): jsonschema runs only when it is not."""
        return check_for(self._compiled)


class CollectingJSONBodyValidator(_CompiledSchema, JSONRequestBodyValidator):

    async def _parse(
        self,
        stream: t.AsyncGenerator[bytes, None],
        scope: t.Any,  # noqa: ARG002 - Connexion's _parse(stream, scope); only the body matters
    ) -> t.Any:
        """Decode the JSON body, refusing bad JSON and nesting deeper than ``MAX_JSON_DEPTH`` as field errors."""
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
        if value is None and not self._nullable:
            # JSON `null` is a value, not an absent body: an optional body that is sent must still
            # fit its schema (Connexion would take the None for "no body" and skip validation).
            errors = collect(self._compiled.iter_errors(None))
            if errors:
                raise RequestInvalid(errors)
        bodies.keep_json(value, self._encoding)
        return value

    def _validate(self, body: t.Any) -> dict[str, t.Any] | None:
        if body is None:
            if self._nullable or not self._required:  # an optional body (``required: false``) may be absent
                return None
            raise RequestInvalid({"body": FieldError(N_("A JSON body is required."))})
        if self._schema.get(SERVICE_CHECKS) and isinstance(body, dict):
            return None
        schema_errors = {} if self._valid(body) else collect(self._compiled.iter_errors(body))
        errors = {**schema_errors, **bad_text_paths(body)}
        if errors:
            raise RequestInvalid(errors)
        return None


class _KeepingFormParser(FormParser):
    """Starlette's urlencoded form parser, keeping what it parsed for the handler (``bodies``)."""

    async def parse(self) -> FormData:
        form = await super().parse()
        bodies.keep_form(form)
        return form


class CollectingFormValidator(_CompiledSchema, FormDataValidator):

    @property
    def _form_parser_cls(self) -> type[FormParser]:
        return _KeepingFormParser

    def _validate(self, body: t.Any) -> dict[str, t.Any] | None:
        if body is None:
            raise RequestInvalid({"body": FieldError(N_("A form body is required."))})
        errors = {} if self._valid(body) else collect(self._compiled.iter_errors(body))
        if errors:
            raise RequestInvalid(errors)
        return None


class CollectingParameterValidator(ParameterValidator):
    """Validates every query, path and header parameter and reports all failures together."""

    def __init__(self, parameters: t.Any, uri_parser: t.Any, strict_validation: bool = False,
                 security_query_params: t.Any = None) -> None:
        super().__init__(parameters, uri_parser, strict_validation, security_query_params)
        self._compiled: dict[tuple[str, str], Draft4Validator] = {}
        self._valid: dict[tuple[str, str], Check] = {}  # yes/no checks, compiled where they compile
        self._plain_paths = paths.all_plain_strings(self.parameters.get("path", []))  # resolved as routed
        for location, params in self.parameters.items():
            for param in params:
                if param.get(SERVICE_CHECKS) or "content" in param:
                    continue
                schema = param.get("schema", param)
                validator = Draft4Validator(schema, format_checker=Draft4Validator.FORMAT_CHECKER)
                self._compiled[(location, param["name"])] = validator
                self._valid[(location, param["name"])] = check_for(validator)

    def _check(self, location: str, param: dict[str, t.Any], value: t.Any) -> FieldError | None:
        if is_nullable(param) and is_null(value):
            return None
        if value is None:
            return _required_missing(param) if param.get("required") else None
        if isinstance(value, str) and not storable_text(value):
            return FieldError(BAD_TEXT)
        if param.get(SERVICE_CHECKS):
            return None
        if self._valid[(location, param["name"])](value):
            return None
        error = next(iter(self._compiled[(location, param["name"])].iter_errors(value)), None)
        return message_for(error) if error is not None else None

    def validate_request(self, request: ConnexionRequest) -> None:
        errors: dict[str, FieldError] = {}
        if self.strict_validation and request.scope.get("query_string"):  # no query string: nothing unknown
            for name in sorted(self.validate_query_parameter_list(request, self.security_query_params)):
                errors[name] = FieldError(N_("Unknown parameter."))
        sources: dict[str, t.Callable[[dict[str, t.Any]], t.Any]] = {
            "query": lambda p: request.query_params.get(p["name"]),
            "path": lambda p: request.path_params.get(p["name"].replace("-", "_")),
            "header": lambda p: request.headers.get(p["name"]),
            "cookie": lambda p: request.cookies.get(p["name"]),
        }
        self._check_sources(errors, sources)

    def validate_path_and_headers(self, scope: t.Any) -> None:
        """``validate_request`` for a request without a query string to an operation whose
        parameters are all path and header parameters: the same checks, in the same order, on the
        same values (the URI parser's path values, Starlette's headers), without building the
        request's other views (nothing else would be checked)."""
        resolved: list[dict[str, t.Any]] = []  # the path values, resolved on first use as the request does
        if self._plain_paths:
            resolved.append(scope.get("path_params", {}))

        def path_value(param: dict[str, t.Any]) -> t.Any:
            if not resolved:
                resolved.append(self.uri_parser.resolve_path(scope.get("path_params", {})))
            return resolved[0].get(param["name"].replace("-", "_"))

        headers = Headers(scope=scope)
        self._check_sources({}, {"path": path_value, "header": lambda p: headers.get(p["name"])})

    def _check_sources(self, errors: dict[str, FieldError],
                       sources: dict[str, t.Callable[[dict[str, t.Any]], t.Any]]) -> None:
        """Each declared parameter of each location, its value read by that location's getter;
        every failure reported together (``errors`` may already hold unknown parameters)."""
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


def _required_missing(param: dict[str, t.Any]) -> FieldError:
    """A required parameter the request does not send: a field error, or 412 where the parameter says so."""
    if param.get("x-missing-status") == 412:
        # The Open Platform's If-Match: its absence is 412 (rules.yaml: op.command.if-match-required).
        raise PreconditionFailed()
    return FieldError(N_("This field is required."))


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
