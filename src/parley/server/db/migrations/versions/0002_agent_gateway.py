"""The agent gateway's records: agent profiles, decisions offered, private reasoning.

Revision ID: 0002
Revises: 0001
Create Date: 2024-07-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "agent_profiles",
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
            autoincrement=False,
        ),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("budget_seconds", sa.Double(), nullable=False),
    )
    op.create_table(
        "agent_decisions",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("state_id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("opened_at", sa.Double(), nullable=False),
        sa.Column("deadline", sa.Double(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("played", sa.Text(), nullable=True),
    )
    op.create_index("ix_agent_decisions_status", "agent_decisions", ["status"])
    op.create_index("ix_agent_decisions_user_id", "agent_decisions", ["user_id"])
    op.create_table(
        "agent_notes",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("state_id", sa.Integer(), nullable=False),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("at", sa.Double(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
    )
    op.create_index("ix_agent_notes_game_id", "agent_notes", ["game_id"])
    op.create_index("ix_agent_notes_user_id", "agent_notes", ["user_id"])


def downgrade() -> None:
    for table in ("agent_notes", "agent_decisions", "agent_profiles"):
        op.drop_table(table)
