"""Campus Conquest on the server: a pick missed at the minigame's deadline counts as absent,
and the spectator's view and history never hold the hidden PVC or a pending pick."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tests.server.conftest import Client, LiveServer
from tests.server.test_play import start_game

from parley.games.campus import RULES
from parley.kernel import Match

Users = Callable[..., Client]
SEED = 65  # seat 0 starts on Great Hall (D2), seat 1 on Clock Tower (B1); the PVC hides on D1


def test_a_missed_pick_at_the_deadline_is_absent(live: LiveServer, users: Users) -> None:
    amy, bob, eve = users("amy"), users("bob"), users("eve")
    gid, seats = start_game(amy, [bob], "campus", period_seconds=60, seed=SEED)
    eve.post(f"/api/games/{gid}/join", {"role": "spectator"})
    by_seat = {seats["amy"]: amy, seats["bob"]: bob}
    first, second = by_seat[0], by_seat[1]
    mirror: Match[object, object] = Match(RULES, 2, seed=SEED)
    assert mirror.state.board.codes[mirror.state.pvc] == "D1"

    def spectator_text() -> str:
        view = eve.get(f"/api/games/{gid}/state")["observation"]["view"]
        history = eve.get(f"/api/games/{gid}/history")["entries"]
        assert view["pvc"]["sector"] is None
        return json.dumps([view, history])

    spectator_text()
    first.post(f"/api/games/{gid}/actions", {"action": "great hall - bike sheds"})
    state = eve.get(f"/api/games/{gid}/state")["observation"]
    assert state["view"]["phase"] == "minigame"
    assert sorted(o["seat"] for o in state["turn"]["owed"]) == [0, 1]
    second.post(f"/api/games/{gid}/actions", {"action": "pick 64"})
    assert "pick 64" not in spectator_text()
    assert "64" not in json.dumps(first.get(f"/api/games/{gid}/state")["observation"]["view"])
    assert live.advance(60) == 1  # the first player never picks
    view = eve.get(f"/api/games/{gid}/state")["observation"]["view"]
    last = view["last_minigame"]
    assert last["picks"] == {"0": None, "1": 64}
    assert last["winner"] == 1  # the only pick made wins
    assert last["bonuses"] == {"0": 2, "1": 2}
    history = eve.get(f"/api/games/{gid}/history")["entries"]
    assert [e["notation"] for e in history[-2:]] == ["pick 64", "pick none"]
    assert history[-1]["auto"] is True
    assert view["phase"] == "move" and view["current"] == 0  # one step left for seat 0


def _draft(client: Client, gid: str, expect: int | None = None, **body: Any) -> Any:
    return client.post(f"/api/games/{gid}/draft", body, expect=expect)


def _minigame(
    live: LiveServer, users: Users, period: int = 600
) -> tuple[str, Client, Client, Client]:
    """A two-seat game on SEED, its first player having just found the PVC on D1."""
    amy, bob, eve = users("amy"), users("bob"), users("eve")
    gid, seats = start_game(amy, [bob], "campus", period_seconds=period, seed=SEED)
    eve.post(f"/api/games/{gid}/join", {"role": "spectator"})
    by_seat = {seats["amy"]: amy, seats["bob"]: bob}
    by_seat[0].post(f"/api/games/{gid}/actions", {"action": "move D2 to D1"})
    assert eve.get(f"/api/games/{gid}/state")["observation"]["view"]["phase"] == "minigame"
    return gid, by_seat[0], by_seat[1], eve


def test_a_saved_pick_is_its_seat_s_alone_and_counts_at_the_deadline(
    live: LiveServer, users: Users
) -> None:
    gid, ash, beech, eve = _minigame(live, users, period=60)
    mine = ash.get(f"/api/games/{gid}/draft")
    assert mine["owes"] and [p["slot"] for p in mine["parts"]] == ["root"]
    state_id = mine["state_id"]
    saved = _draft(ash, gid, parts={"root": "PICK 17"}, state_id=state_id)
    assert saved["parts"][0]["action"] == "pick 17" and not saved["ready"]
    _draft(ash, gid, parts={"root": "pick 21"})  # a later save replaces the earlier one
    _draft(beech, gid, parts={"root": "pick 80"})
    # Neither the other player, nor the spectator, nor the record sees a saved pick.
    seen_by = ((beech, "pick 21"), (eve, "pick 21"), (eve, "pick 80"), (ash, "pick 80"))
    for client, other in seen_by:
        state = client.get(f"/api/games/{gid}/state?options=false")
        seen = json.dumps([state, client.get(f"/api/games/{gid}/history")])
        assert other not in seen
        view = state["observation"]["view"]
        assert view["minigame"]["picked"] == [] and "my_pick" not in view
    assert eve.get(f"/api/games/{gid}/draft", expect=403)["error"] == "forbidden"
    # Refusals change nothing: out of range, not a pick, the wrong part, a stale step.
    assert _draft(ash, gid, 422, parts={"root": "pick 101"})["error"] == "illegal"
    assert _draft(ash, gid, 422, parts={"root": "pass"})["error"] == "illegal"
    assert _draft(ash, gid, 400, parts={"root": "pick -3"})["error"] == "invalid"
    assert _draft(ash, gid, 400, parts={"D1": "pick 3"})["error"] == "invalid"
    stale = _draft(ash, gid, 409, parts={"root": "pick 3"}, state_id=state_id + 1)
    assert stale["error"] == "stale"
    assert ash.get(f"/api/games/{gid}/draft")["parts"][0]["action"] == "pick 21"
    assert live.advance(60) == 1  # nobody said ready: the saved picks count
    last = eve.get(f"/api/games/{gid}/state")["observation"]["view"]["last_minigame"]
    assert last["picks"] == {"0": 21, "1": 80}
    assert last["winner"] == 0  # 21 is nearer two thirds of 50.5 than 80
    history = eve.get(f"/api/games/{gid}/history")["entries"]
    assert sorted(e["notation"] for e in history[-2:]) == ["pick 21", "pick 80"]
    assert not any(e.get("auto") for e in history[-2:])


def test_the_minigame_resolves_once_both_players_are_ready(live: LiveServer, users: Users) -> None:
    gid, ash, beech, eve = _minigame(live, users)
    _draft(ash, gid, parts={"root": "pick 30"}, ready=True)
    _draft(beech, gid, parts={"root": "pick 10"})
    assert eve.get(f"/api/games/{gid}/state")["observation"]["view"]["phase"] == "minigame"
    done = _draft(beech, gid, ready=True)
    assert not done["owes"]
    view = eve.get(f"/api/games/{gid}/state")["observation"]["view"]
    assert view["phase"] == "move" and view["last_minigame"]["picks"] == {"0": 30, "1": 10}
    assert view["last_minigame"]["winner"] == 1  # two thirds of 20 is 13.3: 10 is nearer
    # Once the minigame is over, nothing is owed: saving now is out of turn.
    assert _draft(beech, gid, 409, parts={"root": "pick 3"})["error"] == "out_of_turn"
