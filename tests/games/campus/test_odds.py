"""The odds of an attack, computed before it is made, agree with the engine's own combat:
for each pair of faces the two dice can show, the engine is made to roll them (scripted
through the kernel's `Script`, which also tells which faces a die has) and the count of its
wins is the chance the odds give. The odds reach the view and the options tree."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from tests.games.campus.helpers import position

from parley.games.campus import NOBODY, RULES
from parley.games.campus.engine import step
from parley.games.campus.odds import Side, attack_odds, win_chance
from parley.kernel import ChanceError, Script, Viewer


def attack_position(a_level: int, d_level: int, **extra: Any) -> Any:
    return position(units={"C1": ["Ash", a_level], "C2": ["Beech", d_level]}, **extra)


def attack_won(a_level: int, d_level: int, a: int, d: int, **extra: Any) -> bool:
    """Whether the attack wins with the attack die showing `a` and the defence die `d`,
    both scripted (ChanceError when the engine's die has no such face)."""
    state = attack_position(a_level, d_level, **extra)
    src, dst = state.board.index["C1"], state.board.index["C2"]
    state.rng = Script([("attack roll by Ash", a), ("defence roll by Beech", d)])
    step(state, 0, src, dst)
    state.rng.finish()
    return bool(state.unit[dst] == 0)


def faces(a_level: int, d_level: int, attack: bool, **extra: Any) -> int:
    """How many faces the engine's attack (or defence) die has: the highest it accepts."""
    for top in range(1, 40):
        try:
            attack_won(a_level, d_level, top if attack else 1, 1 if attack else top, **extra)
        except ChanceError:
            return top - 1
    raise AssertionError("a die of more than 40 faces")


def engine_wins(a_level: int, d_level: int, **extra: Any) -> Fraction:
    """The engine's win rate over every pair of faces, each pair rolled once."""
    a_top = faces(a_level, d_level, True, **extra)
    d_top = faces(a_level, d_level, False, **extra)
    wins = sum(
        attack_won(a_level, d_level, a, d, **extra)
        for a in range(1, a_top + 1)
        for d in range(1, d_top + 1)
    )
    return Fraction(wins, a_top * d_top)


@pytest.mark.parametrize(
    ("a_level", "d_level", "extra"),
    [
        (1, 1, {}),
        (3, 1, {}),
        (1, 4, {}),
        (2, 2, {"pvc_attack": [2, 0]}),
        (2, 1, {"pvc_defence": [0, 3]}),
    ],
)
def test_the_odds_are_the_engines_own_combat(
    a_level: int, d_level: int, extra: dict[str, Any]
) -> None:
    state = attack_position(a_level, d_level, **extra)
    (offered,) = [o for o in attack_odds(state) if o["to"] == "C2"]
    assert Fraction(offered["wins"], offered["of"]) == engine_wins(a_level, d_level, **extra)


def test_ties_go_to_the_defender() -> None:
    assert win_chance(Side(4, 0), Side(4, 0)) == Fraction(6, 16)
    assert win_chance(Side(6, 0), Side(4, 5)) == Fraction(0)
    assert win_chance(Side(6, 4), Side(4, 0)) == Fraction(1)


def test_the_view_and_the_options_carry_the_odds_of_attacks_only() -> None:
    state = position(units={"C1": ["Ash", 1], "C2": ["Beech", 1], "B1": ["Ash", 1]})
    attacks = RULES.observe(state, Viewer(seat=1))["attacks"]
    assert {(a["from"], a["to"]) for a in attacks} == {("C1", "C2"), ("B1", "C2")}
    assert attacks[0]["percent"] == 40 and "tie goes to the defender" in attacks[0]["roll"]
    tree = RULES.options_tree(state, 0).to_json()
    labels = {
        leaf["action"]: leaf["label"]
        for group in tree["children"]
        for leaf in group.get("children", [])
    }
    assert "40%" in labels["move C1 to C2"] and "40%" in labels["move B1 to C2"]
    assert "%" not in labels["move B1 to C1"] and "%" not in labels["move C1 to D1"]
    state.unit[state.board.index["C2"]] = NOBODY
    assert RULES.observe(state, Viewer(seat=0))["attacks"] == []
