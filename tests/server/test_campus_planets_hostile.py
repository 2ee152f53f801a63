"""Campus Conquest and planet control played badly on purpose over HTTP: malformed, out of
turn, stale, huge, negative and unicode actions, nonexistent sectors, systems and planets.
Each gets a clear error and changes nothing; no answer to anyone but the archive holds the
hidden PVC, an unrevealed exploration card or another player's pick."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from tests.server.conftest import Client, LiveServer
from tests.server.test_play import start_game

from parley.games.campus import RULES as CAMPUS
from parley.games.planets import RULES as PLANETS
from parley.kernel import Match

Users = Callable[..., Client]
SEED = 65  # campus: seat 0 starts on Great Hall (D2), seat 1 on Clock Tower (B1), PVC on D1


def post(who: Client, path: str, body: Any) -> tuple[int, Any]:
    res = who.http.request("POST", path, headers=who.headers, json=body)
    return res.status_code, res.json()


def snapshot(who: Client, gid: str) -> str:
    """Everything about the game a player can read, minus clocks."""
    state = who.get(f"/api/games/{gid}/state")
    history = who.get(f"/api/games/{gid}/history")["entries"]
    return json.dumps(
        [state["state_id"], state["seq"], state["observation"], len(history)], sort_keys=True
    )


def without_options(value: Any) -> Any:
    """A message without the options offered (every pick 0-100 is offered to a picker)."""
    if isinstance(value, dict):
        return {k: without_options(v) for k, v in value.items() if k != "options"}
    if isinstance(value, list):
        return [without_options(v) for v in value]
    return value


def everything(who: Client, gid: str) -> str:
    """Every answer about the game this client may read (but the options offered), as text."""
    return json.dumps(
        [
            who.get(f"/api/games/{gid}"),
            who.get(f"/api/games/{gid}/state?options=false"),
            who.get(f"/api/games/{gid}/history"),
        ]
    )


# (body, who sends it: "mover" or "other", HTTP status, error code, words of the message)
CAMPUS_MOVE_PHASE: list[tuple[Any, str, int, str, str]] = [
    ({"action": None}, "mover", 400, "bad_request", "an action is needed"),
    ({"action": ""}, "mover", 400, "invalid", "is not understood"),
    ({"action": 42}, "mover", 400, "invalid", "notation"),
    ({"action": -1}, "mover", 400, "invalid", "notation"),
    ({"action": 10**30}, "mover", 400, "invalid", "notation"),
    ({"action": True}, "mover", 400, "invalid", "notation"),
    ({"action": [1, 2]}, "mover", 400, "invalid", "notation"),
    ({"action": {"type": "Move", "src": "D2", "dst": "D1"}}, "mover", 400, "invalid", "notation"),
    ({"action": "pick 5"}, "mover", 422, "illegal", "no minigame"),
    ({"action": "pick -5"}, "mover", 400, "invalid", "0 to 100"),
    ({"action": "pick ²"}, "mover", 400, "invalid", "0 to 100"),
    ({"action": "pick " + "9" * 5000}, "mover", 400, "invalid", "0 to 100"),
    ({"action": "move Z9 to D1"}, "mover", 400, "invalid", "no sector called 'z9'"),
    ({"action": "move D2 to Atlantis"}, "mover", 400, "invalid", "no sector called 'atlantis'"),
    ({"action": "move D2 to A6"}, "mover", 422, "illegal", "is not next to"),
    ({"action": "move B1 to C2"}, "mover", 422, "illegal", "holds no unit of Ash"),
    ({"action": "déplacer D2 → D1 🙂"}, "mover", 400, "invalid", "no sector called"),
    ({"action": "\u202emove D2 to D1"}, "mover", 400, "bad_request", "control character"),
    ({"action": "move D2 to D1\x00"}, "mover", 400, "bad_request", "control character"),
    ({"action": "x" * 70_000}, "mover", 413, "too_large", "at most"),
    ({"action": "pass", "state_id": 999}, "mover", 409, "stale", "aimed at state 999"),
    ({"action": "pass", "state_id": 10**30}, "mover", 409, "stale", "aimed at state"),
    ({"action": "pass", "state_id": -1}, "mover", 422, "invalid_request", "state_id"),
    ({"action": "pass", "extra": 1}, "mover", 422, "invalid_request", "extra"),
    ({"parts": ["pass", "pass"]}, "mover", 422, "illegal", "one action at a time"),
    ({"action": "pass", "parts": ["pass"]}, "mover", 400, "bad_request", "not both"),
    ({"action": "move B1 to C2"}, "other", 409, "out_of_turn", "Beech has nothing to decide"),
    ({"action": "pass"}, "other", 409, "out_of_turn", "Beech has nothing to decide"),
    ({"action": "pick 5"}, "other", 409, "out_of_turn", "Beech has nothing to decide"),
]


@pytest.fixture
def campus(live: LiveServer, users: Users) -> tuple[str, Client, Client, Client]:
    amy, bob, eve = users("amy"), users("bob"), users("eve")
    gid, seats = start_game(amy, [bob], "campus", period_seconds=600, seed=SEED)
    eve.post(f"/api/games/{gid}/join", {"role": "spectator"})
    by_seat = {seats["amy"]: amy, seats["bob"]: bob}
    return gid, by_seat[0], by_seat[1], eve


def test_campus_bad_actions_are_refused_clearly_and_change_nothing(
    campus: tuple[str, Client, Client, Client],
) -> None:
    gid, ash, beech, eve = campus
    before = [snapshot(c, gid) for c in (ash, beech, eve)]
    for body, sender, status, error, words in CAMPUS_MOVE_PHASE:
        who = ash if sender == "mover" else beech
        code, out = post(who, f"/api/games/{gid}/actions", body)
        assert (code, out["error"]) == (status, error), (str(body)[:80], out)
        assert words in out["message"], (str(body)[:80], out["message"])
        assert len(out["message"]) < 400, out["message"][:100]  # a flood is not echoed back
        assert [snapshot(c, gid) for c in (ash, beech, eve)] == before, str(body)[:80]
    code, out = post(eve, f"/api/games/{gid}/actions", {"action": "pass"})
    assert code == 403 and out["error"] == "forbidden"
    assert [snapshot(c, gid) for c in (ash, beech, eve)] == before


def test_campus_minigame_picks_and_the_hidden_pvc_stay_secret_under_attack(
    campus: tuple[str, Client, Client, Client],
) -> None:
    gid, ash, beech, eve = campus
    mirror: Match[Any, Any] = Match(CAMPUS, 2, seed=SEED)
    hidden = mirror.state.board.codes[mirror.state.pvc]
    assert hidden == "D1"

    def pvc_seen(who: Client) -> Any:
        return who.get(f"/api/games/{gid}/state")["observation"]["view"]["pvc"]

    for who in (ash, beech, eve):
        assert pvc_seen(who) == {"status": "hidden", "sector": None, "cycles": 0, "reveal_after": 5}
    sockets = {"ash": ash.ws(gid), "eve": eve.ws(gid)}  # the live feed is checked too
    ash.post(f"/api/games/{gid}/actions", {"action": "move D2 to D1"})
    assert pvc_seen(eve)["status"] == "away"
    before = [snapshot(c, gid) for c in (ash, beech, eve)]
    refusals: list[tuple[Client, str, Any, int, str]] = [
        (ash, "actions", {"action": "pick 101"}, 422, "illegal"),
        (ash, "actions", {"action": "pick -1"}, 400, "invalid"),
        (ash, "actions", {"action": "pick 4.5"}, 400, "invalid"),
        (ash, "actions", {"action": "pick ٣"}, 400, "invalid"),
        (ash, "actions", {"action": "move D1 to D2"}, 422, "illegal"),
        (ash, "actions", {"action": "pass"}, 422, "illegal"),
        (eve, "actions", {"action": "pick 5"}, 403, "forbidden"),
        (ash, "draft", {"parts": {"root": "pick 101"}}, 422, "illegal"),
        (ash, "draft", {"parts": {"root": "pick -1"}}, 400, "invalid"),
        (ash, "draft", {"parts": {"root": "pass"}}, 422, "illegal"),
        (ash, "draft", {"parts": {"root": 7}}, 422, "invalid_request"),
        (ash, "draft", {"parts": {"D1": "pick 5"}}, 400, "invalid"),
        (ash, "draft", {"parts": {"root": "pick 5"}, "state_id": 99}, 409, "stale"),
        (ash, "draft", {"parts": {"root": "pick 5"}, "ready": "maybe"}, 422, "invalid_request"),
        (eve, "draft", {"parts": {"root": "pick 5"}}, 403, "forbidden"),
    ]
    for who, where, body, status, error in refusals:
        code, out = post(who, f"/api/games/{gid}/{where}", body)
        assert (code, out.get("error")) == (status, error), (where, body, out)
        assert out["message"]
        assert [snapshot(c, gid) for c in (ash, beech, eve)] == before, (where, body)
    assert ash.get(f"/api/games/{gid}/draft")["parts"][0]["action"] is None
    # Beech picks outright, Ash saves a draft: neither value reaches anyone else.
    beech.post(f"/api/games/{gid}/actions", {"action": "pick 73"})
    ash.post(f"/api/games/{gid}/draft", {"parts": {"root": "pick 19"}})
    for who, secret in ((ash, "73"), (eve, "73"), (eve, "19"), (beech, "19")):
        view = who.get(f"/api/games/{gid}/state?options=false")["observation"]["view"]
        assert f"pick {secret}" not in everything(who, gid)
        assert secret not in json.dumps(view.get("my_pick")), who.username
        assert view["minigame"]["picked"] == [1]
    assert "73" in beech.get(f"/api/games/{gid}/state")["observation"]["view"]["my_pick"]
    for name, secrets in (("ash", ["pick 73", ": 73"]), ("eve", ["pick 73", ": 73", "pick 19"])):
        feed = json.dumps([without_options(m) for m in sockets[name].drain()])
        assert '"picked": [1]' in feed  # the feed did carry the minigame's updates
        assert not [s for s in secrets if s in feed], name
    assert beech.get(f"/api/games/{gid}/draft", expect=200)["owes"] is False
    # The new hiding place after the turn is nobody's business either.
    ash.post(f"/api/games/{gid}/draft", {"ready": True})
    last = eve.get(f"/api/games/{gid}/state")["observation"]["view"]["last_minigame"]
    assert last["picks"] == {"0": 19, "1": 73}
    ash.post(f"/api/games/{gid}/actions", {"action": "pass"})
    mirror.act(0, "move D2 to D1")
    mirror.act(1, "pick 73")
    mirror.act(0, "pick 19")
    mirror.act(0, "pass")
    where = mirror.state.board.codes[mirror.state.pvc]
    for who in (ash, beech, eve):
        view = who.get(f"/api/games/{gid}/state?options=false")["observation"]["view"]
        assert view["pvc"]["status"] == "hidden" and view["pvc"]["sector"] is None
        assert not any(e["kind"] == "pvc_seen" for e in view["events"])
        rest = {k: v for k, v in view.items() if k not in ("events", "last_minigame")}
        assert f'"{where}"' not in json.dumps(rest), who.username
    for name, sock in sockets.items():
        for message in sock.drain():
            pvc = json.dumps(message).split('"pvc": ')[1:]
            assert all(p.split("}")[0].count(f'"{where}"') == 0 for p in pvc), name
        sock.conn.close()


# Rows only one preset refuses this way: the compact game opens in the action phase, the full
# rules with the strategy phase.
_PRESET_ROWS: dict[str, list[tuple[str, int, str, str]]] = {
    "compact": [
        ("activate 9999", 422, "illegal", "there is no system 9999"),
        ("move 1 cruiser from 0301 to 0302", 422, "illegal", "'activate <system>'"),
        ("destroy carrier", 422, "illegal", "no hits wait"),
    ],
    "full": [
        ("activate 0203", 422, "illegal", "'pick <card>'"),
        ("pick nothing", 400, "invalid", "strategy card"),
        ("destroy carrier", 422, "illegal", "'pick <card>'"),
    ],
}


@pytest.mark.parametrize("preset", ["full", "compact"])
def test_planets_bad_actions_are_refused_clearly_and_change_nothing(
    live: LiveServer, users: Users, preset: str
) -> None:
    amy, bob, cat, eve = users("amy"), users("bob"), users("cat"), users("eve")
    gid, seats = start_game(
        amy, [bob, cat], "planets", period_seconds=600, seed=7, options={"rules": preset}
    )
    eve.post(f"/api/games/{gid}/join", {"role": "spectator"})
    by_seat = {seats[n]: c for n, c in (("amy", amy), ("bob", bob), ("cat", cat))}
    owing = [o["seat"] for o in amy.get(f"/api/games/{gid}/state")["observation"]["turn"]["owed"]]
    mover = by_seat[owing[0]]
    idle = next(c for s, c in by_seat.items() if s != owing[0])
    clients = [amy, bob, cat, eve]
    before = [snapshot(c, gid) for c in clients]
    refusals: list[tuple[Client, str, int, str, str]] = [
        *((mover, *row) for row in _PRESET_ROWS[preset]),
        (mover, "activate ０２０３", 400, "invalid", "not a system number"),
        (mover, "activate -203", 400, "invalid", "not a system number"),
        (mover, "move 99999999 cruiser from 0301 to 0203", 400, "invalid", "not a count"),
        (mover, "move " + "9" * 5000 + " cruiser from 0301 to 0203", 400, "invalid", "count"),
        (mover, "commit -1 infantry to Vesta", 400, "invalid", "not a unit type"),
        (mover, "commit 5 infantry to Vesta", 422, "illegal", "not now"),
        (mover, "explore cultural at Nowhere", 400, "invalid", "no planet called 'nowhere'"),
        (mover, "bombard Atlantis", 400, "invalid", "no planet called 'atlantis'"),
        (mover, "produce 1000 infantry at home", 400, "invalid", "not a count"),
        (mover, "exhaust Vesta", 422, "illegal", "not now"),
        (mover, "produce 1 starbase at home", 400, "invalid", "not a unit type"),
        (mover, "🙂", 400, "invalid", "does not start any action"),
        (idle, "pass", 409, "out_of_turn", "has nothing to decide"),
        (eve, "pass", 403, "forbidden", ""),
    ]
    for who, text, status, error, words in refusals:
        code, out = post(who, f"/api/games/{gid}/actions", {"action": text})
        assert (code, out["error"]) == (status, error), (text[:60], out)
        assert words in out["message"] and len(out["message"]) < 600, out["message"][:120]
        assert [snapshot(c, gid) for c in clients] == before, text[:60]
    state = mover.get(f"/api/games/{gid}/state")
    first = state["options"]["children"][0]
    action = first.get("action") or first["children"][0]["action"]
    mover.post(f"/api/games/{gid}/actions", {"action": action, "state_id": state["state_id"]})
    owing = [o["seat"] for o in amy.get(f"/api/games/{gid}/state")["observation"]["turn"]["owed"]]
    code, out = post(
        by_seat[owing[0]], f"/api/games/{gid}/actions", {"action": "pass", "state_id": 0}
    )
    assert (code, out["error"]) == (409, "stale")


def test_planets_undrawn_exploration_cards_are_in_no_answer(live: LiveServer, users: Users) -> None:
    amy, bob, cat, eve = users("amy"), users("bob"), users("cat"), users("eve")
    gid, _ = start_game(amy, [bob, cat], "planets", period_seconds=600, seed=7)
    eve.post(f"/api/games/{gid}/join", {"role": "spectator"})
    mirror: Match[Any, Any] = Match(PLANETS, 3, seed=7)
    undrawn = {card for deck in mirror.state.decks.values() for card in deck}
    assert len(undrawn) >= 20
    for who in (amy, bob, cat, eve):
        text = everything(who, gid)
        leaked = sorted(card for card in undrawn if card in text)
        assert not leaked, (who.username, leaked)
        decks = who.get(f"/api/games/{gid}/state")["observation"]["view"]["decks"]
        assert {t: d["left"] for t, d in decks.items()} == {
            t: len(d) for t, d in mirror.state.decks.items()
        }
        assert all(set(d) == {"left", "discards"} and d["discards"] == [] for d in decks.values())
