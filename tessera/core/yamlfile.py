"""YAML read with libyaml's parser when PyYAML has it.

The registries and the OpenAPI skeletons are parsed on every app build, every ``tessera`` command
and every generate; PyYAML's pure-Python scanner spends about a second on the two documents, its C
scanner a tenth of that. Both build the same values (the same safe constructor), so the pure-Python
loader is only the fallback where libyaml is missing.
"""

from __future__ import annotations

from typing import Any

import yaml

_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(text: str) -> Any:
    """The value of one YAML document, as ``yaml.safe_load`` gives it."""
    return yaml.load(text, Loader=_LOADER)  # noqa: S506 - a safe loader (libyaml's or PyYAML's)
