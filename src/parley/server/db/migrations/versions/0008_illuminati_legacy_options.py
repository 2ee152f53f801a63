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
from collections.abc import Sequence
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


def _options(value: Any) -> dict[str, Any]:
    if isinstance(value, str):  # some drivers hand JSON back as text
        value = json.loads(value)
    return dict(value or {})


def upgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(_games.c.id, _games.c.options).where(_games.c.game == "illuminati")
    )
    for game_id, stored in rows.fetchall():
        options = _options(stored)
        missing = {k: v for k, v in LEGACY.items() if k not in options}
        if missing:
            conn.execute(
                _games.update().where(_games.c.id == game_id).values(options={**options, **missing})
            )


def downgrade() -> None:
    """Earlier code refuses options it does not know: take the three out again."""
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(_games.c.id, _games.c.options).where(_games.c.game == "illuminati")
    )
    for game_id, stored in rows.fetchall():
        options = _options(stored)
        if any(k in options for k in LEGACY):
            kept = {k: v for k, v in options.items() if k not in LEGACY}
            conn.execute(_games.update().where(_games.c.id == game_id).values(options=kept))
