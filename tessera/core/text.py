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

# The same rules as patterns, for the documents (JSON Schema `pattern`: ECMA 262 regular expressions,
# which Python's `re` and the Rust engines read alike here), so that what the documents say cannot
# drift from what the checks below do (tests/core/test_text.py compares them character by character).
# A lone surrogate cannot be written in a pattern every engine accepts (Rust's refuse `\ud800`, and
# a UTF-8 tool never holds one), so the documents state that rule in words; the patterns state NUL.
# What ``str.strip()`` removes (``str.isspace``); every such character is in the BMP.
WHITESPACE = "".join(chr(code) for code in range(0x10000) if chr(code).isspace())


def _char_class(chars: str) -> str:
    """The characters as the inside of a character class, runs written as ranges."""
    codes = sorted(map(ord, chars))
    parts: list[str] = []
    start = 0
    for index, code in enumerate(codes):
        if index + 1 == len(codes) or codes[index + 1] != code + 1:
            first = codes[start]
            parts.append(f"\\u{first:04x}" + (f"-\\u{code:04x}" if code != first else ""))
            start = index + 1
    return "".join(parts)


_BLANKS = _char_class(WHITESPACE)
# Text without NUL (``storable_text``, less the lone surrogates no pattern can name).
STORABLE_TEXT_PATTERN = "^[^\\u0000]*$"
# ... with at least one character that is not whitespace (``nonblank_text``): leading blanks, the
# first other character, then anything but NUL.
NONBLANK_TEXT_PATTERN = f"^[{_BLANKS}]*[^\\u0000{_BLANKS}][^\\u0000]*$"


def storable_text(value: str) -> bool:
    """False for text no backend can store: NUL (refused by PostgreSQL) or a lone surrogate (not UTF-8)."""
    if "\x00" in value:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def storable(value: str) -> str:
    """``value`` with each character no backend can store (NUL, a lone surrogate) written as its
    percent-escape (``%00``, ``%ED%A0%80``), the rest unchanged: for records that must keep what
    a client sent (the call audit's path) without their write failing on it."""
    if storable_text(value):
        return value
    return "".join(char if char != "\x00" and storable_text(char) else
                   "".join(f"%{byte:02X}" for byte in char.encode("utf-8", "surrogatepass")) for char in value)


def nonblank_text(value: str) -> bool:
    """Storable text with more than whitespace: what a required text field of a model accepts."""
    return storable_text(value) and bool(value.strip())


def bad_text_paths(value: Any, path: str = "") -> dict[str, FieldError]:
    """Every place in a JSON value (keys included) holding text the database would refuse.

    Recursive: callers pass documents whose depth the web layer has already bounded.
    """
    if isinstance(value, str):
        return {} if storable_text(value) else {path or "body": FieldError(BAD_TEXT)}
    if isinstance(value, dict):
        return _bad_text_in_object(value, path)
    if isinstance(value, list):
        return _bad_text_in_array(value, path)
    return {}


def _bad_text_in_object(value: dict[Any, Any], path: str) -> dict[str, FieldError]:
    """A JSON object's keys and values. A bad key is reported at the object (a key has no path of its own) and
    its value is not looked into (the request is refused either way)."""
    found: dict[str, FieldError] = {}
    for key, item in value.items():
        child = f"{path}.{key}" if path else str(key)
        if isinstance(key, str) and not storable_text(key):
            found[path or "body"] = FieldError(BAD_TEXT)
            continue
        found.update(bad_text_paths(item, child))
    return found


def _bad_text_in_array(value: list[Any], path: str) -> dict[str, FieldError]:
    """A JSON array's items, each at ``path[index]``."""
    found: dict[str, FieldError] = {}
    for index, item in enumerate(value):
        found.update(bad_text_paths(item, f"{path}[{index}]" if path else f"[{index}]"))
    return found

