"""The first schema: users, tokens, games, members, entries, snapshots, deadlines, events.

Revision ID: 0001
Revises:
Create Date: 2024-06-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(32), nullable=False),
        sa.Column("username_key", sa.String(32), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=True),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.UniqueConstraint("username_key", name="uq_users_username_key"),
    )
    op.create_table(
        "tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "user_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("created_at", sa.Double(), nullable=False),
    )
    op.create_index("ix_tokens_user_id", "tokens", ["user_id"])
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seats", sa.Integer(), nullable=False),
        sa.Column("period_seconds", sa.Integer(), nullable=False),
        sa.Column("press", sa.String(16), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("invite_code", sa.String(64), nullable=True),
        sa.Column("host_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.JSON(), nullable=True),
        sa.Column("disorder_after", sa.Integer(), nullable=False),
        sa.Column("bot_after", sa.Integer(), nullable=False),
        sa.Column("takeover_bot", sa.String(32), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
        sa.Column("started_at", sa.Double(), nullable=True),
        sa.Column("ended_at", sa.Double(), nullable=True),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_table(
        "members",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("user_id", sa.Integer(), sa.ForeignKey("users.id"), nullable=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("bot", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("controller", sa.String(16), nullable=False),
        sa.Column("missed", sa.Integer(), nullable=False),
        sa.Column("joined_at", sa.Double(), nullable=False),
        sa.UniqueConstraint("game_id", "user_id", name="uq_members_game_user"),
        sa.UniqueConstraint("game_id", "seat", name="uq_members_game_seat"),
    )
    op.create_index("ix_members_game_id", "members", ["game_id"])
    op.create_index("ix_members_user_id", "members", ["user_id"])
    op.create_table(
        "entries",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("state_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
    )
    op.create_table(
        "snapshots",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seq", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("format", sa.String(200), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
    )
    op.create_table(
        "deadlines",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("state_id", sa.Integer(), nullable=False),
        sa.Column("due_at", sa.Double(), nullable=False),
        sa.Column("wake_at", sa.Double(), nullable=False),
        sa.Column("claimed_by", sa.String(64), nullable=True),
        sa.Column("claim_until", sa.Double(), nullable=True),
    )
    op.create_index("ix_deadlines_wake_at", "deadlines", ["wake_at"])
    op.create_table(
        "events",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.Double(), nullable=False),
    )
    op.create_index("ix_events_game_id", "events", ["game_id"])


def downgrade() -> None:
    for table in ("events", "deadlines", "snapshots", "entries", "members", "games", "tokens"):
        op.drop_table(table)
    op.drop_table("users")
