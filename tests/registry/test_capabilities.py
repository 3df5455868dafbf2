"""capabilities.yaml is checked against models.yaml at start, and a bad entry is named in the error."""

from __future__ import annotations

import copy
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from tessera.core import yamlfile
from tessera.registry.capabilities import CapabilityError, load_capabilities, parse_capabilities
from tessera.registry.models import load_declarations

ROOT = Path(__file__).resolve().parents[2]
DECLARATIONS = load_declarations(ROOT / "models.yaml")


def _doc() -> dict[str, Any]:
    return yamlfile.load((ROOT / "capabilities.yaml").read_text())


@pytest.mark.rule("op.capability.no-auto-exposure", "op.record.resource-names", "inbound.type-and-version-identify")
def test_the_shipped_registry_publishes_the_specified_capabilities() -> None:
    registry = load_capabilities(ROOT / "capabilities.yaml", DECLARATIONS)
    assert set(registry.resources) == {"assets", "inventory.stock-ins"}
    assert registry.resources["assets"].read_scope == "assets.read"
    assert registry.resources["inventory.stock-ins"].read_scope == "inventory.stockins.read"
    assert registry.commands["assets.assign"].scope == "assets.manage"
    assert registry.commands["assets.assign"].emits == "assets.assignment.changed"
    assert registry.commands["inventory.stock-ins.create"].scope == "inventory.stockins.manage"
    assert registry.commands["inventory.stock-ins.create"].emits == "inventory.stock-in.created"
    assert registry.event_sources["robot-fleet"].scope == "events.robot-fleet.publish"
    assert set(registry.event_sources["robot-fleet"].types["inventory.received"][1]["required"]) == {
        "sku", "quantity", "warehouse"}


