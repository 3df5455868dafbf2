"""Role templates reconciled into existing tenants, by ``tessera migrate`` (and every start).

``models.yaml`` declares the roles every tenant gets. A tenant gets them when it is created; a
template that gains a permission later (``vendors:view`` added to ``viewer``) reaches the tenants
created before only through this: each tenant's role of a template gets the permissions the
template has and the role lacks, and a tenant without a template's role gets the role. Nothing is
ever removed: a permission the role has beyond its template is a tenant's own grant (or one the
template dropped, which an administrator withdraws on purpose), reported as ``kept``. Every change
is logged and returned, so ``tessera migrate`` prints what it did.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from storage.drivers.db import make_engine
from storage.identity import RoleTemplate
from storage.schema.tables import role_permissions, roles, tenants

log = logging.getLogger("tessera.migrate")


@dataclass
class RoleReport:
    """What reconciling did: ``(tenant code, role code, permission)`` added, roles created, grants kept."""

    added: list[tuple[str, str, str]] = field(default_factory=list)
    created: list[tuple[str, str]] = field(default_factory=list)
    kept: list[tuple[str, str, str]] = field(default_factory=list)

    def lines(self) -> list[str]:
        """One line per change, for the operator."""
        return ([f"roles: {tenant}: role {role} created from its template" for tenant, role in self.created]
                + [f"roles: {tenant}: {role} + {permission}" for tenant, role, permission in self.added]
                + [f"roles: {tenant}: {role} keeps {permission} (not in its template; withdraw it by hand if "
                   "it should go)" for tenant, role, permission in self.kept])


def sync(database_url: str, templates: Mapping[str, RoleTemplate], *, apply: bool = True) -> RoleReport:
    """Give every tenant each template's role and every permission of it the role lacks; with ``apply``
    False, work it all out in a transaction that is rolled back (``tessera migrate --plan``)."""
    report = RoleReport()
    engine = make_engine(database_url)
    try:
        with engine.connect() as conn, conn.begin() as transaction:
            tenant_codes = dict(conn.execute(select(tenants.c.id, tenants.c.code)).all())
            held: dict[tuple[int, str], tuple[int, set[str]]] = {}
            for role_id, tenant_id, code in conn.execute(select(roles.c.id, roles.c.tenant_id, roles.c.code)):
                held[(tenant_id, code)] = (role_id, set())
            by_role = {role_id: key for key, (role_id, _) in held.items()}
            for role_id, permission in conn.execute(select(role_permissions.c.role_id, role_permissions.c.permission)):
                held[by_role[role_id]][1].add(permission)
            for tenant_id, tenant_code in sorted(tenant_codes.items(), key=lambda item: item[1]):
                for template in templates.values():
                    _reconcile(conn, report, tenant_id, tenant_code, template, held.get((tenant_id, template.code)))
            if not apply:
                transaction.rollback()
                return report
    finally:
        engine.dispose()
    for line in report.lines():
        log.info("migrate.roles", extra={"change": line})
    return report


def _reconcile(conn: Connection, report: RoleReport, tenant_id: int, tenant_code: str, template: RoleTemplate,
               found: tuple[int, set[str]] | None) -> None:
    """One tenant's role of one template: created if missing, given what the template gained."""
    wanted = set(template.permissions)
    # Inserts that skip a row another process added meanwhile (two processes starting together on
    # SQLite, which has no migration lock): each change is made once, whoever makes it.
    insert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
    if found is None:
        conn.execute(insert(roles).values(tenant_id=tenant_id, code=template.code, name=template.name)
                     .on_conflict_do_nothing())
        role_id = conn.execute(select(roles.c.id).where(roles.c.tenant_id == tenant_id,
                                                        roles.c.code == template.code)).scalar_one()
        report.created.append((tenant_code, template.code))
        found = (role_id, set())
    role_id, has = found
    for permission in sorted(wanted - has):
        conn.execute(insert(role_permissions).values(role_id=role_id, permission=permission).on_conflict_do_nothing())
        report.added.append((tenant_code, template.code, permission))
    report.kept.extend((tenant_code, template.code, p) for p in sorted(has - wanted))
