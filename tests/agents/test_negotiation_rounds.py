"""Negotiation rounds over HTTP: press-only rounds with their own deadlines before each
Diplomacy movement phase, alike for a person, a gateway agent and the bots at the table."""

from __future__ import annotations

from typing import Any

from tests.agents.test_gateway import Server, server, toy_games

__all__ = ["server", "toy_games"]  # fixtures used here

ROUND = 60  # seconds per negotiation round
PERIOD = 600  # the game's period for orders


def holds(state: dict[str, Any]) -> list[str]:
    """The first option of every unit: an order for each (holds come first)."""
    return [group["children"][0]["action"] for group in state["options"]["children"]]


def fire(srv: Server, seconds: float) -> None:
    srv.clock.advance(seconds)
    srv.gateway.services.scheduler.fire_due()


def rounds_notes(srv: Server, token: str, gid: str) -> list[str]:
    entries = srv.call("GET", f"/api/games/{gid}/history", token)["entries"]
    return [e["text"] for e in entries if e["type"] == "press" and e.get("channel") == "rounds"]


def test_rounds_of_press_then_orders_for_people_agents_and_bots(server: Server) -> None:
    host, agent = server.sign_up("hostn"), server.agent("agentn")
    spec = {
        "game": "diplomacy",
        "seed": 11,
        "period_seconds": PERIOD,
        "negotiation": {"rounds": 2, "messages": 2, "seconds": ROUND},
    }
    gid = server.call("POST", "/api/games", host, 201, json=spec)["id"]
    server.call("POST", f"/api/games/{gid}/join", agent, json={"role": "player"})
    seats = server.call("POST", f"/api/games/{gid}/start", host, json={"fill_with": "negotiator"})
    seat = {s["player"]: s["seat"] for s in seats["seats"]}
    game = server.call("GET", f"/api/games/{gid}", host)
    assert game["negotiation"] == {"rounds": 2, "messages": 2, "seconds": ROUND, "round": 1}
    assert game["deadline"]["at"] == server.clock.now() + ROUND
    assert rounds_notes(server, host, gid) == [
        "Negotiation round 1 of 2: up to 2 messages each, for 60 s; actions open after round 2."
    ]

    # Round 1: nobody may act; everyone may talk, twice.
    state = server.call("GET", f"/api/games/{gid}/state", host)
    assert (state["owes"], state["can_act"], state["options"]) == (False, False, None)
    assert state["negotiation"]["round"] == 1
    refused = server.call(
        "POST", f"/api/games/{gid}/actions", host, 409, json={"parts": ["A PAR H"]}
    )
    assert refused["error"] == "negotiating"
    waiting = server.decision(agent, gid)
    assert (waiting["pending"], waiting["status"]) == (False, "negotiating")
    assert waiting["negotiation"]["round"] == 1 and waiting["negotiation"]["messages_left"] == 2
    to_agent = {"to": [seat["agentn"]]}
    for text in ("PRP (PCE (ENG FRA))", "are you there?"):
        server.call("POST", f"/api/games/{gid}/press", host, json={"text": text, **to_agent})
    third = server.call(
        "POST", f"/api/games/{gid}/press", host, 409, json={"text": "one more", **to_agent}
    )
    assert third["error"] == "press_quota"
    server.call("POST", f"/api/games/{gid}/press", agent, json={"text": "hello all"})
    heard = server.decision(agent, gid)
    assert [m["text"] for m in heard["messages"] if m["seat"] == seat["hostn"]] == [
        "PRP (PCE (ENG FRA))",
        "are you there?",
    ]
    assert heard["negotiation"]["messages_left"] == 1

    # The bots talked in round 1, within the quota, and did not order.
    entries = server.call("GET", f"/api/games/{gid}/history", host)["entries"]
    humans = {seat["hostn"], seat["agentn"]}
    assert not [e for e in entries if e["type"] == "action"]
    bot_press = [e for e in entries if e["type"] == "press" and e["seat"] not in humans]
    bot_press = [e for e in bot_press if e["seat"] is not None]
    assert bot_press, "the negotiator bots sent no proposals"
    for bot_seat in {e["seat"] for e in bot_press}:
        assert sum(1 for e in bot_press if e["seat"] == bot_seat) <= 2

    # Round 2 opens when round 1's deadline passes; then the orders, with the game's period.
    fire(server, ROUND + 1)
    assert server.call("GET", f"/api/games/{gid}", host)["negotiation"]["round"] == 2
    server.call("POST", f"/api/games/{gid}/press", host, json={"text": "round two", **to_agent})
    fire(server, ROUND + 1)
    game = server.call("GET", f"/api/games/{gid}", host)
    assert game["negotiation"]["round"] == 0
    assert game["deadline"]["at"] == server.clock.now() + PERIOD
    assert rounds_notes(server, host, gid)[-1] == "Negotiation is over: actions are open."

    decision = server.decision(agent, gid)
    assert decision["pending"], decision
    shown = [m["text"] for m in decision["decision"]["messages"]]
    assert {"PRP (PCE (ENG FRA))", "are you there?", "round two"} <= set(shown)
    answer = server.answer(
        agent,
        gid,
        decision=decision["decision"]["decision"],
        options=[o["id"] for o in decision["decision"]["options"] if o["id"].endswith("/0")],
    )
    assert answer["status"] == "accepted", answer
    state = server.call("GET", f"/api/games/{gid}/state", host)
    server.call("POST", f"/api/games/{gid}/actions", host, json={"parts": holds(state)})

    # Everyone ordered (the bots when the orders opened): the next movement phase begins
    # with its own round 1.
    game = server.call("GET", f"/api/games/{gid}", host)
    assert game["state_id"] > 0
    phase = server.call("GET", f"/api/games/{gid}/state", host)["observation"]["view"]
    assert phase["position"]["phase"] == "F1901M"  # no retreats with this seed
    assert game["negotiation"]["round"] == 1
    assert rounds_notes(server, host, gid)[-1].startswith("Negotiation round 1 of 2")
