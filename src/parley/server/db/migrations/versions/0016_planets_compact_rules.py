"""Planet Control games stored before the `rules` option existed keep the compact game.

The option's default (`full`) plays a fuller round of strategy cards, command tokens,
building and the whole combat; the game before it is the preset `compact`. A game whose
stored options lack the option was played the compact way: it gets `compact`, so its
record replays as it was played.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

from parley.server.db.legacy_options import drop_legacy, keep_legacy

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What the engine played before the option existed.
LEGACY = {"rules": "compact"}


def upgrade() -> None:
    keep_legacy("planets", LEGACY)


def downgrade() -> None:
    """Earlier code refuses options it does not know: take it out again."""
    drop_legacy("planets", LEGACY)
