"""Negotiation rounds: a game's rounds, messages per round and round length; the round on.

Revision ID: 0007
Revises: 0006
Create Date: 2024-09-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = (
    ("talk_rounds", "0"),
    ("talk_messages", "3"),
    ("talk_seconds", "300"),
    ("talk_state", "-1"),
    ("talk_round", "0"),
)


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        for name, default in COLUMNS:
            batch.add_column(sa.Column(name, sa.Integer(), nullable=False, server_default=default))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        for name, _ in reversed(COLUMNS):
            batch.drop_column(name)
