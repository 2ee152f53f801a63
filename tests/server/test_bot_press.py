"""Bot seats on the server run talking bots: press within the press mode, inbox, memory."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from tests.kernel.toygames import Bid
from tests.server.conftest import Client, LiveServer

from parley.agents import bots
from parley.games.diplomacy import daide

Users = Callable[..., Client]
POWERS = ["AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"]


def diplomacy_with_negotiators(host: Client, press: str) -> tuple[str, int]:
    """A Diplomacy game: the host at one seat, `negotiator` bots at the six others."""
    gid = host.post("/api/games", {"game": "diplomacy", "press": press, "seed": 7}, expect=201)
    gid = gid["id"]
    game = host.post(f"/api/games/{gid}/start", {"fill_with": "negotiator"})
    mine = next(s["seat"] for s in game["seats"] if s["player"] == "host")
    return gid, mine


def bot_press(client: Client, gid: str, me: int) -> list[dict[str, Any]]:
    entries = client.get(f"/api/games/{gid}/history")["entries"]
    return [e for e in entries if e["type"] == "press" and e["seat"] != me]


def test_negotiator_seats_send_daide_press_a_human_receives(live: LiveServer, users: Users) -> None:
    host = users("host")
    gid, me = diplomacy_with_negotiators(host, "full")
    received = bot_press(host, gid, me)
    assert received, "no bot proposed anything to the human's power"
    for entry in received:
        assert entry["to"] == [me]  # proposals go to one neighbour each, privately
        parsed, _ = daide.parse_message(entry["text"], POWERS)
        assert isinstance(parsed, daide.Propose), entry["text"]
    # The human accepts one proposal; its sender remembers the deal (its inbox carried the
    # answer, its memory kept it) and does not propose peace to the human again.
    first = received[0]
    partner = first["seat"]
    host.post(f"/api/games/{gid}/press", {"text": f"YES ({first['text']})", "to": [partner]})
    live.advance(10_000)  # the human's orders default to holds; the game moves on
    live.advance(10_000)
    state = host.get(f"/api/games/{gid}/state")
    assert state["observation"]["view"]["position"]["phase"] != "S1901M"
    later = [e for e in bot_press(host, gid, me) if e["seq"] > first["seq"]]
    peace = [
        e
        for e in later
        if e["seat"] == partner and "PCE" in e["text"] and e["text"].startswith("PRP")
    ]
    assert later and not peace


def test_no_press_from_bots_in_a_gunboat_game(live: LiveServer, users: Users) -> None:
    host = users("host")
    gid, me = diplomacy_with_negotiators(host, "none")
    live.advance(10_000)
    assert (
        host.get(f"/api/games/{gid}/state")["observation"]["view"]["position"]["phase"] != "S1901M"
    )
    assert bot_press(host, gid, me) == []


def test_public_press_games_drop_private_bot_press(live: LiveServer, users: Users) -> None:
    # The negotiator proposes privately; a public-press table refuses that as it would a
    # person's private message, so nothing is sent and the game goes on.
    host = users("host")
    gid, _me = diplomacy_with_negotiators(host, "public")
    entries = host.get(f"/api/games/{gid}/history", params={"since": 0})["entries"]
    assert [e for e in entries if e["type"] == "press"] == []
    assert {e["type"] for e in entries} >= {"action"}


class Probe:
    """A bot that acts anytime and notes every question it is asked."""

    name = "probe"
    acts_anytime = True

    def __init__(self) -> None:
        self.asked: list[tuple[bool, list[str], int]] = []

    def choose(self, decision: bots.Decision) -> Any:
        texts = [str(e.get("text", "")) for e in decision.inbox]
        calls = decision.memory["calls"] = decision.memory.get("calls", 0) + 1
        self.asked.append((decision.owed, texts, calls))
        if decision.owed:
            return bots.Reply(Bid(1), (bots.Say("my bid is in"),))
        return bots.Reply(None, (bots.Say(f"heard {len(texts)}"),) if texts else ())


@pytest.fixture
def probe() -> Iterator[Probe]:
    bot = Probe()
    bots.register_bot("probe", lambda rules: bot)
    yield bot
    bots._FACTORIES.pop("probe")


def test_anytime_bots_are_asked_once_per_change(
    live: LiveServer, users: Users, probe: Probe
) -> None:
    host = users("host")
    gid = host.post("/api/games", {"game": "sealed-bids", "seats": 2}, expect=201)["id"]
    game = host.post(f"/api/games/{gid}/start", {"fill_with": "probe"})
    me = next(s["seat"] for s in game["seats"] if s["player"] == "host")
    # Owed first (its bid, with press), then once out of turn in the same change.
    assert [(owed, calls) for owed, _, calls in probe.asked] == [(True, 1), (False, 2)]
    host.post(f"/api/games/{gid}/press", {"text": "hello bot"})
    assert probe.asked[-1] == (False, ["hello bot"], 3)  # its inbox, its memory
    host.get(f"/api/games/{gid}/state")  # reading changes nothing: no question
    assert len(probe.asked) == 3
    texts = [e["text"] for e in bot_press(host, gid, me)]
    assert texts == ["my bid is in", "heard 1"]


class Proposer:
    """A bot that bids and proposes a draw with it."""

    name = "proposer"

    def choose(self, decision: bots.Decision) -> Any:
        return bots.Reply(Bid(2), draw=True)

    def accepts_draw(self, decision: bots.Decision) -> bool:
        return True  # it wants a draw: it accepts the one the host proposes


@pytest.fixture
def proposer() -> Iterator[None]:
    bots.register_bot("proposer", lambda rules: Proposer())
    yield
    bots._FACTORIES.pop("proposer")


def test_a_bots_draw_vote_is_cast(live: LiveServer, users: Users, proposer: None) -> None:
    host = users("host")
    gid = host.post("/api/games", {"game": "sealed-bids", "seats": 2}, expect=201)["id"]
    game = host.post(f"/api/games/{gid}/start", {"fill_with": "proposer"})
    bot_seat = next(s["seat"] for s in game["seats"] if s["player"] != "host")
    votes = [e for e in host.get(f"/api/games/{gid}/history")["entries"] if e["type"] == "vote"]
    assert [v["seat"] for v in votes] == [bot_seat]  # its proposal, beside its bid
    host.post(f"/api/games/{gid}/draw", {"accept": True})
    assert host.get(f"/api/games/{gid}")["status"] == "finished"
