"""Operation resolution for the two generated documents.

Replaces Connexion 3.3's ``connexion.resolver.Resolver`` for operations the registries generate:
those operationIds (``listAssets``, ``executeAssetsAssign`` of the Open Platform;
``listAssetsRecords``, ``executeAssetsCreateCommand`` of the session API) name no importable
function, so they resolve to the handlers built from ``capabilities.yaml`` and ``models.yaml``;
every other operation resolves as usual (``x-openapi-router-controller`` plus ``operationId``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from connexion.resolver import Resolver


class CapabilityResolver(Resolver):
    def __init__(self, generated: dict[str, Callable[..., Any]]) -> None:
        super().__init__()
        self.generated = generated

    def resolve_operation_id(self, operation: Any) -> str:
        if operation.operation_id in self.generated:
            return str(operation.operation_id)
        return str(super().resolve_operation_id(operation))

    def resolve_function_from_operation_id(self, operation_id: str) -> Any:
        if operation_id in self.generated:
            return self.generated[operation_id]
        return super().resolve_function_from_operation_id(operation_id)
