"""The server's domain words: lifecycle enums and the records the store hands out."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class GameStatus(StrEnum):
    """A game's lifecycle: lobby → active → finished, or closed by its host at any point."""

    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    CLOSED = "closed"

    @property
    def over(self) -> bool:
        return self in (GameStatus.FINISHED, GameStatus.CLOSED)


class Role(StrEnum):
    PLAYER = "player"
    SPECTATOR = "spectator"


class Controller(StrEnum):
    """Who decides for a seat now."""

    HUMAN = "human"  # the seat's user (a person or an external agent)
    DISORDER = "disorder"  # nobody: the game's default action whenever the seat owes one
    BOT = "bot"  # a server-side bot


class PressMode(StrEnum):
    """Which messages players may send."""

    FULL = "full"  # public, one-to-one and group channels
    PUBLIC = "public"  # the public channel only
    NONE = "none"  # no press ("gunboat")


class Replacements(StrEnum):
    """Who opens a seat nobody plays (a bot's, or one in civil disorder) to a newcomer."""

    HOST = "host"  # the host opens each seat (POST .../seats/{seat}/open)
    OPEN = "open"  # every such seat is open to anyone who joins as a player


class SeedSource(StrEnum):
    """Where a game's seed came from: told to everyone who sees the game."""

    SERVER = "server"  # drawn by the server
    HOST_MIXED = "host-mixed"  # chosen by the host, mixed with a fresh secret of the server
    HOST_FIXED = "host-fixed"  # chosen by the host, used as given: they can know every draw


class EventKind(StrEnum):
    """Server events kept beside the kernel record (who joined, who took a seat over...)."""

    CREATED = "created"
    JOINED = "joined"
    LEFT = "left"
    BOT_ADDED = "bot_added"
    STARTED = "started"
    DEADLINE = "deadline"
    DISORDER = "disorder"
    TAKEOVER = "takeover"
    BACK = "back"
    SEAT_OPENED = "seat_opened"  # the host opened (or closed) a seat to newcomers
    SEAT_TAKEN = "seat_taken"  # a newcomer took a seat from a bot or civil disorder
    FINISHED = "finished"
    CLOSED = "closed"
    CHAT = "chat"  # a message in the waiting room, before the start (see press.py)


@dataclass(frozen=True, slots=True)
class UserRecord:
    id: int
    username: str
    has_password: bool
    created_at: float


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One game's row: settings, lifecycle and version (bumped by every change)."""

    id: str
    game: str
    name: str
    description: str
    options: dict[str, Any]
    seats: int
    period_seconds: int
    press: PressMode
    private: bool
    invite_code: str | None
    host_id: int
    status: GameStatus
    seed: int
    players: tuple[str, ...]  # names in seat order, fixed at start
    seq: int
    version: int
    outcome: dict[str, Any] | None
    disorder_after: int
    bot_after: int
    takeover_bot: str
    created_at: float
    started_at: float | None
    ended_at: float | None
    replacements: Replacements = Replacements.HOST
    talk_rounds: int = 0  # negotiation rounds before each step everyone decides (0: none)
    talk_messages: int = 3  # messages each seat may send in one round
    talk_seconds: int = 300  # how long a round lasts
    talk_state: int = -1  # the step whose rounds were opened
    talk_round: int = 0  # the round on at `talk_state` (past talk_rounds: orders are open)
    seed_source: SeedSource | None = None  # None: a game from before it was recorded
    position: dict[str, Any] | None = None  # where the game starts; None: the set-up
    sandbox: bool = False  # its host plays every seat (see parley.server.sandbox)

    @property
    def talking(self) -> int:
        """The negotiation round under way at `talk_state` (0: none)."""
        return self.talk_round if 0 < self.talk_round <= self.talk_rounds else 0


@dataclass(frozen=True, slots=True)
class MemberRecord:
    """A user (or a bot) in a game: a player, with a seat once the game starts, or a spectator."""

    id: int
    game_id: str
    user_id: int | None
    username: str | None
    role: Role
    bot: str | None
    seat: int | None
    controller: Controller
    missed: int
    joined_at: float
    open: bool = False  # the host opened this seat to a newcomer
    seat_since: int = 0  # the record's length when its current user took the seat

    @property
    def label(self) -> str:
        if self.username is not None:
            return self.username
        return f"{self.bot or 'bot'} bot"


@dataclass(frozen=True, slots=True)
class DeadlineRecord:
    """When the current step of a game times out, and when the scheduler should look again."""

    game_id: str
    state_id: int
    due_at: float
    wake_at: float
    claimed_by: str | None
    claim_until: float | None
