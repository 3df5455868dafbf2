"""The registry of published Open Platform capabilities (``capabilities.yaml``).

Only what this registry publishes exists on the Open Platform (rules.yaml: op.capability.unpublished-not-found).
The file is checked as a whole at start, first its shape (JSON Schema), then every cross reference
against ``models.yaml`` (models, fields, scopes, events, command mappings), so a bad entry stops the
service with a message naming it (``commands.assets.assign.apply.owner: not a field of asset``)
instead of failing on the first request that touches it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from tessera.core import yamlfile
from tessera.core.schema_check import Check, check_for
from tessera.registry import fit
from tessera.registry.models import Declarations, FieldDecl, ModelDecl
from tessera.registry.names import get_resource_id

DOTTED = r"^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)*$"
SCOPE = r"^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$"
IDENT = r"^[A-Z][A-Za-z0-9]{0,62}$"
ACTIONS = ("create", "update")


class CapabilityError(ValueError):
    """``capabilities.yaml`` is not usable; the message names the entry."""


_SCHEMA_OBJECT = {"type": "object"}
_FILE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["resources", "commands", "eventSources", "webhookEvents"],
    "properties": {
        "resources": {
            "type": "object",
            "propertyNames": {"pattern": DOTTED},
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "required": ["model", "schemaName", "pluralName", "readScope", "fields"],
                "properties": {
                    "model": {"type": "string"},
                    "schemaName": {"type": "string", "pattern": IDENT},
                    "pluralName": {"type": "string", "pattern": IDENT},
                    "description": {"type": "string"},
                    "readScope": {"type": "string", "pattern": SCOPE},
                    "fields": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
                    "example": {"type": "object"},
                },
            },
        },
        "commands": {
            "type": "object",
            "propertyNames": {"pattern": SCOPE},
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "required": ["resource", "action", "scope", "emits", "input", "apply"],
                "properties": {
                    "resource": {"type": "string"},
                    "action": {"enum": list(ACTIONS)},
                    "summary": {"type": "string"},
                    "description": {"type": "string"},
                    "scope": {"type": "string", "pattern": SCOPE},
                    "emits": {"type": ["string", "null"]},
                    "input": _SCHEMA_OBJECT,
                    "apply": {
                        "type": "object",
                        "minProperties": 1,
                        "additionalProperties": {
                            "type": "object",
                            "minProperties": 1,
                            "maxProperties": 1,
                            "additionalProperties": False,
                            "properties": {"input": {"type": "string"}, "value": {}},
                        },
                    },
                },
            },
        },
        "eventSources": {
            "type": "object",
            "propertyNames": {"pattern": DOTTED},
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "required": ["scope", "types"],
                "properties": {
                    "description": {"type": "string"},
                    "scope": {"type": "string", "pattern": SCOPE},
                    "types": {
                        "type": "object",
                        "minProperties": 1,
                        "propertyNames": {"pattern": DOTTED},
                        "additionalProperties": {"type": "object", "minProperties": 1},
                    },
                },
            },
        },
        "webhookEvents": {
            "type": "object",
            "propertyNames": {"pattern": SCOPE},
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "required": ["resource", "trigger", "fields"],
                "properties": {
                    "description": {"type": "string"},
                    "resource": {"type": "string"},
                    "trigger": {"enum": list(ACTIONS)},
                    "whenChanged": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                    "fields": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
                    "previous": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
                },
            },
        },
    },
}


@dataclass(frozen=True)
class ResourceCap:
    name: str
    model: ModelDecl
    schema_name: str
    plural_name: str
    description: str
    read_scope: str
    fields: tuple[str, ...]
    # Values of `fields` for one realistic record: the published document's examples derive from it.
    example: dict[str, Any] | None = None

    def field(self, code: str) -> FieldDecl:
        return self.model.fields[code]


@dataclass(frozen=True)
class CommandCap:
    code: str
    resource: ResourceCap
    action: str
    summary: str
    description: str
    scope: str
    emits: str | None
    input_schema: dict[str, Any]
    apply: dict[str, dict[str, Any]]

    @cached_property
    def input_validator(self) -> jsonschema.protocols.Validator:
        """Compiled once: Draft 4 plus OpenAPI's ``nullable``, the dialect Connexion checks with."""
        return jsonschema.Draft4Validator(self.input_schema, format_checker=jsonschema.FormatChecker())

    @cached_property
    def input_check(self) -> Check:
        """Whether an input is valid, as ``input_validator`` says, compiled (``schema_check``)."""
        return check_for(self.input_validator)

    def changes(self, given: dict[str, Any]) -> dict[str, Any]:
        """Model field values this command sets from a valid input; absent inputs are left out."""
        out: dict[str, Any] = {}
        for field, source in self.apply.items():
            if "value" in source:
                out[field] = source["value"]
            elif source["input"] in given:
                out[field] = given[source["input"]]
        return out


