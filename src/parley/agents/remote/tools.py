"""The tools a language model plays with, defined once: served over MCP (`parley mcp`) and
offered as OpenAI-style function calls (`parley agent`, `openai_tools`).

Every tool acts through a `ParleyClient`, which reaches only the routes a player and a
host need. A failure (the server refused, an argument out of format, the server out of
reach) is raised as `ToolError`, which MCP clients receive as an error result
(`isError: true`) whose text says why.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable
from typing import Annotated, Any, Literal

import httpx
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import CallToolResult, TextContent
from pydantic import Field

from .client import (
    BOT_NAME,
    DECISION_ID,
    GAME_ID,
    INVITE_CODE,
    JSON,
    ParleyClient,
    RequestRefused,
)

INSTRUCTIONS = (
    "Play games on a Parley server. To host: list_game_types, create_game, add_bots, "
    "start_game. To join someone else's: list_games, join_game. Then loop: "
    "wait_for_decision blocks until your seat owes a decision (or a negotiation round "
    "opens, or the game ends) and tells who you are, the position, the legal actions and "
    "the press you received; answer with submit_action, passing its decision_id. "
    "send_press talks to other players; vote_draw proposes or answers a draw. "
    "format='text' gives the game's rendered text instead of JSON. A failed call is an "
    "error result whose text says why."
)

WAIT_LIMIT = 600.0  # the longest one wait_for_decision call may block
DIARY_CHARS = 2000  # one diary entry, at most (the server says the same)
RECHECK_SECONDS = 5.0  # a wait looks again at least this often, socket or not
FINAL_STATUSES = ("finished", "closed")

GameIdArg = Annotated[
    str,
    Field(
        description="the game's id, as list_games or create_game gave it (letters, digits, "
        "'-' and '_', at most 32)",
        pattern=GAME_ID,
    ),
]
FormatArg = Annotated[
    Literal["json", "text"],
    Field(
        description="'json' (default): the whole answer as structured JSON; 'text': only the "
        "game's rendered text (who you are, the position, messages, legal actions)"
    ),
]


class Inbox:
    """Which history entries of each game the player has been shown already, and which
    messages it sent itself (never shown back to it as received)."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}
        self.seat: dict[str, int] = {}
        self.sent: dict[str, set[int]] = {}
        self.rounds: dict[str, str] = {}  # the negotiation round last shown, per game

    def sent_by_me(self, game_id: str, entry: Any) -> None:
        """Remember a message this player sent (the server's `entry` for it)."""
        if isinstance(entry, dict) and isinstance(entry.get("seq"), int):
            self.sent.setdefault(game_id, set()).add(entry["seq"])

    async def my_seat(self, client: ParleyClient, game_id: str) -> int | None:
        if game_id not in self.seat:
            game = await client.game(game_id)
            you = game.get("you") if isinstance(game, dict) else None
            seat = you.get("seat") if isinstance(you, dict) else None
            if isinstance(seat, int):
                self.seat[game_id] = seat
        return self.seat.get(game_id)

    async def new_press(
        self, client: ParleyClient, game_id: str, seat: int | None = None
    ) -> list[JSON]:
        """Messages from others since the last call (the player's own are left out)."""
        if seat is not None:
            self.seat[game_id] = seat
        since = self.seen.get(game_id, 0)
        data = await client.history(game_id, since)
        if not isinstance(data, dict) or "entries" not in data:
            return []
        entries = data["entries"]
        if entries:
            self.seen[game_id] = max(int(e["seq"]) for e in entries) + 1
        press = [e for e in entries if e.get("type") == "press"]
        mine = await self.my_seat(client, game_id) if press else None
        sent = self.sent.get(game_id, set())
        return [
            {k: e.get(k) for k in ("seq", "seat", "text", "to", "channel") if k in e}
            for e in press
            if e.get("seq") not in sent and (mine is None or e.get("seat") != mine)
        ]


def _round_key(data: JSON) -> str | None:
    """Which negotiation round is on (None when none is)."""
    on = data.get("negotiation") if data.get("status") == "negotiating" else None
    if not isinstance(on, dict):
        return None
    return json.dumps([on.get("round"), on.get("ends_at")])


def _mark_round(box: Inbox, game_id: str, data: JSON) -> None:
    """The player has been shown this negotiation round: a wait does not stop for it again."""
    key = _round_key(data)
    if key is not None:
        box.rounds[game_id] = key


def _why(data: JSON) -> str:
    """A refusal in one line: the HTTP status, the server's reason, then its details."""
    rest = {k: v for k, v in data.items() if k not in ("ok", "http_status")}
    status = data.get("http_status")
    code = rest.get("error") if isinstance(rest.get("error"), str) else None
    message = rest.get("message") or rest.get("detail")
    head = f"the server refused this (HTTP {status}"
    head += f", {code})" if code else ")"
    if isinstance(message, str):
        head += f": {message}"
    return f"{head}. Details: {json.dumps(rest, ensure_ascii=False)[:2000]}"


