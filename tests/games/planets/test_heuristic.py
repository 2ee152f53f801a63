"""The Planet Control heuristic: its choices in set positions, and that it beats random play."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from parley import games
from parley.agents.arena import ArenaConfig, run_arena
from parley.agents.bots import decide, make_bot
from parley.kernel import Match, Rng

PLANETS = games.find("planets")


def _planets_choice(match: Match[Any, Any], seat: int) -> str:
    return PLANETS.format(decide(make_bot("heuristic", PLANETS), match, seat, Rng(0)))


def _planets_board(
    units: list[str], control: dict[str, int], rules: str = "full"
) -> Match[Any, Any]:
    from parley.games.planets.state import Area, Stage

    match: Match[Any, Any] = Match(PLANETS, 3, {"rules": rules}, seed=0)
    state = match.state
    for area in state.space.values():
        area.units.clear()
    for planet in state.planets.values():
        planet.controller = None
        planet.area = Area()
    for name, seat in control.items():
        state.planets[name].controller = seat
    for line in units:
        *where, seat, kind, n = line.split()
        state.where(" ".join(where)).add(int(seat), kind, int(n))
    state.current = 0
    state.stage = Stage.ACTION
    return match


@pytest.mark.parametrize(
    ("rules", "move"),
    [
        ("compact", "move 1 carrier 2 infantry from 0201 to 0202"),
        ("full", "move 1 carrier from 0201 to 0202 with 2 infantry from 0201"),
    ],
)
def test_planets_heuristic_goes_for_the_valuable_planet_it_can_take(rules: str, move: str) -> None:
    # Red's carrier with two infantry sits next to Tasko/Quell (0202) and Vesta (0203).
    match = _planets_board(["0201 0 carrier 1", "0201 0 infantry 2"], {}, rules)
    assert _planets_choice(match, 0) == "activate 0202"
    match.act(0, "activate 0202")
    assert _planets_choice(match, 0) == move


def _in_step(match: Match[Any, Any], stage: str, **fields: Any) -> Match[Any, Any]:
    from parley.games.planets.state import Stage

    state = match.state
    state.stage = Stage(stage)
    for key, value in fields.items():
        setattr(state, key, value)
    return match


def test_planets_heuristic_boards_troops_and_spares_what_would_be_stranded() -> None:
    # One carrier (capacity 4) at 0201 with 4 fighters and 2 infantry: the infantry go, and
    # two fighters fill the rest rather than be lost in space without capacity.
    match = _planets_board(["0201 0 carrier 1", "0201 0 fighter 4", "0201 0 infantry 2"], {})
    match.act(0, "activate 0202")
    assert _planets_choice(match, 0) == (
        "move 1 carrier from 0201 to 0202 with 2 fighter 2 infantry from 0201"
    )


def test_planets_heuristic_retreats_only_when_badly_outgunned() -> None:
    board = ["0203 0 destroyer 1", "0203 1 dreadnought 3", "0202 0 carrier 1"]
    match = _in_step(_planets_board(board, {}), "retreat", active="0203", combat_step="attacker")
    assert _planets_choice(match, 0) == "retreat to 0202"
    board = ["0203 0 dreadnought 2", "0203 1 destroyer 2", "0202 0 carrier 1"]
    match = _in_step(_planets_board(board, {}), "retreat", active="0203", combat_step="attacker")
    assert _planets_choice(match, 0) == "stay"


def test_planets_heuristic_fires_its_space_cannon_at_the_strongest_fleet() -> None:
    board = ["Vesta 0 pds 1", "0203 1 destroyer 1", "0203 2 dreadnought 2"]
    match = _in_step(_planets_board(board, {"Vesta": 0}), "offense", active="0203")
    assert _planets_choice(match, 0) == "fire at green"


def test_planets_heuristic_produces_fighters_within_capacity() -> None:
    board = ["Aurel 0 dock 1", "0301 0 carrier 3", "Aurel 0 infantry 12"]
    match = _in_step(
        _planets_board(board, {"Aurel": 0}), "produce", active="0301", pool=3, tactics=[2, 3, 3]
    )
    assert _planets_choice(match, 0) == "produce 2 fighter at Aurel"


def test_planets_heuristic_does_not_attack_a_stronger_fleet() -> None:
    match = _planets_board(
        ["0201 0 carrier 1", "0201 0 infantry 2", "0202 1 dreadnought 2", "0202 1 cruiser 2"], {}
    )
    assert _planets_choice(match, 0) != "activate 0202"


def test_planets_heuristic_outnumbers_the_defenders_when_committing() -> None:
    match = _planets_board(
        ["0203 0 carrier 1", "0203 0 infantry 4", "Vesta 1 infantry 2"], {"Vesta": 1}
    )
    match.act(0, "activate 0203")
    assert _planets_choice(match, 0) == "commit 3 infantry to Vesta"


def test_planets_heuristic_sustains_before_losing_a_unit() -> None:
    from parley.games.planets.state import Hit

    match = _planets_board(["0203 0 dreadnought 1", "0203 0 destroyer 1"], {})
    match.state.hits = [Hit(0, "0203", 1)]
    assert _planets_choice(match, 0) == "sustain dreadnought"


def test_planets_heuristic_beats_two_random_players(tmp_path: Path) -> None:
    config = ArenaConfig(
        "planets", ("heuristic", "random", "random"), games=30, seed=1, out=tmp_path
    )
    standings = run_arena(config).summary["standings"]
    assert isinstance(standings, dict)
    # Equal play would give each seat 1/3; measured over 200 games in docs/planets.md.
    assert standings["heuristic"]["win_share"] >= 0.6
    assert standings["random"]["win_share"] <= 0.2


def test_planets_heuristic_defends_its_home_when_enemy_ships_come_near() -> None:
    units = ["0302 0 carrier 1", "0302 0 infantry 2", "Aurel 0 dock 1", "0201 1 dreadnought 2"]
    match = _planets_board(units, {"Aurel": 0, "Aurel Minor": 0})
    assert _planets_choice(match, 0) == "activate 0301"
    quiet = _planets_board(units[:3], {"Aurel": 0, "Aurel Minor": 0})
    assert _planets_choice(quiet, 0) != "activate 0301"


# --- the fuller round's decisions ----------------------------------------------------------


def test_planets_heuristic_picks_the_card_worth_most_now() -> None:
    # Red holds the central planet and meets "Seat of the Old Empire": Dominion is worth most.
    from parley.games.planets import strategy

    match = _planets_board([], {"Axis Prime": 0})
    state = match.state
    state.revealed = ["throne", "reach"]
    strategy.strategy_phase(state)
    state.current = 0
    assert _planets_choice(match, 0) == "pick dominion"
    state.revealed = ["reach", "frontier"]
    state.card_goods[4] = 3  # three trade goods lie on Commerce
    assert _planets_choice(match, 0) == "pick commerce"


def test_planets_heuristic_uses_its_card_and_keeps_dominion_for_a_score() -> None:
    match = _planets_board([], {"Aurel": 0})
    state = match.state
    state.holders[0], state.holders[7] = 0, 0  # Command and Dominion
    state.revealed = ["reach", "frontier"]
    assert _planets_choice(match, 0) == "strategy command"
    state.used[0] = True
    # Nothing to activate and nothing to score: Dominion is used rather than kept.
    assert _planets_choice(match, 0) == "strategy dominion"


def test_planets_heuristic_follows_what_pays_and_declines_the_rest() -> None:
    match = _planets_board([], {"Aurel": 0, "Brisa": 1})
    state = match.state
    state.holders[1], state.holders[4] = 1, 1  # Blue holds Accord and Commerce
    state.current = 1
    match = _in_step(match, "action")
    # one system to name, no planet to ready: Accord's primary runs by itself
    match.act(1, "strategy accord")
    assert match.turn().owed[0].seat == 2
    # Green has no planet to ready: Accord's secondary gives nothing
    assert _planets_choice(match, 2) == "decline"
    match.act(2, "decline")
    match.state.planets["Aurel"].exhausted = True
    # Red has one exhausted planet: not worth a strategy token either
    assert _planets_choice(match, 0) == "decline"
    match.act(0, "decline")
    match.act(0, "pass")  # initiative: Blue (2), then Red and Green, who hold no card
    match.act(2, "pass")
    match.act(1, "strategy commerce")
    match.act(1, "done")
    # a trade good for a spare strategy token (Green has two)
    assert _planets_choice(match, 2) == "follow commerce"


def test_planets_heuristic_places_its_tokens_by_its_largest_fleet() -> None:
    from parley.games.planets.strategy import status_phase

    match = _planets_board(["0301 0 dreadnought 5"], {"Aurel": 0})
    state = match.state
    state.fleet[0] = 5
    state.passed = [True, True, True]
    status_phase(state)
    assert match.turn().owed[0].kind == "status"
    # 3 tactic + 5 fleet + 2 strategy + 2 gained: the fleet stays 5, two strategy tokens
    assert _planets_choice(match, 0) == "tokens 5 5 2"


def test_planets_heuristic_pays_the_custodians_when_it_can_land() -> None:
    board = ["0202 0 carrier 1", "0202 0 infantry 2"]
    match = _planets_board(board, {"Aurel": 0, "Aurel Minor": 0, "Quell": 0})
    match.act(0, "activate 0303")
    match.act(0, "move 1 carrier from 0202 to 0303 with 2 infantry from 0202")
    assert match.turn().owed[0].kind == "commit"
    for _ in range(3):
        choice = _planets_choice(match, 0)
        assert choice.startswith("exhaust ")
        match.act(0, choice)
    assert _planets_choice(match, 0) == "pay custodians"
    match.act(0, "pay custodians")
    assert _planets_choice(match, 0) == "commit 1 infantry to Axis Prime"
