"""The one rule for text no database can store, shared by every check that accepts text.

PostgreSQL refuses NUL in text columns and no backend stores a lone surrogate (it is not UTF-8),
yet both are valid JSON. Every place that accepts text from a client (bodies, query parameters,
headers, list filters, payload fields) applies this rule, with this message, so the answer is the
same whichever door the text came through.
"""

from __future__ import annotations

from typing import Any

from tessera.core.errors import FieldError
from tessera.core.i18n import N_

BAD_TEXT = N_("Must not contain NUL characters or invalid Unicode.")


def storable_text(value: str) -> bool:
    """False for text no backend can store: NUL (refused by PostgreSQL) or a lone surrogate (not UTF-8)."""
    if "\x00" in value:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def bad_text_paths(value: Any, path: str = "") -> dict[str, FieldError]:
    """Every place in a JSON value (keys included) holding text the database would refuse.

    Recursive: callers pass documents whose depth the web layer has already bounded.
    """
    found: dict[str, FieldError] = {}
    if isinstance(value, str):
        if not storable_text(value):
            found[path or "body"] = FieldError(BAD_TEXT)
    elif isinstance(value, dict):
        for key, item in value.items():
            child = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and not storable_text(key):
                found[path or "body"] = FieldError(BAD_TEXT)
                continue
            found.update(bad_text_paths(item, child))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found.update(bad_text_paths(item, f"{path}[{index}]" if path else f"[{index}]"))
    return found


# The same rules as JSON Schema patterns, for the documents: what a generator or a fuzzer reads is
# what ``storable_text`` and a required field's blank check enforce. Both are linear to match (no
# nested repetition), since the validator runs them on client input of up to a request's size.
# Python's ``\s`` (str patterns) is ``str.isspace``, the same test as ``str.strip`` uses.
STORABLE_PATTERN = r"^[^\u0000\uD800-\uDFFF]*$"
NON_BLANK_PATTERN = r"^\s*[^\s\u0000\uD800-\uDFFF][^\u0000\uD800-\uDFFF]*$"
