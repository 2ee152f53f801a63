"""Results as data: the last combat (units, dice, bonuses, result) in the state and in every
viewer's observation (combats are public), kept until the next one."""

from __future__ import annotations

from typing import Any

from parley.games.campus.rules import CampusRules
from parley.games.campus.state import CampusState
from parley.kernel import SPECTATOR, Match, Rng, Viewer
from parley.kernel.conformance import random_step

RULES = CampusRules()


def until_combat(seed: int, count: int = 1) -> Match[CampusState, Any]:
    """Random play from `seed` until `count` combats have been fought."""
    match = Match(RULES, 2, seed=seed)
    rng = Rng(seed)
    seen = 0
    for _ in range(2000):
        before = match.state.last_combat
        assert random_step(match, rng)
        if match.state.last_combat is not before:
            seen += 1
            if seen == count:
                return match
    raise AssertionError("no combat")


def view(match: Match[CampusState, Any], viewer: Viewer) -> dict[str, Any]:
    obs = match.observe(viewer)
    return dict(obs.get("view", obs))


def test_the_combat_is_data_matching_its_event() -> None:
    match = until_combat(0)
    fight = match.state.last_combat
    assert fight is not None
    event = next(e for e in reversed(match.state.events) if e[0] == "combat")
    _, seat, src, dst, foe, a_level, d_level, a_roll, a_bonus, d_roll, d_bonus, won = event
    codes = match.state.board.codes
    assert fight["attacker"] == {
        "seat": seat,
        "sector": codes[src],
        "level": a_level,
        "die": 4 + a_level,
        "roll": a_roll,
        "bonus": a_bonus,
        "total": a_roll + a_bonus,
    }
    assert fight["defender"]["seat"] == foe and fight["defender"]["sector"] == codes[dst]
    assert fight["defender"]["total"] == d_roll + d_bonus and fight["defender"]["level"] == d_level
    assert fight["result"] == ("attacker_wins" if won else "defender_wins")
    assert fight["destroyed"] == (foe if won else seat)
    # Seed 0: Beech attacks Ash's unit in C2 from D1 and loses.
    assert (fight["attacker"]["sector"], fight["defender"]["sector"]) == ("D1", "C2")
    assert fight["result"] == "defender_wins"


def test_everyone_sees_it_and_the_picture_tells_it() -> None:
    match = until_combat(0)
    fight = match.state.last_combat
    for viewer in [Viewer.of(0), Viewer.of(1), SPECTATOR]:
        assert view(match, viewer)["last_combat"] == fight
    text = RULES.render(view(match, SPECTATOR))
    told = "Last combat: Beech from D1 rolled 2 (d7) +2 = 4 against Ash in C2 7 (d8) +4 = 11"
    assert told in text


def test_it_stays_until_the_next_combat() -> None:
    first = until_combat(1, 1).state.last_combat
    second = until_combat(1, 2).state.last_combat
    assert first is not None and second is not None and first != second
    match = until_combat(1, 1)
    if match.state.phase.value == "move":  # the turn goes on without a fight
        match.act(match.state.current, "pass")
    assert match.state.last_combat == first


def test_a_state_pickled_before_combats_were_kept_shows_none() -> None:
    match = until_combat(0)
    state = match.state
    del state.last_combat  # as a snapshot from before the slot existed restores
    assert view(match, SPECTATOR)["last_combat"] is None
    assert RULES.clone(state).last_combat is None
