"""Delivery rules and wake-ups: who made an attempt and what the receiver said; why an endpoint was
disabled and since when it has been failing; owners' throttles (rate limit, in-flight cap); and,
on PostgreSQL, a NOTIFY whenever work for the workers is committed.

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

import storage.schema.types

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

# One statement-level trigger per queue table: the notification is sent when the inserting
# transaction commits (never for one that rolls back), and PostgreSQL folds identical ones of a
# transaction into one, so a burst costs the workers one wake-up, and the writers no round trip.
NOTIFY_FUNCTION = """
CREATE OR REPLACE FUNCTION tessera_notify_work() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('tessera_work', TG_TABLE_NAME);
    RETURN NULL;
END
$$
"""
QUEUE_TABLES = ("outbox_events", "inbound_events", "deliveries")


def upgrade() -> None:
    with op.batch_alter_table("delivery_attempts") as batch:
        batch.add_column(sa.Column("worker", sa.String(length=100), nullable=True))
        batch.add_column(sa.Column("response_excerpt", sa.String(length=500), nullable=True))
    with op.batch_alter_table("webhook_endpoints") as batch:
        batch.add_column(sa.Column("disabled_reason", sa.String(length=200), nullable=True))
        batch.add_column(sa.Column("disabled_at", storage.schema.types.UTCDateTime(), nullable=True))
        batch.add_column(sa.Column("failing_since", storage.schema.types.UTCDateTime(), nullable=True))
        batch.add_column(sa.Column("rate_limit", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("max_in_flight", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("paced_until", storage.schema.types.UTCDateTime(), nullable=True))
    if op.get_bind().dialect.name == "postgresql":
        op.execute(NOTIFY_FUNCTION)
        for table in QUEUE_TABLES:
            op.execute(f"CREATE TRIGGER {table}_notify_work AFTER INSERT ON {table} "
                       "FOR EACH STATEMENT EXECUTE FUNCTION tessera_notify_work()")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for table in QUEUE_TABLES:
            op.execute(f"DROP TRIGGER IF EXISTS {table}_notify_work ON {table}")
        op.execute("DROP FUNCTION IF EXISTS tessera_notify_work()")
    with op.batch_alter_table("webhook_endpoints") as batch:
        batch.drop_column("paced_until")
        batch.drop_column("max_in_flight")
        batch.drop_column("rate_limit")
        batch.drop_column("failing_since")
        batch.drop_column("disabled_at")
        batch.drop_column("disabled_reason")
    with op.batch_alter_table("delivery_attempts") as batch:
        batch.drop_column("response_excerpt")
        batch.drop_column("worker")
