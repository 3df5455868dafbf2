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
        # A permission code declared nowhere: a typo, refused by name instead of a 403 for everyone.
        (lambda d: d["pages"]["assets"].update(permission="asset:view"), "pages.assets.permission"),
        (lambda d: d["commands"]["assets:create"].update(permission="assets:crate"),
         "commands.assets:create.permission"),
        (lambda d: d["datasources"]["asset-status"].update(permission="assets:veiw"),
         "datasources.asset-status.permission"),
        (lambda d: d["roles"]["viewer"]["permissions"].append("stock-in:view"), "roles.viewer.permissions.2"),
        (lambda d: d["permissions"].pop("audit:view"), "permissions"),
        (lambda d: d.pop("permissions"), "(top level)"),
        # A default the service would refuse in a payload: one line naming it, never a traceback.
        (lambda d: d["models"]["asset"]["fields"]["value"].update(default="abc"), "models.asset.fields.value.default"),
        (lambda d: d["models"]["asset"]["fields"]["value"].update(default=-1), "models.asset.fields.value.default"),
        (lambda d: d["models"]["asset"]["fields"]["value"].update(default=10**20), "models.asset.fields.value.default"),
        (lambda d: d["models"]["asset"]["fields"]["purchasedAt"].update(default="2025-02-30"),
         "models.asset.fields.purchasedAt.default"),
        (lambda d: d["models"]["asset"]["fields"]["name"].update(default="x" * 201),
         "models.asset.fields.name.default"),
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


def test_every_permission_the_service_checks_is_one_models_yaml_must_declare() -> None:
    from tessera.automations.admin import MANAGE, VIEW
    from tessera.openplatform.identity.installations import INSTALL_PERMISSION
    from tessera.registry.models import SERVICE_PERMISSIONS
    from tessera.session.audit.search import PERMISSION
    from tessera.session.roles.listing import PERMISSION as ROLES_VIEW

    assert {PERMISSION, MANAGE, VIEW, INSTALL_PERMISSION, ROLES_VIEW} == set(SERVICE_PERMISSIONS)
    assert set(SERVICE_PERMISSIONS) <= set(load_declarations(ROOT / "models.yaml").permissions)
