"""The request body as validation parsed it, handed to the handler instead of being parsed twice.

Connexion 3.3.0 parses a request body twice: its body validator reads and parses the bytes to
validate them, replays the bytes downstream, and its parameter decorator has Starlette parse them
again for the handler (a form through python-multipart's parser, JSON through ``json.loads``). The
token endpoint's form was parsed twice on every token request. Here the validator ``keep``s what it
parsed and the handler's request gets it (``hand_over``), as Starlette's own cache of that request's
form or JSON, so the handler sees the very value Starlette would have produced:

- a form: the ``FormData`` of the same ``FormParser`` over the same bytes and headers Starlette's
  ``Request.form()`` uses for ``application/x-www-form-urlencoded``;
- JSON: only a body decoded as UTF-8 (Starlette's ``json.loads`` of the bytes decodes them the same
  way when they are valid UTF-8 without a BOM, which is all the validator accepts then), and never
  ``None`` (an absent body stays Connexion's to handle).

The value lives in a context variable of the request's own task, set by its validator and taken
(and cleared) by its handler's request, so no other request can see it.
"""

from __future__ import annotations

import typing as t
from contextvars import ContextVar
from dataclasses import dataclass

from starlette.datastructures import FormData
from starlette.requests import Request


@dataclass(frozen=True, slots=True)
class _Parsed:
    form: FormData | None
    json: t.Any


_kept: ContextVar[_Parsed | None] = ContextVar("tessera_parsed_body", default=None)

UTF8 = frozenset({"utf-8", "utf8"})


def keep_form(form: FormData) -> None:
    """The urlencoded form the body validator parsed, for this request's handler."""
    _kept.set(_Parsed(form, None))


def keep_json(value: t.Any, encoding: str) -> None:
    """The JSON document the body validator decoded with ``encoding``, for this request's handler."""
    if value is not None and encoding.lower() in UTF8:
        _kept.set(_Parsed(None, value))


def hand_over(request: Request) -> None:
    """Give ``request`` (the handler's) the body its validator parsed, if it kept one."""
    kept = _kept.get()
    if kept is None:
        return
    _kept.set(None)
    if kept.form is not None:
        request._form = kept.form  # Starlette's cache of the parsed form
    else:
        request._json = kept.json  # its cache of the JSON
