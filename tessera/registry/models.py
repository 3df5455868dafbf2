"""Loads ``models.yaml``: the declared business models, pages, commands, data sources and roles.

The file is checked as a whole at start (shape by JSON Schema, then cross references), and a bad
file stops the service with a message that names the entry, e.g. ``commands.assets:create.page``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from tessera.core import yamlfile
from tessera.core.bounds import MAX_INTEGER, MAX_NUMBER
from tessera.core.timestamps import parse_timestamp

FIELD_TYPES = ("string", "integer", "number", "boolean", "date", "datetime", "enum")
SYSTEM_FIELDS = ("created_at", "updated_at")
CODE_RE = r"^[A-Za-z][A-Za-z0-9_]{0,62}$"
PAGE_RE = r"^[a-z][a-z0-9-]{0,62}$"
COMMAND_RE = r"^[a-z][a-z0-9-]{0,62}:[a-z][a-z0-9-]{0,62}$"
PERMISSION_RE = r"^[a-z][a-z0-9.-]{0,62}:[a-z][a-z0-9-]{0,62}$"
# The permission codes the service itself checks (audit search, automations, installing into a
# tenant): models.yaml must declare them, so that a role can grant them by their declared name.
SERVICE_PERMISSIONS = ("audit:view", "automations:view", "automations:manage", "open-platform:install", "roles:view")


class DeclarationError(ValueError):
    """``models.yaml`` is not usable; the message names the entry."""


_FILE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["models", "pages", "commands", "permissions", "roles"],
    "properties": {
        "permissions": {
            "type": "object",
            "minProperties": 1,
            "propertyNames": {"pattern": PERMISSION_RE},
            "additionalProperties": {"type": "string", "minLength": 1},
        },
        "models": {
            "type": "object",
            "propertyNames": {"pattern": CODE_RE},
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "required": ["fields"],
                "properties": {
                    "label": {"type": "string"},
                    "fields": {
                        "type": "object",
                        "minProperties": 1,
                        "propertyNames": {"pattern": CODE_RE, "not": {"enum": [*SYSTEM_FIELDS, "id"]}},
                        "additionalProperties": {
                            "type": "object",
                            "additionalProperties": False,
                            "required": ["type"],
                            "properties": {
                                "type": {"enum": list(FIELD_TYPES)},
                                "label": {"type": "string"},
                                "required": {"type": "boolean"},
                                "nullable": {"type": "boolean"},
                                "unique": {"type": "boolean"},
                                "searchable": {"type": "boolean"},
                                "default": {},
                                "values": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                                "minimum": {"type": "number"},
                                "exclusiveMinimum": {"type": "number"},
                                "maximum": {"type": "number"},
                                "maxLength": {"type": "integer", "minimum": 1},
                                "renamedFrom": {"type": "string", "pattern": CODE_RE},
                            },
                        },
                    },
                },
            },
        },
        "pages": {
            "type": "object",
            "propertyNames": {"pattern": PAGE_RE},
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "required": ["model", "permission"],
                "properties": {"model": {"type": "string"}, "permission": {"type": "string"}},
            },
        },
        "commands": {
            "type": "object",
            "propertyNames": {"pattern": COMMAND_RE},
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "required": ["page", "action", "permission"],
                "properties": {
                    "page": {"type": "string"},
                    "action": {"enum": ["create", "update", "delete"]},
                    "permission": {"type": "string"},
                },
            },
        },
        "datasources": {
            "type": "object",
            "propertyNames": {"pattern": PAGE_RE},
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "required": ["kind", "permission"],
                "properties": {
                    "kind": {"enum": ["enum", "records"]},
                    "model": {"type": "string"},
                    "field": {"type": "string"},
                    "page": {"type": "string"},
                    "labelField": {"type": "string"},
                    "permission": {"type": "string"},
                    "options": {"type": "object", "additionalProperties": {"type": "string"}},
                },
            },
        },
        "roles": {
            "type": "object",
            "propertyNames": {"pattern": PAGE_RE},
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "required": ["name", "permissions"],
                "properties": {
                    "name": {"type": "string"},
                    "permissions": {"type": "array", "items": {"type": "string"}},
                },
            },
        },
    },
}


@dataclass(frozen=True)
class FieldDecl:
    code: str
    type: str
    label: str
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
    # The code this field had before (``renamedFrom``): ``tessera migrate`` moves the stored values.
    renamed_from: str | None = None


@dataclass(frozen=True)
class ModelDecl:
    code: str
    label: str
    fields: dict[str, FieldDecl]

    @property
    def searchable(self) -> tuple[str, ...]:
        return tuple(code for code, f in self.fields.items() if f.searchable)

    @property
    def unique(self) -> tuple[str, ...]:
        return tuple(code for code, f in self.fields.items() if f.unique)


@dataclass(frozen=True)
class PageDecl:
    key: str
    model: ModelDecl
    permission: str


@dataclass(frozen=True)
class CommandDecl:
    code: str
    page: PageDecl
    action: str
    permission: str


@dataclass(frozen=True)
class DatasourceDecl:
    code: str
    kind: str
    permission: str
    model: ModelDecl | None = None
    field: str | None = None
    page: PageDecl | None = None
    label_field: str | None = None
    options: dict[str, str] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class RoleDecl:
    code: str
    name: str
    permissions: tuple[str, ...]


@dataclass(frozen=True)
class Declarations:
    models: dict[str, ModelDecl]
    pages: dict[str, PageDecl]
    commands: dict[str, CommandDecl]
    datasources: dict[str, DatasourceDecl]
    roles: dict[str, RoleDecl]
    # Every tenant permission code, declared once with what it allows; everything else names these.
    permissions: dict[str, str] = dataclasses.field(default_factory=dict)


def _path(error: jsonschema.ValidationError) -> str:
    return ".".join(str(p) for p in error.absolute_path) or "(top level)"


# Keys that mean something only for some field types: (key, those types, how a message names them).
_TYPED_KEYS: tuple[tuple[str, frozenset[str], str], ...] = (
    ("minimum", frozenset({"integer", "number"}), "integer and number"),
    ("exclusiveMinimum", frozenset({"integer", "number"}), "integer and number"),
    ("maximum", frozenset({"integer", "number"}), "integer and number"),
    ("maxLength", frozenset({"string"}), "string"),
)


def _enum_values_rule(raw: dict[str, Any]) -> str | None:
    """An enum field lists its values; no other field has any."""
    if raw["type"] == "enum" and not raw.get("values"):
        return "an enum field needs `values`"
    if raw["type"] != "enum" and "values" in raw:
        return "`values` is only for enum fields"
    return None


def _typed_keys_rule(raw: dict[str, Any]) -> str | None:
    """Bounds are for numbers and a length for text: on another type they would mean nothing."""
    for key, types, named in _TYPED_KEYS:
        if key in raw and raw["type"] not in types:
            return f"`{key}` is only for {named} fields"
    return None


def _flags_rule(raw: dict[str, Any]) -> str | None:
    """``searchable`` and ``unique`` only on the types that support them (each names its types)."""
    if raw.get("searchable") and raw["type"] not in {"string", "enum"}:
        return "only string and enum fields can be searchable"
    if raw.get("unique") and raw["type"] not in {"string", "integer", "enum", "date"}:
        return "`unique` is for string, integer, enum and date fields"
    return None


def _enum_default_rule(raw: dict[str, Any]) -> str | None:
    """An enum field's default is one of its values, like any value the field holds."""
    default = raw.get("default")
    if raw["type"] == "enum" and default is not None and default not in raw["values"]:
        return f"default {default!r} is not one of its values"
    return None


