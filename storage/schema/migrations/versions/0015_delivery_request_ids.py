"""Webhook deliveries carry the request id of the call that caused their event.

- ``deliveries.request_id``: copied from the event (``outbox_events.request_id``) when the fan-out
  makes the delivery, and for the existing rows here; its attempts are found through it. The
  specification: the service indexes ``X-Request-Id`` in call audit and webhook delivery logs.
- ``ix_deliveries_request_id``: a request id's deliveries (the delivery list's ``requestId`` filter).

On PostgreSQL the index is built CONCURRENTLY, outside the migration's transaction (as ``0007``).

Revision ID: 0015
Revises: 0014
"""

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

INDEX = "ix_deliveries_request_id"


def upgrade() -> None:
    with op.batch_alter_table("deliveries") as batch:
        batch.add_column(sa.Column("request_id", sa.String(length=128), nullable=True))
    bind = op.get_bind()
    bind.execute(sa.text("UPDATE deliveries SET request_id = (SELECT request_id FROM outbox_events "
                         "WHERE outbox_events.id = deliveries.event_id)"))
    if bind.dialect.name != "postgresql":
        op.create_index(INDEX, "deliveries", ["request_id"])
        return
    with op.get_context().autocommit_block():
        op.create_index(INDEX, "deliveries", ["request_id"], postgresql_concurrently=True, if_not_exists=True)


def downgrade() -> None:
    op.drop_index(INDEX, table_name="deliveries")
    with op.batch_alter_table("deliveries") as batch:
        batch.drop_column("request_id")
