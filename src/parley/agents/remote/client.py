"""An asynchronous client of a Parley server's HTTP API (lobby, agent gateway, press, draws)."""

from __future__ import annotations

from typing import Any

import httpx

JSON = dict[str, Any]
"""Every answer is a JSON object (a list comes back as `{"result": [...]}`)."""


class ParleyClient:
    """One account on one server; answers are the server's JSON, errors included.

    A refused call does not raise: its JSON comes back with `ok: false` and the HTTP
    status, so a program (or a language model) reads why and tries again.
    """

    def __init__(
        self,
        server: str,
        token: str | None = None,
        *,
        http: httpx.AsyncClient | None = None,
        timeout: float = 30.0,
    ) -> None:
        self.token = token
        self.http = http or httpx.AsyncClient(base_url=server.rstrip("/"), timeout=timeout)

    async def aclose(self) -> None:
        await self.http.aclose()

    async def call(self, method: str, path: str, body: Any = None, **params: Any) -> JSON:
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
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
        data = await self.call("POST", "/api/agents", body)
        if isinstance(data, dict) and "token" in data:
            self.token = data["token"]
        return data

    # --- lobby -----------------------------------------------------------------------------

    async def games(self, status: str | None = None) -> JSON:
        return await self.call("GET", "/api/games", status=status)

    async def join(self, game_id: str, role: str = "player", invite: str | None = None) -> JSON:
        body: dict[str, Any] = {"role": role}
        if invite:
            body["invite_code"] = invite
        return await self.call("POST", f"/api/games/{game_id}/join", body)

    # --- playing ---------------------------------------------------------------------------

    async def decision(self, game_id: str) -> JSON:
        return await self.call("GET", f"/api/agents/games/{game_id}/decision")

    async def answer(self, game_id: str, answer: dict[str, Any]) -> JSON:
        return await self.call("POST", f"/api/agents/games/{game_id}/decision", answer)

    async def history(self, game_id: str, since: int = 0) -> JSON:
        return await self.call("GET", f"/api/games/{game_id}/history", since=since)

    async def press(
        self, game_id: str, text: str, to: list[int] | None = None, channel: str = ""
    ) -> JSON:
        body: dict[str, Any] = {"text": text}
        if to:
            body["to"] = to
        if channel:
            body["channel"] = channel
        return await self.call("POST", f"/api/games/{game_id}/press", body)

    async def draw(self, game_id: str, accept: bool) -> JSON:
        return await self.call("POST", f"/api/games/{game_id}/draw", {"accept": accept})
