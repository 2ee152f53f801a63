"""The tools a language model plays with, defined once: served over MCP (`parley mcp`) and
offered as OpenAI-style function calls (`parley agent`, `openai_tools`)."""

from __future__ import annotations

import json
from typing import Any, Literal

from mcp.server.mcpserver import MCPServer

from .client import JSON, ParleyClient

INSTRUCTIONS = (
    "Play games on a Parley server. list_games finds games, join_game takes a seat. "
    "get_decision tells what your seat owes now: who you are, the position in words, the "
    "legal actions and the press you received since you last asked. Answer with "
    "submit_action (the action in the game's notation, or option ids); send_press talks to "
    "other players; vote_draw proposes or answers a draw."
)


class Inbox:
    """Which history entries of each game the player has been shown already."""

    def __init__(self) -> None:
        self.seen: dict[str, int] = {}

    async def new_press(self, client: ParleyClient, game_id: str) -> list[JSON]:
        since = self.seen.get(game_id, 0)
        data = await client.history(game_id, since)
        if not isinstance(data, dict) or "entries" not in data:
            return []
        entries = data["entries"]
        if entries:
            self.seen[game_id] = max(int(e["seq"]) for e in entries) + 1
        return [
            {k: e.get(k) for k in ("seq", "seat", "text", "to", "channel") if k in e}
            for e in entries
            if e.get("type") == "press"
        ]


def build_server(client: ParleyClient, inbox: Inbox | None = None) -> MCPServer:
    """An MCP server whose tools act through `client`."""
    server: MCPServer = MCPServer(name="parley", instructions=INSTRUCTIONS)
    box = inbox or Inbox()

    @server.tool()
    async def list_games(status: Literal["lobby", "active", "finished"] = "lobby") -> JSON:
        """Games on the server with this status (lobby games can be joined)."""
        return await client.games(status)

    @server.tool()
    async def join_game(
        game_id: str, role: Literal["player", "spectator"] = "player", invite_code: str = ""
    ) -> JSON:
        """Join a game as a player (a seat) or a spectator."""
        return await client.join(game_id, role, invite_code or None)

    @server.tool()
    async def get_decision(game_id: str) -> JSON:
        """What your seat owes now, with the press you received since you last asked."""
        pending = await client.decision(game_id)
        if isinstance(pending, dict) and pending.get("ok") is not False:
            pending["press_received"] = await box.new_press(client, game_id)
        return pending

    @server.tool()
    async def read_press(game_id: str, since: int = 0) -> JSON:
        """Every message you may read in a game, from history entry `since` on."""
        data = await client.history(game_id, since)
        if not isinstance(data, dict) or "entries" not in data:
            return data
        return {"press": [e for e in data["entries"] if e.get("type") == "press"]}

    @server.tool()
    async def send_press(
        game_id: str, text: str, to: list[int] | None = None, channel: str = ""
    ) -> JSON:
        """Send a message: to everyone (no `to`), or to the listed seats."""
        return await client.press(game_id, text, to, channel)

    @server.tool(
        description="Answer a decision: `action` in notation, or option ids (one per group "
        "when composite). `reasoning` is private: only you, and the research record after "
        "the game, read it."
    )
    async def submit_action(
        game_id: str,
        decision: str,
        action: str = "",
        options: list[str] | None = None,
        reasoning: str = "",
    ) -> JSON:
        answer: dict[str, Any] = {"decision": decision}
        if action:
            answer["action"] = action
        if options:
            answer["options"] = options
        if reasoning:
            answer["reasoning"] = reasoning
        return await client.answer(game_id, answer)

    @server.tool()
    async def vote_draw(game_id: str, accept: bool = True) -> JSON:
        """Propose a draw, or answer an open proposal (false rejects it)."""
        return await client.draw(game_id, accept)

    return server


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
