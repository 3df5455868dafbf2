"""Record stamps: one row per (tenant, model), set to a fresh random number by every write to that
tenant's records of that model, in the writer's transaction. A list's exact total is counted once
per stamp and reused for every page and every reader until the next write
(``storage/record_counts.py`` then; since 0017 ``storage/record_cache.py``): at 1,000,000 records
the count was most of a list's cost.

Revision ID: 0012
Revises: 0011
"""

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "record_stamps",
        sa.Column("tenant_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("model", sa.String(length=64), nullable=False),
        sa.Column("stamp", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("tenant_id", "model"),
    )


def downgrade() -> None:
    op.drop_table("record_stamps")
