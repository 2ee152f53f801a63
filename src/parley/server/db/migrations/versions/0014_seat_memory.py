"""Memory per seat: a diary each player writes for its seat, and what a bot seat keeps.

`seat_diary` holds diary entries (shown in the seat's later decisions); `bot_memory` the
parts of a bot seat's memory its bot names (the negotiators' trust ledger), so both
survive a restart. New tables only: nothing stored before changes.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    tables = set(sa.inspect(op.get_bind()).get_table_names())
    if "seat_diary" not in tables:
        op.create_table(
            "seat_diary",
            sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
            sa.Column(
                "game_id",
                sa.String(32),
                sa.ForeignKey("games.id", ondelete="CASCADE"),
                nullable=False,
            ),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("state_id", sa.Integer(), nullable=False),
            sa.Column("at", sa.Double(), nullable=False),
            sa.Column("text", sa.Text(), nullable=False),
        )
        op.create_index("ix_seat_diary_game_seat", "seat_diary", ["game_id", "seat"])
    if "bot_memory" not in tables:
        op.create_table(
            "bot_memory",
            sa.Column(
                "game_id",
                sa.String(32),
                sa.ForeignKey("games.id", ondelete="CASCADE"),
                primary_key=True,
            ),
            sa.Column("seat", sa.Integer(), primary_key=True, autoincrement=False),
            sa.Column("bot", sa.String(64), nullable=False),
            sa.Column("data", sa.JSON(), nullable=False),
            sa.Column("updated_at", sa.Double(), nullable=False),
        )


def downgrade() -> None:
    op.drop_table("bot_memory")
    op.drop_index("ix_seat_diary_game_seat", table_name="seat_diary")
    op.drop_table("seat_diary")
