"""Translations through real gettext catalogs (``tessera/locale/<lang>/LC_MESSAGES/messages.po``).

The ``.po`` files are the source of truth; they are compiled to GNU ``.mo`` bytes in memory at
first use with Babel, so a stale committed ``.mo`` can never disagree with its ``.po``. The active
locale lives in a context variable set per request from ``Accept-Language``.
"""

from __future__ import annotations

import gettext
import io
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
SUPPORTED = ("en", "zh-CN")
DEFAULT_LOCALE = "en"

_current: ContextVar[str] = ContextVar("tessera_locale", default=DEFAULT_LOCALE)


def N_(message: str) -> str:
    """Mark a string for extraction without translating it now."""
    return message


@cache
def _translations(locale: str) -> gettext.NullTranslations:
    po_path = LOCALE_DIR / locale.replace("-", "_") / "LC_MESSAGES" / "messages.po"
    if not po_path.is_file():
        return gettext.NullTranslations()
    with po_path.open("rb") as fh:
        catalog = read_po(fh, locale=locale.replace("-", "_"))
    buf = io.BytesIO()
    write_mo(buf, catalog)
    buf.seek(0)
    return gettext.GNUTranslations(buf)


# Tags that ask for Simplified Chinese, the only Chinese the catalogs carry.
_ZH_CN_TAGS = frozenset({"zh", "zh-cn", "zh-hans", "zh-hans-cn", "zh-sg"})
# Only the first ranges of a header are read, so a huge header costs no more than a normal one.
_MAX_RANGES = 20


def _quality(params: list[str]) -> float:
    """The ``q`` of one language range's parameters: 1 when absent, 0 (so dropped) when unreadable."""
    quality = 1.0
    for param in params:
        name, _, value = param.strip().partition("=")
        if name.strip() == "q":
            try:
                quality = float(value)
            except ValueError:
                quality = 0.0
    return quality


def _ranked_tags(accept_language: str) -> list[str]:
    """The header's lower-cased language tags, best ``q`` first, ties in header order; ``q=0`` ones left out."""
    candidates: list[tuple[float, int, str]] = []
    for index, part in enumerate(accept_language.split(",")[:_MAX_RANGES]):
        pieces = part.strip().split(";")
        tag = pieces[0].strip().lower()
        quality = _quality(pieces[1:])
        if tag and quality > 0:
            candidates.append((-quality, index, tag))
    return [tag for _, _, tag in sorted(candidates)]


def _supported_locale(tag: str) -> str | None:
    """The supported locale a language tag asks for (``*`` takes the default), or None."""
    if tag in _ZH_CN_TAGS:
        return "zh-CN"
    if tag == "en" or tag.startswith("en-"):
        return "en"
    if tag == "*":
        return DEFAULT_LOCALE
    return None


def negotiate(accept_language: str | None) -> str:
    """Pick a supported locale from an ``Accept-Language`` value (RFC 9110 q-values honoured)."""
    if not accept_language:
        return DEFAULT_LOCALE
    for tag in _ranked_tags(accept_language):
        locale = _supported_locale(tag)
        if locale is not None:
            return locale
    return DEFAULT_LOCALE


def set_locale(locale: str) -> Any:
    return _current.set(locale)


def translate(message: str, locale: str | None = None, **params: Any) -> str:
    """Translate a message id into the request's (or the given) locale and fill ``{name}`` params."""
    text = _translations(locale or _current.get()).gettext(message)
    if params:
        try:
            return text.format(**params)
        except (KeyError, IndexError, ValueError):
            return text
    return text


def reset_locale(token: Any) -> None:
    _current.reset(token)
