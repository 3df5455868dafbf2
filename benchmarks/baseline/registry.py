"""The two registries, read from ``models.yaml`` and ``capabilities.yaml`` with PyYAML.

Why its own reader: the baseline must owe nothing to Tessera's code, yet answer from the same
declarations (which fields a published resource exposes, which scope a command needs, which JSON
Schema an inbound event is checked against, which fields are unique, which events a change emits).
The files are trusted here (Tessera checks them at its own start), so this only reads what the
measured endpoints use; every JSON Schema is compiled once, at start.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from baseline.rules import new_pid


@dataclass(frozen=True)
class FieldRule:
    """One declared field of a model."""

    code: str
    type: str
    required: bool = False
    nullable: bool = False
    unique: bool = False
    searchable: bool = False
    default: Any = None
    values: tuple[str, ...] = ()
    minimum: float | None = None
    exclusive_minimum: float | None = None
    maximum: float | None = None
    max_length: int | None = None


@dataclass(frozen=True)
class Model:
    code: str
    fields: dict[str, FieldRule]

    @property
    def unique(self) -> tuple[str, ...]:
        return tuple(code for code, f in self.fields.items() if f.unique)

    @property
    def searchable(self) -> tuple[str, ...]:
        return tuple(code for code, f in self.fields.items() if f.searchable)


@dataclass(frozen=True)
class Page:
    key: str
    model: Model
    permission: str


@dataclass(frozen=True)
class SessionCommand:
    code: str
    page: Page
    action: str
    permission: str


@dataclass(frozen=True)
class Resource:
    name: str
    model: Model
    read_scope: str
    fields: tuple[str, ...]


@dataclass(frozen=True)
class OpenCommand:
    code: str
    resource: Resource
    action: str
    scope: str
    validator: Any  # a compiled jsonschema validator of ``input``
    apply: dict[str, dict[str, Any]]

    def changes(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Model field values from a valid input: constants, and the inputs present."""
        out: dict[str, Any] = {}
        for field, source in self.apply.items():
            if "value" in source:
                out[field] = source["value"]
            elif source["input"] in given:
                out[field] = given[source["input"]]
        return out


@dataclass(frozen=True)
class EventSource:
    code: str
    scope: str
    versions: dict[str, tuple[int, ...]]  # event type -> its schema versions
    validators: dict[tuple[str, int], Any]  # (type, version) -> compiled validator of ``data``


@dataclass(frozen=True)
class WebhookEvent:
    type: str
    model: str
    on: str
    when_changed: tuple[str, ...]
    fields: tuple[str, ...]
    previous: tuple[str, ...]

    def payload(self, pid: str, before: Mapping[str, Any] | None, after: Mapping[str, Any]) -> dict[str, Any]:
        """pid, the event's fields after the change, ``previous<Field>`` before it."""
        body: dict[str, Any] = {"pid": pid, **{code: after.get(code) for code in self.fields}}
        for code in self.previous:
            body["previous" + code[:1].upper() + code[1:]] = (before or {}).get(code)
        return body


@dataclass(frozen=True)
class Registry:
    models: dict[str, Model]
    pages: dict[str, Page]
    session_commands: dict[str, SessionCommand]
    resources: dict[str, Resource]
    open_commands: dict[str, OpenCommand]
    event_sources: dict[str, EventSource]
    webhook_events: tuple[WebhookEvent, ...]

    def created_events(self, model: str) -> tuple[WebhookEvent, ...]:
        """The events a create of a record of ``model`` emits (a create triggers every ``create`` event)."""
        return tuple(e for e in self.webhook_events if e.model == model and e.on == "create")


def events_of(registry: Registry, model: str, pid: str, data: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    """The outbox rows of a new record: (event id, type, payload) per event its creation emits."""
    return [(new_pid("evt"), e.type, e.payload(pid, None, data)) for e in registry.created_events(model)]


def _validator(schema: dict[str, Any]) -> Any:
    """Draft 4 with format checks: the dialect Tessera checks registry schemas with."""
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())


def _field(code: str, raw: dict[str, Any]) -> FieldRule:
    return FieldRule(code=code, type=raw["type"], required=bool(raw.get("required")),
                     nullable=bool(raw.get("nullable")), unique=bool(raw.get("unique")),
                     searchable=bool(raw.get("searchable")), default=raw.get("default"),
                     values=tuple(raw.get("values", ())), minimum=raw.get("minimum"),
                     exclusive_minimum=raw.get("exclusiveMinimum"), maximum=raw.get("maximum"),
                     max_length=raw.get("maxLength"))


def _session_side(doc: dict[str, Any]) -> tuple[dict[str, Model], dict[str, Page], dict[str, SessionCommand]]:
    models = {code: Model(code, {f: _field(f, spec) for f, spec in raw["fields"].items()})
              for code, raw in doc["models"].items()}
    pages = {key: Page(key, models[raw["model"]], raw["permission"]) for key, raw in doc["pages"].items()}
    commands = {code: SessionCommand(code, pages[raw["page"]], raw["action"], raw["permission"])
                for code, raw in doc["commands"].items()}
    return models, pages, commands


def _open_side(doc: dict[str, Any], models: dict[str, Model]) -> tuple[
        dict[str, Resource], dict[str, OpenCommand], dict[str, EventSource], tuple[WebhookEvent, ...]]:
    resources = {name: Resource(name, models[raw["model"]], raw["readScope"], tuple(raw["fields"]))
                 for name, raw in doc["resources"].items()}
    commands = {code: OpenCommand(code, resources[raw["resource"]], raw["action"], raw["scope"],
                                  _validator(raw["input"]), raw["apply"])
                for code, raw in doc["commands"].items()}
    sources = {}
    for code, raw in doc["eventSources"].items():
        types = {etype: {int(v): schema for v, schema in versions.items()} for etype, versions in raw["types"].items()}
        validators = {(t, v): _validator(s) for t, versions in types.items() for v, s in versions.items()}
        sources[code] = EventSource(code, raw["scope"], {t: tuple(v) for t, v in types.items()}, validators)
    events = tuple(WebhookEvent(etype, resources[raw["resource"]].model.code, raw["trigger"],
                                tuple(raw.get("whenChanged", ())), tuple(raw["fields"]), tuple(raw.get("previous", ())))
                   for etype, raw in doc["webhookEvents"].items())
    return resources, commands, sources, events


def load(models_file: Path, capabilities_file: Path) -> Registry:
    """Both files, read once at start."""
    models, pages, session_commands = _session_side(yaml.safe_load(models_file.read_text(encoding="utf-8")))
    resources, open_commands, sources, events = _open_side(
        yaml.safe_load(capabilities_file.read_text(encoding="utf-8")), models)
    return Registry(models, pages, session_commands, resources, open_commands, sources, events)
