"""Illuminati games stored before three options existed keep the rules they were played by.

`privilege_by`, `lasers` and `destroyed_alone` came with new defaults (the seed's readings).
A game whose stored options lack them was started under the earlier rules: it gets the
values that reproduce them, so its record replays as it was played.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# What the engine did before each option existed.
LEGACY = {"privilege_by": "anyone", "lasers": "add_remove_reverse", "destroyed_alone": "dead"}

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
    """Earlier code refuses options it does not know: take the three out again."""
    _rewrite(lambda options: {k: v for k, v in options.items() if k not in LEGACY})
