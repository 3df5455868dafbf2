"""The configuration reference (``codegen.configuration_reference``, from which ``tessera generate``
writes ``docs/operator/configuration.md``) lists exactly the ``TESSERA_*`` variables the service
reads, with the defaults it applies: a setting added to the code without a line there, a line left
for a setting that is gone, or a numeric default changed on one side only, fails here. (The test
command's own variables, such as ``TESSERA_TEST_WORKERS``, belong to ``scripts/test.sh`` and are
described with it.)"""

from __future__ import annotations

import re
from pathlib import Path

from codegen import configuration_reference
from tessera.core.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]
SERVICE = ("tessera", "storage", "handlers")
NAME = re.compile(r"TESSERA_[A-Z0-9_]*[A-Z0-9]")


def read_by_the_service() -> set[str]:
    return {name for package in SERVICE for path in (ROOT / package).rglob("*.py")
            for name in NAME.findall(path.read_text(encoding="utf-8"))}


def documented(text: str) -> set[str]:
    """The variables the reference's table names in its first column, where a row such as
    ``TESSERA_RATE_LIMIT_READ / _WRITE`` names ``TESSERA_RATE_LIMIT_WRITE`` by its last part."""
    names: set[str] = set()
    for line in text.splitlines():
        if not line.startswith("| `TESSERA_"):
            continue
        full = ""
        for word in re.findall(r"`([A-Z0-9_]+)`", line.split("|")[1]):
            full = word if word.startswith("TESSERA_") else full.rsplit("_", 1)[0] + word
            names.add(full)
    return names


def test_the_reference_lists_every_variable_the_service_reads_and_no_other() -> None:
    listed = documented(configuration_reference.render())
    assert sorted(read_by_the_service() - listed) == [], "read by the service, missing from the reference"
    assert sorted(listed - read_by_the_service()) == [], "in the reference, read by nothing"


def test_an_abbreviated_row_names_each_variable_in_full() -> None:
    row = "| `TESSERA_RATE_LIMIT_READ` / `_WRITE` / `_LOGIN` | `100` | per minute |\n| `TESSERA_ENV` | x | y |"
    assert documented(row) == {"TESSERA_RATE_LIMIT_READ", "TESSERA_RATE_LIMIT_WRITE", "TESSERA_RATE_LIMIT_LOGIN",
                               "TESSERA_ENV"}


def test_a_plain_numeric_default_is_the_one_the_settings_apply(tmp_path: Path) -> None:
    """Where the reference's default is one number and the variable names a setting
    (``TESSERA_JWT_TTL_SECONDS`` is ``jwt_ttl_seconds``), ``load_settings`` with nothing set agrees."""
    applied = load_settings({"TESSERA_VAR_DIR": str(tmp_path)})
    checked = []
    for entry in configuration_reference.REFERENCE:
        number = re.fullmatch(r"`(\d+(?:\.\d+)?)`(?: \(.*\))?", entry.default)
        names = re.findall(r"`(TESSERA_[A-Z0-9_]+)`", entry.variable)
        if number is None or len(names) != 1:
            continue
        attribute = names[0].removeprefix("TESSERA_").lower()
        if attribute not in Settings.__dataclass_fields__:
            continue
        value = getattr(applied, attribute)
        assert float(0 if value is None else value) == float(number.group(1)), names[0]
        checked.append(names[0])
    assert len(checked) >= 26, checked
