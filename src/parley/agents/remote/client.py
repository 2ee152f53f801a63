"""An asynchronous client of a Parley server's HTTP API: the routes a player (and a host)
uses, and nothing of the account behind the token.

Every request goes through `ParleyClient.call`, which takes a route template from
`PLAYER_ROUTES` and the ids that fill it. An id is checked against its format before any
request is made and quoted into the path, so an argument such as `../me/recovery-code#`
never reaches another route; a template outside the allow-list is refused the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import string
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any
from urllib.parse import quote, urlsplit, urlunsplit

import httpx
import websockets
from websockets.asyncio.client import ClientConnection

JSON = dict[str, Any]
"""Every answer is a JSON object (a list comes back as `{"result": [...]}`)."""

# The server's game ids are `secrets.token_urlsafe(8)`; it accepts up to 32 such characters.
GAME_ID = r"^[A-Za-z0-9_-]{1,32}$"
# A decision id is `<game id>.<seat>.<state id>` (the gateway's `decision_id`).
DECISION_ID = r"^[A-Za-z0-9_-]{1,32}\.[0-9]{1,4}\.[0-9]{1,12}$"
# Bot names, as the server's `BotName`.
BOT_NAME = r"^[a-z0-9][a-z0-9_-]{0,31}$"
INVITE_CODE = r"^[A-Za-z0-9_-]{1,64}$"

PATH_IDS: dict[str, re.Pattern[str]] = {"game_id": re.compile(GAME_ID)}
"""The format of every id that may fill a route template."""

PLAYER_ROUTES: frozenset[tuple[str, str]] = frozenset(
    {
        ("GET", "/api/game-types"),
        ("GET", "/api/games"),
        ("POST", "/api/games"),
        ("GET", "/api/games/{game_id}"),
        ("POST", "/api/games/{game_id}/join"),
        ("POST", "/api/games/{game_id}/bots"),
        ("POST", "/api/games/{game_id}/start"),
        ("GET", "/api/games/{game_id}/state"),
        ("GET", "/api/games/{game_id}/history"),
        ("POST", "/api/games/{game_id}/press"),
        ("POST", "/api/games/{game_id}/draw"),
        ("GET", "/api/agents/games/{game_id}/decision"),
        ("POST", "/api/agents/games/{game_id}/decision"),
        ("POST", "/api/agents/games/{game_id}/diary"),
        ("WS", "/ws/games/{game_id}"),
    }
)
"""What a player and a host need: the lobby, playing, press, draws, the agent gateway."""

REGISTER_ROUTE = "/api/agents"  # sent without a token: it creates a new agent account
HISTORY_PAGE = 1000  # the server's largest `limit` for history
HISTORY_PAGES = 100  # a bound on one catch-up: 100,000 entries
DRAIN_SECONDS = 0.5  # how long `watch` reads a burst of changes before looking again


class RequestRefused(ValueError):
    """A request this client will not make: an id out of format, or a route not allowed."""


class ParleyClient:
    """One account on one server; answers are the server's JSON, errors included.

    A refused call does not raise: its JSON comes back with `ok: false` and the HTTP
    status, so a program (or a language model) reads why and tries again. A request this
    client will not make raises `RequestRefused`; a server that cannot be reached raises
    httpx's error.
    """

    def __init__(
        self,
        server: str,
        token: str | None = None,
        *,
        http: httpx.AsyncClient | None = None,
        timeout: float = 30.0,
        routes: frozenset[tuple[str, str]] = PLAYER_ROUTES,
    ) -> None:
        self.token = token
        self.routes = routes
        self.http = http or httpx.AsyncClient(base_url=server.rstrip("/"), timeout=timeout)

    async def aclose(self) -> None:
        await self.http.aclose()

    def path(self, method: str, route: str, ids: Mapping[str, str] | None = None) -> str:
        """The path of an allowed route, each id checked and quoted; or `RequestRefused`."""
        if (method, route) not in self.routes:
            raise RequestRefused(f"{method} {route} is not a route this client may use")
        given = dict(ids or {})
        fields = {name for _, name, _, _ in string.Formatter().parse(route) if name}
        if fields != set(given):
            raise RequestRefused(f"{route} takes {sorted(fields)}, given {sorted(given)}")
        for name, value in given.items():
            pattern = PATH_IDS.get(name)
            if pattern is None or not isinstance(value, str) or not pattern.match(value):
                shown = json.dumps(value)[:80]
                raise RequestRefused(
                    f"{name} {shown} is not a valid {name.replace('_', ' ')} "
                    f"(expected {pattern.pattern if pattern else 'no such id'})"
                )
        return route.format(**{k: quote(v, safe="") for k, v in given.items()})

    async def call(
        self,
        method: str,
        route: str,
        body: Any = None,
        *,
        ids: Mapping[str, str] | None = None,
        **params: Any,
    ) -> JSON:
        """One request to an allowed route: the answer's JSON (`ok: false` when refused)."""
        path = self.path(method, route, ids)
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        return await self._send(method, path, body, headers, params)

    async def _send(
        self, method: str, path: str, body: Any, headers: dict[str, str], params: dict[str, Any]
    ) -> JSON:
        query = {k: v for k, v in params.items() if v is not None}
        reply = await self.http.request(
            method, path, json=body, params=query or None, headers=headers
        )
        try:
            data = reply.json()
        except ValueError:
            data = {"detail": reply.text[:500]}
        out: dict[str, Any] = data if isinstance(data, dict) else {"result": data}
        if reply.is_success:
            return out
        return {"ok": False, "http_status": reply.status_code, **out}

    # --- accounts --------------------------------------------------------------------------

    async def register_agent(self, name: str, budget_seconds: float | None = None) -> JSON:
        """A new agent account; its token is kept for later calls."""
        body: dict[str, Any] = {"name": name, "description": "language-model player"}
        if budget_seconds is not None:
            body["budget_seconds"] = budget_seconds
        data = await self._send("POST", REGISTER_ROUTE, body, {}, {})
        if isinstance(data, dict) and "token" in data:
            self.token = data["token"]
        return data

    # --- lobby -----------------------------------------------------------------------------

    async def game_types(self) -> JSON:
        return await self.call("GET", "/api/game-types")

    async def games(self, status: str | None = None) -> JSON:
        return await self.call("GET", "/api/games", status=status)

    async def game(self, game_id: str) -> JSON:
        return await self.call("GET", "/api/games/{game_id}", ids={"game_id": game_id})

    async def create_game(self, spec: dict[str, Any]) -> JSON:
        return await self.call("POST", "/api/games", spec)

    async def join(self, game_id: str, role: str = "player", invite: str | None = None) -> JSON:
        body: dict[str, Any] = {"role": role}
        if invite:
            body["invite_code"] = invite
        return await self.call("POST", "/api/games/{game_id}/join", body, ids={"game_id": game_id})

    async def add_bots(self, game_id: str, bot: str = "random", count: int = 1) -> JSON:
        return await self.call(
            "POST",
            "/api/games/{game_id}/bots",
            {"bot": bot, "count": count},
            ids={"game_id": game_id},
        )

    async def start(self, game_id: str, fill_with: str | None = None) -> JSON:
        body = {"fill_with": fill_with} if fill_with else {}
        return await self.call("POST", "/api/games/{game_id}/start", body, ids={"game_id": game_id})

    # --- playing ---------------------------------------------------------------------------

    async def state(self, game_id: str, text: bool = False) -> JSON:
        return await self.call(
            "GET",
            "/api/games/{game_id}/state",
            ids={"game_id": game_id},
            options="false",
            text="true" if text else "false",
        )

    async def decision(self, game_id: str) -> JSON:
        return await self.call(
            "GET", "/api/agents/games/{game_id}/decision", ids={"game_id": game_id}
        )

    async def answer(self, game_id: str, answer: dict[str, Any]) -> JSON:
        return await self.call(
            "POST", "/api/agents/games/{game_id}/decision", answer, ids={"game_id": game_id}
        )

    async def diary(self, game_id: str, text: str) -> JSON:
        """Add an entry to the diary of this account's seat (shown in later decisions)."""
        return await self.call(
            "POST", "/api/agents/games/{game_id}/diary", {"text": text}, ids={"game_id": game_id}
        )

    async def history(self, game_id: str, since: int = 0) -> JSON:
        """Entries from `since` on, every page of them (up to `HISTORY_PAGES`)."""
        entries: list[Any] = []
        data: JSON = {}
        for _ in range(HISTORY_PAGES):
            data = await self.call(
                "GET",
                "/api/games/{game_id}/history",
                ids={"game_id": game_id},
                since=since,
                limit=HISTORY_PAGE,
            )
            page = data.get("entries")
            if data.get("ok") is False or not isinstance(page, list):
                return data
            entries += page
            if len(page) < HISTORY_PAGE:
                break
            since = int(page[-1]["seq"]) + 1
        return {**data, "entries": entries}

    async def press(
        self, game_id: str, text: str, to: list[int] | None = None, channel: str = ""
    ) -> JSON:
        body: dict[str, Any] = {"text": text}
        if to:
            body["to"] = to
        if channel:
            body["channel"] = channel
        return await self.call("POST", "/api/games/{game_id}/press", body, ids={"game_id": game_id})

    async def draw(self, game_id: str, accept: bool) -> JSON:
        return await self.call(
            "POST", "/api/games/{game_id}/draw", {"accept": accept}, ids={"game_id": game_id}
        )

    # --- waiting ---------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def watch(
        self, game_id: str, since: int = 0
    ) -> AsyncIterator[Callable[[float], Awaitable[None]]]:
        """Yields `changed(at_most)`, which returns once the game changed (or `at_most`
        seconds passed), through the game's WebSocket.

        Without the socket (refused, unreachable, closed) `changed` simply waits its
        time, so a caller that looks again after each call polls instead.
        """
        path = self.path("WS", "/ws/games/{game_id}", {"game_id": game_id})
        base = urlsplit(str(self.http.base_url))
        scheme = "wss" if base.scheme == "https" else "ws"
        url = urlunsplit((scheme, base.netloc, base.path.rstrip("/") + path, "", ""))
        url += f"?since={max(0, int(since))}&options=false"
        socket: ClientConnection | None = None
        try:
            socket = await websockets.connect(url, open_timeout=10, max_size=2**24, proxy=None)
            await socket.send(json.dumps({"type": "auth", "token": self.token or ""}))
        except (OSError, TimeoutError, websockets.WebSocketException):
            socket = None

        async def changed(at_most: float) -> None:
            nonlocal socket
            if socket is None:
                await asyncio.sleep(max(0.0, at_most))
                return
            clock = asyncio.get_running_loop()
            end = clock.time() + max(0.0, at_most)
            try:
                await asyncio.wait_for(socket.recv(), max(0.0, at_most))
                # One look covers every change already on its way: read those first, for
                # a moment at most (a busy game never goes quiet).
                settle = min(end, clock.time() + DRAIN_SECONDS)
                while (left := min(0.05, settle - clock.time())) > 0:
                    await asyncio.wait_for(socket.recv(), left)
            except TimeoutError:
                return
            except websockets.WebSocketException:
                socket = None  # the next calls poll

        try:
            yield changed
        finally:
            if socket is not None:
                with contextlib.suppress(Exception):
                    await socket.close()
