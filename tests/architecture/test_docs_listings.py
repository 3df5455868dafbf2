"""The map of the code cannot drift from the code: every module and folder of the service is named in
the tree of ``docs/development/architecture.md`` under its own folder, and every feature package and
top-level module of ``tessera/`` is named in the layout table of ``docs/development/layout.md``.

The tree is read as it is drawn: a name in the first 25 columns opens an entry (indented two spaces
per folder level), the text to its right and on the lines below is its description, and a line of
file names (``runtime.py, app.py``) belongs to the folder above it. A module is listed when its name
appears as a word in the description of its folder, or of the nearest folder above it that has an
entry (``session/  auth/ (login), ...`` lists ``tessera/session/auth/login.py``).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARCHITECTURE = ROOT / "docs" / "development" / "architecture.md"
LAYOUT = ROOT / "docs" / "development" / "layout.md"
PACKAGES = ("tessera", "storage", "handlers", "codegen")
NAME_COLUMNS = 25
NOT_CODE = {"__pycache__", "versions", "static", "locale"}


def tree_entries(markdown: str) -> dict[str, str]:
    """Each folder of the drawn tree (``tessera/webhooks/``) with the text that describes it."""
    block = markdown.split("## The tree", 1)[1].split("```", 2)[1]
    entries: dict[str, str] = {"": ""}
    stack: list[tuple[int, str]] = []
    current = ""
    for line in block.splitlines():
        head = line[:NAME_COLUMNS]
        if not head.strip():
            entries[current] += " " + line.strip()
            continue
        indent = len(head) - len(head.lstrip())
        spills = len(line) > NAME_COLUMNS and line[NAME_COLUMNS - 1] != " "
        name, text = (line.strip(), "") if spills else (head.strip(), line[NAME_COLUMNS:].strip())
        while stack and stack[-1][0] >= indent:
            stack.pop()
        parent = stack[-1][1] if stack else ""
        if name.endswith("/") and "," not in name:
            current = parent + name
            stack.append((indent, current))
            entries[current] = text
        else:  # file names listed at this level belong to the folder above
            current = parent
            entries[current] += " " + line.strip()
    return entries


def folders() -> list[Path]:
    """Every folder of the service that holds Python code."""
    found = []
    for package in PACKAGES:
        for folder in [ROOT / package, *sorted((ROOT / package).rglob("*"))]:
            inside = folder.relative_to(ROOT).parts
            if folder.is_dir() and not NOT_CODE & set(inside) and any(folder.glob("*.py")):
                found.append(folder)
    return found


def _owner(entries: dict[str, str], folder: Path) -> str:
    """The nearest folder, ``folder`` itself or one above it, that the tree draws as an entry."""
    path = folder.relative_to(ROOT).as_posix() + "/"
    while path and path not in entries:
        path = path.rstrip("/").rpartition("/")[0] + "/" if "/" in path.rstrip("/") else ""
    return path


def _named(text: str, name: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(name)}(?![\w])", text) is not None


def missing_from_the_tree(markdown: str) -> list[str]:
    entries = tree_entries(markdown)
    missing = []
    for folder in folders():
        relative = folder.relative_to(ROOT).as_posix()
        owner = _owner(entries, folder)
        if owner != relative + "/" and not _named(entries[owner], folder.name + "/"):
            missing.append(relative + "/")
        missing += [f"{relative}/{module.name}" for module in sorted(folder.glob("*.py"))
                    if module.stem != "__init__" and not _named(entries[owner], module.stem)]
    return missing


def test_every_module_and_folder_of_the_service_is_in_the_architecture_tree() -> None:
    assert missing_from_the_tree(ARCHITECTURE.read_text(encoding="utf-8")) == []


def test_a_module_left_out_of_the_tree_is_found() -> None:
    markdown = ARCHITECTURE.read_text(encoding="utf-8").replace("pinning (sends connect", "(sends connect")
    assert missing_from_the_tree(markdown) == ["tessera/webhooks/pinning.py"]


def test_a_folder_left_out_of_the_tree_is_found() -> None:
    markdown = ARCHITECTURE.read_text(encoding="utf-8").replace("  drivers/       ", "  driver-code    ")
    assert "storage/drivers/" in missing_from_the_tree(markdown)


def test_every_feature_package_and_top_level_module_is_in_the_layout_table() -> None:
    row = next(line for line in LAYOUT.read_text(encoding="utf-8").splitlines() if line.startswith("| `tessera/` |"))
    tessera = ROOT / "tessera"
    names = [f"{p.name}/" for p in sorted(tessera.iterdir()) if (p / "__init__.py").is_file()]
    names += [p.name for p in sorted(tessera.glob("*.py")) if p.stem != "__init__"]
    assert [name for name in names if f"`{name}`" not in row] == []


def test_every_top_level_folder_of_storage_is_in_the_layout_table() -> None:
    row = next(line for line in LAYOUT.read_text(encoding="utf-8").splitlines() if line.startswith("| `storage/` |"))
    folders = [f"{p.name}/" for p in sorted((ROOT / "storage").iterdir()) if (p / "__init__.py").is_file()]
    assert [name for name in folders if f"`{name}`" not in row] == []
