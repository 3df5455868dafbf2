"""Operation resolution for the generated Open Platform document.

Replaces Connexion 3.3's ``connexion.resolver.Resolver`` for operations the registry generates:
those operationIds (``listAssets``, ``executeAssetsAssign``...) name no importable function, so
they resolve to the handlers built from the registry; every other operation resolves as usual
(``x-openapi-router-controller`` plus ``operationId``).
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
