"""The schema, as typed SQLAlchemy models. Migrations in `migrations/` create it."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Double,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"
    __table_args__ = (UniqueConstraint("username_key", name="uq_users_username_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    username: Mapped[str] = mapped_column(String(32))
    username_key: Mapped[str] = mapped_column(String(32))  # lower-cased: one owner per name
    password_hash: Mapped[str | None] = mapped_column(String(255))
    created_at: Mapped[float] = mapped_column(Double)
    recovery_hash: Mapped[str | None] = mapped_column(String(64))  # SHA-256 of a one-time code


class Token(Base):
    """A bearer token, stored as its SHA-256 so a leaked table opens no session."""

    __tablename__ = "tokens"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    created_at: Mapped[float] = mapped_column(Double)


class Game(Base):
    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(100))
    description: Mapped[str] = mapped_column(Text)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[int] = mapped_column(Integer)
    period_seconds: Mapped[int] = mapped_column(Integer)
    press: Mapped[str] = mapped_column(String(16))
    private: Mapped[bool] = mapped_column(Boolean)
    invite_code: Mapped[str | None] = mapped_column(String(64))
    host_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    status: Mapped[str] = mapped_column(String(16), index=True)
    seed: Mapped[int] = mapped_column(BigInteger)
    players: Mapped[list[str]] = mapped_column(JSON)
    seq: Mapped[int] = mapped_column(Integer)  # entries in the record
    version: Mapped[int] = mapped_column(Integer)  # bumped by every change: optimistic locking
    outcome: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    disorder_after: Mapped[int] = mapped_column(Integer)
    bot_after: Mapped[int] = mapped_column(Integer)
    takeover_bot: Mapped[str] = mapped_column(String(32))
    replacements: Mapped[str] = mapped_column(String(16), server_default="host")
    # Negotiation rounds (0: none); the step they were opened for and the round on there.
    talk_rounds: Mapped[int] = mapped_column(Integer, server_default="0")
    talk_messages: Mapped[int] = mapped_column(Integer, server_default="3")
    talk_seconds: Mapped[int] = mapped_column(Integer, server_default="300")
    talk_state: Mapped[int] = mapped_column(Integer, server_default="-1")
    talk_round: Mapped[int] = mapped_column(Integer, server_default="0")
    created_at: Mapped[float] = mapped_column(Double)
    started_at: Mapped[float | None] = mapped_column(Double)
    ended_at: Mapped[float | None] = mapped_column(Double)
    # Where `seed` came from (vocab.SeedSource); NULL for games from before it was kept.
    seed_source: Mapped[str | None] = mapped_column(String(16))
    # The position a game started from (the game's position format); NULL: its set-up.
    position: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # A sandbox: its host plays every seat (see parley.server.sandbox).
    sandbox: Mapped[bool] = mapped_column(Boolean, server_default=false(), default=False)


class Member(Base):
    __tablename__ = "members"
    __table_args__ = (
        UniqueConstraint("game_id", "user_id", name="uq_members_game_user"),
        UniqueConstraint("game_id", "seat", name="uq_members_game_seat"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), index=True)
    role: Mapped[str] = mapped_column(String(16))
    bot: Mapped[str | None] = mapped_column(String(32))
    seat: Mapped[int | None] = mapped_column(Integer)
    controller: Mapped[str] = mapped_column(String(16))
    missed: Mapped[int] = mapped_column(Integer)
    joined_at: Mapped[float] = mapped_column(Double)
    open: Mapped[bool] = mapped_column(Boolean, server_default="0")  # open to a newcomer
    seat_since: Mapped[int] = mapped_column(Integer, server_default="0")  # record length then


class Entry(Base):
    """The append-only record: one kernel entry per row, numbered from 0 per game.

    The primary key (game_id, seq) is what makes two concurrent writers of the same
    state fail: only one insert of a given seq can succeed.
    """

    __tablename__ = "entries"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(16))
    data: Mapped[str] = mapped_column(Text)  # the entry as the archive sees it (JSON)
    actor: Mapped[str] = mapped_column(String(64))  # user:<id>, bot:<name>, deadline, disorder
    state_id: Mapped[int] = mapped_column(Integer)  # the state the entry was recorded at
    created_at: Mapped[float] = mapped_column(Double)


class Snapshot(Base):
    """A serialized match after `seq` entries, so loading does not replay from the start."""

    __tablename__ = "snapshots"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    format: Mapped[str] = mapped_column(String(200))
    data: Mapped[bytes] = mapped_column(LargeBinary)
    created_at: Mapped[float] = mapped_column(Double)


class Deadline(Base):
    """The running game's current deadline; claimed by one process at a time to fire it."""

    __tablename__ = "deadlines"
    __table_args__ = (Index("ix_deadlines_wake_at", "wake_at"),)

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    state_id: Mapped[int] = mapped_column(Integer)
    due_at: Mapped[float] = mapped_column(Double)
    wake_at: Mapped[float] = mapped_column(Double)  # due_at, or sooner when bots have work
    claimed_by: Mapped[str | None] = mapped_column(String(64))
    claim_until: Mapped[float | None] = mapped_column(Double)


