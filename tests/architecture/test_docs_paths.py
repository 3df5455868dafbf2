"""The READMEs, the contributing guide, the changelog and every page of the documentation site
(``docs/``) name only paths that exist: every repository path in a code span or a link is in the
tree, so the documents describe the tree as it is.
(Links between the site's pages, and their anchors, are checked by ``mkdocs build --strict``.)

Which tokens are paths: the words of inline code spans and the targets of links that contain a ``/``
or end in a file extension the repository uses. Not paths: URLs and connection strings (``://``),
absolute paths (HTTP routes such as ``/api/...``, system files such as ``/usr/bin/chromium``),
placeholders and globs (``<...>``, ``{id}``, ``*``, ``...``, ``$VAR``), options (``--x``,
``key=value``), a bare extension (``.yaml``), paths git ignores, which a run creates
(``.venv/``, ``var/``, ``test-artifacts/``), and the few files the reader is told to write
(``WRITTEN_BY_THE_READER``). Fenced code blocks are commands, not references, and are left out.

How a path resolves: from the repository root; or from the document's own folder (the site's pages
link to each other as ``../operator/configuration.md``); or, when the text names a file inside the folder it
is describing (``signing.py`` beside ``tessera/webhooks/sending/``), as the end of some path of the tree; or,
for ``module.attribute`` (``tessera/web/envelopes.ok``), as the module's ``.py`` file.
"""

from __future__ import annotations

import os
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = ("README.md", "CONTRIBUTING.md", "CHANGELOG.md", "generated/README.md",
             *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "docs").rglob("*.md")))
EXTENSIONS = frozenset({
    "cfg", "css", "html", "ini", "js", "json", "lock", "md", "mjs", "png", "po", "pot", "py", "sh", "toml", "ts",
    "txt", "yaml", "yml",
})
# Files the README tells the reader to create (an example program saved under that name).
WRITTEN_BY_THE_READER = frozenset({"tessera.mjs"})
# A media type (`application/json`) names no file.
NOT_A_PATH = re.compile(r"^(?:application|text|multipart)/[\w.+-]+$|://|^/|^-|^\.\w+$|[<>{}*$=?#|,;:@\[\]()]|\.\.\.")
FENCED = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
SPAN = re.compile(r"`([^`\n]+)`")
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _candidates(text: str) -> set[str]:
    text = FENCED.sub("", text)
    words = {word for span in SPAN.findall(text) for word in span.split()}
    words |= {target.split("#", 1)[0] for target in LINK.findall(text)}
    found = set()
    for word in words:
        token = word.strip("'\"").rstrip(".")
        if not token or NOT_A_PATH.search(token):
            continue
        name = token.rstrip("/").rsplit("/", 1)[-1]
        if "/" in token or ("." in name and name.rsplit(".", 1)[-1] in EXTENSIONS):
            found.add(token)
    return found


@cache
def _tree() -> tuple[frozenset[str], frozenset[str]]:
    """Every file of the checkout that git does not ignore, and every folder holding one."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout.decode()
    files = frozenset(f for f in listed.split("\0") if f and (ROOT / f).exists())
    folders = frozenset(str(parent) for f in files for parent in Path(f).parents if str(parent) != ".")
    return files, folders


def _ignored(token: str) -> bool:
    """Whether git ignores the path (a folder keeps its ``/``, which folder-only patterns need)."""
    return subprocess.run(["git", "check-ignore", "-q", "--no-index", token], cwd=ROOT,
                          check=False).returncode == 0


def _exists(token: str) -> bool:
    files, folders = _tree()
    path = token.rstrip("/")
    if path in files or path in folders:
        return True
    if any(f.endswith("/" + path) for f in files) or any(d.endswith("/" + path) for d in folders):
        return True  # a file or folder named relative to the folder the text describes
    stem, _, attribute = path.rpartition(".")
    if stem and attribute.isidentifier() and attribute not in EXTENSIONS:
        return _exists(stem + ".py")  # module.attribute
    return False


def _beside(document: str, token: str) -> bool:
    """Whether ``token`` names a path relative to the document's own folder (a link between the
    site's pages, ``../operator/configuration.md``)."""
    return _exists(os.path.normpath(Path(document).parent / token.split("#", 1)[0]))


def _missing(document: str) -> list[str]:
    tokens = _candidates((ROOT / document).read_text(encoding="utf-8"))
    return sorted(t for t in tokens - WRITTEN_BY_THE_READER
                  if not _exists(t) and not _beside(document, t) and not _ignored(t))


@pytest.mark.parametrize("document", DOCUMENTS)
def test_every_path_the_document_names_exists(document: str) -> None:
    missing = _missing(document)
    assert not missing, f"{document} names paths that are not in the tree: {missing}"


def test_a_path_that_does_not_exist_is_reported() -> None:
    text = "See `storage/drivers/postgres.py`, [the tests](tests/web/) and `storage/no_such_module.py`."
    assert _candidates(text) == {"storage/drivers/postgres.py", "tests/web/", "storage/no_such_module.py"}
    assert [t for t in sorted(_candidates(text)) if not _exists(t)] == ["storage/no_such_module.py"]


def test_routes_urls_and_placeholders_are_not_paths() -> None:
    text = ("`GET /api/open/v1/resources/assets/{pid}` `https://example.com/x.json` `sqlite:///var/t.db` "
            "`test-artifacts/<backend>/*.png` `--config-file` `.yaml` `$TESSERA_URL/api/openapi.json`")
    assert _candidates(text) == set()
