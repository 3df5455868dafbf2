"""Indexes for the audit-log search (``storage/audit.py``) at a million entries per tenant.

The search's scope is the tenant (``tenant_id = :t``); before this revision only the newest-first
order had an index, so a filter or a sort on ``action`` or ``actor`` read and sorted the whole
tenant's log, and a keyword was a sequential scan of the table. Now:

- ``(tenant_id, <field>, id)`` for the fields people filter and sort the log by: ``action`` and
  ``actor`` (who did what), ``target_id`` (a record's history) and ``request_id`` (one request's
  entries). The list orders on the field then ``id`` (``storage.listing.build_queries``), so a sort
  walks the index and an ``eq`` is a range of it. ``targetType`` (four values) has none: a filter on
  it alone reads a quarter of the log whatever the index.
- On PostgreSQL with ``pg_trgm`` (as ``0001``'s records keyword index): one trigram GIN index over
  the lower-cased action and actor, the fields the keyword matches (and the console's ``like``
  filters), which PostgreSQL reads once per field and ORs (a bitmap), so a keyword of three
  characters or more never scans the table. The target and request ids are not in it: they are
  random strings, whose trigrams made each audit row's insert about 0.1-0.3 ms dearer at 1,000,000
  entries; their ``eq`` filters use the B-trees above.

On PostgreSQL they are built CONCURRENTLY, outside the migration's transaction, so a deployment
keeps writing its audit log while they build (as ``0007``).

Revision ID: 0013
Revises: 0012
"""

from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

INDEXES = (
    ("ix_audit_log_tenant_action", ["tenant_id", "action", "id"]),
    ("ix_audit_log_tenant_actor", ["tenant_id", "actor", "id"]),
    ("ix_audit_log_tenant_target", ["tenant_id", "target_id", "id"]),
    ("ix_audit_log_tenant_request", ["tenant_id", "request_id", "id"]),
)
KEYWORD_INDEX = "ix_audit_log_keyword_trgm"
# Character for character the keyword condition of ``storage.audit`` (``lower(col) LIKE ...``).
KEYWORD_COLUMNS = ("action", "actor")


def _postgresql() -> bool:
    return bool(op.get_bind().dialect.name == "postgresql")


def upgrade() -> None:
    if not _postgresql():
        for name, columns in INDEXES:
            op.create_index(name, "audit_log", columns)
        return
    with op.get_context().autocommit_block():
        for name, columns in INDEXES:
            op.create_index(name, "audit_log", columns, postgresql_concurrently=True, if_not_exists=True)
        bind = op.get_bind()
        if bind.exec_driver_sql("SELECT 1 FROM pg_extension WHERE extname = 'pg_trgm'").scalar():
            expressions = ", ".join(f"lower({c}) gin_trgm_ops" for c in KEYWORD_COLUMNS)
            op.execute(f"CREATE INDEX CONCURRENTLY IF NOT EXISTS {KEYWORD_INDEX} ON audit_log "
                       f"USING gin ({expressions})")


def downgrade() -> None:
    if not _postgresql():
        for name, _ in reversed(INDEXES):
            op.drop_index(name, table_name="audit_log")
        return
    with op.get_context().autocommit_block():
        op.execute(f"DROP INDEX CONCURRENTLY IF EXISTS {KEYWORD_INDEX}")
        for name, _ in reversed(INDEXES):
            op.drop_index(name, table_name="audit_log", postgresql_concurrently=True, if_exists=True)
