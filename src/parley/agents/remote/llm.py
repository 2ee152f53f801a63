"""A reference language-model player: any OpenAI-compatible chat endpoint plays a seat
through the agent gateway, with tool calls.

Each decision is shown to the model as one message: who it is, the position in words, the
press it received since its last decision, the deadline and the legal actions. The model
answers with tools: `send_press` and `vote_draw` as often as it likes, then
`submit_action`. Its words beside the call are kept as private reasoning. An answer the
gateway refuses is shown to the model with the reason, and it tries again; when the
gateway's attempts run out, the gateway plays the seat's default action. A model that
answers nonsense therefore costs the seat its choice, never the game. In a game with
negotiation rounds the model gets one turn per round with `send_press` and `vote_draw`
only, shown the round, its messages left and the messages it received.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from parley import briefing

from .client import JSON, ParleyClient
from .tools import Inbox, build_server, call, memory_section, openai_tools

ANSWER_TOOLS = {"submit_action", "send_press", "vote_draw"}
FINAL = {"accepted", "defaulted", "timed_out"}
SYSTEM = (
    "You are playing a game of negotiation and conquest. Each turn you are shown your "
    "position, the messages you received and your legal actions. Use send_press to talk "
    "to other players (optional), then call submit_action exactly once with one legal "
    "action (its notation, or option ids: one per group when the decision says "
    "'composite'). Put your private reasoning in the `reasoning` argument."
)


@dataclass(frozen=True, slots=True)
class Endpoint:
    """An OpenAI-compatible chat-completions endpoint."""

    base_url: str
    model: str
    api_key: str = ""
    temperature: float | None = None  # None: the endpoint's default
    max_tokens: int | None = None  # the most tokens one answer may use

    def request(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> JSON:
        """The body of one chat-completions request."""
        body: JSON = {"model": self.model, "messages": messages, "tools": tools}
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if self.max_tokens is not None:
            body["max_tokens"] = self.max_tokens
        return body

    def headers(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}

    def chat(
        self, http: httpx.Client, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
    ) -> JSON:
        """One chat completion, waiting for it (for players outside an event loop)."""
        reply = http.post(
            f"{self.base_url}/chat/completions",
            json=self.request(messages, tools),
            headers=self.headers(),
        )
        return _answer(reply)

    @staticmethod
    def from_env(
        base_url: str | None = None, model: str | None = None, api_key: str | None = None
    ) -> Endpoint:
        """Flags first, then OPENAI_BASE_URL, OPENAI_MODEL and OPENAI_API_KEY."""
        url = base_url or os.environ.get("OPENAI_BASE_URL")
        name = model or os.environ.get("OPENAI_MODEL")
        if not url or not name:
            raise ValueError("give the model's base URL and name (--base-url/--model or env)")
        return Endpoint(url.rstrip("/"), name, api_key or os.environ.get("OPENAI_API_KEY", ""))


def _answer(reply: httpx.Response) -> JSON:
    reply.raise_for_status()
    data = reply.json()
    if not isinstance(data, dict):
        raise ValueError("the model's endpoint did not answer with a JSON object")
    return data


def decision_text(pending: JSON) -> str:
    """What the model reads for one decision: the server's text when it sends one."""
    text = briefing.decision_text(pending)
    return text + memory_section(pending, text)  # the seat's memory, if the text lacks it


def negotiation_text(pending: JSON) -> str:
    """What the model reads in a negotiation round (press only; orders come later)."""
    return briefing.negotiation_text(pending)


