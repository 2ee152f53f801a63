"""Game records read out of a server's database, for the research export."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

PAGE = 200  # games read per query: bounds what the driver holds, whatever the database size


def records_in_database(
    url: str, finished_only: bool = True, page: int = PAGE
) -> Iterator[tuple[str, dict[str, Any]]]:
    """(game id, record with its agents' notes) for every started game of a server database.

    Streams: games are listed a page at a time by (created_at, id) after the last one
    seen, so neither the driver (a PostgreSQL client cursor holds a query's whole result)
    nor one transaction grows or lingers with the database's size; a page's games are read
    on one connection, and one game's entries are in memory at a time. Plain SQL rows, no
    ORM objects: this is a bulk read.
    """
    from sqlalchemy import and_, or_, select

    from .db.engine import make_engine
    from .db.models import AgentNote, BotMemory, Entry, Game

    if page < 1:
        raise ValueError(f"page is at least 1, not {page}")
    engine = make_engine(url)
    wanted = ["finished"] if finished_only else ["active", "finished", "closed"]
    listing = (
        select(Game.id, Game.created_at, Game.game, Game.options)
        .add_columns(Game.players, Game.seed, Game.seed_source, Game.outcome, Game.position)
        .where(Game.status.in_(wanted), Game.started_at.is_not(None))
        .order_by(Game.created_at, Game.id)
        .limit(page)
    )
    entries = select(Entry.data).order_by(Entry.seq)
    notes = select(AgentNote.seat, AgentNote.state_id, AgentNote.text, AgentNote.at).order_by(
        AgentNote.id
    )
    saved = select(BotMemory.data)
    after: tuple[float, str] | None = None
    try:
        while True:
            query = listing
            if after is not None:
                created, last = after
                query = query.where(
                    or_(Game.created_at > created, and_(Game.created_at == created, Game.id > last))
                )
            with engine.connect() as conn:
                batch = conn.execute(query).all()
                for row in batch:
                    game_id = str(row.id)
                    record: dict[str, Any] = {
                        "format": "parley.record",
                        "version": 1,
                        "game": row.game,
                        "options": dict(row.options),
                        "players": list(row.players),
                        "seed": row.seed,
                        "seed_source": row.seed_source,  # None: from before it was kept
                        **({"position": row.position} if row.position is not None else {}),
                        "entries": [
                            json.loads(data)
                            for data in conn.scalars(entries.where(Entry.game_id == game_id))
                        ],
                        "outcome": row.outcome,
                        "notes": [
                            {"seat": n.seat, "state_id": n.state_id, "text": n.text, "at": n.at}
                            for n in conn.execute(notes.where(AgentNote.game_id == game_id))
                        ],
                    }
                    usage = _usage(conn.scalars(saved.where(BotMemory.game_id == game_id)))
                    if usage:
                        record["usage"] = usage  # model seats' tokens and cost per decision
                    yield game_id, record
            if len(batch) < page:
                return
            after = (float(batch[-1].created_at), str(batch[-1].id))
            del batch  # not alive beside the next page while that is fetched
    finally:
        engine.dispose()


def _usage(memories: Iterable[Any]) -> list[dict[str, Any]]:
    """The per-decision usage model seats saved in their memory (`parley.server.llm_seats`),
    by state id and seat."""
    out = [
        dict(e)
        for data in memories
        if isinstance(data, dict)
        for e in data.get("usage") or ()
        if isinstance(e, dict) and "seat" in e and "state_id" in e
    ]
    return sorted(out, key=lambda e: (int(e["state_id"]), int(e["seat"])))


# --- writing and reading ---------------------------------------------------------------
