"""Connexion's handler operations, with the decorator stack built once per operation.

Replaces, for Connexion 3.3.0, ``connexion.apps.asynchronous.AsyncOperation.fn`` (a property
rebuilt per request), ``connexion.decorators.main.StarletteDecorator.__call__`` and, for
operations without a request body, ``connexion.decorators.parameter.AsyncParameterDecorator.__call__``.
Connexion 3.3 rebuilds, on every request, the Starlette decorator stack around a handler
(``AsyncOperation.fn`` is a property, and the decorator's wrapper calls ``decorate`` and builds a
URI parser each time, ``inspect.signature`` of the handler included). Nothing in that stack is
per request: the request and the operation reach it through context variables at call time. So
the stack and the URI parser are built on the first request of an operation and kept. The request
body its validator parsed is handed to the handler's request (``bodies``), not parsed again.

For an operation the document gives no request body (every GET and DELETE here), Connexion's
parameter decorator still looks for one on every request: it parses the content type to name the
body argument and asks Starlette to parse a form for file uploads (about 3% of an Open Platform
``whoami``'s CPU, py-spy under wrk). With no request body declared there is no body or file argument
to pass, so those operations skip both. An operation that declares no path parameter, whose
handler takes no argument, gets no keyword argument at all (Connexion passes path parameters to
every handler, query parameters and context entries only to handlers that name them, headers
never), so its handler is called as it is; one declaring no query parameter either gets its path
parameters and named context entries only, and when those are all plain strings (every path
parameter of both documents), the routed text as it is: Connexion's URI parser and its type
casts give back the same string. An operation taking one JSON media type and declaring
no path or query parameter (command execute, inbound events, login) binds the body of a request of
that media type itself, with the body schema's null and default rules read once; one taking an
urlencoded form alone (the token endpoints) types the form with Connexion's own function and the
schema read once. Any other media type goes through Connexion's decorator. The response
decorator reads the operation's media type once (``OnceResponseDecorator``).
``tests/web/test_fast_path.py`` compares every answer with Connexion's own stack.
"""

from __future__ import annotations

import copy
import functools
import inspect
import typing as t

from connexion.apps.asynchronous import AsyncApi, AsyncOperation
from connexion.context import context, operation, receive, scope
from connexion.decorators import StarletteDecorator
from connexion.decorators.parameter import (
    CONTEXT_NAME,
    AsyncParameterDecorator,
    _get_path_arguments,
    _get_typed_body_values,
    prep_kwargs,
    unwrap_decorators,
)
from connexion.decorators.response import AsyncResponseDecorator
from connexion.lifecycle import ConnexionResponse
from connexion.operations import AbstractOperation
from connexion.utils import inspect_function_arguments, is_json_mimetype, is_null, is_nullable
from starlette.responses import Response as StarletteResponse

from tessera.web.connexion import bodies, paths

URLENCODED = "application/x-www-form-urlencoded"


