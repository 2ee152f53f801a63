"""Game records read out of a server's database, for the research export."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any


def records_in_database(
    url: str, finished_only: bool = True
) -> Iterator[tuple[str, dict[str, Any]]]:
    """(game id, record with its agents' notes) for every started game of a server database."""
    from sqlalchemy import select

    from . import store as db
    from .db.engine import make_engine
    from .db.models import Game
    from .gateway.sqlstore import SqlStore

    engine = make_engine(url)
    notes = SqlStore(engine)
    try:
        with engine.connect() as conn:
            wanted = ["finished"] if finished_only else ["active", "finished", "closed"]
            ids = [
                row[0]
                for row in conn.execute(
                    select(Game.id)
                    .where(Game.status.in_(wanted), Game.started_at.is_not(None))
                    .order_by(Game.created_at, Game.id)
                )
            ]
        from sqlalchemy.orm import Session

        for game_id in ids:
            with Session(engine) as s:
                row = db.game(s, game_id)
                if row is None:
                    continue
                entries = [json.loads(e.data) for e in db.entries(s, game_id)]
            record: dict[str, Any] = {
                "format": "parley.record",
                "version": 1,
                "game": row.game,
                "options": dict(row.options),
                "players": list(row.players),
                "seed": row.seed,
                "entries": entries,
                "outcome": row.outcome,
                "notes": [
                    {"seat": n.seat, "state_id": n.state_id, "text": n.text, "at": n.at}
                    for n in notes.notes(game_id)
                ],
            }
            yield game_id, record
    finally:
        engine.dispose()


# --- writing and reading ---------------------------------------------------------------
