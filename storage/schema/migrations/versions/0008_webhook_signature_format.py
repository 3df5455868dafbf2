"""Webhook endpoints choose how their deliveries are signed: ``tessera`` (the ``X-Webhook-*``
headers, every existing endpoint) or ``standard-webhooks`` (the ``webhook-*`` headers of the
Standard Webhooks specification).

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("webhook_endpoints") as batch:
        batch.add_column(sa.Column("signature_format", sa.String(length=20), nullable=False,
                                   server_default="tessera"))


def downgrade() -> None:
    with op.batch_alter_table("webhook_endpoints") as batch:
        batch.drop_column("signature_format")
