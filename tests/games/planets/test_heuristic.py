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
