"""Indexes the retention purge (storage/retention.py) needs so that finding old rows never scans a
table: call-audit rows and delivery attempts by age, tokens by credential (those of a revoked
credential), automation runs by inbound event (what references an inbound event; PostgreSQL also
checks that foreign key on every deleted event).

On PostgreSQL the indexes are built CONCURRENTLY, outside the migration's transaction, so a large
deployment keeps writing call audits and delivery attempts while they build.

Revision ID: 0007
Revises: 0006
"""

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

INDEXES = (
    ("ix_open_api_calls_created", "open_api_calls", ["created_at"]),
    ("ix_delivery_attempts_attempted", "delivery_attempts", ["attempted_at"]),
    ("ix_access_tokens_credential", "access_tokens", ["credential_id"]),
    ("ix_automation_runs_inbound_event", "automation_runs", ["inbound_event_id"]),
)


def _concurrently() -> bool:
    return bool(op.get_bind().dialect.name == "postgresql")


def upgrade() -> None:
    if _concurrently():
        with op.get_context().autocommit_block():
            for name, table, columns in INDEXES:
                op.create_index(name, table, columns, postgresql_concurrently=True, if_not_exists=True)
        return
    for name, table, columns in INDEXES:
        op.create_index(name, table, columns)


def downgrade() -> None:
    if _concurrently():
        with op.get_context().autocommit_block():
            for name, table, _ in reversed(INDEXES):
                op.drop_index(name, table_name=table, postgresql_concurrently=True, if_exists=True)
        return
    for name, table, _ in reversed(INDEXES):
        op.drop_index(name, table_name=table)
