"""Notification e-mail addresses and whether their owners confirmed them.

Nothing but a confirmation message goes to an address until its owner follows the link in
it; every later message carries a link that unsubscribes the address. Addresses stored in
notification settings before this revision are unconfirmed: each is sent a confirmation the
first time a message is due for it, or when its owner saves the settings again.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "email_addresses",
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("confirm_token", sa.String(64), nullable=True, unique=True),
        sa.Column("unsubscribe_token", sa.String(64), nullable=False, unique=True),
        sa.Column("confirmed_at", sa.Double(), nullable=True),
        sa.Column("requested_at", sa.Double(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("user_id", "address"),
    )


def downgrade() -> None:
    op.drop_table("email_addresses")
