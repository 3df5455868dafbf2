"""The ``filters`` parameter of the dynamic lists, from typed conditions.

The session document declares ``filters`` as a JSON query parameter (``content:
application/json``) whose items are typed conditions (``AssetsTextComparison``,
``AssetsNullTest``...). This SDK's generator binds only plain parameters, so the list functions
take ``filters`` as text; ``encode`` writes that text from the condition models::

    from tessera_session.filters import encode
    from tessera_session.models import AssetsTextComparison, ComparisonOperator

    condition = AssetsTextComparison(field_name=..., operator=ComparisonOperator.EQ, value="in_stock")
    list_assets_records.sync(client=client, filters=encode([condition]))
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any, Protocol


class Condition(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


def encode(conditions: Iterable[Condition]) -> str:
    """The JSON text of ``filters``: every condition must hold."""
    return json.dumps([condition.to_dict() for condition in conditions], separators=(",", ":"))
