"""Demo data: tenants ``demo`` and ``acme``, three users (one in both tenants), assets and stock-ins.

Idempotent but for the password: seeding an already seeded database adds no data, so ``tessera serve
--demo`` can be run again and again on the same file, and it sets the demo users' password to the one
in use (``TESSERA_DEMO_PASSWORD``, or the one generated for this start), so the password a start
prints always signs in, whatever an earlier start used.
"""

from __future__ import annotations

import logging
import random
import secrets
from datetime import UTC, date, datetime, timedelta

from storage import automations, identity
from storage.drivers.engine import Executor
from storage.records import RecordRepository
from tessera.runtime import Runtime

log = logging.getLogger("tessera.demo")

DEMO_USERS = (
    ("admin@demo.example", "Demo Admin", "demo", "admin", ("sys.connector.update",)),
    ("viewer@demo.example", "Demo Viewer", "demo", "viewer", ()),
    ("admin@acme.example", "Acme Admin", "acme", "admin", ()),
)
# Extra memberships: the demo administrator is also a viewer in acme, so the admin console's tenant
# switch (and a role that differs per tenant) can be tried on the demo.
EXTRA_MEMBERSHIPS = (
    ("admin@demo.example", "acme", "viewer"),
)
ASSET_KINDS = ("ThinkPad X1", "MacBook Pro", "Dell Latitude", "iPhone 15", "Pixel 8", "Forklift", "Barcode Scanner",
               "Label Printer", "Monitor 27in", "Docking Station")
ASSIGNEES = ("alice", "bob", "carol", "dave", "erin", "frank")
WAREHOUSES = ("north", "south", "east")


def asset_payload(rng: random.Random, tenant: str, index: int) -> dict[str, object]:
    status = rng.choice(("in_stock", "in_stock", "assigned", "retired"))
    return {
        "name": f"{rng.choice(ASSET_KINDS)} #{index:05d}",
        "serialNo": f"{tenant.upper()}-SN-{index:06d}",
        "status": status,
        "assignee": rng.choice(ASSIGNEES) if status == "assigned" else None,
        "value": round(rng.uniform(50, 5000), 2),
        "purchasedAt": (date(2022, 1, 1) + timedelta(days=rng.randrange(0, 1400))).isoformat(),
    }


def stock_in_payload(rng: random.Random, index: int) -> dict[str, object]:
    received = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=rng.randrange(0, 300_000))
    return {
        "sku": f"SKU-{rng.randrange(1000, 9999)}-{index:04d}",
        "quantity": rng.randrange(1, 500),
        "warehouse": rng.choice(WAREHOUSES),
        "receivedAt": received.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "source": rng.choice(("manual", "erp", "robot-fleet")),
    }


# Robot fleets report goods received; each report becomes a stock-in record (which in turn emits
# the inventory.stock-in.created webhook).
DEMO_AUTOMATION = {
    "name": "Robot fleet receipts become stock-ins",
    "trigger_source": "robot-fleet",
    "trigger_type": "inventory.received",
    "actions": [{
        "kind": "sessionCommand",
        "command": "stock-ins:create",
        "payload": {"sku": "$.data.sku", "quantity": "$.data.quantity", "warehouse": "$.data.warehouse",
                    "receivedAt": "$.occurredAt", "source": "robot-fleet"},
    }],
}


async def seed_demo(rt: Runtime, password: str | None) -> str:
    """Create the demo tenants, users and records when absent, else set the demo users' password to
    ``password`` (a generated one when None); return the password in use."""
    password = password or secrets.token_urlsafe(12)
    decl = rt.declarations
    rng = random.Random(20261122)
    now = rt.clock.now()
    async with rt.db.write() as conn:
        if await identity.find_tenant(conn, "demo") is not None:
            # Databases seeded before a membership was added to the demo get it now.
            await _add_extra_memberships(conn, now)
            reset = await identity.set_password_hash(conn, [user[0] for user in DEMO_USERS],
                                                     rt.passwords.hash(password))
            log.info("demo.already_seeded", extra={"passwordReset": reset})
            return password
        tenant_ids = {
            "demo": await identity.create_tenant(conn, "demo", "Demo Corporation", decl.roles, now=now),
            "acme": await identity.create_tenant(conn, "acme", "Acme Industries", decl.roles, now=now),
        }
        password_hash = rt.passwords.hash(password)
        for email, name, tenant, role, platform_roles in DEMO_USERS:
            user = await identity.create_user(conn, email, name, password_hash, tenant_ids[tenant], now=now)
            await identity.add_membership(conn, tenant_ids[tenant], user.id, role, now=now)
            for platform_role in platform_roles:
                await identity.grant_platform_role(conn, user.id, platform_role)
        for tenant, count in (("demo", 120), ("acme", 30)):
            repo = RecordRepository(conn, tenant_ids[tenant], decl.models["asset"])
            for index in range(1, count + 1):
                await repo.insert(asset_payload(rng, tenant, index), None, now=now)
        stock = RecordRepository(conn, tenant_ids["demo"], decl.models["stockIn"])
        for index in range(1, 41):
            await stock.insert(stock_in_payload(rng, index), None, now=now)
        await automations.create_automation(conn, tenant_ids["demo"], DEMO_AUTOMATION, now=now)
        await _add_extra_memberships(conn, now)
    log.info("demo.seeded", extra={"tenants": 2, "users": len(DEMO_USERS), "assets": 150, "stockIns": 40})
    return password


async def _add_extra_memberships(conn: Executor, now: datetime) -> None:
    """Add the memberships of ``EXTRA_MEMBERSHIPS`` that are missing (idempotent)."""
    for email, tenant_code, role in EXTRA_MEMBERSHIPS:
        user = await identity.find_user_by_email(conn, email)
        tenant = await identity.find_tenant(conn, tenant_code)
        if user is None or tenant is None or await identity.membership(conn, user.id, tenant_code) is not None:
            continue
        await identity.add_membership(conn, tenant.id, user.id, role, now=now)
