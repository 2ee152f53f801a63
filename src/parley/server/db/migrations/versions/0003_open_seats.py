"""Seats open for replacement: a game's replacement policy, a seat's open flag, takeover seq.

Revision ID: 0003
Revises: 0002
Create Date: 2024-08-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("replacements", sa.String(16), nullable=False, server_default="host")
        )
    with op.batch_alter_table("members") as batch:
        batch.add_column(sa.Column("open", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch.add_column(sa.Column("seat_since", sa.Integer(), nullable=False, server_default="0"))


def downgrade() -> None:
    with op.batch_alter_table("members") as batch:
        batch.drop_column("seat_since")
        batch.drop_column("open")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("replacements")
