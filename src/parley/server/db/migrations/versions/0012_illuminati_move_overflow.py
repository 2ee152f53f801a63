"""Illuminati games stored before `move_overflow` existed keep moving groups as they did.

The engine used to move a group at once, puppets that did not fit waiting for room; the
option's default (`confirm`, the seed's Move a Group) shows what a move would lose and
asks first. A game whose stored options lack the option was played the old way: it gets
`wait`, so its record replays as it was played.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What the engine did before the option existed.
LEGACY = {"move_overflow": "wait"}

_games = sa.table(
    "games", sa.column("id", sa.String), sa.column("game", sa.String), sa.column("options", sa.JSON)
)


def _rewrite(change: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Store `change(options)` for every Illuminati game whose options it changes."""
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(_games.c.id, _games.c.options).where(_games.c.game == "illuminati")
    )
    for game_id, stored in rows.fetchall():
        if isinstance(stored, str):  # some drivers hand JSON back as text
            stored = json.loads(stored)
        options = dict(stored or {})
        changed = change(options)
        if changed != options:
            conn.execute(_games.update().where(_games.c.id == game_id).values(options=changed))


def upgrade() -> None:
    _rewrite(lambda options: {**LEGACY, **options})


def downgrade() -> None:
    """Earlier code refuses options it does not know: take it out again."""
    _rewrite(lambda options: {k: v for k, v in options.items() if k not in LEGACY})
