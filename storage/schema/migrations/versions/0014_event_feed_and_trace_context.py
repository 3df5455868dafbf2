"""The events API's feed order, operational events' application, and trace context.

- ``outbox_events.feed_seq`` and the one-row ``outbox_feed``: the fan-out numbers each batch it
  dispatches from ``outbox_feed.last`` (an UPDATE whose row lock it holds until it commits), so a
  reader walking ``(feed_seq, id)`` upwards never skips an event that committed late
  (``storage/openplatform/event_feed.py``). Events dispatched before this revision read as batch 0, in id order.
- ``outbox_events.application_id``: the application an operational event concerns, until now only
  in its payload (``applicationId``); copied from there for the existing rows (0 when it names no
  application that exists). Null marks a published event, which concerns the tenant.
- ``ix_outbox_events_tenant_feed`` ``(tenant_id, feed_seq, id, event_type)``: one tenant's events
  in feed order, the type checked in the index.
- ``outbox_events.traceparent`` and ``inbound_events.traceparent``: the W3C trace context of the
  span that wrote the row, so the worker's spans join the request's trace.

On PostgreSQL the index is built CONCURRENTLY, outside the migration's transaction (as ``0007``).

Revision ID: 0014
Revises: 0013
"""

import json

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

INDEX = "ix_outbox_events_tenant_feed"
INDEX_COLUMNS = ["tenant_id", "feed_seq", "id", "event_type"]
# tessera/registry/operational.py's types at this revision (a migration never imports the app).
OPERATIONAL = ("webhook.endpoint.disabled", "credential.rotation.due", "credential.expiry.approaching")


def upgrade() -> None:
    big = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
    with op.batch_alter_table("outbox_events") as batch:
        batch.add_column(sa.Column("feed_seq", big, nullable=True))
        batch.add_column(sa.Column("application_id", big, nullable=True))
        batch.add_column(sa.Column("traceparent", sa.String(length=55), nullable=True))
    with op.batch_alter_table("inbound_events") as batch:
        batch.add_column(sa.Column("traceparent", sa.String(length=55), nullable=True))
    feed = op.create_table(
        "outbox_feed",
        sa.Column("id", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("last", big, nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.bulk_insert(feed, [{"id": 1, "last": 0}])
    bind = op.get_bind()
    bind.execute(sa.text("UPDATE outbox_events SET feed_seq = 0 WHERE dispatched_at IS NOT NULL"))
    _copy_application_ids(bind)
    if bind.dialect.name != "postgresql":
        op.create_index(INDEX, "outbox_events", INDEX_COLUMNS)
        return
    with op.get_context().autocommit_block():
        op.create_index(INDEX, "outbox_events", INDEX_COLUMNS, postgresql_concurrently=True, if_not_exists=True)


def _copy_application_ids(bind: sa.engine.Connection) -> None:
    applications = dict(bind.execute(sa.text("SELECT pid, id FROM applications")).all())
    rows = bind.execute(sa.text("SELECT id, payload FROM outbox_events WHERE event_type IN :types")
                        .bindparams(sa.bindparam("types", expanding=True)), {"types": list(OPERATIONAL)}).all()
    for row_id, payload in rows:
        document = json.loads(payload) if isinstance(payload, str) else payload
        application_id = applications.get((document or {}).get("applicationId"))
        # 0, no application's id, when the payload names none that exists: the event is then shown to
        # no application, never to all of them (a null application_id marks a published event).
        bind.execute(sa.text("UPDATE outbox_events SET application_id = :a WHERE id = :i"),
                     {"a": 0 if application_id is None else application_id, "i": row_id})


def downgrade() -> None:
    op.drop_index(INDEX, table_name="outbox_events")
    op.drop_table("outbox_feed")
    with op.batch_alter_table("inbound_events") as batch:
        batch.drop_column("traceparent")
    with op.batch_alter_table("outbox_events") as batch:
        batch.drop_column("traceparent")
        batch.drop_column("application_id")
        batch.drop_column("feed_seq")
