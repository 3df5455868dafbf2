"""Initial schema: tenants, users, roles, memberships, records, idempotency keys, audit log.

PostgreSQL also gets the indexes behind fast session lists: a trigram index for keyword search and
expression indexes for the demo asset model's hot filter and sort fields.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import storage.schema.types

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "audit_log",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("pid", sa.String(length=40), nullable=False),
        sa.Column("tenant_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("actor_user_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("actor", sa.String(length=320), nullable=True),
        sa.Column("action", sa.String(length=100), nullable=False),
        sa.Column("target_type", sa.String(length=64), nullable=True),
        sa.Column("target_id", sa.String(length=64), nullable=True),
        sa.Column(
            "before", sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"), nullable=True
        ),
        sa.Column(
            "after", sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"), nullable=True
        ),
        sa.Column("request_id", sa.String(length=128), nullable=True),
        sa.Column("created_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit_log")),
        sa.UniqueConstraint("pid", name=op.f("uq_audit_log_pid")),
    )
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.create_index("ix_audit_log_tenant_created", ["tenant_id", "created_at", "id"], unique=False)

    op.create_table(
        "idempotency_keys",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("tenant_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("user_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("request_hash", sa.String(length=64), nullable=False),
        sa.Column("status_code", sa.Integer(), nullable=False),
        sa.Column(
            "response", sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"), nullable=True
        ),
        sa.Column("created_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_idempotency_keys")),
        sa.UniqueConstraint("tenant_id", "user_id", "key", name=op.f("uq_idempotency_keys_tenant_id_user_id_key")),
    )
    with op.batch_alter_table("idempotency_keys", schema=None) as batch_op:
        batch_op.create_index("ix_idempotency_keys_created", ["created_at"], unique=False)

    op.create_table(
        "tenants",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("code", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("created_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tenants")),
        sa.UniqueConstraint("code", name=op.f("uq_tenants_code")),
    )
    op.create_table(
        "roles",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("tenant_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("code", sa.String(length=64), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], name=op.f("fk_roles_tenant_id_tenants")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_roles")),
        sa.UniqueConstraint("tenant_id", "code", name=op.f("uq_roles_tenant_id_code")),
    )
    op.create_table(
        "users",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("pid", sa.String(length=40), nullable=False),
        sa.Column("email", sa.String(length=320), nullable=False),
        sa.Column("username", sa.String(length=200), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("default_tenant_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("created_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["default_tenant_id"], ["tenants.id"], name=op.f("fk_users_default_tenant_id_tenants")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_users")),
        sa.UniqueConstraint("email", name=op.f("uq_users_email")),
        sa.UniqueConstraint("pid", name=op.f("uq_users_pid")),
    )
    op.create_table(
        "memberships",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("tenant_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("user_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("role_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("created_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["role_id"], ["roles.id"], name=op.f("fk_memberships_role_id_roles")),
        sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], name=op.f("fk_memberships_tenant_id_tenants")),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_memberships_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_memberships")),
        sa.UniqueConstraint("tenant_id", "user_id", name=op.f("uq_memberships_tenant_id_user_id")),
    )
    op.create_table(
        "platform_role_grants",
        sa.Column("user_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("role_code", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_platform_role_grants_user_id_users")),
        sa.PrimaryKeyConstraint("user_id", "role_code", name=op.f("pk_platform_role_grants")),
    )
    op.create_table(
        "records",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("tenant_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("model", sa.String(length=64), nullable=False),
        sa.Column("pid", sa.String(length=40), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column(
            "data", sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"), nullable=False
        ),
        sa.Column("search_text", sa.Text(), nullable=False),
        sa.Column("created_by", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("created_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.Column("updated_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.Column("deleted_at", storage.schema.types.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["created_by"], ["users.id"], name=op.f("fk_records_created_by_users")),
        sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], name=op.f("fk_records_tenant_id_tenants")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_records")),
        sa.UniqueConstraint("pid", name=op.f("uq_records_pid")),
    )
    with op.batch_alter_table("records", schema=None) as batch_op:
        batch_op.create_index("ix_records_scope_created", ["tenant_id", "model", "created_at", "id"], unique=False)

    op.create_table(
        "role_permissions",
        sa.Column("role_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("permission", sa.String(length=128), nullable=False),
        sa.ForeignKeyConstraint(
            ["role_id"], ["roles.id"], name=op.f("fk_role_permissions_role_id_roles"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("role_id", "permission", name=op.f("pk_role_permissions")),
    )
    op.create_table(
        "record_unique_values",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("tenant_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("model", sa.String(length=64), nullable=False),
        sa.Column("field", sa.String(length=64), nullable=False),
        sa.Column("value", sa.String(length=400), nullable=False),
        sa.Column("record_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.ForeignKeyConstraint(
            ["record_id"], ["records.id"], name=op.f("fk_record_unique_values_record_id_records"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_record_unique_values")),
        sa.UniqueConstraint(
            "tenant_id", "model", "field", "value", name=op.f("uq_record_unique_values_tenant_id_model_field_value")
        ),
    )
    with op.batch_alter_table("record_unique_values", schema=None) as batch_op:
        batch_op.create_index("ix_record_unique_values_record", ["record_id"], unique=False)

    if op.get_bind().dialect.name == "postgresql":
        _postgresql_search_indexes()


def _postgresql_search_indexes() -> None:
    """Indexes that make filter + keyword + sort lists fast on PostgreSQL.

    Keyword search is ``search_text LIKE '%word%'``: a trigram GIN index serves it. Filters and
    sorts read JSONB fields; expression indexes on the asset model's common ones let the planner
    filter and order without touching every row.
    """
    bind = op.get_bind()
    has_trgm = bind.exec_driver_sql("SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm'").scalar()
    if has_trgm:
        op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        op.execute(
            "CREATE INDEX ix_records_search_trgm ON records USING gin (search_text gin_trgm_ops) "
            "WHERE deleted_at IS NULL"
        )
    for field in ("status", "name", "serialNo", "assignee"):
        op.execute(
            f'CREATE INDEX "ix_records_asset_{field}" ON records '
            f"(tenant_id, (data ->> '{field}'), id) WHERE model = 'asset' AND deleted_at IS NULL"
        )
    op.execute(
        "CREATE INDEX ix_records_asset_value ON records "
        "(tenant_id, ((data ->> 'value')::numeric), id) WHERE model = 'asset' AND deleted_at IS NULL"
    )


def downgrade() -> None:
    with op.batch_alter_table("record_unique_values", schema=None) as batch_op:
        batch_op.drop_index("ix_record_unique_values_record")

    op.drop_table("record_unique_values")
    op.drop_table("role_permissions")
    with op.batch_alter_table("records", schema=None) as batch_op:
        batch_op.drop_index("ix_records_scope_created")

    op.drop_table("records")
    op.drop_table("platform_role_grants")
    op.drop_table("memberships")
    op.drop_table("users")
    op.drop_table("roles")
    op.drop_table("tenants")
    with op.batch_alter_table("idempotency_keys", schema=None) as batch_op:
        batch_op.drop_index("ix_idempotency_keys_created")

    op.drop_table("idempotency_keys")
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.drop_index("ix_audit_log_tenant_created")

    op.drop_table("audit_log")
