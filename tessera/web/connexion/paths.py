"""Path parameters that Connexion hands on as routed.

Connexion resolves every path parameter per request twice (its URI parser for the validator, then
again with ``_get_path_arguments`` for the handler), casting each by its schema. For a plain string
(``type: string``, not nullable, not ``format: binary``) both give back the routed text: ``str`` of
a ``str``, and no ``null`` to turn into None. Every path parameter of both documents is one, so
the validator and the handler read ``scope["path_params"]`` as it is (``tests/web/test_fast_path.py``
compares the answers with Connexion's own stack).
"""

from __future__ import annotations

import typing as t

from connexion.utils import is_nullable


def all_plain_strings(parameters: t.Iterable[dict[str, t.Any]]) -> bool:
    """Whether every path parameter among ``parameters`` is a plain string (see the module docstring)."""
    for parameter in parameters:
        if parameter.get("in") != "path":
            continue
        schema = parameter.get("schema", parameter)
        if (schema.get("type") != "string" or schema.get("format") == "binary"
                or is_nullable(parameter) or is_nullable(schema)):
            return False
    return True
