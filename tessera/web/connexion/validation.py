"""Connexion's request validation (``connexion.middleware.request_validation``, Connexion 3.3.0), patched twice.

``StrictRequestValidationOperation`` fixes what Connexion lets through about the body's media type
(a behaviour change, tested in ``tests/web``): a body without a Content-Type, a charset other than
UTF-8, and a media type spelled in capitals reached the handler as raw bytes or failed with a 500.

``CachedRequestValidationOperation`` is the fast path (no behaviour change, checked against the
strict one by the differential test): Connexion 3.3 builds, on every request, a URI parser, a
parameter validator (ours compiles one JSON Schema validator per parameter) and a body validator
(which compiles the body schema). None of them holds per-request state, so this operation builds
each once, on first use, and reuses it: the same checks in the same order.
"""

from __future__ import annotations

import codecs
import typing as t

from connexion import utils
from connexion.exceptions import UnsupportedMediaTypeProblem
from connexion.middleware.request_validation import (
    RequestValidationAPI,
    RequestValidationMiddleware,
    RequestValidationOperation,
)
from connexion.operations import AbstractOperation
from starlette.types import Receive, Scope, Send

_NO_BODY_VALIDATOR: t.Any = object()


class StrictRequestValidationOperation(RequestValidationOperation):
    """Connexion's operation, with the body's media type checked first and passed on canonical."""

    def extract_content_type(self, headers: list[tuple[bytes, bytes]]) -> tuple[str, str]:
        """Connexion's media type, lower-cased, and the charset, which must name UTF-8.

        Connexion passes the charset parameter through unchecked: an unknown name (or a
        bytes-to-bytes codec such as ``hex``) failed the decode with a 500, and each distinct
        spelling added a body validator to the per-operation cache. JSON is UTF-8 (RFC 8259
        section 8.1) and so are our forms, so any other charset is refused with 415.
        """
        mime_type, encoding = super().extract_content_type(headers)
        return mime_type.lower(), utf8_charset(encoding)

    def checked_content_type(self, scope: Scope) -> Scope:
        """The scope with its Content-Type checked and in canonical form; 415 when it can't be read.

        Connexion guesses the first documented media type when Content-Type is missing and validates
        the body as such, but then hands the handler the raw bytes; and its handler side decides how
        to decode the body from the raw header, case-sensitively ("Application/JSON" reached the
        handler as bytes). So a body needs a Content-Type, and the checked form replaces the header.
        """
        headers = scope["headers"]
        if not _carries_body(headers):
            return scope
        if not any(name == b"content-type" for name, _ in headers):
            if self._operation.request_body:
                raise UnsupportedMediaTypeProblem(detail="Content-Type is required with a request body")
            return scope
        mime_type, _ = self.extract_content_type(headers)
        return _with_content_type(scope, mime_type)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await super().__call__(self.checked_content_type(scope), receive, send)


