"""Schema evolution of declared models: the fields a migrate last saw, and the progress of renames.

- ``model_fields``: each declared model's fields and types as of the last migrate, so the next one
  names a field that left ``models.yaml`` (its stored values are kept and served by neither
  surface) and knows a renamed field's old type.
- ``field_moves``: one row per declared rename (``renamedFrom``), with the last record id moved, so
  an interrupted move resumes where it stopped (``storage.schema.field_moves``).

Revision ID: 0016
Revises: 0015
"""

import sqlalchemy as sa
from alembic import op

import storage.schema.types

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "model_fields",
        sa.Column("model", sa.String(length=64), primary_key=True),
        sa.Column("field", sa.String(length=64), primary_key=True),
        sa.Column("type", sa.String(length=16), nullable=False),
    )
    op.create_table(
        "field_moves",
        sa.Column("id", storage.schema.types.BigId, primary_key=True, autoincrement=True),
        sa.Column("model", sa.String(length=64), nullable=False),
        sa.Column("old_field", sa.String(length=64), nullable=False),
        sa.Column("new_field", sa.String(length=64), nullable=False),
        sa.Column("last_id", sa.BigInteger(), nullable=False),
        sa.Column("moved", sa.BigInteger(), nullable=False),
        sa.Column("started_at", storage.schema.types.UTCDateTime(), nullable=False),
        sa.Column("finished_at", storage.schema.types.UTCDateTime(), nullable=True),
        sa.UniqueConstraint("model", "old_field", "new_field"),
    )


def downgrade() -> None:
    op.drop_table("field_moves")
    op.drop_table("model_fields")
