"""The tenant's roles, the permissions each grants, and the template of ``models.yaml`` it follows.

A role drifts from its template two ways, and both are shown rather than hidden: ``missing`` is
what a template gained since the tenant was created, until ``tessera migrate`` brings it
(``storage.schema.role_sync``); ``extra`` is what the role grants beyond its template, a tenant's own
grant or one a template dropped, which nothing removes on its own.
"""

from __future__ import annotations

from typing import Any

from storage import identity
from tessera.access.actors import Actor
from tessera.lists.contract import FirstPage, page_of
from tessera.runtime import Runtime

PERMISSION = "roles:view"


async def list_roles(rt: Runtime, actor: Actor) -> dict[str, Any]:
    actor.require(PERMISSION)
    async with rt.db.read() as conn:
        found = await identity.tenant_roles(conn, actor.tenant_id)
    records = []
    for code, (name, grants) in sorted(found.items()):
        template = rt.declarations.roles.get(code)
        wanted = sorted(template.permissions) if template is not None else None
        records.append({"code": code, "name": name, "permissions": grants, "template": wanted,
                        "extra": sorted(set(grants) - set(wanted or ())),
                        "missing": sorted(set(wanted or ()) - set(grants))})
    return page_of(records, len(records), FirstPage(max(len(records), 1)))
