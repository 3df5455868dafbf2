"""The session API's caller and answers, without a web framework.

Why one module: the JWT is verified as Tessera verifies it (PyJWT, HS256 under the ``session-jwt``
key, audience ``tessera-session``, issuer ``tessera``, ``exp``/``iat``/``sub``/``tid``/``jti`` required,
expiry against the clock), the user and their membership decide between 401, 403 for the tenant and
the actor, and a success or a replay is one envelope; both hand-written servers must answer so, and
they differ only in how they read the request, query the database and write the reply.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import jwt

from baseline import refusals, rules
from baseline.store import Principal

REQUIRED_CLAIMS = ["exp", "iat", "sub", "tid", "jti"]
REPLAYED = "This request was already executed; the original result is returned."


@dataclass(frozen=True)
class Actor:
    user_id: int
    email: str
    tenant_id: int
    permissions: frozenset[str]

    def require(self, permission: str) -> None:
        if "*" not in self.permissions and permission not in self.permissions:
            raise refusals.forbidden(permission)


def claims(authorization: str | None, jwt_key: bytes) -> dict[str, Any]:
    """The verified claims of the request's bearer JWT, or 401."""
    token = rules.bearer(authorization)
    try:
        found: dict[str, Any] = jwt.decode(
            token or "", jwt_key, algorithms=["HS256"], audience="tessera-session", issuer="tessera",
            options={"require": REQUIRED_CLAIMS, "verify_exp": False, "verify_iat": False})
    except jwt.PyJWTError:
        raise refusals.unauthorized() from None
    if not isinstance(found.get("sub"), str) or not isinstance(found.get("tid"), str) \
            or not isinstance(found.get("exp"), int) or not isinstance(found.get("iat"), int) \
            or time.time() >= found["exp"]:
        raise refusals.unauthorized()
    return found


def judge(found: Principal | None, tenant: str, token_claims: dict[str, Any]) -> Actor:
    """The user acting in the token's tenant, or ``X-Tenant-Id``'s where they are a member."""
    if found is None or found.status != "active":
        raise refusals.unauthorized()
    if found.permissions is None or found.tenant_id is None:
        raise refusals.tenant_forbidden() if tenant != token_claims["tid"] else refusals.unauthorized()
    return Actor(found.user_id, found.email, found.tenant_id, found.permissions)


def present(pid: str, data: dict[str, Any], created_at: datetime, updated_at: datetime) -> dict[str, Any]:
    """A record as the session API shows it: public ``id``, its fields, timestamps."""
    return {"id": pid, **data, "created_at": rules.iso(created_at), "updated_at": rules.iso(updated_at)}


def ok_body(data: Any, replay: bool = False) -> dict[str, Any]:
    """The envelope of a success, or of a replayed command."""
    return {"code": "IDEMPOTENT_REPLAY", "message": REPLAYED, "data": data} if replay else {
        "code": "0", "message": "OK", "data": data}
