"""For migrations that give stored games the option values they were played by.

A game stored before an option existed was played the old way; the migration writes the
old value into its options (upgrade) and takes it out again (downgrade), since earlier
code refuses options it does not know.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

import sqlalchemy as sa
from alembic import op

_games = sa.table(
    "games", sa.column("id", sa.String), sa.column("game", sa.String), sa.column("options", sa.JSON)
)


def rewrite(game: str, change: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Store `change(options)` for every game of `game` whose options it changes."""
    conn = op.get_bind()
    rows = conn.execute(sa.select(_games.c.id, _games.c.options).where(_games.c.game == game))
    for game_id, stored in rows.fetchall():
        if isinstance(stored, str):  # some drivers hand JSON back as text
            stored = json.loads(stored)
        options = dict(stored or {})
        changed = change(options)
        if changed != options:
            conn.execute(_games.update().where(_games.c.id == game_id).values(options=changed))


def keep_legacy(game: str, legacy: Mapping[str, Any]) -> None:
    """Upgrade: games lacking the options get their old values."""
    rewrite(game, lambda options: {**legacy, **options})


def drop_legacy(game: str, legacy: Mapping[str, Any]) -> None:
    """Downgrade: the options are taken out again."""
    rewrite(game, lambda options: {k: v for k, v in options.items() if k not in legacy})
