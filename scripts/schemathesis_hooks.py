"""Schemathesis hooks for Tessera's conformance runs (loaded by ``hooks`` in ``schemathesis.toml``).

It also serializes `ast.parse` (see below).

The published Open Platform document puts the request body an OpenAPI link fills under
``x-tessera-request-body`` instead of the Link Object's ``requestBody``: openapi-generator's parser
refuses a ``requestBody`` that is not a string, and the body to carry over is an object
(``{"targetPid": "$response.body#/pid"}``). Before Schemathesis builds its state machine, this hook
moves it back where Schemathesis reads it, so stateful testing still runs a command on the record
that was just read, under that record's ETag.
"""

from __future__ import annotations

import ast
import threading
from typing import Any

import schemathesis

# CPython 3.11 keeps the AST constructor's recursion depth in state shared by every thread
# (python/cpython#106905): two threads parsing at once (Hypothesis parses lambdas' source while it
# builds strategies, and `--workers 2` runs two threads) can fail with "SystemError: AST
# constructor recursion depth mismatch". One parse at a time in this process avoids it.
_parse = ast.parse
_parsing = threading.Lock()


def _one_parse_at_a_time(*args: Any, **kwargs: Any) -> Any:
    with _parsing:
        return _parse(*args, **kwargs)


ast.parse = _one_parse_at_a_time

LINK_BODY = "x-tessera-request-body"  # tessera.registry.document.LINK_BODY


@schemathesis.hook
def before_load_schema(context: Any, raw_schema: dict[str, Any]) -> None:  # noqa: ARG001  # hook signature
    for path_item in (raw_schema.get("paths") or {}).values():
        for operation in path_item.values():
            if not isinstance(operation, dict):
                continue
            for response in (operation.get("responses") or {}).values():
                for link in (response.get("links") or {}).values() if isinstance(response, dict) else ():
                    if LINK_BODY in link and "requestBody" not in link:
                        link["requestBody"] = link[LINK_BODY]
