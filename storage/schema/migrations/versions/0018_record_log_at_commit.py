"""Record changes are numbered at commit, so writers of one model no longer queue for a whole transaction.

Migration ``0017`` numbered a (tenant, model)'s changes in statement triggers that upserted the
pair's ``record_stamps`` row: its lock was held from a write until the writer committed. The
service's own transactions run Python between a write and their COMMIT (a create with a unique field
reads its claims back; an update reads its row), so eight clients creating assets in one tenant
queued on that row for whole round trips: command execute fell from 247 to 178-221 creates a
second at 1,000,000 records (measured in one session; the triggers removed, 251).

Now:

- PostgreSQL: ``DEFERRABLE INITIALLY DEFERRED`` constraint triggers, one per changed row, run at
  COMMIT. Each takes the pair's transaction-level advisory lock (in memory: nothing is written, and
  a transaction of many changes takes it once), numbers its change one past the pair's last logged
  change, and inserts it; every 64th change prunes the 64 that fell out of the kept 2,000. The
  lock is held only through the commit, and changes still commit in ``seq`` order, so every
  snapshot sees a gapless prefix of them. (A row lock on the stamp row did the same, at a WAL
  record and a dirtied page per commit; an ``UPDATE`` of it, as 0017 did, leaves one row version per
  change, which made a 100,000-row transaction take 161 s instead of 11.)
- A writer of many rows that does not want them logged one by one (``migrate``'s field moves,
  bulk seeding) sets ``tessera.record_log`` to ``epoch`` for its transaction and draws a new
  ``record_stamps.stamp`` (``storage.record_cache.epoch_writes``): the triggers' ``WHEN`` clause
  then queues nothing, and every list of the model is read again. Any other writer is logged, a
  hand-made bulk load included (about 50 microseconds a row on the 2-core host).
- SQLite keeps row triggers that run in the statement (one writer at a time: nothing queues), with
  the same numbering and pruning.
- ``record_stamps.seq`` goes: the last change is ``max(record_changes.seq)`` of the pair, which the
  trigger reads under the lock (read committed: it sees the last committer's change). The stamp
  row keeps the epoch only, written at a pair's first logged change and by bulk writers. A writer at
  ``REPEATABLE READ`` or ``SERIALIZABLE`` racing another writer of the pair can therefore fail its
  commit with a unique violation, which such writers retry like a serialization failure.

Revision ID: 0018
Revises: 0017
"""

import importlib.util
from pathlib import Path
from types import ModuleType

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

KEEP = 2_000  # changes kept per (tenant, model): record_cache.MAX_DELTA
PRUNE_EVERY = 64  # changes between two prunes: the log of a pair holds KEEP to KEEP + 63 of them
EVENTS = ("INSERT", "UPDATE", "DELETE")
EPOCH_SETTING = "tessera.record_log"

# The two-key advisory lock space of the log: this constant and a hash of the pair (Tessera's other
# advisory lock, migrate's, is in the one-key space, which never conflicts with this one).
LOCK_SPACE = 1_919_251_317

_PG_FUNCTION = f"""
CREATE OR REPLACE FUNCTION tessera_log_record_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    changed records;
    last_seq bigint;
BEGIN
    IF TG_OP = 'INSERT' THEN changed := NEW; ELSE changed := OLD; END IF;
    PERFORM pg_advisory_xact_lock({LOCK_SPACE}, hashtext(changed.tenant_id || ':' || changed.model));
    SELECT coalesce(max(seq), 0) + 1 INTO last_seq FROM record_changes
    WHERE tenant_id = changed.tenant_id AND model = changed.model;
    IF last_seq = 1 THEN  -- the pair's first logged change: its epoch, unless a bulk writer drew one
        INSERT INTO record_stamps (tenant_id, model, stamp)
        VALUES (changed.tenant_id, changed.model, floor(random() * 9.2e18)::bigint) ON CONFLICT DO NOTHING;
    END IF;
    IF TG_OP = 'INSERT' THEN
        INSERT INTO record_changes (tenant_id, model, seq, record_id)
        VALUES (changed.tenant_id, changed.model, last_seq, changed.id);
    ELSE
        INSERT INTO record_changes (tenant_id, model, seq, record_id, old_data, old_search_text, old_created_at,
                                    old_updated_at)
        VALUES (changed.tenant_id, changed.model, last_seq, changed.id,
                CASE WHEN changed.deleted_at IS NULL THEN changed.data END, changed.search_text,
                changed.created_at, changed.updated_at);
    END IF;
    IF last_seq % {PRUNE_EVERY} = 0 THEN
        DELETE FROM record_changes WHERE tenant_id = changed.tenant_id AND model = changed.model
          AND seq > last_seq - {KEEP + PRUNE_EVERY} AND seq <= last_seq - {KEEP};
    END IF;
    RETURN NULL;
END $$"""  # noqa: S608 (only this module's constants go in)


