"""Who may do what with an application: its members' roles, and the audit entries of their changes.

Roles per application: owner (everything), maintainer (runtime concerns, not members), viewer
(read-only), non-member (sees nothing: 404, never a hint the application exists). Every change is
audited with actor, target, before/after and request id; no secret ever reaches the audit log.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from storage import audit
from storage.drivers.engine import Executor
from storage.openplatform import applications as app_store
from storage.openplatform.applications import ApplicationRow
from tessera.access.actors import Actor
from tessera.core.errors import Forbidden, NotFound

OWNER = "owner"
MAINTAINER = "maintainer"


async def application_for(conn: Executor, actor: Actor, app_pid: str, *, owner: bool = False,
                          lock: bool = False) -> tuple[ApplicationRow, str]:
    """The application and the actor's role in it: 404 for non-members, 403 when ``owner`` is needed.

    ``lock`` serialises membership changes of one application on PostgreSQL (the last-owner rule).
    """
    app = await app_store.application_by_pid(conn, app_pid, lock=lock)
    role = await app_store.member_role(conn, app.id, actor.user_id) if app is not None else None
    if app is None or role is None:
        raise NotFound()
    if owner and role != OWNER:
        raise Forbidden("application:owner")
    return app, role


def require_role(role: str, allowed: tuple[str, ...]) -> None:
    """403 naming the weakest role that would do, unless ``role`` is one of ``allowed``."""
    if role not in allowed:
        raise Forbidden("application:owner" if allowed == (OWNER,) else "application:maintainer")


async def audit_change(conn: Executor, actor: Actor, request_id: str | None, action: str, *, application_id: int,
                       target_type: str, target_id: str, now: datetime, before: Any = None, after: Any = None,
                       tenant_id: int | None = None) -> None:
    """Application-level entries carry no tenant (applications belong to none): their members see
    them; entries about an installation carry its tenant, so that tenant's administrators do too."""
    await audit.append(conn, tenant_id=tenant_id,
                       actor_user_id=actor.user_id, actor=actor.email, action=action, target_type=target_type,
                       target_id=target_id, before=before, after=after, request_id=request_id,
                       application_id=application_id, now=now)
