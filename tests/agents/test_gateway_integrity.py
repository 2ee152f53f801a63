"""A refused gateway answer changes nothing: no press, no reasoning kept, no extra records."""

from __future__ import annotations

import json

from tests.agents import test_gateway as base
from tests.agents.test_gateway import Server

# The gateway tests' fixtures: a server app with the gateway, and the toy games.
server = base.server
toy_games = base.toy_games

PRESS = "press-of-a-refused-answer"
NOTE = "reasoning-of-a-refused-answer"


def _everything(server: Server, token: str, gid: str) -> str:
    return json.dumps(
        [
            server.call("GET", f"/api/games/{gid}/history", token),
            server.call("GET", f"/api/agents/games/{gid}/reasoning", token),
        ]
    )


def test_press_and_reasoning_of_a_rejected_answer_are_dropped(server: Server) -> None:
    host, agent = server.sign_up("host"), server.agent("refused")
    gid = server.game_with_bot(host, agent, options={"start": 20})
    decision = server.decision(agent, gid)["decision"]["decision"]
    before = server.call("GET", f"/api/games/{gid}", host)["seq"]
    for bad in ({"action": "take 9"}, {"action": "banana"}):
        out = server.answer(
            agent, gid, 422, decision=decision, press=[{"text": PRESS}], reasoning=NOTE, **bad
        )
        assert out["status"] == "rejected"
    assert server.call("GET", f"/api/games/{gid}", host)["seq"] == before
    assert PRESS not in _everything(server, host, gid)
    assert NOTE not in _everything(server, agent, gid)
    assert server.gateway.store.notes(gid) == []


def test_reasoning_of_a_conflicting_answer_is_not_kept(server: Server) -> None:
    host, agent = server.sign_up("host"), server.agent("late")
    gid = server.game_with_bot(host, agent, options={"start": 20})
    first = server.decision(agent, gid)["decision"]["decision"]
    accepted = server.answer(agent, gid, decision=first, action="take 1", reasoning="kept")
    assert accepted["status"] == "accepted"
    seq = server.call("GET", f"/api/games/{gid}", host)["seq"]
    again = server.answer(
        agent, gid, 409, decision=first, action="take 1", reasoning=NOTE, press=[{"text": PRESS}]
    )
    assert again["error"] == "conflict"
    assert server.call("GET", f"/api/games/{gid}", host)["seq"] == seq
    assert [n.text for n in server.gateway.store.notes(gid)] == ["kept"]
    assert PRESS not in _everything(server, host, gid)


def test_press_with_an_accepted_answer_goes_in_before_the_action(server: Server) -> None:
    host, agent = server.sign_up("host"), server.agent("talker")
    gid = server.game_with_bot(host, agent, options={"start": 20})
    decision = server.decision(agent, gid)["decision"]["decision"]
    server.answer(agent, gid, decision=decision, action="take 2", press=[{"text": "hello"}])
    entries = server.call("GET", f"/api/games/{gid}/history", host)["entries"]
    kinds = [(e["type"], e.get("text") or e.get("notation")) for e in entries]
    # The bot may have moved (even "take 2") before the agent: look right after the press.
    assert kinds[kinds.index(("press", "hello")) + 1] == ("action", "take 2")