class Event(Base):
    """Server events beside the kernel record: joins, seat changes, deadlines fired."""

    __tablename__ = "events"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(32))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Double)


# --- the agent gateway (`parley.server.gateway`) ------------------------------------------


class Agent(Base):
    """An external agent's profile: a user that plays through the gateway."""

    __tablename__ = "agent_profiles"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, autoincrement=False
    )
    name: Mapped[str] = mapped_column(String(64))
    description: Mapped[str] = mapped_column(Text)
    budget_seconds: Mapped[float] = mapped_column(Double)


class AgentDecision(Base):
    """One decision offered to one seat at one state, and what became of it."""

    __tablename__ = "agent_decisions"
    __table_args__ = (Index("ix_agent_decisions_status", "status"),)

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    state_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    opened_at: Mapped[float] = mapped_column(Double)
    deadline: Mapped[float] = mapped_column(Double)
    attempts: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16))
    played: Mapped[str | None] = mapped_column(Text)


class AgentNote(Base):
    """Private reasoning an agent sent with an answer; numbered to keep the order it came in."""

    __tablename__ = "agent_notes"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    state_id: Mapped[int] = mapped_column(Integer)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    at: Mapped[float] = mapped_column(Double)
    text: Mapped[str] = mapped_column(Text)


# --- saved orders (`parley.server.drafts`) ------------------------------------------------


class Draft(Base):
    """One saved part of a seat's decision for one step, by the player who holds the seat.

    Keyed by the player too, so a newcomer who takes the seat over never sees (nor submits)
    what the previous holder saved.
    """

    __tablename__ = "drafts"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    state_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    user_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    slot: Mapped[str] = mapped_column(String(100), primary_key=True)
    action: Mapped[str] = mapped_column(Text)
    updated_at: Mapped[float] = mapped_column(Double)


class ReadyFlag(Base):
    """A seat's player says they are done with the step (present: ready)."""

    __tablename__ = "ready_flags"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    state_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    user_id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    updated_at: Mapped[float] = mapped_column(Double)


# --- notifications outside the browser (`parley.server.notify`) ---------------------------


class NotifyPref(Base):
    """Where and about what a player is told: for every game (`game_id` "") or for one."""

    __tablename__ = "notify_prefs"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    game_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    enabled: Mapped[bool] = mapped_column(Boolean)
    email: Mapped[str | None] = mapped_column(String(254))
    webhook_url: Mapped[str | None] = mapped_column(String(2000))
    events: Mapped[list[str]] = mapped_column(JSON)
    updated_at: Mapped[float] = mapped_column(Double)


class EmailAddress(Base):
    """An address a player gave for notifications: nothing but a confirmation goes to it
    until its owner confirms it; its unsubscribe token is in every message sent to it."""

    __tablename__ = "email_addresses"

    user_id: Mapped[int] = mapped_column(
        ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
    )
    address: Mapped[str] = mapped_column(String(254), primary_key=True)
    confirm_token: Mapped[str | None] = mapped_column(String(64), unique=True)  # None: confirmed
    unsubscribe_token: Mapped[str] = mapped_column(String(64), unique=True)
    confirmed_at: Mapped[float | None] = mapped_column(Double)
    requested_at: Mapped[float] = mapped_column(Double)  # the last confirmation message queued
    created_at: Mapped[float] = mapped_column(Double)


class Outbox(Base):
    """One message to deliver: written with the change that caused it, sent in background."""

    __tablename__ = "outbox"
    __table_args__ = (
        UniqueConstraint("event_key", "channel", name="uq_outbox_event_channel"),
        Index("ix_outbox_status_next", "status", "next_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    event_key: Mapped[str] = mapped_column(String(200))  # one event for one user
    channel: Mapped[str] = mapped_column(String(16))  # email | webhook
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    game_id: Mapped[str] = mapped_column(String(32))
    target: Mapped[str] = mapped_column(String(2000))
    subject: Mapped[str] = mapped_column(String(300))
    body: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16))  # pending | sent | failed
    attempts: Mapped[int] = mapped_column(Integer)
    next_at: Mapped[float] = mapped_column(Double)
    claimed_by: Mapped[str | None] = mapped_column(String(64))
    claim_until: Mapped[float | None] = mapped_column(Double)
    last_error: Mapped[str | None] = mapped_column(String(500))
    created_at: Mapped[float] = mapped_column(Double)
    sent_at: Mapped[float | None] = mapped_column(Double)


# --- memory per seat (`parley.server.memory`) ---------------------------------------------


class SeatDiary(Base):
    """One entry of the diary a player keeps for its seat (shown in its later decisions)."""

    __tablename__ = "seat_diary"
    __table_args__ = (Index("ix_seat_diary_game_seat", "game_id", "seat"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seat: Mapped[int] = mapped_column(Integer)
    state_id: Mapped[int] = mapped_column(Integer)
    at: Mapped[float] = mapped_column(Double)
    text: Mapped[str] = mapped_column(Text)


class BotMemory(Base):
    """What a bot seat keeps between decisions (the parts its bot names), as JSON."""

    __tablename__ = "bot_memory"

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    bot: Mapped[str] = mapped_column(String(64))
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    updated_at: Mapped[float] = mapped_column(Double)
