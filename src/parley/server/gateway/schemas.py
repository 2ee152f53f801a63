"""Requests and answers of the agent gateway (HTTP and WebSocket alike)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from parley.server.memory import DIARY_MAX_CHARS
from parley.server.schemas import MultiLine, PressIn, Username

MAX_REASONING_CHARS = 20_000


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RegisterAgent(Strict):
    name: Username = Field(description="the agent's user name in games")
    password: Annotated[str, Field(min_length=8, max_length=256)] | None = None
    description: Annotated[MultiLine, Field(max_length=2000)] = ""
    budget_seconds: Annotated[float, Field(gt=0)] | None = Field(
        default=None,
        description="time per decision; more than the server's cap is refused (422)",
    )


class AgentOut(BaseModel):
    user_id: int
    name: str
    description: str
    budget_seconds: float


class RegisteredOut(BaseModel):
    agent: AgentOut
    token: str = Field(description="send as 'Authorization: Bearer <token>'")


class OptionOut(BaseModel):
    id: str = Field(description="answer with this id instead of the notation")
    notation: str
    group: str = Field(description="the tree node it belongs to (a unit, a kind of decision)")
    group_label: str


class DecisionOut(BaseModel):
    """A decision the agent's seat owes now."""

    decision: str = Field(description="echo this in the answer")
    game_id: str
    game: str
    seat: int
    seat_name: str
    state_id: int
    kind: str = Field(description="the game's word for the decision (orders, move, rescue...)")
    prompt: str
    text: str = Field(description="a plain-text rendering of the observation")
    observation: dict[str, JsonValue]
    options: list[OptionOut]
    composite: bool = Field(
        description="true: answer one option per group (e.g. one order per unit)"
    )
    player: str = Field(default="", description="your user name")
    messages: list[dict[str, JsonValue]] = Field(
        default_factory=list,
        description="every message you received since your previous decision (seq, seat, "
        "from, text, to, channel)",
    )
    last_step: list[dict[str, JsonValue]] = Field(
        default_factory=list,
        description="the actions recorded since your previous decision (yours first), as you "
        "may see them: seq, seat, by, notation (absent while hidden)",
    )
    draw: dict[str, JsonValue] | None = Field(
        default=None,
        description="the draw: open (a proposal awaits votes), voted (seats that voted, not "
        "how), you_voted, and the last decision since your previous decision",
    )
    game_deadline: float | None = Field(
        default=None, description="when the game's step times out (Unix seconds), if it does"
    )
    budget_seconds: float
    deadline: float = Field(description="your decision's budget ends (Unix seconds)")
    remaining_seconds: float
    attempts_left: int
    notation_help: str
    title: str = Field(default="", description="the game's title")
    primer: str = Field(default="", description="the game's rules in short")
    facts: str = Field(
        default="", description="public facts beyond the board's text (centres, adjacency...)"
    )
    proposals: str = Field(default="", description="how to make every kind of proposal")
    briefing: str = Field(
        default="", description="the whole decision as one text, for a language model"
    )
    memory: str = Field(
        default="",
        description="what your seat remembers, newest items within a budget: your diary, the "
        "promises you made or received, the messages you sent (older ones counted, not shown)",
    )


class PendingOut(BaseModel):
    """What the agent's seat owes now: a decision, or nothing (and why)."""

    pending: bool
    decision: DecisionOut | None = None
    status: str = Field(
        description="game status, 'waiting' while others decide, or 'negotiating' while a "
        "negotiation round is on (press only)"
    )
    outcome: dict[str, JsonValue] | None = None
    negotiation: dict[str, JsonValue] | None = Field(
        default=None,
        description="while negotiating: round, rounds, messages_left, ends_at (Unix seconds)",
    )
    messages: list[dict[str, JsonValue]] | None = Field(
        default=None,
        description="while negotiating: the messages received since your previous decision",
    )
    you: dict[str, JsonValue] | None = Field(
        default=None,
        description="while negotiating: who your seat is and the board, as a decision shows "
        "them (game, game_id, seat, seat_name, player, seats, title, text, primer, facts, "
        "proposals)",
    )
    briefing: str | None = Field(
        default=None, description="while negotiating: the whole round as one text"
    )


class AnswerIn(Strict):
    decision: Annotated[str, Field(max_length=100)]
    action: Annotated[str, Field(max_length=10_000)] | None = Field(
        default=None, description="the action in the game's notation"
    )
    options: (
        Annotated[list[Annotated[str, Field(max_length=200)]], Field(max_length=500)] | None
    ) = Field(default=None, description="option ids: one, or one per group when composite")
    reasoning: Annotated[str, Field(max_length=MAX_REASONING_CHARS)] | None = Field(
        default=None,
        description="private: kept out of every other viewer's view; in the research export",
    )
    press: Annotated[list[PressIn], Field(max_length=20)] = Field(default_factory=list)
    diary: Annotated[str, Field(max_length=DIARY_MAX_CHARS)] | None = Field(
        default=None,
        description="a note to your future self, kept with your seat (once the answer is "
        "played) and shown in your later decisions under 'memory'",
    )


class DiaryIn(Strict):
    text: Annotated[str, Field(min_length=1, max_length=DIARY_MAX_CHARS)] = Field(
        description="the entry: a note to your future self, shown in your later decisions"
    )


class DiaryOut(BaseModel):
    game_id: str
    seat: int
    state_id: int
    at: float
    text: str
    entries: int = Field(description="entries in your seat's diary now")


class AnswerOut(BaseModel):
    status: Literal["accepted", "rejected", "defaulted", "timed_out"]
    decision: str
    played: str | None = Field(default=None, description="what was played for the seat")
    error: dict[str, JsonValue] | None = None
    attempts_left: int
    state_id: int | None = None


class NoteOut(BaseModel):
    seat: int
    state_id: int
    at: float
    text: str


class NotesOut(BaseModel):
    game_id: str
    notes: list[NoteOut]


class ResearchOut(BaseModel):
    game_id: str
    record: dict[str, JsonValue] = Field(description="the complete (archive) record")
    reasoning: list[NoteOut]
    decisions: list[dict[str, JsonValue]]
