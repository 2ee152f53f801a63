"""What the gateway remembers: agents, open decisions, and private reasoning.

`MemoryStore` keeps it in this process (tests, a gateway without a database);
`SqlStore` (`sqlstore.py`), what `install` uses, keeps it in the server's database so it
survives restarts and is shared by every server process.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Protocol


class DecisionStatus(StrEnum):
    """A decision's lifecycle: open, then answered, defaulted after bad answers, or timed out."""

    OPEN = "open"
    ACCEPTED = "accepted"
    DEFAULTED = "defaulted"  # too many invalid answers: the seat's default action was played
    TIMED_OUT = "timed_out"  # no valid answer within the budget: the default was played
    GONE = "gone"  # the game moved on without this seat's answer (another hand acted)


@dataclass(frozen=True, slots=True)
class AgentProfile:
    user_id: int
    name: str
    description: str
    budget_seconds: float


@dataclass(frozen=True, slots=True)
class DecisionRecord:
    """One decision offered to one seat: the budget runs from `opened_at`."""

    game_id: str
    seat: int
    state_id: int
    user_id: int
    opened_at: float
    deadline: float
    attempts: int = 0
    status: DecisionStatus = DecisionStatus.OPEN
    played: str | None = None  # the notation finally played for the seat

    @property
    def id(self) -> str:
        return decision_id(self.game_id, self.seat, self.state_id)


def decision_id(game_id: str, seat: int, state_id: int) -> str:
    return f"{game_id}.{seat}.{state_id}"


@dataclass(frozen=True, slots=True)
class Note:
    """Private reasoning an agent recorded with a decision."""

    game_id: str
    seat: int
    state_id: int
    user_id: int
    at: float
    text: str


class GatewayStore(Protocol):
    def save_agent(self, profile: AgentProfile) -> None: ...

    def agent(self, user_id: int) -> AgentProfile | None: ...

    def decision(self, game_id: str, seat: int, state_id: int) -> DecisionRecord | None: ...

    def save_decision(self, record: DecisionRecord) -> None: ...

    def open_decisions(self) -> list[DecisionRecord]: ...

    def decisions_of(self, game_id: str) -> list[DecisionRecord]: ...

    def add_note(self, note: Note) -> None: ...

    def notes(self, game_id: str) -> list[Note]: ...


class MemoryStore:
    """The gateway's records in this process's memory (one server process)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._agents: dict[int, AgentProfile] = {}
        self._decisions: dict[tuple[str, int, int], DecisionRecord] = {}
        self._notes: dict[str, list[Note]] = {}

    def save_agent(self, profile: AgentProfile) -> None:
        with self._lock:
            self._agents[profile.user_id] = profile

    def agent(self, user_id: int) -> AgentProfile | None:
        with self._lock:
            return self._agents.get(user_id)

    def decision(self, game_id: str, seat: int, state_id: int) -> DecisionRecord | None:
        with self._lock:
            return self._decisions.get((game_id, seat, state_id))

    def save_decision(self, record: DecisionRecord) -> None:
        with self._lock:
            self._decisions[(record.game_id, record.seat, record.state_id)] = replace(record)

    def open_decisions(self) -> list[DecisionRecord]:
        with self._lock:
            return [d for d in self._decisions.values() if d.status is DecisionStatus.OPEN]

    def decisions_of(self, game_id: str) -> list[DecisionRecord]:
        with self._lock:
            return sorted(
                (d for d in self._decisions.values() if d.game_id == game_id),
                key=lambda d: (d.opened_at, d.state_id, d.seat),
            )

    def add_note(self, note: Note) -> None:
        with self._lock:
            self._notes.setdefault(note.game_id, []).append(note)

    def notes(self, game_id: str) -> list[Note]:
        with self._lock:
            return list(self._notes.get(game_id, []))
