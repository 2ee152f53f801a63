"""Campus Conquest bots: the heuristic's choices in set positions, and its win share."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.games.campus.helpers import position

from parley.agents.arena import ArenaConfig, run_arena
from parley.agents.bots import decide, make_bot
from parley.agents.heuristics.campus import win_chance
from parley.games.campus import RULES, CampusState
from parley.kernel import Match, Rng


def choice(state: CampusState, seat: int = 0) -> str:
    match: Match[Any, Any] = Match(RULES, state.seats, seed=0)
    match.state = state
    return RULES.format(decide(make_bot("heuristic", RULES), match, seat, Rng(0)))


def test_win_chance_is_exact() -> None:
    assert win_chance(1, 1, 0, 0) == 10 / 25  # 5x5 dice, strictly higher
    assert win_chance(1, 1, 5, 0) == 1.0
    assert win_chance(1, 1, 0, 5) == 0.0


def test_takes_an_unowned_landmark_first() -> None:
    state = position(units={"D1": ["Ash", 1], "A4": ["Beech", 1]}, pvc="B6")
    assert choice(state) == "move D1 to D2"  # Great Hall, among four plain sectors


def test_avoids_a_fight_it_is_likely_to_lose() -> None:
    state = position(
        owners={"E4": "Ash", "F5": "Ash", "F4": "Ash", "E6": "Ash", "D5": "Beech"},
        units={"E5": ["Ash", 1], "D5": ["Beech", 5], "A4": ["Beech", 1]},
        pvc="B6",
        pvc_defence=[0, 6],
    )
    assert choice(state) != "move E5 to D5"  # about a 4% chance
    state.pvc_defence = [0, 0]
    assert choice(state) != "move E5 to D5"  # 1-in-4 at level 1 against level 5


def test_attacks_a_last_sector_with_good_odds() -> None:
    state = position(units={"E5": ["Ash", 5], "D5": ["Beech", 1]}, pvc="B6", pvc_attack=[6, 0])
    assert choice(state) == "move E5 to D5"


def test_hunts_the_revealed_pvc_and_never_peeks_at_a_hidden_one() -> None:
    owners = {c: "Ash" for c in ("E4", "E6", "F4", "F5", "D5", "D6", "C6", "C5", "B5")}
    units = {"E5": ["Ash", 1], "A4": ["Beech", 1]}
    revealed = position(owners=owners, units=units, pvc="A5", revealed=True)
    assert choice(revealed) == "move E5 to D5"  # the way to Allotments (A5)
    hidden = {choice(position(owners=owners, units=units, pvc=p)) for p in ("A5", "E3", "B6")}
    assert hidden == {"move E5 to E4"}  # the same wherever it hides


def test_minigame_pick_is_the_best_reply() -> None:
    state = position(
        seats=4,
        units={"E5": ["Ash", 1], "A4": ["Beech", 1], "C1": ["Cedar", 1], "B6": ["Elm", 1]},
        pvc="E6",
    )
    RULES.apply(state, 0, RULES.parse("move E5 to E6"))
    assert choice(state, 1) == "pick 30"  # others around 50: 2*3*50/10
    state.last_minigame = {"picks": {"0": 10, "1": 99, "2": 20, "3": None}}
    assert choice(state, 1) == "pick 9"  # others' mean 15 -> 2*3*15/10


def test_heuristic_beats_three_random_players(tmp_path: Path) -> None:
    config = ArenaConfig(
        "campus", ("heuristic", "random", "random", "random"), games=60, seed=1, out=tmp_path
    )
    standings = run_arena(config).summary["standings"]
    assert isinstance(standings, dict)
    # Equal play would give each seat 0.25; measured 0.943 over 400 games (docs/campus.md).
    assert standings["heuristic"]["win_share"] >= 0.7
    assert standings["random"]["win_share"] <= 0.1
