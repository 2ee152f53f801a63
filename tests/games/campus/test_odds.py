"""The odds of an attack, computed before it is made, agree with the engine's own combat:
for each pair of faces the two dice can show, the engine is made to roll them and the count
of its wins is the chance the odds give. The odds reach the view and the options tree."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from tests.games.campus.helpers import position

from parley.games.campus import NOBODY, RULES
from parley.games.campus.engine import step
from parley.games.campus.odds import Side, attack_odds, win_chance
from parley.kernel import Viewer


class Rolls:
    """A stand-in generator that gives the dice in the order asked (attack, then defence)."""

    def __init__(self, *values: int) -> None:
        self.values = list(values)
        self.asked: list[tuple[int, int]] = []

    def randint(self, lo: int, hi: int, label: str = "") -> int:
        self.asked.append((lo, hi))
        return self.values.pop(0)


def attack_position(a_level: int, d_level: int, **extra: Any) -> Any:
    return position(units={"C1": ["Ash", a_level], "C2": ["Beech", d_level]}, **extra)


def engine_wins(a_level: int, d_level: int, **extra: Any) -> Fraction:
    """The engine's win rate over every pair of faces, each pair rolled once."""
    probe = attack_position(a_level, d_level, **extra)
    src, dst = probe.board.index["C1"], probe.board.index["C2"]
    probe.rng = Rolls(1, 1)
    step(probe, 0, src, dst)
    (a_lo, a_hi), (d_lo, d_hi) = probe.rng.asked
    wins = 0
    for a in range(a_lo, a_hi + 1):
        for d in range(d_lo, d_hi + 1):
            state = attack_position(a_level, d_level, **extra)
            state.rng = Rolls(a, d)
            step(state, 0, src, dst)
            wins += state.unit[dst] == 0
    return Fraction(wins, (a_hi - a_lo + 1) * (d_hi - d_lo + 1))


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