@dataclass
class LLMPlayer:
    """Plays one seat with a chat model; `http` reaches the model endpoint."""

    client: ParleyClient
    endpoint: Endpoint
    http: httpx.AsyncClient = field(default_factory=lambda: httpx.AsyncClient(timeout=120))
    max_model_calls: int = 8
    poll_seconds: float = 1.0
    wait: Callable[[float], Awaitable[None]] = asyncio.sleep
    inbox: Inbox = field(default_factory=Inbox)
    talked: dict[str, Any] = field(default_factory=dict)  # game id → the last round talked in

    def __post_init__(self) -> None:
        self.server = build_server(self.client, self.inbox)

    async def negotiate(self, game_id: str, pending: JSON) -> int:
        """One model turn in a negotiation round: its press is sent; how many tool calls."""
        tools = await openai_tools(self.server, {"send_press", "vote_draw"})
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": negotiation_text(pending)},
        ]
        try:
            message = (await self.chat(messages, tools))["choices"][0]["message"]
        except (httpx.HTTPError, KeyError, IndexError, TypeError, ValueError):
            return 0  # a silent round costs nothing
        calls = message.get("tool_calls") or []
        for tool_call in calls:
            function = tool_call.get("function") or {}
            if function.get("name") not in ("send_press", "vote_draw"):
                continue
            try:
                args = json.loads(function.get("arguments") or "{}")
            except ValueError:
                continue
            if isinstance(args, dict):
                await call(self.server, function["name"], {**args, "game_id": game_id})
        return len(calls)

    async def chat(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> JSON:
        reply = await self.http.post(
            f"{self.endpoint.base_url}/chat/completions",
            json=self.endpoint.request(messages, tools),
            headers=self.endpoint.headers(),
        )
        return _answer(reply)

    async def decide(self, game_id: str, pending: JSON) -> JSON:
        """Answer one decision; the gateway's last answer to it."""
        d = pending["decision"]
        tools = await openai_tools(self.server, ANSWER_TOOLS)
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": SYSTEM},
            {"role": "user", "content": decision_text(pending)},
        ]
        last: JSON = {}
        for _ in range(self.max_model_calls):
            try:
                message = (await self.chat(messages, tools))["choices"][0]["message"]
            except (httpx.HTTPError, KeyError, IndexError, TypeError, ValueError) as err:
                message = {"role": "assistant", "content": f"(the model failed: {err})"}
            messages.append({k: v for k, v in message.items() if v is not None})
            words = str(message.get("content") or "").strip()
            calls = message.get("tool_calls") or []
            if not calls:
                # Plain words are taken as the action itself: the gateway decides.
                last = await self._submit(game_id, d, {"action": words or "(no answer)"}, words)
                if last.get("status") in FINAL:
                    return last
                messages.append({"role": "user", "content": _refusal(last)})
                continue
            for tool_call in calls:
                result = await self._tool(game_id, d, tool_call, words)
                if tool_call.get("function", {}).get("name") == "submit_action":
                    last = result
                messages.append(
                    {
                        "role": "tool",
                        "tool_call_id": tool_call.get("id", ""),
                        "content": json.dumps(result),
                    }
                )
                if isinstance(result, dict) and result.get("status") in FINAL:
                    return result
        return last

    async def _tool(
        self, game_id: str, d: dict[str, Any], tool_call: dict[str, Any], words: str
    ) -> JSON:
        function = tool_call.get("function") or {}
        name = function.get("name", "")
        if name not in ANSWER_TOOLS:
            return {"ok": False, "error": f"no tool called {name!r}"}
        try:
            args = json.loads(function.get("arguments") or "{}")
        except ValueError:
            return {"ok": False, "error": "the arguments are not JSON"}
        if not isinstance(args, dict):
            return {"ok": False, "error": "the arguments must be a JSON object"}
        if name == "submit_action":
            return await self._submit(game_id, d, args, words)
        args["game_id"] = game_id
        return await call(self.server, name, args)

    async def _submit(
        self, game_id: str, d: dict[str, Any], args: dict[str, Any], words: str
    ) -> dict[str, Any]:
        args = {**args, "game_id": game_id, "decision_id": d["decision"]}
        if not args.get("reasoning") and words:
            args["reasoning"] = words
        result = await call(self.server, "submit_action", args)
        return result if isinstance(result, dict) else {"ok": False, "result": result}

    async def play(self, game_id: str, max_decisions: int = 100_000) -> JSON:
        """Play the seat until the game ends (or `max_decisions` answers); the last reply."""
        answered = 0
        last: JSON = {}
        while answered < max_decisions:
            pending = await call(self.server, "get_decision", {"game_id": game_id})
            if not isinstance(pending, dict) or pending.get("ok") is False:
                raise RuntimeError(f"the gateway refused: {pending}")
            if not pending.get("pending"):
                if pending.get("status") in ("finished", "closed"):
                    return pending
                if pending.get("status") == "negotiating":
                    n = pending.get("negotiation") or {}
                    key = (n.get("round"), n.get("ends_at"))
                    if self.talked.get(game_id) != key:  # once per round
                        self.talked[game_id] = key
                        await self.negotiate(game_id, pending)
                await self.wait(self.poll_seconds)
                continue
            last = await self.decide(game_id, pending)
            answered += 1
        return last


def _refusal(result: JSON) -> str:
    error = result.get("error") if isinstance(result, dict) else None
    return (
        "That was not accepted"
        + (f": {json.dumps(error)}" if error else "")
        + ". Call submit_action with one of the legal actions."
    )
