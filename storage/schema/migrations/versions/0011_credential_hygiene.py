"""Credential hygiene: when the worker announced that a credential crossed the rotation baseline
(``credential.rotation.due``), that its maximum age is near (``credential.expiry.approaching``), and
that it reached it; each is announced once, so each column is set once and never cleared.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

from storage.schema.types import UTCDateTime

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

COLUMNS = ("rotation_due_announced_at", "expiry_announced_at", "aged_out_at")


def upgrade() -> None:
    with op.batch_alter_table("credentials") as batch:
        for name in COLUMNS:
            batch.add_column(sa.Column(name, UTCDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("credentials") as batch:
        for name in reversed(COLUMNS):
            batch.drop_column(name)
