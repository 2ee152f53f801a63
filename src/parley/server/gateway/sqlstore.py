"""The gateway's records in the server's database, so restarts and other processes see them.

Tables `agent_profiles`, `agent_decisions` and `agent_notes` (models in
`parley.server.db.models`, created by migration 0002). Every method is one short
transaction of its own, like the in-memory store's one lock.
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import CursorResult, Engine, Table, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session

from parley.server.db.models import Agent, AgentDecision, AgentNote
from parley.server.store import Store

from .store import AgentProfile, DecisionRecord, DecisionStatus, Note

_PROFILES = cast(Table, Agent.__table__)
_DECISIONS = cast(Table, AgentDecision.__table__)


class SqlStore:
    """A `GatewayStore` on the server's engine (SQLite or PostgreSQL)."""

    def __init__(self, engine: Engine) -> None:
        self.db = Store(engine)  # the server's session conventions (BEGIN IMMEDIATE to write)

    def save_agent(self, profile: AgentProfile) -> None:
        values = {
            "user_id": profile.user_id,
            "name": profile.name,
            "description": profile.description,
            "budget_seconds": profile.budget_seconds,
        }
        with self.db.write() as s:
            _upsert(s, _PROFILES, values, ("user_id",))

    def agent(self, user_id: int) -> AgentProfile | None:
        with self.db.read() as s:
            row = s.get(Agent, user_id)
            if row is None:
                return None
            return AgentProfile(row.user_id, row.name, row.description, row.budget_seconds)

    def decision(self, game_id: str, seat: int, state_id: int) -> DecisionRecord | None:
        with self.db.read() as s:
            row = s.get(AgentDecision, (game_id, seat, state_id))
            return None if row is None else _decision(row)

    def save_decision(self, record: DecisionRecord) -> None:
        values = {
            "game_id": record.game_id,
            "seat": record.seat,
            "state_id": record.state_id,
            "user_id": record.user_id,
            "opened_at": record.opened_at,
            "deadline": record.deadline,
            "attempts": record.attempts,
            "status": record.status.value,
            "played": record.played,
        }
        with self.db.write() as s:
            _upsert(s, _DECISIONS, values, ("game_id", "seat", "state_id"))

    def open_decisions(self) -> list[DecisionRecord]:
        query = (
            select(AgentDecision)
            .where(AgentDecision.status == DecisionStatus.OPEN.value)
            .order_by(
                AgentDecision.opened_at,
                AgentDecision.game_id,
                AgentDecision.state_id,
                AgentDecision.seat,
            )
        )
        with self.db.read() as s:
            return [_decision(row) for row in s.scalars(query)]

    def decisions_of(self, game_id: str) -> list[DecisionRecord]:
        query = (
            select(AgentDecision)
            .where(AgentDecision.game_id == game_id)
            .order_by(AgentDecision.opened_at, AgentDecision.state_id, AgentDecision.seat)
        )
        with self.db.read() as s:
            return [_decision(row) for row in s.scalars(query)]

    def add_note(self, note: Note) -> None:
        with self.db.write() as s:
            s.add(
                AgentNote(
                    game_id=note.game_id,
                    seat=note.seat,
                    state_id=note.state_id,
                    user_id=note.user_id,
                    at=note.at,
                    text=note.text,
                )
            )

    def notes(self, game_id: str) -> list[Note]:
        query = select(AgentNote).where(AgentNote.game_id == game_id).order_by(AgentNote.id)
        with self.db.read() as s:
            return [
                Note(row.game_id, row.seat, row.state_id, row.user_id, row.at, row.text)
                for row in s.scalars(query)
            ]


def _decision(row: AgentDecision) -> DecisionRecord:
    return DecisionRecord(
        game_id=row.game_id,
        seat=row.seat,
        state_id=row.state_id,
        user_id=row.user_id,
        opened_at=row.opened_at,
        deadline=row.deadline,
        attempts=row.attempts,
        status=DecisionStatus(row.status),
        played=row.played,
    )


def _upsert(s: Session, table: Table, values: dict[str, Any], key: tuple[str, ...]) -> None:
    """Insert the row or overwrite the one with the same key, in one statement.

    One statement rather than read-then-write: two PostgreSQL processes saving the same
    decision at once would otherwise both insert and one would fail; the last save wins,
    as with the in-memory store.
    """
    changes = {k: v for k, v in values.items() if k not in key}
    name = s.get_bind().dialect.name
    if name == "postgresql":
        pg = postgresql.insert(table).values(values)
        s.execute(pg.on_conflict_do_update(index_elements=list(key), set_=changes))
    elif name == "sqlite":
        lite = sqlite.insert(table).values(values)
        s.execute(lite.on_conflict_do_update(index_elements=list(key), set_=changes))
    else:  # any other backend: the portable way, under the write transaction's lock
        where = [table.c[k] == values[k] for k in key]
        updated = cast(CursorResult[Any], s.execute(table.update().where(*where).values(changes)))
        if updated.rowcount == 0:
            s.execute(insert(table).values(values))
