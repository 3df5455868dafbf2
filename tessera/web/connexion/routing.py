"""What Connexion's routing middleware left in the ASGI scope, read here so that no module outside
this package knows Connexion's scope keys (Connexion 3.3.0 keeps the routed operation under
``scope["extensions"]["connexion_routing"]``)."""

from __future__ import annotations

from starlette.types import Scope


def routed_operation_id(scope: Scope) -> str | None:
    """The operationId Connexion routed the request to (its resolved form ends with it), if any."""
    routed = (scope.get("extensions") or {}).get("connexion_routing")
    operation_id = routed.get("operation_id") if routed else None
    return str(operation_id).rsplit(".", 1)[-1] if operation_id else None