@dataclass(frozen=True)
class EventSourceCap:
    code: str
    description: str
    scope: str
    types: dict[str, dict[int, dict[str, Any]]]

    @cached_property
    def validators(self) -> dict[tuple[str, int], jsonschema.protocols.Validator]:
        """One compiled validator per (type, schemaVersion), built once, not per event."""
        return {
            (event_type, version): jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())
            for event_type, versions in self.types.items()
            for version, schema in versions.items()
        }

    @cached_property
    def checks(self) -> dict[tuple[str, int], Check]:
        """Whether an event's data is valid, per (type, schemaVersion), as ``validators`` say, compiled."""
        return {key: check_for(validator) for key, validator in self.validators.items()}


@dataclass(frozen=True)
class WebhookEventCap:
    type: str
    description: str
    resource: ResourceCap
    on: str
    when_changed: tuple[str, ...]
    fields: tuple[str, ...]
    previous: tuple[str, ...]

    def triggered_by(self, action: str, before: dict[str, Any] | None, after: dict[str, Any]) -> bool:
        if action != self.on:
            return False
        if action == "create" or before is None:
            return True
        return any(before.get(code) != after.get(code) for code in self.when_changed)

    def payload(self, pid: str, before: dict[str, Any] | None, after: dict[str, Any]) -> dict[str, Any]:
        body: dict[str, Any] = {"pid": pid}
        for code in self.fields:
            body[code] = after.get(code)
        for code in self.previous:
            body[previous_name(code)] = (before or {}).get(code)
        return body


def previous_name(code: str) -> str:
    return "previous" + code[:1].upper() + code[1:]


@dataclass(frozen=True)
class Capabilities:
    resources: dict[str, ResourceCap]
    commands: dict[str, CommandCap]
    event_sources: dict[str, EventSourceCap]
    webhook_events: dict[str, WebhookEventCap]

    @cached_property
    def scopes(self) -> frozenset[str]:
        """Every scope some published capability needs: the only scopes an installation can hold."""
        found = {r.read_scope for r in self.resources.values()}
        found |= {c.scope for c in self.commands.values()}
        found |= {s.scope for s in self.event_sources.values()}
        return frozenset(found)

    @cached_property
    def reads_by_operation(self) -> dict[str, ResourceCap]:
        """Each resource by the operationId of its read by pid in the generated document (``getAsset``)."""
        return {get_resource_id(resource.schema_name): resource for resource in self.resources.values()}

    def events_for(self, model: str, action: str) -> list[WebhookEventCap]:
        """Webhook events a change of this kind to a record of ``model`` may emit."""
        return [e for e in self.webhook_events.values() if e.resource.model.code == model and e.on == action]


def _fail(where: str, message: str) -> CapabilityError:
    return CapabilityError(f"capabilities.yaml: {where}: {message}")


def _check_schema(where: str, schema: Any) -> dict[str, Any]:
    try:
        jsonschema.Draft4Validator.check_schema(schema)
    except jsonschema.SchemaError as exc:
        raise _fail(where, f"not a valid JSON Schema: {exc.message}") from None
    if schema.get("type") != "object" or not isinstance(schema.get("properties"), dict):
        raise _fail(where, "must be an object schema with `properties`")
    checked: dict[str, Any] = schema
    return checked


def _model_fields(where: str, model: ModelDecl, codes: list[str]) -> tuple[str, ...]:
    for code in codes:
        if code not in model.fields:
            raise _fail(where, f"{code!r} is not a field of model {model.code}")
    return tuple(codes)


