"""Secretless clients (RFC 7523 ``private_key_jwt``): a credential is of kind ``secret`` (every
existing one: a keyed digest of its secret) or ``private_key_jwt`` (a public JWK Set, no secret);
the ``jti`` of every client assertion accepted is kept, as a keyed digest, until the assertion
expires, so that none is accepted twice.

Revision ID: 0009
Revises: 0008
"""

import sqlalchemy as sa
from alembic import op

import storage.schema.types

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("credentials") as batch:
        batch.add_column(sa.Column("kind", sa.String(length=20), nullable=False, server_default="secret"))
        batch.add_column(sa.Column("public_jwks", storage.schema.types.JsonDoc, nullable=True))
        batch.alter_column("secret_digest", existing_type=sa.String(length=64), nullable=True)
    op.create_table(
        "client_assertion_jtis",
        sa.Column("id", storage.schema.types.BigId, primary_key=True, autoincrement=True),
        sa.Column("jti_digest", sa.String(length=64), nullable=False, unique=True),
        sa.Column("expires_at", storage.schema.types.UTCDateTime(), nullable=False),
    )
    op.create_index("ix_client_assertion_jtis_expires", "client_assertion_jtis", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_client_assertion_jtis_expires", table_name="client_assertion_jtis")
    op.drop_table("client_assertion_jtis")
    op.execute("DELETE FROM credentials WHERE kind <> 'secret'")
    with op.batch_alter_table("credentials") as batch:
        batch.alter_column("secret_digest", existing_type=sa.String(length=64), nullable=False)
        batch.drop_column("public_jwks")
        batch.drop_column("kind")