# The rules of a field declaration, in the order they are checked: the first one broken is reported.
_FIELD_RULES = (_enum_values_rule, _typed_keys_rule, _flags_rule, _enum_default_rule)


def _default_problem(raw: dict[str, Any]) -> str | None:
    """What is wrong with a field's ``default`` as a value of the field (its type, bounds and
    length), or None: a default the service would refuse in a payload is refused here, by name,
    instead of surfacing as a schema error of a generated document."""
    if "default" not in raw or raw["type"] == "enum":  # an enum's default is checked against its values
        return None
    return _raw_value_problem(raw, raw["default"])


def value_problem(decl: FieldDecl, value: Any) -> str | None:
    """What is wrong with a non-null ``value`` as a value of the field ``decl`` (its type, values,
    bounds and length), or None: what a payload check would refuse, said for a declaration."""
    if decl.type == "enum":
        return None if value in decl.values else f"{value!r} is not one of {list(decl.values)}"
    raw: dict[str, Any] = {"type": decl.type}
    for key, given in (("minimum", decl.minimum), ("exclusiveMinimum", decl.exclusive_minimum),
                       ("maximum", decl.maximum), ("maxLength", decl.max_length)):
        if given is not None:
            raw[key] = given
    return _raw_value_problem(raw, value)


def _raw_value_problem(raw: dict[str, Any], value: Any) -> str | None:
    ftype = raw["type"]
    if not _OF_TYPE[ftype](value):
        return f"{value!r} is not a {ftype}"
    if ftype in ("integer", "number"):
        return _number_problem(value, raw, MAX_INTEGER if ftype == "integer" else MAX_NUMBER)
    if ftype == "string" and "maxLength" in raw and len(value) > raw["maxLength"]:
        return f"{value!r} is longer than maxLength {raw['maxLength']}"
    return None