class BodilessAwareParameterDecorator(AsyncParameterDecorator):
    """Connexion's parameter decorator; for an operation without a request body, no body or form
    lookup; for one taking a JSON body or an urlencoded form alone, the body bound without
    Connexion's per-request schema lookups."""

    def __call__(self, function: t.Callable[..., t.Any]) -> t.Callable[..., t.Any]:
        arguments, has_kwargs = inspect_function_arguments(unwrap_decorators(function))
        if operation.request_body:  # the operation's context: decorating happens on its first request
            return self._with_body(function, arguments, has_kwargs)
        if not arguments and not has_kwargs and not _declares_path_parameters(operation.parameters):

            @functools.wraps(function)
            async def bare(_request: t.Any) -> t.Any:
                return await function()

            return bare

        if not has_kwargs and not any(parameter.get("in") == "query" for parameter in operation.parameters):
            return self._path_only(function, arguments)

        @functools.wraps(function)
        async def wrapper(request: t.Any) -> t.Any:
            kwargs = prep_kwargs(request, request_body=None, files={}, arguments=arguments, has_kwargs=has_kwargs,
                                 sanitize=self.sanitize_fn)
            return await function(**kwargs)

        return wrapper

    def _with_body(self, function: t.Callable[..., t.Any], arguments: list[str],
                   has_kwargs: bool) -> t.Callable[..., t.Any]:
        """Connexion's decorator, unless the operation takes one media type, JSON or an
        urlencoded form, and declares no path or query parameter, and the handler has no
        ``**kwargs``: then a request of that media type gets ``_json_body``'s or ``_form_body``'s
        binding, any other Connexion's."""
        stock = super().__call__(function)
        media = list(operation.request_body.get("content", {}))
        if (has_kwargs or len(media) != 1 or operation.method.upper() == "TRACE"
                or any(parameter.get("in") in ("path", "query") for parameter in operation.parameters)):
            return stock
        if is_json_mimetype(media[0]):
            return self._json_body(function, stock, arguments, media[0])
        if media[0] == URLENCODED:
            return self._form_body(function, stock, arguments)
        return stock

    def _json_body(self, function: t.Callable[..., t.Any], stock: t.Callable[..., t.Any], arguments: list[str],
                   media: str) -> t.Callable[..., t.Any]:
        """The handler's body for a request of the operation's one JSON media type: the document
        its validator decoded (``bodies``), with Connexion's null and default rules and the schema
        looked up once."""
        schema = operation.body_schema(media)
        nullable, default = is_nullable(schema), schema.get("default", {})

        async def body_of(request: t.Any) -> t.Any:
            body = await request.json()
            return None if nullable and is_null(body) else copy.deepcopy(default) if body is None else body

        return self._binding(function, stock, arguments, media, body_of)

    def _form_body(self, function: t.Callable[..., t.Any], stock: t.Callable[..., t.Any],
                   arguments: list[str]) -> t.Callable[..., t.Any]:
        """The handler's body for an urlencoded request of an operation taking that media type
        alone (the token endpoints): Connexion's form (its URI parser's resolution of the form the
        validator parsed) typed by Connexion's own ``_get_typed_body_values``, with the schema's
        default, properties and ``additionalProperties`` read once instead of three schema lookups
        per request. An urlencoded form holds no file."""
        schema = operation.body_schema(URLENCODED)
        default = schema.get("default", {})
        properties = {name: {"schema": value} for name, value in schema.get("properties", {}).items()}
        additional = operation.body_schema().get("additionalProperties", True)

        async def body_of(request: t.Any) -> t.Any:
            form = copy.deepcopy(default)
            form.update(await request.form() or {})
            return _get_typed_body_values(form, properties, additional) if properties or additional else {}

        return self._binding(function, stock, arguments, URLENCODED, body_of)

    def _binding(self, function: t.Callable[..., t.Any], stock: t.Callable[..., t.Any], arguments: list[str],
                 media: str, body_of: t.Callable[[t.Any], t.Awaitable[t.Any]]) -> t.Callable[..., t.Any]:
        """``prep_kwargs`` for a request of ``media``: the body (``body_of``) under the body's name
        if the handler takes it, then the named context entries; any other media type goes to
        Connexion's wrapper (``stock``). Nothing else can be passed: no path or query parameter is
        declared (strict validation refused any other), and Connexion never passes headers."""
        sanitize = self.sanitize_fn
        body_name = sanitize(operation.body_name(media))
        wants_body, wants_context = body_name in arguments, CONTEXT_NAME in arguments

        @functools.wraps(function)
        async def wrapper(request: t.Any) -> t.Any:
            if request.mimetype != media:
                return await stock(request)
            kwargs = {sanitize(key): value for key, value in request.path_params.items()}
            if wants_body:
                kwargs[body_name] = await body_of(request)
            return await function(**_with_context(kwargs, arguments, wants_context))

        return wrapper

    def _path_only(self, function: t.Callable[..., t.Any], arguments: list[str]) -> t.Callable[..., t.Any]:
        """``prep_kwargs`` for a handler without ``**kwargs`` of an operation declaring no body and
        no query parameter: its path parameters (all of them, converted, as Connexion passes them)
        and the context entries it names. Connexion's query and body steps give nothing here: strict
        validation refused every undeclared query parameter before, and there is no body. Skipped
        with them: a copy of the query defaults, the Content-Type parsed for a body name, the body
        schema looked up."""
        sanitize = self.sanitize_fn
        wants_context = CONTEXT_NAME in arguments
        if paths.all_plain_strings(operation.parameters):
            names = {p["name"]: sanitize(p["name"]) for p in operation.parameters if p.get("in") == "path"}

            @functools.wraps(function)
            async def plain(request: t.Any) -> t.Any:
                kwargs = {names.get(key) or sanitize(key): value
                          for key, value in request.scope.get("path_params", {}).items()}
                return await function(**_with_context(kwargs, arguments, wants_context))

            return plain

        @functools.wraps(function)
        async def wrapper(request: t.Any) -> t.Any:
            path = _get_path_arguments(request.path_params, operation=operation, sanitize=sanitize)
            kwargs = {sanitize(key): value for key, value in path.items()}
            return await function(**_with_context(kwargs, arguments, wants_context))

        return wrapper


def _with_context(kwargs: dict[str, t.Any], arguments: list[str], wants_context: bool) -> dict[str, t.Any]:
    """``prep_kwargs``'s last step: the context entries the handler names, and the context itself
    under ``context_`` if it names that."""
    for key, value in context.items():
        if key in arguments:
            kwargs[key] = value
    if wants_context:
        kwargs[CONTEXT_NAME] = context
    return kwargs