async def _ok(client: ParleyClient, call: Awaitable[JSON]) -> JSON:
    """The server's answer, or a `ToolError` saying why there is none."""
    try:
        data = await call
    except RequestRefused as err:
        raise ToolError(str(err)) from err
    except httpx.HTTPError as err:
        raise ToolError(
            f"could not reach the Parley server at {client.http.base_url}: {err!r}"
        ) from err
    if data.get("ok") is False:
        raise ToolError(_why(data))
    return data


def _result(data: JSON, text: str | None = None) -> CallToolResult:
    """JSON as structured content; or, when `text` is given, that text alone."""
    if text is not None:
        return CallToolResult(content=[TextContent(type="text", text=text)])
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(data, ensure_ascii=False))],
        structured_content=data,
    )


def build_server(client: ParleyClient, inbox: Inbox | None = None) -> MCPServer:
    """An MCP server whose tools act through `client`."""
    server: MCPServer = MCPServer(name="parley", instructions=INSTRUCTIONS)
    box = inbox or Inbox()

    async def state_text(game_id: str) -> str:
        try:
            state = await _ok(client, client.state(game_id, text=True))
        except ToolError:
            return ""  # a game not started has no position yet
        return str(state.get("text") or "")

    async def pending(game_id: str, mark_round: bool = True) -> JSON:
        data = await _ok(client, client.decision(game_id))
        if mark_round:
            _mark_round(box, game_id, data)
        decision = data.get("decision")
        seat = decision.get("seat") if isinstance(decision, dict) else None
        data["press_received"] = await box.new_press(
            client, game_id, seat if isinstance(seat, int) else None
        )
        if isinstance(decision, dict):
            data["decision_id"] = decision["decision"]
            data["how_to_answer"] = (
                "call submit_action with this game_id and decision_id, and either `action` "
                "(notation) or `options` (option ids; one per group when composite)"
            )
        return data

    async def as_text(game_id: str, data: JSON) -> str:
        # Imported here: the reference player imports these tools.
        from .llm import decision_text, negotiation_text

        if data.get("pending") and isinstance(data.get("decision"), dict):
            return decision_text(data) + f"\n\nAnswer with decision_id {data['decision_id']}."
        lines = [f"No decision is owed now (status: {data.get('status')})."]
        if data.get("timed_out"):
            lines[0] += f" Waited {data.get('waited_seconds')} s; call again to keep waiting."
        if data.get("status") == "negotiating":
            lines.append(negotiation_text(data))
        elif data.get("press_received"):
            lines += [
                f"- from seat {m.get('seat')}: {m.get('text')}" for m in data["press_received"]
            ]
        if data.get("outcome"):
            lines.append(f"Outcome: {json.dumps(data['outcome'], ensure_ascii=False)}")
        position = await state_text(game_id)
        if position:
            lines += ["", "The position:", position]
        return "\n".join(lines)

    @server.tool()
    async def list_game_types() -> JSON:
        """Every game the server runs (name, seats, options) and the bots it offers."""
        return await _ok(client, client.game_types())

    @server.tool()
    async def list_games(
        status: Annotated[
            Literal["lobby", "active", "finished"],
            Field(
                description="'lobby': games waiting for players (joinable); 'active': "
                "running; 'finished': over"
            ),
        ] = "lobby",
    ) -> JSON:
        """Games on the server with this status (lobby games can be joined)."""
        return await _ok(client, client.games(status))

    @server.tool()
    async def create_game(
        game: Annotated[
            str,
            Field(
                description="the game's name or alias, as list_game_types shows it (e.g. "
                "'diplomacy', 'sucker')",
                min_length=1,
                max_length=64,
            ),
        ],
        seats: Annotated[
            int | None,
            Field(description="how many seats (default: the game's usual number)", ge=1, le=64),
        ] = None,
        options: Annotated[
            dict[str, Any] | None,
            Field(description="the game's options by name, as list_game_types shows them"),
        ] = None,
        visibility: Annotated[
            Literal["public", "private"],
            Field(
                description="'public': listed for everyone; 'private': joined only with "
                "the invite code in the answer"
            ),
        ] = "public",
        name: Annotated[
            str, Field(description="the game's title in the lobby", min_length=1, max_length=100)
        ] = "Game",
        host_role: Annotated[
            Literal["player", "spectator"],
            Field(description="'player': you take a seat; 'spectator': you only host and watch"),
        ] = "player",
        period_seconds: Annotated[
            int | None,
            Field(description="how long each step may last before it times out", ge=1),
        ] = None,
    ) -> JSON:
        """Create a game in the lobby: you are its host. Then add_bots and start_game."""
        spec: dict[str, Any] = {
            "game": game,
            "name": name,
            "private": visibility == "private",
            "host_role": host_role,
        }
        if seats is not None:
            spec["seats"] = seats
        if options:
            spec["options"] = options
        if period_seconds is not None:
            spec["period_seconds"] = period_seconds
        created = await _ok(client, client.create_game(spec))
        return {"game_id": created.get("id"), **created}

    @server.tool()
    async def join_game(
        game_id: GameIdArg,
        role: Annotated[
            Literal["player", "spectator"],
            Field(description="'player' takes a seat; 'spectator' only watches"),
        ] = "player",
        invite_code: Annotated[
            str | None,
            Field(
                description="a private game's invite code (none for public games)",
                pattern=INVITE_CODE,
            ),
        ] = None,
    ) -> JSON:
        """Join a game as a player (a seat) or a spectator."""
        return await _ok(client, client.join(game_id, role, invite_code or None))

    @server.tool()
    async def add_bots(
        game_id: GameIdArg,
        bot: Annotated[
            str,
            Field(
                description="the bot's name, as list_game_types offers it for this game "
                "(e.g. 'random', 'heuristic')",
                pattern=BOT_NAME,
            ),
        ] = "random",
        count: Annotated[int, Field(description="how many seats to give bots", ge=1, le=64)] = 1,
    ) -> JSON:
        """Seat bots in a game you host, while it is in the lobby."""
        return await _ok(client, client.add_bots(game_id, bot, count))

    @server.tool()
    async def start_game(
        game_id: GameIdArg,
        fill_with: Annotated[
            str | None,
            Field(
                description="fill every empty seat with this bot first (none: start with "
                "the seats as they are)",
                pattern=BOT_NAME,
            ),
        ] = None,
    ) -> JSON:
        """Start a game you host; seats are drawn at random."""
        return await _ok(client, client.start(game_id, fill_with))

    @server.tool()
    async def get_state(game_id: GameIdArg, format: FormatArg = "json") -> CallToolResult:
        """Your current view of a game: the observation (JSON) or the position in words."""
        state = await _ok(client, client.state(game_id, text=format == "text"))
        if format == "text":
            return _result(state, str(state.get("text") or f"status: {state.get('status')}"))
        return _result(state)

    @server.tool()
    async def get_decision(game_id: GameIdArg, format: FormatArg = "json") -> CallToolResult:
        """What your seat owes now, at once: `pending` true with the decision and its
        `decision_id`, or false with the status; and the press you received since you last
        asked (your own messages are not repeated)."""
        data = await pending(game_id)
        return _result(data, await as_text(game_id, data) if format == "text" else None)

    @server.tool()
    async def wait_for_decision(
        game_id: GameIdArg,
        timeout_seconds: Annotated[
            float,
            Field(description="the longest to wait, in seconds (at most 600)", ge=0, le=WAIT_LIMIT),
        ] = 60.0,
        format: FormatArg = "json",
    ) -> CallToolResult:
        """Block until your seat owes a decision, a negotiation round you have not been
        shown opens, or the game ends; the same answer as get_decision. When the time runs
        out first, the answer has `timed_out` true (not an error): call again to wait on."""
        started = time.monotonic()
        deadline = started + timeout_seconds
        game = await _ok(client, client.game(game_id))
        async with client.watch(game_id, int(game.get("seq") or 0)) as changed:
            while True:  # ends by the deadline: each turn waits for a change or a recheck
                data = await pending(game_id, mark_round=False)
                fresh = _round_key(data) not in (None, box.rounds.get(game_id))
                if data.get("pending") or data.get("status") in FINAL_STATUSES or fresh:
                    data["timed_out"] = False
                    break
                left = deadline - time.monotonic()
                if left <= 0:
                    data["timed_out"] = True
                    break
                await changed(min(left, RECHECK_SECONDS))
        _mark_round(box, game_id, data)
        data["waited_seconds"] = round(time.monotonic() - started, 3)
        return _result(data, await as_text(game_id, data) if format == "text" else None)

    @server.tool()
    async def read_press(
        game_id: GameIdArg,
        since: Annotated[
            int,
            Field(description="the first history entry to read (0: from the start)", ge=0),
        ] = 0,
    ) -> JSON:
        """Every message you may read in a game (yours included), from history entry
        `since` on."""
        data = await _ok(client, client.history(game_id, since))
        return {"press": [e for e in data.get("entries", []) if e.get("type") == "press"]}

    @server.tool()
    async def send_press(
        game_id: GameIdArg,
        text: Annotated[
            str,
            Field(
                description="the message (plain words, or DAIDE where the game uses it)",
                min_length=1,
                max_length=100_000,
            ),
        ],
        to: Annotated[
            list[Annotated[int, Field(ge=0, le=1000)]] | None,
            Field(description="the seat numbers to send it to; none: everyone (public)"),
        ] = None,
        channel: Annotated[
            str,
            Field(
                description="an optional channel name (letters, digits, space, '_.-')",
                max_length=40,
                pattern=r"^[A-Za-z0-9 _.-]*$",
            ),
        ] = "",
    ) -> JSON:
        """Send a message: to everyone (no `to`), or to the listed seats."""
        sent = await _ok(client, client.press(game_id, text, to, channel))
        box.sent_by_me(game_id, sent.get("entry"))
        return sent

    @server.tool(
        description="Answer a decision: `action` in notation, or `options` (option ids, one "
        "per group when composite). `reasoning` is private: only you, and the research "
        "record after the game, read it. A refused answer is an error result saying why and "
        "how many attempts are left."
    )
    async def submit_action(
        game_id: GameIdArg,
        decision_id: Annotated[
            str,
            Field(
                description="the decision_id that get_decision or wait_for_decision gave "
                "(`<game id>.<seat>.<state id>`)",
                pattern=DECISION_ID,
            ),
        ],
        action: Annotated[
            str,
            Field(
                description="the action in the game's notation (or use `options`)",
                max_length=10_000,
            ),
        ] = "",
        options: Annotated[
            list[Annotated[str, Field(max_length=200)]] | None,
            Field(
                description="option ids from the decision's legal actions (or use `action`)",
                max_length=500,
            ),
        ] = None,
        reasoning: Annotated[
            str,
            Field(
                description="why you chose this; private to you and the research record",
                max_length=20_000,
            ),
        ] = "",
        diary: Annotated[
            str,
            Field(
                description="a note to your future self (plans, whom you trust, what you "
                "promised), kept with your seat once the answer is played and shown in your "
                "later decisions under `memory`",
                max_length=DIARY_CHARS,
            ),
        ] = "",
    ) -> JSON:
        answer: dict[str, Any] = {"decision": decision_id}
        if action:
            answer["action"] = action
        if options:
            answer["options"] = options
        if reasoning:
            answer["reasoning"] = reasoning
        if diary.strip():
            answer["diary"] = diary
        return await _ok(client, client.answer(game_id, answer))

    @server.tool(
        description="Write an entry in your seat's diary: a note to your future self (plans, "
        "whom you trust, what you promised). It is kept in the server's database and shown "
        "in your later decisions under `memory`, newest entries first within a budget."
    )
    async def write_diary(
        game_id: GameIdArg,
        text: Annotated[
            str,
            Field(description="the entry", min_length=1, max_length=DIARY_CHARS),
        ],
    ) -> JSON:
        return await _ok(client, client.diary(game_id, text))

    @server.tool()
    async def vote_draw(
        game_id: GameIdArg,
        accept: Annotated[
            bool,
            Field(description="true proposes a draw or votes for the open one; false rejects it"),
        ] = True,
    ) -> JSON:
        """Propose a draw, or answer an open proposal (false rejects it)."""
        return await _ok(client, client.draw(game_id, accept))

    return server


