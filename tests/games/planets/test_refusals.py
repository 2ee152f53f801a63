"""Refusals say why: a step sent after one's tactical action ended by itself is told so and
which rule the step breaks, not only whose turn it is."""

from __future__ import annotations

from typing import Any

import pytest

from parley.games.planets.rules import PlanetsRules
from parley.kernel import IllegalAction, Match, OutOfTurn

RULES = PlanetsRules()


def ended() -> Match[Any, Any]:
    """Seed 1, three players: Green activates 0403, where none of its ships can reach, so
    the tactical action ends by itself and Red is to act."""
    match = Match(RULES, 3, {"rules": "compact"}, seed=1)
    match.act(2, "activate 0403")
    assert min(match.turn().owing) == 0
    return match


def test_a_late_move_names_the_rule_it_breaks() -> None:
    match = ended()
    with pytest.raises(OutOfTurn) as err:
        match.act(2, "move 1 carrier 2 infantry from 0104 to 0403")
    text = err.value.message
    assert err.value.reason == "not_your_turn"
    assert "Green has nothing to decide now; Red to act" in text
    assert "a carrier moves 1, and 0403 is 3 away" in text
    assert "Green's tactical action in 0403 ended by itself" in text
    assert "no ship of Green could move into 0403" in text


def test_the_rules_alone_say_the_same() -> None:
    match = ended()
    action = RULES.parse("move 1 carrier 2 infantry from 0104 to 0403", match.state, 2)
    with pytest.raises(IllegalAction, match="a carrier moves 1, and 0403 is 3 away"):
        RULES.apply(RULES.clone(match.state), 2, action)


def test_once_the_next_player_acts_it_is_plain_whose_turn_it_is() -> None:
    match = ended()
    match.act(0, "pass")
    with pytest.raises(OutOfTurn) as err:
        match.act(2, "move 1 carrier 2 infantry from 0104 to 0403")
    assert err.value.message == "Green has nothing to decide now; Blue to act"


@pytest.mark.parametrize(
    ("action", "reason", "words"),
    [
        ("produce 2 dreadnought at Castellan", "not_enough_money", "that costs 8 resources"),
        ("exhaust Vesta", "not_held", "you do not control Vesta"),
        ("bombard none", "wrong_phase", "not now"),
    ],
)
def test_production_refusals_carry_their_reason(action: str, reason: str, words: str) -> None:
    match = Match(RULES, 3, {"rules": "compact"}, seed=1)
    match.act(2, "activate 0104")
    with pytest.raises(IllegalAction) as err:
        match.act(2, action)
    assert err.value.reason == reason and words in err.value.message