def parse_capabilities(doc: Any, declarations: Declarations) -> Capabilities:
    """Check a parsed ``capabilities.yaml`` against ``models.yaml`` and build the registry.

    The sections are read in dependency order (webhook events name resources, commands name both),
    so the first bad entry, in that order, is the one reported.
    """
    _check_shape(doc)
    resources = _parse_resources(doc["resources"], declarations)
    webhook_events = _parse_webhook_events(doc["webhookEvents"], resources)
    commands = _parse_commands(doc["commands"], resources, webhook_events)
    event_sources = _parse_event_sources(doc["eventSources"])
    return Capabilities(resources=resources, commands=commands, event_sources=event_sources,
                        webhook_events=webhook_events)


def _check_shape(doc: Any) -> None:
    """The file's JSON Schema; of all violations, the one at the first path (in sort order) is reported."""
    validator = jsonschema.Draft202012Validator(_FILE_SCHEMA)
    errors = sorted(validator.iter_errors(doc), key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        first = errors[0]
        raise _fail(".".join(str(p) for p in first.absolute_path) or "(top level)", first.message)


def _parse_resources(section: dict[str, Any], declarations: Declarations) -> dict[str, ResourceCap]:
    """``resources``: each names a declared model, and no two share a ``schemaName`` or ``pluralName``."""
    resources: dict[str, ResourceCap] = {}
    names_seen: dict[str, str] = {}
    for name, raw in section.items():
        where = f"resources.{name}"
        model = declarations.models.get(raw["model"])
        if model is None:
            raise _fail(f"{where}.model", f"unknown model {raw['model']!r}")
        _claim_names(where, raw, names_seen)
        resources[name] = ResourceCap(
            name=name, model=model, schema_name=raw["schemaName"], plural_name=raw["pluralName"],
            description=raw.get("description", ""), read_scope=raw["readScope"],
            fields=_model_fields(f"{where}.fields", model, raw["fields"]),
            example=raw.get("example"),
        )
    return resources


def _claim_names(where: str, raw: dict[str, Any], names_seen: dict[str, str]) -> None:
    """Record a resource's schema names, refusing one already used: they name published schemas."""
    for key in ("schemaName", "pluralName"):
        if raw[key] in names_seen:
            raise _fail(f"{where}.{key}", f"{raw[key]!r} is already used by {names_seen[raw[key]]}")
        names_seen[raw[key]] = where


def _resource(where: str, raw: dict[str, Any], resources: dict[str, ResourceCap]) -> ResourceCap:
    """The resource an entry's ``resource`` names, which must be published."""
    resource = resources.get(raw["resource"])
    if resource is None:
        raise _fail(f"{where}.resource", f"unknown resource {raw['resource']!r}")
    return resource


def _parse_webhook_events(section: dict[str, Any], resources: dict[str, ResourceCap]) -> dict[str, WebhookEventCap]:
    """``webhookEvents``: an update event names the fields whose change emits it, a create event none."""
    webhook_events: dict[str, WebhookEventCap] = {}
    for etype, raw in section.items():
        where = f"webhookEvents.{etype}"
        resource = _resource(where, raw, resources)
        when_changed = raw.get("whenChanged") or []
        if raw["trigger"] == "update" and not when_changed:
            raise _fail(f"{where}.whenChanged", "an update event names the fields whose change emits it")
        if raw["trigger"] == "create" and when_changed:
            raise _fail(f"{where}.whenChanged", "only update events have it")
        webhook_events[etype] = WebhookEventCap(
            type=etype, description=raw.get("description", ""), resource=resource, on=raw["trigger"],
            when_changed=_model_fields(f"{where}.whenChanged", resource.model, when_changed),
            fields=_model_fields(f"{where}.fields", resource.model, raw["fields"]),
            previous=_model_fields(f"{where}.previous", resource.model, raw.get("previous") or []),
        )
    return webhook_events


def _parse_commands(
    section: dict[str, Any], resources: dict[str, ResourceCap], webhook_events: dict[str, WebhookEventCap]
) -> dict[str, CommandCap]:
    """``commands``: a valid input schema, an ``apply`` mapping onto it, and an event it can emit."""
    commands: dict[str, CommandCap] = {}
    for code, raw in section.items():
        where = f"commands.{code}"
        resource = _resource(where, raw, resources)
        schema = _check_schema(f"{where}.input", raw["input"])
        _check_apply(where, raw["apply"], resource, schema)
        _check_fit(where, raw, resource, schema)
        emits = raw["emits"]
        if emits is not None:
            _check_emits(where, emits, raw, resource, webhook_events)
        commands[code] = CommandCap(
            code=code, resource=resource, action=raw["action"], summary=raw.get("summary", code),
            description=raw.get("description", ""), scope=raw["scope"], emits=emits,
            input_schema=schema, apply=dict(raw["apply"]),
        )
    return commands


def _check_apply(where: str, apply: dict[str, Any], resource: ResourceCap, schema: dict[str, Any]) -> None:
    """Every field a command sets is a field of its model, and every input it reads is in its schema."""
    for field, source in apply.items():
        if field not in resource.model.fields:
            raise _fail(f"{where}.apply.{field}", f"not a field of model {resource.model.code}")
        if "input" in source and source["input"] not in schema["properties"]:
            raise _fail(f"{where}.apply.{field}.input", f"{source['input']!r} is not an input property")


def _check_fit(where: str, raw: dict[str, Any], resource: ResourceCap, schema: dict[str, Any]) -> None:
    """Every input and constant a command applies is a value its field accepts, and a create fills
    every required field: the document advertises no value the service would refuse."""
    for field, source in raw["apply"].items():
        decl = resource.model.fields[field]
        if "input" in source:
            problem = fit.input_problem(schema["properties"][source["input"]], decl)
            if problem is not None:
                raise _fail(f"{where}.input.properties.{source['input']}", f"{problem} ({resource.model.code}.{field})")
        elif "value" in source:
            problem = fit.constant_problem(source["value"], decl)
            if problem is not None:
                raise _fail(f"{where}.apply.{field}.value", problem)
    if raw["action"] == "create":
        unfilled = fit.unfilled_fields(resource.model, raw["apply"], list(schema.get("required", [])))
        if unfilled:
            raise _fail(f"{where}.apply", f"leaves the required field(s) {unfilled} of {resource.model.code} empty: "
                                          "apply a constant or a required input to each")


def _check_emits(
    where: str, emits: str, raw: dict[str, Any], resource: ResourceCap, webhook_events: dict[str, WebhookEventCap]
) -> None:
    """The event a command emits exists, is of its resource and action, and an update one can fire."""
    event = webhook_events.get(emits)
    if event is None:
        raise _fail(f"{where}.emits", f"unknown webhook event {emits!r}")
    if event.resource is not resource or event.on != raw["action"]:
        raise _fail(f"{where}.emits", f"{emits} is emitted by a {event.on} of {event.resource.name}")
    if event.on == "update" and not set(event.when_changed) & set(raw["apply"]):
        raise _fail(f"{where}.emits", f"the command changes none of {list(event.when_changed)}")


def _parse_event_sources(section: dict[str, Any]) -> dict[str, EventSourceCap]:
    """``eventSources``: each event type's payload schemas, by schema version."""
    event_sources: dict[str, EventSourceCap] = {}
    for code, raw in section.items():
        types = {
            etype: _parse_schema_versions(f"eventSources.{code}.types.{etype}", versions)
            for etype, versions in raw["types"].items()
        }
        event_sources[code] = EventSourceCap(
            code=code, description=raw.get("description", ""), scope=raw["scope"], types=types
        )
    return event_sources


def _parse_schema_versions(where: str, versions: dict[Any, Any]) -> dict[int, dict[str, Any]]:
    """An event type's schemas; YAML keys may be ints or strings, so versions are checked as text."""
    schemas: dict[int, dict[str, Any]] = {}
    for version, schema in versions.items():
        at = f"{where}.{version}"
        if not re.fullmatch(r"[1-9][0-9]{0,5}", str(version)):
            raise _fail(at, "schema versions are positive integers")
        schemas[int(version)] = _check_schema(at, schema)
    return schemas


def load_capabilities(path: Path, declarations: Declarations) -> Capabilities:
    try:
        doc = yamlfile.load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise CapabilityError(f"{path.name}: not valid YAML: {exc}") from None
    return parse_capabilities(doc, declarations)
