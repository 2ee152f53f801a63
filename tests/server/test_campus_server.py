"""Campus Conquest on the server: a pick missed at the minigame's deadline counts as absent,
and the spectator's view and history never hold the hidden PVC or a pending pick."""

from __future__ import annotations

import json
from collections.abc import Callable

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
