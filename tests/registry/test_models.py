"""models.yaml is checked at start, and a bad entry is named in the error."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from tessera.core import yamlfile
from tessera.registry.models import DeclarationError, load_declarations, parse_declarations

ROOT = Path(__file__).resolve().parents[2]


def _doc() -> dict[str, Any]:
    return yamlfile.load((ROOT / "models.yaml").read_text())


def test_the_shipped_models_file_is_valid() -> None:
    decl = load_declarations(ROOT / "models.yaml")
    assert set(decl.pages) == {"assets", "stock-ins"}
    assert decl.models["asset"].searchable == ("name", "serialNo")
    assert decl.models["asset"].unique == ("serialNo",)


@pytest.mark.parametrize(
    ("mutate", "named"),
    [
        (lambda d: d["pages"]["assets"].update(model="nope"), "pages.assets.model"),
        (lambda d: d["commands"]["assets:create"].update(page="nope"), "commands.assets:create.page"),
        (lambda d: d["models"]["asset"]["fields"]["status"].pop("values"), "models.asset.fields.status"),
        (lambda d: d["models"]["asset"]["fields"]["value"].update(type="money"), "models.asset.fields.value.type"),
        (lambda d: d["models"]["asset"]["fields"].update({"bad name": {"type": "string"}}), "models.asset.fields"),
        (lambda d: d["datasources"]["asset-status"].update(field="name"), "datasources.asset-status.field"),
        (lambda d: d["models"]["asset"]["fields"]["value"].update(searchable=True), "models.asset.fields.value"),
    ],
)
def test_a_bad_entry_is_named(mutate: Any, named: str) -> None:
    doc = copy.deepcopy(_doc())
    mutate(doc)
    with pytest.raises(DeclarationError) as excinfo:
        parse_declarations(doc)
    assert named in str(excinfo.value)


def test_invalid_yaml_is_reported(tmp_path: Path) -> None:
    bad = tmp_path / "models.yaml"
    bad.write_text("models: [unclosed")
    with pytest.raises(DeclarationError, match="not valid YAML"):
        load_declarations(bad)
