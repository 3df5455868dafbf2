"""The registry of published Open Platform capabilities (``capabilities.yaml``).

Only the scope vocabulary is used so far: installations may only be granted scopes that some
published capability needs.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml


class CapabilityError(ValueError):
    """``capabilities.yaml`` is not usable; the message names the entry."""


@dataclass(frozen=True)
class Capabilities:
    scopes: frozenset[str]
    raw: dict[str, Any]


def load_capabilities(path: Path) -> Capabilities:
    try:
        doc = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as exc:
        raise CapabilityError(f"{path.name}: not valid YAML: {exc}") from None
    scopes: set[str] = set()
    for name, resource in (doc.get("resources") or {}).items():
        if not isinstance(resource, dict) or not isinstance(resource.get("readScope"), str):
            raise CapabilityError(f"resources.{name}.readScope: a scope name is required")
        scopes.add(resource["readScope"])
    for code, command in (doc.get("commands") or {}).items():
        if not isinstance(command, dict) or not isinstance(command.get("scope"), str):
            raise CapabilityError(f"commands.{code}.scope: a scope name is required")
        scopes.add(command["scope"])
    for code, source in (doc.get("eventSources") or {}).items():
        if not isinstance(source, dict) or not isinstance(source.get("scope"), str):
            raise CapabilityError(f"eventSources.{code}.scope: a scope name is required")
        scopes.add(source["scope"])
    return Capabilities(scopes=frozenset(scopes), raw=doc)