def memory_section(pending: JSON, shown: str = "") -> str:
    """The decision's memory (diary, deals, sent messages) to add to `shown`, the text a
    model reads; "" when there is none or `shown` carries it already."""
    decision = pending.get("decision") if isinstance(pending, dict) else None
    memory = decision.get("memory") if isinstance(decision, dict) else None
    if not isinstance(memory, str) or not memory or memory in shown:
        return ""
    return "\n\n" + memory


async def openai_tools(server: MCPServer, only: set[str] | None = None) -> list[dict[str, Any]]:
    """The server's tools as OpenAI-style function declarations."""
    return [
        {
            "type": "function",
            "function": {
                "name": tool.name,
                "description": tool.description or "",
                "parameters": tool.input_schema,
            },
        }
        for tool in await server.list_tools()
        if only is None or tool.name in only
    ]


async def call(server: MCPServer, name: str, arguments: dict[str, Any]) -> JSON:
    """Run one tool by name; the JSON it gave, or `{ok: false, error}` when it could not."""
    try:
        result = await server.call_tool(name, arguments)
    except Exception as err:  # a tool error is an answer for the model, not a crash
        return {"ok": False, "error": str(err)}
    structured = getattr(result, "structured_content", None)
    if isinstance(structured, dict):
        return structured
    texts = "".join(getattr(c, "text", "") for c in getattr(result, "content", []))
    try:
        data = json.loads(texts)
    except ValueError:
        return {"ok": False, "error": texts}
    return data if isinstance(data, dict) else {"result": data}
