"""Results as data: the last combat (space or ground, round by round; bombardment and space
cannon fire) in the state and every viewer's observation, kept until the next one."""

from __future__ import annotations

from typing import Any

from parley.games.planets.engine import ships_of
from parley.games.planets.rules import PlanetsRules
from parley.games.planets.state import PlanetsState
from parley.kernel import SPECTATOR, Match, Rng, Viewer
from parley.kernel.conformance import random_step

RULES = PlanetsRules()


def until(seed: int, done: Any) -> Match[PlanetsState, Any]:
    match = Match(RULES, 3, {"rules": "compact"}, seed=seed)
    rng = Rng(seed)
    for _ in range(3000):
        if done(match.state):
            return match
        assert random_step(match, rng), "the game ended first"
    raise AssertionError("not reached")


def over(kind: str) -> Any:
    return lambda s: (
        s.last_combat is not None
        and s.last_combat["kind"] == kind
        and (s.last_combat["result"] is not None)
    )


def view(match: Match[PlanetsState, Any], viewer: Viewer) -> dict[str, Any]:
    obs = match.observe(viewer)
    return dict(obs.get("view", obs))


def test_a_space_combat_round_by_round_with_its_result() -> None:
    match = until(2, over("space"))  # seed 2: Blue attacks Red's ships at 0402 and loses
    fight = match.state.last_combat
    assert fight is not None
    assert (fight["kind"], fight["where"]) == ("space", "0402")
    assert (fight["attacker"], fight["defender"]) == (1, 0)
    assert fight["result"] == "defender_wins"
    space = match.state.space["0402"]
    assert ships_of(space, 0) > 0 and ships_of(space, 1) == 0
    # Each round is the event the log tells: the same rolls and hits.
    told = [e for e in match.state.events if e["kind"] == "space" and e["system"] == "0402"]
    assert [{"rolls": e["rolls"], "hits": e["hits"]} for e in told][-len(fight["rounds"]) :] == (
        fight["rounds"]
    )


def test_everyone_sees_it_and_the_picture_tells_it() -> None:
    match = until(2, over("space"))
    fight = match.state.last_combat
    for viewer in [Viewer.of(0), Viewer.of(1), Viewer.of(2), SPECTATOR]:
        assert view(match, viewer)["last_combat"] == fight
    text = RULES.render(view(match, SPECTATOR))
    assert "Last combat: space combat at 0402, blue against red: round 1: blue [2, 4] (0 hits)" in (
        text
    )
    assert text.count("Last combat") == 1 and "red wins" in text


def test_a_ground_combat_and_a_bombardment() -> None:
    ground = until(5, over("ground")).state.last_combat
    assert ground is not None and ground["where"] == "Druun"
    assert ground["result"] == "attacker_wins" and ground["rounds"]
    fired = until(5, over("bombardment")).state.last_combat
    assert fired is not None and fired["result"] == "fired"
    assert len(fired["rounds"]) == 1 and fired["rounds"][0]["hits"][0] >= 0


def test_it_stays_until_the_next_combat() -> None:
    match = until(2, over("space"))
    fight = match.state.last_combat
    rng = Rng(99)
    steps = 0
    while match.state.last_combat is fight and steps < 3000 and random_step(match, rng):
        steps += 1
    assert steps > 0, "the combat was replaced at once"
    new = match.state.last_combat
    assert new is not None and new is not fight
    assert len(new["rounds"]) == 1  # the next combat, at its first round or volley
