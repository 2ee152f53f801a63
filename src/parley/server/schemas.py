"""Request and response models of the HTTP API (and the WebSocket messages)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, JsonValue, StrictBool

from .text import control_free, describe, first_refused
from .vocab import Controller, GameStatus, PressMode, Replacements, Role, SeedSource

MAX_PERIOD = 30 * 24 * 3600


def _one_line(value: str) -> str:
    found = first_refused(value, multiline=False)
    if found is not None:
        raise ValueError(f"one line of text is expected; this contains {describe(found)}")
    return value


def _multi_line(value: str) -> str:
    if not control_free(value, multiline=True):
        raise ValueError("control characters are not allowed")
    return value


OneLine = Annotated[str, AfterValidator(_one_line)]
MultiLine = Annotated[str, AfterValidator(_multi_line)]
Username = Annotated[
    str, Field(min_length=2, max_length=32, pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")
]
# `llm:NAME` is a chat model whose profile the operator installed (`parley.server.llm_seats`).
BotName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=32,  # the column's width
        pattern=r"^(?:llm:[A-Za-z0-9_][A-Za-z0-9_.-]{0,27}|[a-z0-9][a-z0-9_-]*)$",
    ),
]
OptionValue = bool | int | str
Seat = Annotated[int, Field(ge=0, le=1000)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- requests -------------------------------------------------------------------------


class SignUp(Strict):
    username: Username
    password: Annotated[str, Field(min_length=8, max_length=256)] | None = None


class LogIn(Strict):
    username: Username
    password: Annotated[str, Field(min_length=1, max_length=256)]


class Negotiation(Strict):
    rounds: Annotated[int, Field(ge=0, le=10, description="rounds per step (0: none)")] = 1
    messages: Annotated[int, Field(ge=1, le=50, description="messages per seat per round")] = 3
    seconds: Annotated[int, Field(ge=1, le=MAX_PERIOD, description="each round's length")] = 300


class NegotiationOut(BaseModel):
    rounds: int
    messages: int
    seconds: int
    round: int = Field(description="the round under way now (0: none, actions are open)")


class StateNegotiationOut(NegotiationOut):
    messages_left: int | None = Field(
        default=None,
        description="in a seat's state while a round is on: the messages it may still send in it",
    )


class CreateGame(Strict):
    game: Annotated[str, Field(min_length=1, max_length=64, description="game name or alias")]
    name: Annotated[OneLine, Field(min_length=1, max_length=100)] = "Game"
    description: Annotated[MultiLine, Field(max_length=2000)] = ""
    options: Annotated[
        dict[Annotated[str, Field(max_length=64)], OptionValue], Field(max_length=64)
    ] = Field(default_factory=dict)
    seats: Annotated[int, Field(ge=1, le=64)] | None = None
    period_seconds: Annotated[int, Field(ge=1, le=MAX_PERIOD)] = 900
    press: PressMode = PressMode.FULL
    private: StrictBool = False
    host_role: Role = Role.PLAYER
    disorder_after: Annotated[int, Field(ge=0, le=1000)] = 2
    bot_after: Annotated[int, Field(ge=0, le=1000)] = 0
    takeover_bot: BotName = "random"
    seed: Annotated[int, Field(ge=0, lt=2**62)] | None = Field(
        default=None,
        description="mixed with a fresh secret of the server, so nobody (the host included) "
        "can foresee a draw; used as given only on a server set up for fixed seeds, and the "
        "game then says so (`seed_source: host-fixed`)",
    )
    negotiation: Negotiation | None = Field(
        default=None,
        description="negotiation rounds before each step in which every surviving seat "
        "decides (Diplomacy's movement phases): press only, then the actions",
    )
    position: dict[str, Any] | None = Field(
        default=None,
        description="start from this position (the game's position format, see "
        "`parley position`) instead of the game's set-up; it gives the seats and options, "
        "hidden parts included, so the host knows them and the game says it starts from "
        "a position",
    )
    replacements: Replacements = Field(
        default=Replacements.HOST,
        description="who opens a seat held by a bot or in civil disorder to a newcomer: "
        "'host' (the host, seat by seat) or 'open' (every such seat is open)",
    )


class JoinGame(Strict):
    role: Role = Role.PLAYER
    invite_code: Annotated[str, Field(max_length=64)] | None = None
    seat: Seat | None = Field(
        default=None, description="in a running game: the open seat to take (default: the first)"
    )


class OpenSeatIn(Strict):
    open: StrictBool = Field(
        default=True, description="true opens the seat to newcomers; false closes"
    )


class AddBots(Strict):
    bot: BotName = "random"
    count: Annotated[int, Field(ge=1, le=64)] = 1


class StartGame(Strict):
    fill_with: BotName | None = Field(
        default=None, description="fill the empty seats with this bot before starting"
    )


class ActionIn(Strict):
    action: JsonValue = Field(
        default=None, description="the action in the game's notation, or its JSON form"
    )
    parts: Annotated[list[JsonValue], Field(max_length=500)] | None = Field(
        default=None, description="elementary parts of a composite action (e.g. one per unit)"
    )
    state_id: Annotated[int, Field(ge=0)] | None = Field(
        default=None, description="refuse the action if the game has moved past this state"
    )
    revision: Annotated[int, Field(ge=0)] | None = Field(
        default=None,
        description="refuse the action if your seat's submissions have changed since this "
        "revision (the `revision` of your state)",
    )


class PressIn(Strict):
    text: Annotated[str, Field(min_length=1, max_length=100_000)]
    to: Annotated[list[Seat], Field(min_length=1, max_length=64)] | None = Field(
        default=None, description="recipient seats; none means the public channel"
    )
    channel: Annotated[str, Field(max_length=40, pattern=r"^[A-Za-z0-9 _.-]*$")] = ""


class DrawIn(Strict):
    accept: StrictBool = True


class TakeoverIn(Strict):
    bot: BotName = "random"


# --- responses ------------------------------------------------------------------------


class ErrorOut(BaseModel):
    model_config = ConfigDict(extra="allow")
    error: str
    message: str


class UserOut(BaseModel):
    id: int
    username: str
    has_password: bool


class SessionOut(BaseModel):
    user: UserOut
    token: str = Field(description="send as 'Authorization: Bearer <token>'")


class DeadlineOut(BaseModel):
    state_id: int
    at: float = Field(description="seconds since the Unix epoch")
    at_iso: str
    remaining_seconds: float


class LobbyPlayerOut(BaseModel):
    player: str
    bot: str | None = None


class SeatOut(BaseModel):
    seat: int
    name: str = Field(description="the seat as the game calls it (power, colour...)")
    player: str | None = Field(description="who holds the seat now (user or bot), if anyone")
    user: str | None
    bot: str | None
    controller: Controller
    missed: int
    open: bool = Field(default=False, description="a newcomer may take this seat by joining")


class YouOut(BaseModel):
    role: Role
    seat: int | None
    controller: Controller | None
    host: bool
    owed: str | None = Field(
        default=None,
        description='in lists of your games: what your seat owes now (e.g. "orders"), '
        "unless you said you are ready; the deadline is the game's",
    )


class GameOut(BaseModel):
    id: str
    game: str
    title: str
    name: str
    description: str
    status: GameStatus
    host: str | None
    press: PressMode
    period_seconds: int
    private: bool
    seat_count: int
    options: dict[str, OptionValue]
    players: list[LobbyPlayerOut]
    seats: list[SeatOut]
    spectators: int
    state_id: int | None
    seq: int
    deadline: DeadlineOut | None
    outcome: dict[str, JsonValue] | None
    disorder_after: int
    bot_after: int
    replacements: Replacements = Replacements.HOST
    seed_source: SeedSource | None = Field(
        default=None,
        description="where the seed came from: `server`; `host-mixed`, the host's choice mixed "
        "with a secret of the server (nobody can foresee a draw); `host-fixed`, the host's "
        "choice as given, on a server set up for fixed seeds (the host can know every hidden "
        "draw); null for games from before it was kept",
    )
    from_position: bool = Field(
        default=False,
        description="the game starts from a position its host gave (the host knows it whole, "
        "hidden parts included), not from the game's set-up",
    )
    sandbox: bool = Field(
        default=False,
        description="a sandbox: its host plays every seat, switching between them; never "
        "listed for others, no bots, no deadlines worth the name (see /api/sandbox)",
    )
    negotiation: NegotiationOut | None = None
    created_at: float
    started_at: float | None
    ended_at: float | None
    invite_code: str | None = Field(default=None, description="shown to the host only")
    you: YouOut | None = None
    waiting_chat: int = Field(
        default=0,
        description="before the start: how many messages the waiting room holds "
        "(members read them at .../waiting-room)",
    )


class GameListOut(BaseModel):
    games: list[GameOut]


class GameTypeOut(BaseModel):
    model_config = ConfigDict(extra="allow")
    name: str
    title: str
    summary: str
    min_seats: int
    max_seats: int
    default_seats: int


class CatalogOut(BaseModel):
    games: list[GameTypeOut]
    bots: list[str]
    press_modes: list[PressMode]
    default_period_seconds: int


class ViewerOut(BaseModel):
    role: Role
    seat: int | None


class TableOut(BaseModel):
    """Who the table waits for now; only done or not, never what a seat chose."""

    waiting: list[int] = Field(
        default_factory=list, description="seats owing a decision that are not ready yet"
    )
    done: list[int] = Field(
        default_factory=list,
        description="seats that acted in this step or said they are ready",
    )
    later: list[int] = Field(
        default_factory=list,
        description="seats a window asking one seat after another will still ask, in order",
    )
    simultaneous: bool = Field(default=False, description="the owed seats decide at once")


class StateOut(BaseModel):
    game_id: str
    status: GameStatus
    viewer: ViewerOut
    state_id: int
    seq: int
    observation: dict[str, JsonValue]
    can_act: bool
    owes: bool
    revision: int | None = Field(
        default=None,
        description="your seat's submissions so far; send it with an action to refuse it if "
        "they changed meanwhile",
    )
    options: dict[str, JsonValue] | None = Field(
        default=None, description="the legal-options tree of your seat when it may act"
    )
    can_undo: bool = Field(
        default=False,
        description="your seat's last action may still be taken back (POST .../undo): nobody "
        "has acted since and it revealed nothing",
    )
    deadline: DeadlineOut | None
    text: str | None = Field(default=None, description="a plain-text rendering, on request")
    negotiation: StateNegotiationOut | None = Field(
        default=None,
        description="games with negotiation rounds: the round on now (while one is, nobody "
        "can act and press has a quota)",
    )
    at: int | None = Field(
        default=None, description="set when this is an earlier point of the game (`?at=`)"
    )
    table: TableOut = Field(
        default_factory=TableOut, description="who the table waits for, and who is done"
    )


class StepOut(BaseModel):
    state_id: int
    seq: int = Field(description="the first entry recorded at this state")


class StepsOut(BaseModel):
    game_id: str
    steps: list[StepOut]


class OptionsOut(BaseModel):
    game_id: str
    seat: int
    state_id: int
    can_act: bool
    options: dict[str, JsonValue] | None


class ActionOut(BaseModel):
    entry: dict[str, JsonValue]
    state_id: int
    seq: int
    status: GameStatus
    revision: int | None = Field(default=None, description="your seat's revision after this action")


class WaitingRoomIn(Strict):
    text: Annotated[str, Field(min_length=1, max_length=100_000)]


class WaitingRoomOut(BaseModel):
    messages: list[dict[str, JsonValue]] = Field(
        description="oldest first: id, by (username), text, at (epoch seconds)"
    )


class PressOut(BaseModel):
    entry: dict[str, JsonValue]


class DrawOut(BaseModel):
    decided: bool
    agreed: bool | None = None
    votes: dict[str, bool] | None = None
    status: GameStatus


class HistoryOut(BaseModel):
    game_id: str
    since: int
    seq: int
    entries: list[dict[str, JsonValue]]


class RecordOut(BaseModel):
    view: Literal["seat", "spectator", "archive"]
    record: dict[str, JsonValue]


class EventOut(BaseModel):
    id: int
    kind: str
    data: dict[str, JsonValue]
    at: float


class EventsOut(BaseModel):
    events: list[EventOut]


class HealthOut(BaseModel):
    status: Literal["ok"]
    version: str
    process: str
    database: str
    redis: bool
    games_cached: int
    connections: int
    deadlines_fired: int
    deadline_claims_lost: int
    write_conflicts: int


class OkOut(BaseModel):
    ok: bool = True


def dump(model: BaseModel) -> dict[str, Any]:
    return model.model_dump(mode="json")


# --- saved orders -----------------------------------------------------------------------


class DraftIn(Strict):
    parts: Annotated[dict[str, str | None], Field(max_length=500)] = Field(
        default_factory=dict,
        description="part key (a child of the options tree's `each` node, or its root) → the "
        "part in notation; null clears it",
    )
    ready: StrictBool | None = Field(default=None, description="say you are done (or not yet)")
    state_id: Annotated[int, Field(ge=0)] | None = Field(
        default=None, description="refuse the draft if the game has moved past this state"
    )


class DraftPartOut(BaseModel):
    slot: str
    label: str
    action: str | None


class DraftOut(BaseModel):
    game_id: str
    seat: int
    state_id: int
    owes: bool = Field(description="whether the seat owes a decision in this step")
    parts: list[DraftPartOut]
    ready: bool


class DraftArchiveOut(BaseModel):
    game_id: str
    drafts: list[dict[str, Any]]