class CachedRequestValidationOperation(StrictRequestValidationOperation):
    def __init__(self, *args: t.Any, **kwargs: t.Any) -> None:
        super().__init__(*args, **kwargs)
        self._parameter_validator: t.Any = None
        self._body_validators: dict[tuple[str, str], t.Any] = {}
        parameters, body = self._operation.parameters, self._operation.request_body
        self._bare = not parameters and not body
        self._path_and_headers = bool(parameters) and not body and all(
            p.get("in") in ("path", "header") for p in parameters)

    def _parameters(self) -> t.Any:
        if self._parameter_validator is None:
            uri_parser = self._operation._uri_parser_class(self._operation.parameters,
                                                           self._operation.body_definition())
            self._parameter_validator = self._validator_map["parameter"](
                self._operation.parameters,
                uri_parser=uri_parser,
                strict_validation=self.strict_validation,
                security_query_params=self.security_query_params,
            )
        return self._parameter_validator

    def _body(self, mime_type: str, encoding: str) -> t.Any:
        """The body validator for this media type, or None when the body isn't validated.

        Keyed by the media type alone: it is one of the operation's documented types (checked
        before) and the charset is always UTF-8, so the cache holds at most one entry per type.
        """
        key = (mime_type, encoding)
        validator = self._body_validators.get(key)
        if validator is None:
            validator = _NO_BODY_VALIDATOR
            schema = self._operation.body_schema(mime_type)
            if schema:
                try:
                    body_validator = self._validator_map["body"][mime_type]
                except KeyError:
                    pass  # as Connexion: no validator registered for this content type
                else:
                    validator = body_validator(
                        schema=schema,
                        required=self._operation.request_body.get("required", False),
                        nullable=utils.is_nullable(self._operation.body_definition(mime_type)),
                        encoding=encoding,
                        strict_validation=self.strict_validation,
                        uri_parser=self._operation.uri_parser_class(
                            self._operation.parameters, self._operation.body_definition()
                        ),
                    )
            self._body_validators[key] = validator
        return None if validator is _NO_BODY_VALIDATOR else validator

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Connexion's ``RequestValidationOperation.__call__`` with the validators built once.

        An operation declaring no parameter and no request body, asked without a query string and
        without a Content-Type, has nothing to check: no parameter to validate or to find unknown,
        and the media type Connexion would guess is its own first one, with no body schema. One
        declaring only path and header parameters (a read by pid, ``whoami``'s X-Request-Id) has
        only those to check."""
        if (self._bare or self._path_and_headers) and not scope.get("query_string") and not _names(
                scope, b"content-type"):
            if self._path_and_headers:
                self._parameters().validate_path_and_headers(scope)
            await self.next_app(scope, receive, send)
            return
        scope = self.checked_content_type(scope)
        self._parameters().validate(scope)
        mime_type, encoding = self.extract_content_type(scope["headers"])
        self.validate_mime_type(mime_type)
        validator = self._body(mime_type, encoding)
        if validator is not None:
            receive, scope = await validator.wrap_receive(receive, scope=scope)
        await self.next_app(scope, receive, send)


def utf8_charset(charset: str) -> str:
    """``utf-8`` when ``charset`` (a Content-Type parameter, maybe quoted) names UTF-8; else 415."""
    name = charset.strip().strip('"').strip()
    try:
        canonical = codecs.lookup(name).name
    except LookupError:
        canonical = ""
    if canonical != "utf-8":
        raise UnsupportedMediaTypeProblem(detail="Request bodies must be encoded in UTF-8")
    return canonical


def _with_content_type(scope: Scope, mime_type: str) -> Scope:
    """The scope with its Content-Type replaced by the validated media type (unchanged if equal)."""
    canonical = mime_type.encode("latin-1")
    headers = scope["headers"]
    if all(value == canonical for name, value in headers if name == b"content-type"):
        return scope
    rest = [(name, value) for name, value in headers if name != b"content-type"]
    return {**scope, "headers": [*rest, (b"content-type", canonical)]}


def _names(scope: Scope, name: bytes) -> bool:
    """Whether the request has a header called ``name`` (lower case, as ASGI gives them)."""
    return any(key == name for key, _ in scope["headers"])


def _carries_body(headers: list[tuple[bytes, bytes]]) -> bool:
    """True when the request announces a body (a non-zero Content-Length, or any Transfer-Encoding)."""
    for name, value in headers:
        if name == b"transfer-encoding" or (name == b"content-length" and value.strip() not in (b"", b"0")):
            return True
    return False


class StrictRequestValidationAPI(RequestValidationAPI):
    operation_cls: type[StrictRequestValidationOperation] = StrictRequestValidationOperation

    def make_operation(self, operation: AbstractOperation) -> RequestValidationOperation:
        return self.operation_cls(
            self.next_app,
            operation=operation,
            strict_validation=self.strict_validation,
            validator_map=self.validator_map,
        )


class CachedRequestValidationAPI(StrictRequestValidationAPI):
    operation_cls = CachedRequestValidationOperation


class StrictRequestValidationMiddleware(RequestValidationMiddleware):
    """Drop-in for Connexion's RequestValidationMiddleware (same position in the stack)."""

    api_cls = StrictRequestValidationAPI


class CachedRequestValidationMiddleware(RequestValidationMiddleware):
    """The strict middleware's fast path: validators built once per operation."""

    api_cls = CachedRequestValidationAPI
