"""Bots answer a proposed draw by their own judgement, over the real HTTP API.

A draw at move 0 against bots never ends the game; once the game is late enough, the
heuristic bots accept when they are not ahead and refuse when they lead; a seat in civil
disorder accepts only once the game is late enough (`parley.agents.draws`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tests.server.conftest import Client, LiveServer

Users = Callable[..., Client]


def _bot_game(host: Client, game: str, seats: int, bot: str, **settings: Any) -> tuple[str, int]:
    """A started game: the host at one seat, `bot` at the others; its id and the host's seat."""
    body = {"game": game, "seats": seats, "seed": 5, **settings}
    gid = host.post("/api/games", body, expect=201)["id"]
    started = host.post(f"/api/games/{gid}/start", {"fill_with": bot})
    return gid, next(s["seat"] for s in started["seats"] if s["player"] == "host")


@pytest.mark.parametrize(
    ("game", "seats"),
    [("diplomacy", 7), ("campus", 3), ("illuminati", 3), ("planets", 3), ("sucker", 4)],
)
def test_a_draw_at_move_0_against_heuristic_bots_does_not_end_the_game(
    live: LiveServer, users: Users, game: str, seats: int
) -> None:
    host = users("host")
    gid, me = _bot_game(host, game, seats, "heuristic")
    out = host.post(f"/api/games/{gid}/draw", {"accept": True})
    assert out["decided"] and not out["agreed"], out
    assert out["status"] == "active"
    refused = [int(s) for s, v in out["votes"].items() if not v]
    assert len(refused) == 1 and refused[0] != me  # the first bot asked says no
    assert host.get(f"/api/games/{gid}")["status"] == "active"
    decision = host.get(f"/api/games/{gid}/history")["entries"][-1]
    assert decision["type"] == "draw" and decision["agreed"] is False


def test_random_bots_refuse_a_draw_at_move_0(live: LiveServer, users: Users) -> None:
    host = users("host")
    gid, _ = _bot_game(host, "diplomacy", 7, "random")
    out = host.post(f"/api/games/{gid}/draw", {"accept": True})
    assert out["decided"] and not out["agreed"] and out["status"] == "active"


def test_heuristic_bots_not_ahead_accept_a_late_draw(live: LiveServer, users: Users) -> None:
    """Planet Control from round 3: each bot votes yes only when another seat has at least
    its victory points; once no bot leads, the draw is agreed."""
    host = users("host")
    gid, me = _bot_game(
        host,
        "planets",
        3,
        "heuristic",
        period_seconds=60,
        disorder_after=0,
        # The compact game: its seeded bots lead in turn, so the votes change as the points do.
        options={"rounds": 6, "rules": "compact"},
    )
    proposals: list[tuple[int, dict[int, float], dict[str, bool]]] = []
    for _ in range(400):  # each deadline plays the host's default; the bots answer at once
        game = host.get(f"/api/games/{gid}")
        if game["status"] != "active":
            break
        view = host.get(f"/api/games/{gid}/state")["observation"]["view"]
        if view["round"] >= 2 and (not proposals or proposals[-1][0] < view["round"]):
            points = {p["seat"]: float(p["points"]) for p in view["players"]}
            out = host.post(f"/api/games/{gid}/draw", {"accept": True})
            assert out["decided"], out
            proposals.append((view["round"], points, out["votes"]))
            if out["agreed"]:
                break
        live.advance(60)
    assert proposals and proposals[0][0] == 2
    early = proposals[0][2]
    assert [v for s, v in early.items() if int(s) != me] == [False]  # round 2: too early
    for round_, points, votes in proposals[1:]:
        assert round_ >= 3
        for seat, vote in votes.items():
            if int(seat) == me:
                continue
            others = [p for s, p in points.items() if s != int(seat)]
            assert vote is (points[int(seat)] <= max(others)), (round_, points, votes)
    assert proposals[-1][2] and all(proposals[-1][2].values()), proposals
    final = host.get(f"/api/games/{gid}")
    assert final["status"] == "finished" and final["outcome"]["draw"] is True


def test_a_seat_in_civil_disorder_accepts_only_late_enough(live: LiveServer, users: Users) -> None:
    """Countdown has no measure of its own: 20 actions per seat is late enough."""
    amy, bob = users("amy"), users("bob")
    gid = amy.post("/api/games", {"game": "countdown", "seats": 2, "options": {"start": 90}})["id"]
    bob.post(f"/api/games/{gid}/join", {"role": "player"})
    amy.post(f"/api/games/{gid}/start")
    bob.post(f"/api/games/{gid}/leave")  # his seat is in civil disorder: nobody plays it
    early = amy.post(f"/api/games/{gid}/draw", {"accept": True})
    assert early["decided"] and not early["agreed"] and early["status"] == "active"
    for _ in range(20):  # the seat in disorder answers each take with its default
        amy.post(f"/api/games/{gid}/actions", {"action": "take 1"})
    late = amy.post(f"/api/games/{gid}/draw", {"accept": True})
    assert late["decided"] and late["agreed"] and late["status"] == "finished"