def _pg_trigger(event: str) -> str:
    return (f"CREATE CONSTRAINT TRIGGER records_log_{event.lower()} AFTER {event} ON records "
            f"DEFERRABLE INITIALLY DEFERRED FOR EACH ROW "
            f"WHEN (current_setting('{EPOCH_SETTING}', true) IS DISTINCT FROM 'epoch') "
            f"EXECUTE FUNCTION tessera_log_record_change()")


def _sqlite_trigger(event: str) -> str:
    row = "OLD" if event != "INSERT" else "NEW"
    old = ("NULL, NULL, NULL, NULL" if event == "INSERT" else
           "CASE WHEN OLD.deleted_at IS NULL THEN OLD.data END, OLD.search_text, OLD.created_at, OLD.updated_at")
    pair = f"tenant_id = {row}.tenant_id AND model = {row}.model"
    last = f"(SELECT max(seq) FROM record_changes WHERE {pair})"  # noqa: S608 (as below)
    return f"""
CREATE TRIGGER records_log_{event.lower()} AFTER {event} ON records BEGIN
    INSERT INTO record_stamps (tenant_id, model, stamp) VALUES ({row}.tenant_id, {row}.model, random())
    ON CONFLICT (tenant_id, model) DO NOTHING;
    INSERT INTO record_changes (tenant_id, model, seq, record_id, old_data, old_search_text, old_created_at,
                                old_updated_at)
    VALUES ({row}.tenant_id, {row}.model, coalesce({last}, 0) + 1, {row}.id, {old});
    DELETE FROM record_changes WHERE {pair} AND {last} % {PRUNE_EVERY} = 0
        AND seq > {last} - {KEEP + PRUNE_EVERY} AND seq <= {last} - {KEEP};
END"""  # noqa: S608 (only this module's constants go in)


def _drop_triggers(dialect: str) -> None:
    for event in EVENTS:
        on = " ON records" if dialect == "postgresql" else ""
        op.execute(f"DROP TRIGGER IF EXISTS records_log_{event.lower()}{on}")


def upgrade() -> None:
    dialect = op.get_bind().dialect.name
    _drop_triggers(dialect)
    if dialect == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS tessera_log_record_inserts()")
        op.execute("DROP FUNCTION IF EXISTS tessera_log_record_changes()")
        op.execute(_PG_FUNCTION)
        for event in EVENTS:
            op.execute(_pg_trigger(event))
    else:
        for event in EVENTS:
            op.execute(_sqlite_trigger(event))
    op.drop_column("record_stamps", "seq")


def _revision_0017() -> ModuleType:
    """The previous revision's module, whose triggers a downgrade puts back (revision files are not a
    package: alembic loads them by path, and so does this)."""
    spec = importlib.util.spec_from_file_location("revision_0017", Path(__file__).with_name("0017_record_changes.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def downgrade() -> None:
    dialect = op.get_bind().dialect.name
    previous = _revision_0017()
    op.add_column("record_stamps", sa.Column("seq", sa.BigInteger(), nullable=False, server_default="0"))
    op.execute("UPDATE record_stamps SET seq = coalesce((SELECT max(c.seq) FROM record_changes c "
               "WHERE c.tenant_id = record_stamps.tenant_id AND c.model = record_stamps.model), 0)")
    _drop_triggers(dialect)
    if dialect == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS tessera_log_record_change()")
        op.execute(previous._pg_function("tessera_log_record_inserts", "new_rows"))
        op.execute(previous._pg_function("tessera_log_record_changes", "old_rows"))
        for event, table, function in previous.PG_TRIGGERS:
            op.execute(f"CREATE TRIGGER records_log_{event.lower()} AFTER {event} ON records REFERENCING {table} "
                       f"FOR EACH STATEMENT EXECUTE FUNCTION {function}()")
    else:
        for event in EVENTS:
            op.execute(previous._sqlite_trigger(event))
