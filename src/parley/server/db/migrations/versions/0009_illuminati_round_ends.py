"""Illuminati games stored before `round_ends` existed keep counting rounds as they did.

The engine used to begin a new round whenever play passed Player 1, whoever played first;
the option's default (`first_player`) begins it when play returns to the first player. A
game whose stored options lack the option was played by the old count: it gets
`player_1`, so its record replays as it was played.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""

from __future__ import annotations

from collections.abc import Sequence

from parley.server.db.legacy_options import drop_legacy, keep_legacy

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What the engine did before the option existed.
LEGACY = {"round_ends": "player_1"}


def upgrade() -> None:
    keep_legacy("illuminati", LEGACY)


def downgrade() -> None:
    """Earlier code refuses options it does not know: take it out again."""
    drop_legacy("illuminati", LEGACY)