def _is_date(value: Any) -> bool:
    """A ``YYYY-MM-DD`` string naming a day of the calendar."""
    if not isinstance(value, str) or re.fullmatch(r"\d{4}-\d{2}-\d{2}", value) is None:
        return False
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


# Whether a default is a value of its field's type (enums are checked against their values).
_OF_TYPE: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool),
    "date": _is_date,
    "datetime": lambda v: isinstance(v, str) and parse_timestamp(v) is not None,
}


def _number_problem(value: float, raw: dict[str, Any], largest: float) -> str | None:
    if abs(value) > largest:
        return f"{value!r} is beyond the largest magnitude stored ({largest:g})"
    if "minimum" in raw and value < raw["minimum"]:
        return f"{value!r} is below minimum {raw['minimum']}"
    if "exclusiveMinimum" in raw and value <= raw["exclusiveMinimum"]:
        return f"{value!r} is not above exclusiveMinimum {raw['exclusiveMinimum']}"
    if "maximum" in raw and value > raw["maximum"]:
        return f"{value!r} is above maximum {raw['maximum']}"
    return None


def _check_field(model: str, code: str, raw: dict[str, Any]) -> FieldDecl:
    """The field declaration ``raw`` (already valid against the file's JSON Schema) as a :class:`FieldDecl`,
    once it keeps the rules that schema does not state: which keys go with which type (``_FIELD_RULES``)."""
    for rule in _FIELD_RULES:
        problem = rule(raw)
        if problem is not None:
            raise DeclarationError(f"models.yaml: models.{model}.fields.{code}: {problem}")
    problem = _default_problem(raw)
    if problem is not None:
        raise DeclarationError(f"models.yaml: models.{model}.fields.{code}.default: {problem}")
    return FieldDecl(
        code=code,
        type=raw["type"],
        label=raw.get("label", code),
        required=bool(raw.get("required", False)),
        nullable=bool(raw.get("nullable", False)),
        unique=bool(raw.get("unique", False)),
        searchable=bool(raw.get("searchable", False)),
        default=raw.get("default"),
        values=tuple(raw.get("values", ())),
        minimum=raw.get("minimum"),
        exclusive_minimum=raw.get("exclusiveMinimum"),
        maximum=raw.get("maximum"),
        max_length=raw.get("maxLength"),
        renamed_from=raw.get("renamedFrom"),
    )


