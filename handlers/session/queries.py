"""POST .../query of the hand-written lists: the list's own handler, its parameters from a JSON body.

``tessera.registry.query_forms`` writes a query form beside every list whose ``filters`` is a JSON query
parameter, naming the list in ``x-tessera-query-of``. Each form runs that list's handler (found by the
list's router controller and operationId, as Connexion finds it) with the body's parameters in place of
the query string's, so the form answers exactly what the list answers, under its permission and rate limit.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

from handlers.session.base import list_parameters_from
from tessera.lists.contract import list_body
from tessera.registry.query_forms import QUERY_OF

Handler = Callable[..., Any]


def _query(listing: Handler) -> Handler:
    # Connexion passes a handler with ``**kwargs`` every parameter; the list's takes its path's only.
    takes = set(inspect.signature(listing).parameters)

    async def handler(body: Any, **given: Any) -> Any:
        with list_parameters_from(list_body(body)):
            return await listing(**{name: value for name, value in given.items() if name in takes})

    return handler


def operations(doc: dict[str, Any]) -> dict[str, Handler]:
    """The handler of every query form of the session document ``doc``, by its operationId."""
    found: dict[str, Handler] = {}
    for item in doc["paths"].values():
        form = item.get("post") or {}
        if QUERY_OF not in form:
            continue
        listing = doc["paths"][form[QUERY_OF]]["get"]
        module = importlib.import_module(listing["x-openapi-router-controller"])
        found[form["operationId"]] = _query(getattr(module, listing["operationId"]))
    return found
