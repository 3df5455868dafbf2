"""Record changes: the database logs every write to ``records``, so list caches follow writes.

- ``record_stamps`` gains ``seq``: the number of the last change of a (tenant, model). ``stamp``
  stays the pair's epoch: on PostgreSQL a statement that changes more than 1,000 records of a pair
  (a bulk load, a field move) draws a new one and logs no rows, and every cache of the pair is read
  again; SQLite's row triggers log every row.
- ``record_changes``: one row per changed record, numbered ``seq`` within its pair, with the
  record's values before the change (``old_data`` NULL: it was in no list before, i.e. created,
  or already deleted). The last 2,000 of a pair are kept.
- Triggers on ``records`` (INSERT, UPDATE, DELETE) write both, in the writer's statement and
  transaction, whoever the writer is. The stamp row's upsert locks it until the writer commits,
  so changes of one pair commit in ``seq`` order: every snapshot sees a gapless prefix of them.
  PostgreSQL: statement triggers with transition tables (one upsert per pair and statement);
  SQLite: row triggers.
- A stamp row for every pair that has records already, so their lists are cached from the start.

Why triggers rather than the writer's code: the log must miss no write, and the writes that are
not the service's commands (a bulk load, a field move, a hand-made fix) are the ones that would.
``storage/record_cache.py`` reads the log.

Revision ID: 0017
Revises: 0016
"""

import sqlalchemy as sa
from alembic import op

import storage.schema.types

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

# Changes kept per (tenant, model): as many as a list follows at once (``record_cache.MAX_DELTA``);
# a list further behind is read again anyway. So the log of a pair is at most 2,000 versions of its
# records, whatever its age.
KEEP = 2_000
BULK = 1_000  # more records than this in one statement: a new epoch instead of change rows

# The logged values of a change: none for an insert (the record was in no list before it), else the
# record's columns before it (no data when it was already deleted: in no list either).
_PG_LOGGED = {
    "new_rows": ("", ""),
    "old_rows": (", old_data, old_search_text, old_created_at, old_updated_at",
                 ", CASE WHEN c.deleted_at IS NULL THEN c.data END, c.search_text, c.created_at, c.updated_at"),
}


def _pg_function(name: str, rows: str) -> str:
    """A statement trigger's function; ``rows`` is its transition table (``new_rows`` or ``old_rows``)."""
    columns, values = _PG_LOGGED[rows]
    return f"""
CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    pair record;
    last_seq bigint;
BEGIN
    FOR pair IN SELECT c.tenant_id, c.model, count(*) AS changed FROM {rows} c
                GROUP BY c.tenant_id, c.model ORDER BY c.tenant_id, c.model
    LOOP
        INSERT INTO record_stamps AS s (tenant_id, model, stamp, seq)
        VALUES (pair.tenant_id, pair.model, floor(random() * 9.2e18)::bigint, pair.changed)
        ON CONFLICT (tenant_id, model) DO UPDATE
            SET seq = s.seq + pair.changed,
                stamp = CASE WHEN pair.changed > {BULK} THEN floor(random() * 9.2e18)::bigint ELSE s.stamp END
        RETURNING seq INTO last_seq;
        IF pair.changed <= {BULK} THEN
            INSERT INTO record_changes (tenant_id, model, seq, record_id{columns})
            SELECT c.tenant_id, c.model, last_seq - pair.changed + row_number() OVER (ORDER BY c.id), c.id{values}
            FROM {rows} c WHERE c.tenant_id = pair.tenant_id AND c.model = pair.model;
        END IF;
        DELETE FROM record_changes
        WHERE tenant_id = pair.tenant_id AND model = pair.model
          AND seq > last_seq - pair.changed - {KEEP} AND seq <= last_seq - {KEEP};
    END LOOP;
    RETURN NULL;
END $$"""  # noqa: S608 (only this module's constants go in)


# (event, transition table, function)
PG_TRIGGERS = (
    ("INSERT", "NEW TABLE AS new_rows", "tessera_log_record_inserts"),
    ("UPDATE", "OLD TABLE AS old_rows", "tessera_log_record_changes"),
    ("DELETE", "OLD TABLE AS old_rows", "tessera_log_record_changes"),
)


def _sqlite_trigger(event: str) -> str:
    row = "OLD" if event != "INSERT" else "NEW"
    old = ("NULL, NULL, NULL, NULL" if event == "INSERT" else
           "CASE WHEN OLD.deleted_at IS NULL THEN OLD.data END, OLD.search_text, OLD.created_at, OLD.updated_at")
    pair = f"tenant_id = {row}.tenant_id AND model = {row}.model"
    return f"""
CREATE TRIGGER records_log_{event.lower()} AFTER {event} ON records BEGIN
    INSERT INTO record_stamps (tenant_id, model, stamp, seq) VALUES ({row}.tenant_id, {row}.model, random(), 1)
    ON CONFLICT (tenant_id, model) DO UPDATE SET seq = seq + 1;
    INSERT INTO record_changes (tenant_id, model, seq, record_id, old_data, old_search_text, old_created_at,
                                old_updated_at)
    SELECT {row}.tenant_id, {row}.model, seq, {row}.id, {old} FROM record_stamps WHERE {pair};
    DELETE FROM record_changes WHERE {pair} AND seq = (SELECT seq - {KEEP} FROM record_stamps WHERE {pair});
END"""  # noqa: S608 (only this module's constants go in)


def upgrade() -> None:
    op.add_column("record_stamps", sa.Column("seq", sa.BigInteger(), nullable=False, server_default="0"))
    op.create_table(
        "record_changes",
        sa.Column("tenant_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("model", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("record_id", sa.BigInteger(), nullable=False),
        sa.Column("old_data", storage.schema.types.JsonDoc, nullable=True),
        sa.Column("old_search_text", sa.Text(), nullable=True),
        sa.Column("old_created_at", storage.schema.types.UTCDateTime(), nullable=True),
        sa.Column("old_updated_at", storage.schema.types.UTCDateTime(), nullable=True),
        sa.PrimaryKeyConstraint("tenant_id", "model", "seq"),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_pg_function("tessera_log_record_inserts", "new_rows"))
        op.execute(_pg_function("tessera_log_record_changes", "old_rows"))
        for event, table, function in PG_TRIGGERS:
            op.execute(f"CREATE TRIGGER records_log_{event.lower()} AFTER {event} ON records REFERENCING {table} "
                       f"FOR EACH STATEMENT EXECUTE FUNCTION {function}()")
        op.execute("INSERT INTO record_stamps (tenant_id, model, stamp, seq) "
                   "SELECT DISTINCT tenant_id, model, floor(random() * 9.2e18)::bigint, 0 FROM records "
                   "ON CONFLICT (tenant_id, model) DO NOTHING")
    else:
        for event in ("INSERT", "UPDATE", "DELETE"):
            op.execute(_sqlite_trigger(event))
        op.execute("INSERT INTO record_stamps (tenant_id, model, stamp, seq) "
                   "SELECT DISTINCT tenant_id, model, random(), 0 FROM records WHERE true "
                   "ON CONFLICT (tenant_id, model) DO NOTHING")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for name in ("insert", "update", "delete"):
            op.execute(f"DROP TRIGGER IF EXISTS records_log_{name} ON records")
        op.execute("DROP FUNCTION IF EXISTS tessera_log_record_inserts()")
        op.execute("DROP FUNCTION IF EXISTS tessera_log_record_changes()")
    else:
        for name in ("insert", "update", "delete"):
            op.execute(f"DROP TRIGGER IF EXISTS records_log_{name}")
    op.drop_table("record_changes")
    op.drop_column("record_stamps", "seq")
