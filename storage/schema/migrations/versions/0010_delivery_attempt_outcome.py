"""Every attempt is recorded before its request is sent: a delivery attempt has an ``outcome``,
``sending`` from just before the request until its answer is recorded, then ``succeeded`` (2xx) or
``failed``; ``unknown`` when the worker stopped in between (a killed worker's requests stay listed).
Existing attempts were recorded after their answer: ``succeeded`` when it was 2xx, else ``failed``.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("delivery_attempts") as batch:
        batch.add_column(sa.Column("outcome", sa.String(length=20), nullable=False, server_default="failed"))
    op.execute("UPDATE delivery_attempts SET outcome = 'succeeded' WHERE http_status >= 200 AND http_status < 300")


def downgrade() -> None:
    with op.batch_alter_table("delivery_attempts") as batch:
        batch.drop_column("outcome")