@pytest.mark.rule("op.admin.grant-scopes")
def test_the_grantable_scopes_are_exactly_those_the_registry_uses() -> None:
    registry = load_capabilities(ROOT / "capabilities.yaml", DECLARATIONS)
    assert registry.scopes == {"assets.read", "assets.manage", "inventory.stockins.read",
                               "inventory.stockins.manage", "events.robot-fleet.publish"}


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(doc: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        node = doc
        for key in parents:
            node = node[key]
        node[last] = value

    return mutate


def _delete(path: str) -> Callable[[dict[str, Any]], None]:
    def mutate(doc: dict[str, Any]) -> None:
        *parents, last = path.split("/")
        node = doc
        for key in parents:
            node = node[key]
        del node[last]

    return mutate


@pytest.mark.parametrize(
    ("mutate", "named"),
    [
        (_set("resources/assets/model", "vehicle"), "resources.assets.model: unknown model 'vehicle'"),
        (_set("resources/assets/fields", ["name", "owner"]), "resources.assets.fields: 'owner' is not a field"),
        (_delete("resources/assets/readScope"), "resources.assets: 'readScope' is a required property"),
        (_set("resources/assets/readScope", "Assets Read"), "resources.assets.readScope"),
        (_set("resources/inventory.stock-ins/schemaName", "Asset"), "resources.inventory.stock-ins.schemaName"),
        (_set("commands/assets.assign/resource", "vehicles"), "commands.assets.assign.resource: unknown resource"),
        (_set("commands/assets.assign/apply", {"owner": {"input": "assignee"}}),
         "commands.assets.assign.apply.owner: not a field of model asset"),
        (_set("commands/assets.assign/apply", {"assignee": {"input": "who"}}),
         "commands.assets.assign.apply.assignee.input: 'who' is not an input property"),
        (_set("commands/assets.assign/emits", "assets.sold"), "commands.assets.assign.emits: unknown webhook event"),
        (_set("commands/assets.assign/emits", "inventory.stock-in.created"), "commands.assets.assign.emits"),
        (_set("commands/assets.assign/input", {"type": "object", "properties": {"a": {"type": "strin"}}}),
         "commands.assets.assign.input: not a valid JSON Schema"),
        (_set("commands/assets.assign/action", "delete"), "commands.assets.assign.action"),
        (_set("eventSources/robot-fleet/types/inventory.received", {"v1": {"type": "object", "properties": {}}}),
         "eventSources.robot-fleet.types.inventory.received.v1: schema versions are positive integers"),
        (_set("webhookEvents/assets.assignment.changed/whenChanged", ["color"]),
         "webhookEvents.assets.assignment.changed.whenChanged: 'color' is not a field of model asset"),
        (_set("webhookEvents/assets.assignment.changed/resource", "robots"),
         "webhookEvents.assets.assignment.changed.resource: unknown resource"),
    ],
)
def test_a_bad_entry_is_refused_with_its_name(mutate: Callable[[dict[str, Any]], None], named: str) -> None:
    doc = copy.deepcopy(_doc())
    mutate(doc)
    with pytest.raises(CapabilityError) as caught:
        parse_capabilities(doc, DECLARATIONS)
    assert named in str(caught.value)


_ASSIGN_INPUT = "commands/assets.assign/input/properties/assignee"
_STOCK_IN = "commands/inventory.stock-ins.create"


@pytest.mark.parametrize(
    ("mutate", "named"),
    [
        (_set(f"{_ASSIGN_INPUT}/maxLength", 500),
         "commands.assets.assign.input.properties.assignee: maxLength 500 over the field's maxLength 200"),
        (_delete(f"{_ASSIGN_INPUT}/maxLength"), "assignee: maxLength unbounded over the field's maxLength 200"),
        (_set(f"{_ASSIGN_INPUT}/type", "integer"), "assignee: a integer input for a string field"),
        (_set(f"{_STOCK_IN}/input/properties/quantity/maximum", 10**20),
         "quantity: maximum 100000000000000000000 over the field's largest value"),
        (_set(f"{_STOCK_IN}/input/properties/quantity/minimum", 0),
         "quantity: minimum 0 below the field's exclusiveMinimum 0"),
        (_set(f"{_STOCK_IN}/input/properties/receivedAt", {"type": "string"}),
         "receivedAt: any text for a datetime field (give the input format date-time)"),
        (_set("commands/assets.assign/apply/status", {"value": "sold"}),
         "commands.assets.assign.apply.status.value: 'sold' is not one of"),
        (_set(f"{_STOCK_IN}/apply/source", {"value": "x" * 101}), "apply.source.value: 'xxx"),
        (_set(f"{_STOCK_IN}/input/required", ["quantity"]),
         "commands.inventory.stock-ins.create.apply: leaves the required field(s) ['sku'] of stockIn empty"),
    ],
)
def test_a_command_input_or_constant_its_field_would_refuse_is_refused_by_name(
        mutate: Callable[[dict[str, Any]], None], named: str) -> None:
    """The document shows a command's input schema; the service stores into the model's field. An input
    wider than the field would advertise values the service refuses, so the registry refuses it first."""
    doc = copy.deepcopy(_doc())
    mutate(doc)
    with pytest.raises(CapabilityError) as caught:
        parse_capabilities(doc, DECLARATIONS)
    assert named in str(caught.value)


def test_an_input_within_its_field_passes() -> None:
    doc = copy.deepcopy(_doc())
    _set(f"{_ASSIGN_INPUT}/maxLength", 50)(doc)
    _set(f"{_ASSIGN_INPUT}/enum", ["Dana", "Lee"])(doc)
    _set(f"{_STOCK_IN}/input/properties/quantity/minimum", 5)(doc)
    parse_capabilities(doc, DECLARATIONS)


def test_the_service_refuses_to_start_with_a_bad_registry(tmp_path: Path) -> None:
    doc = _doc()
    doc["commands"]["assets.assign"]["apply"] = {"owner": {"input": "assignee"}}
    bad = tmp_path / "capabilities.yaml"
    bad.write_text(yaml.safe_dump(doc))
    result = subprocess.run(
        [sys.executable, "-m", "tessera.cli", "check"], capture_output=True, text=True, cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "TESSERA_CAPABILITIES_FILE": str(bad), "TESSERA_VAR_DIR": str(tmp_path)},
        check=False,
    )
    assert result.returncode == 2
    assert "commands.assets.assign.apply.owner: not a field of model asset" in result.stderr
