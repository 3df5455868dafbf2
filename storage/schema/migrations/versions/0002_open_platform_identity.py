"""Open Platform identity: applications, members, installations, credentials, tokens, call audit.

Also gives audit entries an application id, so application members can search their entries.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

import storage.schema.types

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "open_api_calls",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("installation_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("tenant_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True),
        sa.Column("client_id", sa.String(length=64), nullable=True),
        sa.Column("method", sa.String(length=10), nullable=False),
        sa.Column("path", sa.String(length=300), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("request_id", sa.String(length=128), nullable=False),
        sa.Column("created_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_open_api_calls")),
    )
    with op.batch_alter_table("open_api_calls", schema=None) as batch_op:
        batch_op.create_index("ix_open_api_calls_installation_created", ["installation_id", "created_at"], unique=False)
        batch_op.create_index("ix_open_api_calls_request_id", ["request_id"], unique=False)

    op.create_table(
        "applications",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("pid", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("description", sa.Text(), nullable=True),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("created_by", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("created_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.Column("updated_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["created_by"], ["users.id"], name=op.f("fk_applications_created_by_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_applications")),
        sa.UniqueConstraint("pid", name=op.f("uq_applications_pid")),
    )
    op.create_table(
        "application_members",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("application_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("user_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("role", sa.String(length=20), nullable=False),
        sa.Column("created_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["application_id"], ["applications.id"], name=op.f("fk_application_members_application_id_applications")
        ),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], name=op.f("fk_application_members_user_id_users")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_application_members")),
        sa.UniqueConstraint("application_id", "user_id", name=op.f("uq_application_members_application_id_user_id")),
    )
    with op.batch_alter_table("application_members", schema=None) as batch_op:
        batch_op.create_index("ix_application_members_user", ["user_id"], unique=False)

    op.create_table(
        "installations",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("pid", sa.String(length=40), nullable=False),
        sa.Column("application_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("tenant_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("environment", sa.String(length=20), nullable=False),
        sa.Column(
            "scopes", sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"), nullable=False
        ),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("created_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.Column("updated_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["application_id"], ["applications.id"], name=op.f("fk_installations_application_id_applications")
        ),
        sa.ForeignKeyConstraint(["tenant_id"], ["tenants.id"], name=op.f("fk_installations_tenant_id_tenants")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_installations")),
        sa.UniqueConstraint(
            "application_id",
            "tenant_id",
            "environment",
            name=op.f("uq_installations_application_id_tenant_id_environment"),
        ),
        sa.UniqueConstraint("pid", name=op.f("uq_installations_pid")),
    )
    op.create_table(
        "credentials",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("client_id", sa.String(length=64), nullable=False),
        sa.Column("installation_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("secret_digest", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=20), nullable=False),
        sa.Column("created_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.Column("rotated_at", storage.schema.types.UTCDateTime(), nullable=True),
        sa.Column("expires_at", storage.schema.types.UTCDateTime(), nullable=True),
        sa.Column("revoked_at", storage.schema.types.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["installation_id"], ["installations.id"], name=op.f("fk_credentials_installation_id_installations")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_credentials")),
        sa.UniqueConstraint("client_id", name=op.f("uq_credentials_client_id")),
    )
    with op.batch_alter_table("credentials", schema=None) as batch_op:
        batch_op.create_index("ix_credentials_installation", ["installation_id"], unique=False)

    op.create_table(
        "access_tokens",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), autoincrement=True, nullable=False),
        sa.Column("token_digest", sa.String(length=64), nullable=False),
        sa.Column("credential_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column("installation_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=False),
        sa.Column(
            "scopes", sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"), nullable=False
        ),
        sa.Column("issued_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.Column("expires_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(
            ["credential_id"], ["credentials.id"], name=op.f("fk_access_tokens_credential_id_credentials")
        ),
        sa.ForeignKeyConstraint(
            ["installation_id"], ["installations.id"], name=op.f("fk_access_tokens_installation_id_installations")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_access_tokens")),
        sa.UniqueConstraint("token_digest", name=op.f("uq_access_tokens_token_digest")),
    )
    with op.batch_alter_table("access_tokens", schema=None) as batch_op:
        batch_op.create_index("ix_access_tokens_expires", ["expires_at"], unique=False)

    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("application_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), nullable=True)
        )
        batch_op.create_index("ix_audit_log_application_created", ["application_id", "created_at", "id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("audit_log", schema=None) as batch_op:
        batch_op.drop_index("ix_audit_log_application_created")
        batch_op.drop_column("application_id")

    with op.batch_alter_table("access_tokens", schema=None) as batch_op:
        batch_op.drop_index("ix_access_tokens_expires")

    op.drop_table("access_tokens")
    with op.batch_alter_table("credentials", schema=None) as batch_op:
        batch_op.drop_index("ix_credentials_installation")

    op.drop_table("credentials")
    op.drop_table("installations")
    with op.batch_alter_table("application_members", schema=None) as batch_op:
        batch_op.drop_index("ix_application_members_user")

    op.drop_table("application_members")
    op.drop_table("applications")
    with op.batch_alter_table("open_api_calls", schema=None) as batch_op:
        batch_op.drop_index("ix_open_api_calls_request_id")
        batch_op.drop_index("ix_open_api_calls_installation_created")

    op.drop_table("open_api_calls")
