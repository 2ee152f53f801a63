"""The reference LLM player (`parley agent`) plays each game to its end with the decision
texts it is shown, against a scripted model that picks among the legal actions it reads."""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from tests.agents.test_remote import Model, _call, _user
from tests.web.conftest import Server, free_port

from parley.agents.remote.client import ParleyClient
from parley.agents.remote.llm import Endpoint, LLMPlayer

# Short games: every game ends by its own rules within a few dozen of the agent's decisions.
SHORT = {
    "campus": {"round_limit": 6},
    "diplomacy": {"year_limit": 1902},
    "illuminati": {"rounds": 2},
    "planets": {"rounds": 2},
    "sucker": {},
}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("agent-games")
    srv = Server(free_port(), f"sqlite:///{folder / 'p.sqlite3'}", folder / "server.log")
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def pick(prompt: str, rng: random.Random) -> list[str]:
    """Legal option ids read from the text alone, as its "How to answer" line says: one in
    all, or one per group."""
    listed = prompt.rsplit("Legal actions", 1)[-1]  # the list ends the text
    groups: dict[str, list[str]] = {}
    for oid, group in re.findall(r"^- (\S+): .* \[(.*)\]$", listed, re.MULTILINE):
        groups.setdefault(group, []).append(oid)
    every = re.findall(r"^- (\S+): ", listed, re.MULTILINE)
    if "answer one option id" in prompt or not groups:
        return [rng.choice(every)]
    return [rng.choice(ids) for ids in groups.values()]


@pytest.mark.parametrize("game", sorted(SHORT))
def test_the_llm_player_plays_a_whole_game(server: Server, game: str) -> None:
    rng = random.Random(5)
    seen: list[str] = []

    def script(request: dict[str, Any]) -> dict[str, Any]:
        prompt = str(request["messages"][1]["content"])
        seen.append(prompt)
        if "Legal actions" not in prompt:  # a negotiation round: nothing to say
            return {"role": "assistant", "content": ""}
        call = _call("submit_action", {"options": pick(prompt, rng)}, len(seen))
        return {"role": "assistant", "content": None, "tool_calls": [call]}

    host = _user(server, f"host-{game}")
    agent = server.api("POST", "/api/agents", json={"name": f"whole-{game}"})["token"]
    created = server.api(
        "POST",
        "/api/games",
        host,
        json={"game": game, "seed": 4, "host_role": "spectator", "options": SHORT[game]},
    )
    gid = created["id"]
    server.api("POST", f"/api/games/{gid}/join", agent, json={"role": "player"})
    server.api("POST", f"/api/games/{gid}/start", host, json={"fill_with": "random"})
    with Model(script) as model:
        player = LLMPlayer(
            ParleyClient(server.base, agent), Endpoint(model.url, "scripted"), poll_seconds=0.05
        )
        result = asyncio.run(player.play(gid, max_decisions=400))
    assert result.get("status") == "finished", json.dumps(result)[:500]
    summary = server.api("GET", f"/api/games/{gid}", host)
    assert summary["status"] == "finished" and summary["outcome"]
    decisions = [p for p in seen if "Legal actions" in p]
    assert decisions, "the agent was never asked"
    # Every decision it was shown teaches the game: who it is, the rules, the moves.
    for prompt in decisions:
        assert "You are " in prompt and "Legal actions" in prompt
    # Answers read from the text were legal: nothing fell back to the default.
    history = server.api("GET", f"/api/games/{gid}/history", host)["entries"]
    mine = summary_seat(summary)
    autos = [e for e in history if e.get("auto") and e.get("seat") == mine]
    assert mine is not None and not autos, (mine, autos[:3], summary["seats"][:2])


def summary_seat(summary: dict[str, Any]) -> int | None:
    for seat in summary["seats"]:
        if str(seat.get("user") or "").startswith("whole-"):
            return int(seat["seat"])
    return None
