"""Events: webhook endpoints, encrypted signing secrets, deliveries and their attempts, inbound
events, tenant automations and their runs.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy import Text
from sqlalchemy.dialects import postgresql

import storage.schema.types

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
JSON_DOC = sa.JSON().with_variant(postgresql.JSONB(astext_type=Text()), "postgresql")


def upgrade() -> None:
    op.create_table(
        "automations",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("pid", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", BIG_ID, nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("trigger_source", sa.String(length=100), nullable=False),
        sa.Column("trigger_type", sa.String(length=100), nullable=False),
        sa.Column("actions", JSON_DOC, nullable=False),
        sa.Column("enabled", sa.Integer(), nullable=False),
        sa.Column("created_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.Column("updated_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.Column("deleted_at", storage.schema.types.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], name=op.f("fk_automations_tenant_id_tenants")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_automations")),
        sa.UniqueConstraint("pid", name=op.f("uq_automations_pid")),
    )
    with op.batch_alter_table("automations", schema=None) as batch_op:
        batch_op.create_index("ix_automations_trigger", ["tenant_id", "trigger_source", "trigger_type"], unique=False)

    op.create_table(
        "inbound_events",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("pid", sa.String(length=40), nullable=False),
        sa.Column("installation_id", BIG_ID, nullable=False),
        sa.Column("tenant_id", BIG_ID, nullable=False),
        sa.Column("source", sa.String(length=100), nullable=False),
        sa.Column("event_type", sa.String(length=100), nullable=False),
        sa.Column("schema_version", sa.Integer(), nullable=False),
        sa.Column("occurred_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.Column("data", JSON_DOC, nullable=False),
        sa.Column("idempotency_key", sa.String(length=255), nullable=False),
        sa.Column("request_hash", sa.String(length=64), nullable=False),
        sa.Column("request_id", sa.String(length=128), nullable=True),
        sa.Column("received_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.Column("dispatched_at", storage.schema.types.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["installation_id"], ["installations.id"], name=op.f("fk_inbound_events_installation_id_installations")
        ),
        sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], name=op.f("fk_inbound_events_tenant_id_tenants")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_inbound_events")),
        sa.UniqueConstraint(
            "installation_id", "idempotency_key", name=op.f("uq_inbound_events_installation_id_idempotency_key")
        ),
        sa.UniqueConstraint("pid", name=op.f("uq_inbound_events_pid")),
    )
    with op.batch_alter_table("inbound_events", schema=None) as batch_op:
        batch_op.create_index("ix_inbound_events_pending", ["dispatched_at", "id"], unique=False)

    op.create_table(
        "webhook_endpoints",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("pid", sa.String(length=40), nullable=False),
        sa.Column("installation_id", BIG_ID, nullable=False),
        sa.Column("url", sa.String(length=2000), nullable=False),
        sa.Column("event_types", JSON_DOC, nullable=False),
        sa.Column("enabled", sa.Integer(), nullable=False),
        sa.Column("created_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.Column("updated_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.Column("deleted_at", storage.schema.types.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["installation_id"], ["installations.id"], name=op.f("fk_webhook_endpoints_installation_id_installations")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_endpoints")),
        sa.UniqueConstraint("pid", name=op.f("uq_webhook_endpoints_pid")),
    )
    with op.batch_alter_table("webhook_endpoints", schema=None) as batch_op:
        batch_op.create_index("ix_webhook_endpoints_installation", ["installation_id"], unique=False)

    op.create_table(
        "automation_runs",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("pid", sa.String(length=40), nullable=False),
        sa.Column("automation_id", BIG_ID, nullable=False),
        sa.Column("inbound_event_id", BIG_ID, nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", storage.schema.types.UTCDateTime(), nullable=True),
        sa.Column("locked_until", storage.schema.types.UTCDateTime(), nullable=True),
        sa.Column("error", sa.String(length=500), nullable=True),
        sa.Column("result", JSON_DOC, nullable=True),
        sa.Column("created_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.Column("updated_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["automation_id"], ["automations.id"], name=op.f("fk_automation_runs_automation_id_automations")
        ),
        sa.ForeignKeyConstraint(
            ["inbound_event_id"], ["inbound_events.id"], name=op.f("fk_automation_runs_inbound_event_id_inbound_events")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_automation_runs")),
        sa.UniqueConstraint(
            "automation_id", "inbound_event_id", name=op.f("uq_automation_runs_automation_id_inbound_event_id")
        ),
        sa.UniqueConstraint("pid", name=op.f("uq_automation_runs_pid")),
    )
    with op.batch_alter_table("automation_runs", schema=None) as batch_op:
        batch_op.create_index("ix_automation_runs_due", ["status", "next_attempt_at"], unique=False)

    op.create_table(
        "deliveries",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("pid", sa.String(length=40), nullable=False),
        sa.Column("endpoint_id", BIG_ID, nullable=False),
        sa.Column("event_id", BIG_ID, nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", storage.schema.types.UTCDateTime(), nullable=True),
        sa.Column("locked_until", storage.schema.types.UTCDateTime(), nullable=True),
        sa.Column("last_http_status", sa.Integer(), nullable=True),
        sa.Column("created_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.Column("updated_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["endpoint_id"], ["webhook_endpoints.id"], name=op.f("fk_deliveries_endpoint_id_webhook_endpoints")
        ),
        sa.ForeignKeyConstraint(["event_id"], ["outbox_events.id"], name=op.f("fk_deliveries_event_id_outbox_events")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_deliveries")),
        sa.UniqueConstraint("event_id", "endpoint_id", name=op.f("uq_deliveries_event_id_endpoint_id")),
        sa.UniqueConstraint("pid", name=op.f("uq_deliveries_pid")),
    )
    with op.batch_alter_table("deliveries", schema=None) as batch_op:
        batch_op.create_index("ix_deliveries_due", ["status", "next_attempt_at"], unique=False)
        batch_op.create_index("ix_deliveries_endpoint_created", ["endpoint_id", "created_at", "id"], unique=False)

    op.create_table(
        "webhook_secrets",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("endpoint_id", BIG_ID, nullable=False),
        sa.Column("secret_encrypted", sa.Text(), nullable=False),
        sa.Column("created_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.Column("expires_at", storage.schema.types.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["endpoint_id"], ["webhook_endpoints.id"], name=op.f("fk_webhook_secrets_endpoint_id_webhook_endpoints")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_webhook_secrets")),
    )
    with op.batch_alter_table("webhook_secrets", schema=None) as batch_op:
        batch_op.create_index("ix_webhook_secrets_endpoint", ["endpoint_id"], unique=False)

    op.create_table(
        "delivery_attempts",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("delivery_id", BIG_ID, nullable=False),
        sa.Column("attempted_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.Column("http_status", sa.Integer(), nullable=True),
        sa.Column("latency_ms", sa.Integer(), nullable=True),
        sa.Column("error", sa.String(length=300), nullable=True),
        sa.ForeignKeyConstraint(
            ["delivery_id"], ["deliveries.id"], name=op.f("fk_delivery_attempts_delivery_id_deliveries")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_delivery_attempts")),
    )
    with op.batch_alter_table("delivery_attempts", schema=None) as batch_op:
        batch_op.create_index("ix_delivery_attempts_delivery", ["delivery_id", "id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("delivery_attempts", schema=None) as batch_op:
        batch_op.drop_index("ix_delivery_attempts_delivery")

    op.drop_table("delivery_attempts")
    with op.batch_alter_table("webhook_secrets", schema=None) as batch_op:
        batch_op.drop_index("ix_webhook_secrets_endpoint")

    op.drop_table("webhook_secrets")
    with op.batch_alter_table("deliveries", schema=None) as batch_op:
        batch_op.drop_index("ix_deliveries_endpoint_created")
        batch_op.drop_index("ix_deliveries_due")

    op.drop_table("deliveries")
    with op.batch_alter_table("automation_runs", schema=None) as batch_op:
        batch_op.drop_index("ix_automation_runs_due")

    op.drop_table("automation_runs")
    with op.batch_alter_table("webhook_endpoints", schema=None) as batch_op:
        batch_op.drop_index("ix_webhook_endpoints_installation")

    op.drop_table("webhook_endpoints")
    with op.batch_alter_table("inbound_events", schema=None) as batch_op:
        batch_op.drop_index("ix_inbound_events_pending")

    op.drop_table("inbound_events")
    with op.batch_alter_table("automations", schema=None) as batch_op:
        batch_op.drop_index("ix_automations_trigger")

    op.drop_table("automations")
