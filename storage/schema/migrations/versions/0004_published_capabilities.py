"""Published capabilities: Open Platform idempotency keys, the webhook outbox, keyset index.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import storage.schema.types

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
JSON_DOC = sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql")


def upgrade() -> None:
    op.create_table(
        "open_idempotency_keys",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("installation_id", BIG_ID, nullable=False),
        sa.Column("key", sa.String(length=255), nullable=False),
        sa.Column("request_hash", sa.String(length=64), nullable=False),
        sa.Column("state", sa.String(length=20), nullable=False),
        sa.Column("response", JSON_DOC, nullable=True),
        sa.Column("etag", sa.String(length=100), nullable=True),
        sa.Column("locked_until", storage.schema.types.UTCDateTime(), nullable=False),
        sa.Column("created_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["installation_id"], ["installations.id"],
            name=op.f("fk_open_idempotency_keys_installation_id_installations"), ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_open_idempotency_keys")),
        sa.UniqueConstraint("installation_id", "key", name=op.f("uq_open_idempotency_keys_installation_id_key")),
    )
    op.create_index("ix_open_idempotency_keys_created", "open_idempotency_keys", ["created_at"])
    op.create_table(
        "outbox_events",
        sa.Column("id", BIG_ID, autoincrement=True, nullable=False),
        sa.Column("event_id", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", BIG_ID, nullable=False),
        sa.Column("event_type", sa.String(length=100), nullable=False),
        sa.Column("payload", JSON_DOC, nullable=False),
        sa.Column("request_id", sa.String(length=128), nullable=True),
        sa.Column("occurred_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.Column("dispatched_at", storage.schema.types.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], name=op.f("fk_outbox_events_tenant_id_tenants")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_outbox_events")),
        sa.UniqueConstraint("event_id", name=op.f("uq_outbox_events_event_id")),
    )
    op.create_index("ix_outbox_events_pending", "outbox_events", ["dispatched_at", "id"])
    op.create_index("ix_outbox_events_tenant_occurred", "outbox_events", ["tenant_id", "occurred_at"])
    op.create_index("ix_records_scope_id", "records", ["tenant_id", "model", "id"])


def downgrade() -> None:
    op.drop_index("ix_records_scope_id", table_name="records")
    op.drop_table("outbox_events")
    op.drop_table("open_idempotency_keys")