def _declares_path_parameters(parameters: list[dict[str, t.Any]]) -> bool:
    """Connexion passes a handler its path parameters whatever its signature (header and cookie
    parameters never; query parameters only those it names)."""
    return any(parameter.get("in") == "path" for parameter in parameters)


class OnceResponseDecorator(AsyncResponseDecorator):
    """Connexion's response decorator with the operation's produced media types read once.

    Connexion's reads ``operation.produces`` through a context proxy, makes a set of it and scans
    the returned headers (building ``typing`` generics as it goes) on every response. For what our
    handlers return (a dict or list, with a status and headers that name no Content-Type, for an
    operation producing one media type) the answer is the same every time: that media type, the
    body serialized by the same jsonifier. Anything else goes through Connexion's own code.
    """

    def __call__(self, function: t.Callable[..., t.Any]) -> t.Callable[..., t.Any]:
        produces = list(set(operation.produces))  # the operation's context: decorating is on its first request
        media_type = produces[0] if len(produces) == 1 and is_json_mimetype(produces[0]) else None
        if media_type is None:
            return super().__call__(function)
        dumps = self.jsonifier.dumps

        @functools.wraps(function)
        async def wrapper(*args: t.Any, **kwargs: t.Any) -> t.Any:
            returned = await function(*args, **kwargs)
            reply = _json_reply(returned)
            if reply is None:
                return await self._as_connexion_does(returned)
            data, status, headers = reply
            # A copy: Connexion adds the header to the handler's own dict, and a handler's constant
            # (the token endpoints' no-store headers) then names a Content-Type on every later call.
            return StarletteResponse(content=dumps(data), status_code=status or 200, media_type=media_type,
                                     headers={**headers, "Content-Type": media_type})

        return wrapper

    async def _as_connexion_does(self, returned: t.Any) -> t.Any:
        if self.framework.is_framework_response(returned):
            return returned
        if isinstance(returned, ConnexionResponse):
            return self.framework.connexion_to_framework_response(returned)
        return self.build_framework_response(returned)


def _json_reply(returned: t.Any) -> tuple[t.Any, int, dict[str, str]] | None:
    """A handler's dict or list, alone or with an int status (and headers naming no Content-Type),
    as (data, status, headers); None for any other shape."""
    if type(returned) in _JSON:
        return returned, 200, {}
    if type(returned) is not tuple or len(returned) not in (2, 3) or type(returned[1]) is not int:
        return None
    data, status, headers = returned if len(returned) == 3 else (*returned, {})
    if type(data) not in _JSON or type(headers) is not dict or any(key.lower() == "content-type" for key in headers):
        return None
    return data, status, headers


_JSON = (dict, list)  # exact types: a subclass may serialize differently, so it takes Connexion's path


class OncePerOperationDecorator(StarletteDecorator):
    @property
    def _parameter_decorator_cls(self) -> type[AsyncParameterDecorator]:
        return BodilessAwareParameterDecorator

    @property
    def _response_decorator_cls(self) -> type[AsyncResponseDecorator]:
        return OnceResponseDecorator

    @property
    def _sync_async_decorator(self) -> t.Callable[[t.Callable[..., t.Any]], t.Callable[..., t.Any]]:
        """A coroutine function as it is (Connexion's wrapper asks, per call, whether it is one)."""
        wrap = super()._sync_async_decorator
        return lambda function: function if inspect.iscoroutinefunction(function) else wrap(function)

    def __call__(self, function: t.Callable[..., t.Any]) -> t.Callable[..., t.Any]:
        built: list[t.Any] = []  # [decorated function, URI parser], filled on the first request

        @functools.wraps(function)
        async def wrapper(*_args: t.Any, **_kwargs: t.Any) -> t.Any:
            if not built:  # the operation's context is set from here on, so its parser can be built
                built.extend((self.decorate(function), self.uri_parser))
            decorated, uri_parser = built
            request = self.framework.get_request(uri_parser=uri_parser, scope=scope, receive=receive)
            bodies.hand_over(request._starlette_request)  # what its validator parsed
            return await decorated(request)

        return wrapper


class CachedAsyncOperation(AsyncOperation):
    @functools.cached_property
    def fn(self) -> t.Callable[..., t.Any]:
        decorator = OncePerOperationDecorator(pythonic_params=self.pythonic_params, jsonifier=self.jsonifier)
        return decorator(self._fn)


class CachedAsyncApi(AsyncApi):
    def make_operation(self, operation: AbstractOperation) -> AsyncOperation:
        return CachedAsyncOperation.from_operation(
            operation, pythonic_params=self.pythonic_params, jsonifier=self.jsonifier
        )
