"""Connexion's check of a document against the OpenAPI schema, once per document and process.

Replaces, for Connexion 3.3.0, ``connexion.spec.Specification._validate_spec``, which validates the
whole document (the OpenAPI schema, and every ``default`` against its own schema) each time an app
is built from it: about 0.3 s of CPU per document, three quarters of an app's build. A process
builds several apps from the same two documents (the test suite's in-process apps, a tool
comparing two stacks); a document whose content passed once in this process is not checked again.
The first build of a document in every process still checks it, and raises as Connexion does.
The memory is bounded (``REMEMBERED`` documents, the oldest forgotten first).
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from typing import Any

from connexion.spec import Specification

REMEMBERED = 8
_validate_spec = Specification._validate_spec.__func__  # the classmethod's function
_passed: OrderedDict[str, None] = OrderedDict()


def _digest(spec: dict[str, Any]) -> str:
    text = json.dumps(spec, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _validate_once(cls: type[Specification], spec: dict[str, Any]) -> None:
    digest = _digest(spec)
    if digest in _passed:
        _passed.move_to_end(digest)
        return
    _validate_spec(cls, spec)  # raises InvalidSpecification
    _passed[digest] = None
    if len(_passed) > REMEMBERED:
        _passed.popitem(last=False)


def install() -> None:
    """Check each document once per process from now on (idempotent)."""
    Specification._validate_spec = classmethod(_validate_once)