def parse_declarations(doc: Any) -> Declarations:
    """Validate a parsed ``models.yaml`` document and build the declarations.

    The sections are read in dependency order (pages name models, commands name pages, data
    sources name both), so the first bad entry, in that order, is the one reported.
    """
    _check_shape(doc)
    models = _parse_models(doc["models"])
    pages = _parse_pages(doc["pages"], models)
    commands = _parse_commands(doc["commands"], pages)
    datasources = _parse_datasources(doc.get("datasources") or {}, models, pages)
    roles = _parse_roles(doc["roles"])
    permissions = dict(doc["permissions"])
    _check_permissions(permissions, pages, commands, datasources, roles)
    return Declarations(models=models, pages=pages, commands=commands, datasources=datasources, roles=roles,
                        permissions=permissions)


def _check_permissions(declared: dict[str, str], pages: dict[str, PageDecl], commands: dict[str, CommandDecl],
                       datasources: dict[str, DatasourceDecl], roles: dict[str, RoleDecl]) -> None:
    """Every permission a page, command, data source or role names is declared under
    ``permissions``, and so is every one the service checks: a typo is refused here, by name,
    instead of turning into a 403 for every user."""
    for code in SERVICE_PERMISSIONS:
        if code not in declared:
            raise DeclarationError(f"models.yaml: permissions: {code!r} is checked by the service and must be "
                                   "declared")
    for where, code in _named_permissions(pages, commands, datasources, roles):
        if code not in declared:
            raise DeclarationError(f"models.yaml: {where}: {code!r} is not a declared permission "
                                   "(declare it under permissions:)")


def _named_permissions(pages: dict[str, PageDecl], commands: dict[str, CommandDecl],
                       datasources: dict[str, DatasourceDecl], roles: dict[str, RoleDecl]) -> list[tuple[str, str]]:
    """Every permission code the file names outside ``permissions``, with where it names it."""
    return [*((f"pages.{k}.permission", p.permission) for k, p in pages.items()),
            *((f"commands.{k}.permission", c.permission) for k, c in commands.items()),
            *((f"datasources.{k}.permission", d.permission) for k, d in datasources.items()),
            *((f"roles.{k}.permissions.{i}", code) for k, r in roles.items()
              for i, code in enumerate(r.permissions) if code != "*")]


def _check_shape(doc: Any) -> None:
    """The file's JSON Schema; of all violations, the one at the first path (in sort order) is reported."""
    validator = jsonschema.Draft202012Validator(_FILE_SCHEMA)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        first = errors[0]
        raise DeclarationError(f"models.yaml: {_path(first)}: {first.message}")


def _parse_models(section: dict[str, Any]) -> dict[str, ModelDecl]:
    models: dict[str, ModelDecl] = {}
    for code, raw in section.items():
        fields = {fcode: _check_field(code, fcode, fraw) for fcode, fraw in raw["fields"].items()}
        _check_renames(code, fields)
        models[code] = ModelDecl(code=code, label=raw.get("label", code), fields=fields)
    return models


def _check_renames(model: str, fields: dict[str, FieldDecl]) -> None:
    """A rename names a code the model no longer declares, and no two fields take the same old code:
    the values ``tessera migrate`` moves must have exactly one place to go."""
    taken: dict[str, str] = {}
    for code, decl in fields.items():
        old = decl.renamed_from
        if old is None:
            continue
        if old in fields:
            raise DeclarationError(f"models.yaml: models.{model}.fields.{code}.renamedFrom: {old!r} is still a "
                                   f"field of {model} (a rename moves its values away; remove it first)")
        if old in taken:
            raise DeclarationError(f"models.yaml: models.{model}.fields.{code}.renamedFrom: {taken[old]!r} is "
                                   f"renamed from {old!r} already")
        taken[old] = code


