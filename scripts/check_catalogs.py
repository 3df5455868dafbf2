"""Check that the Simplified Chinese catalog translates every message the code marks with ``N_``.

The messages are re-extracted from the sources with Babel's Python API, using the method map of
``babel.cfg`` (so this check and ``pybabel extract -F babel.cfg -k N_`` see the same files), into
a temporary ``.pot``. The check fails, listing the offending messages, when an extracted message
is missing from ``tessera/locale/zh_CN/LC_MESSAGES/messages.po``, has an empty or fuzzy
translation, or when a translation's set of ``{placeholders}`` differs from its message id's.

Usage::

    python scripts/check_catalogs.py

Exit status 0 when the catalog is complete, 1 otherwise. Needs only the standard library and Babel.
"""

from __future__ import annotations

import re
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
MAPPING_FILE = ROOT / "babel.cfg"
ZH_CN_PO = ROOT / "tessera" / "locale" / "zh_CN" / "LC_MESSAGES" / "messages.po"
KEYWORDS = {"N_": None}
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders of a message, as a set of their full ``{...}`` spellings."""
    return set(PLACEHOLDER.findall(text))


def extract_template(root: Path = ROOT, mapping_file: Path = MAPPING_FILE) -> Catalog:
    """Extract the ``N_`` messages below ``root`` into a temporary ``.pot`` and read it back."""
    with mapping_file.open(encoding="utf-8") as fh:
        method_map, options_map = parse_mapping_cfg(fh, filename=str(mapping_file))
    template = Catalog(project="Tessera", fuzzy=False)
    for filename, lineno, message, comments, context in extract_from_dir(
        root, method_map, options_map, keywords=KEYWORDS
    ):
        template.add(message, None, [(filename, lineno)], auto_comments=comments, context=context)
    with tempfile.TemporaryDirectory(prefix="tessera-catalogs-") as tmp:
        pot_path = Path(tmp) / "messages.pot"
        with pot_path.open("wb") as out:
            write_po(out, template)
        with pot_path.open("rb") as src:
            return read_po(src)


def _msgid(message_id: str | tuple[str, ...]) -> str:
    return message_id if isinstance(message_id, str) else message_id[0]


def find_problems(template: Catalog, translations: Catalog) -> list[str]:
    """Every extracted message that the translated catalog lacks or translates badly."""
    problems: list[str] = []
    for message in template:
        if not message.id:
            continue
        msgid = _msgid(message.id)
        where = ", ".join(f"{path}:{line}" for path, line in message.locations[:3])
        translated = translations.get(message.id, context=message.context)
        if translated is None:
            problems.append(f"missing: {msgid!r} ({where})")
            continue
        strings = translated.string if isinstance(translated.string, tuple) else (translated.string,)
        if translated.fuzzy:
            problems.append(f"fuzzy: {msgid!r} ({where})")
        if not all(strings):
            if not translated.fuzzy:
                problems.append(f"untranslated: {msgid!r} ({where})")
            continue
        expected = placeholders(msgid)
        for text in strings:
            found = placeholders(text)
            if found != expected:
                problems.append(
                    f"placeholders differ: {msgid!r} has {sorted(expected)}, "
                    f"translation {text!r} has {sorted(found)}"
                )
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    """Run the check; print a summary or the problems. Returns the process exit status."""
    del argv  # no options yet; accepted so callers can pass sys.argv[1:]
    template = extract_template()
    if not ZH_CN_PO.is_file():
        print(f"catalogs: {ZH_CN_PO.relative_to(ROOT)} does not exist", file=sys.stderr)
        return 1
    with ZH_CN_PO.open("rb") as fh:
        translations = read_po(fh, locale="zh_CN")
    problems = find_problems(template, translations)
    count = sum(1 for message in template if message.id)
    if problems:
        print(f"catalogs: {len(problems)} problem(s) in {ZH_CN_PO.relative_to(ROOT)}:", file=sys.stderr)
        for problem in problems:
            print(f"  {problem}", file=sys.stderr)
        return 1
    print(f"catalogs: {count} messages, all translated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