def _parse_pages(section: dict[str, Any], models: dict[str, ModelDecl]) -> dict[str, PageDecl]:
    """``pages``: each shows a declared model."""
    pages: dict[str, PageDecl] = {}
    for key, raw in section.items():
        if raw["model"] not in models:
            raise DeclarationError(f"models.yaml: pages.{key}.model: unknown model {raw['model']!r}")
        pages[key] = PageDecl(key=key, model=models[raw["model"]], permission=raw["permission"])
    return pages


def _parse_commands(section: dict[str, Any], pages: dict[str, PageDecl]) -> dict[str, CommandDecl]:
    """``commands``: each belongs to a declared page, whose key is the module part of its code."""
    commands: dict[str, CommandDecl] = {}
    for code, raw in section.items():
        if raw["page"] not in pages:
            raise DeclarationError(f"models.yaml: commands.{code}.page: unknown page {raw['page']!r}")
        if code.split(":", 1)[0] != raw["page"]:
            raise DeclarationError(f"models.yaml: commands.{code}: the module part must be its page {raw['page']!r}")
        commands[code] = CommandDecl(
            code=code, page=pages[raw["page"]], action=raw["action"], permission=raw["permission"]
        )
    return commands


def _parse_datasources(
    section: dict[str, Any], models: dict[str, ModelDecl], pages: dict[str, PageDecl]
) -> dict[str, DatasourceDecl]:
    """``datasources`` (optional): option lists of an enum field, or of the records of a page."""
    datasources: dict[str, DatasourceDecl] = {}
    for code, raw in section.items():
        where = f"datasources.{code}"
        if raw["kind"] == "enum":
            datasources[code] = _enum_datasource(where, code, raw, models)
        else:
            datasources[code] = _records_datasource(where, code, raw, pages)
    return datasources


def _enum_datasource(where: str, code: str, raw: dict[str, Any], models: dict[str, ModelDecl]) -> DatasourceDecl:
    """An enum field's values, each with a label, in the field's order."""
    model = models.get(raw.get("model", ""))
    if model is None:
        raise DeclarationError(f"models.yaml: {where}.model: unknown model {raw.get('model')!r}")
    fdecl = model.fields.get(raw.get("field", ""))
    if fdecl is None or fdecl.type != "enum":
        raise DeclarationError(f"models.yaml: {where}.field: must name an enum field of {model.code}")
    options = dict(raw.get("options") or {})
    missing = set(fdecl.values) - set(options)
    if missing:
        raise DeclarationError(f"models.yaml: {where}.options: labels missing for {sorted(missing)}")
    return DatasourceDecl(
        code=code, kind="enum", permission=raw["permission"], model=model,
        field=fdecl.code, options={v: options[v] for v in fdecl.values},
    )


def _records_datasource(where: str, code: str, raw: dict[str, Any], pages: dict[str, PageDecl]) -> DatasourceDecl:
    """The records of a page, each labelled by one of its model's fields."""
    page = pages.get(raw.get("page", ""))
    if page is None:
        raise DeclarationError(f"models.yaml: {where}.page: unknown page {raw.get('page')!r}")
    label_field = raw.get("labelField", "")
    if label_field not in page.model.fields:
        raise DeclarationError(f"models.yaml: {where}.labelField: not a field of {page.model.code}")
    return DatasourceDecl(
        code=code, kind="records", permission=raw["permission"], page=page,
        model=page.model, label_field=label_field,
    )


def _parse_roles(section: dict[str, Any]) -> dict[str, RoleDecl]:
    return {
        code: RoleDecl(code=code, name=raw["name"], permissions=tuple(raw["permissions"]))
        for code, raw in section.items()
    }


def load_declarations(path: Path) -> Declarations:
    try:
        doc = yamlfile.load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise DeclarationError(f"{path.name}: not valid YAML: {exc}") from None
    return parse_declarations(doc)


def name_is_code(value: str) -> bool:
    return re.fullmatch(CODE_RE, value) is not None
