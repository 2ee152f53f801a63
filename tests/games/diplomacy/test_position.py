"""Diplomacy game positions: the adjudicator's position plus the game's own state."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.games.positions import check_doc_example, check_round_trip

from parley.games.diplomacy import RULES
from parley.kernel import BadPosition, Match


@pytest.mark.parametrize("seed", range(6))
def test_round_trip_on_random_states(seed: int) -> None:
    check_round_trip(RULES, seed, plies=seed * 9)


def test_submitted_orders_are_in_the_position_and_checked() -> None:
    match = Match(RULES, 7, seed=1)
    match.act(0, "A VIE H")
    position = json.loads(json.dumps(RULES.write_position(match.state)))
    assert position["submitted"] == {"AUSTRIA": "A VIE H"}
    assert RULES.read_position(position).submitted[0].text == "A VIE H"
    position["submitted"] = {"AUSTRIA": "A VIE - PAR"}
    with pytest.raises(BadPosition, match=r"submitted\['AUSTRIA'\]"):
        RULES.read_position(position)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda p: p["position"].update(phase="X1901Q"), "position:"),
        (lambda p: p["position"]["units"].update(FRANCE=["A XYZ"]), "position:"),
        (lambda p: p.update(seats=9), "seats"),
        (lambda p: p["options"].update(map="moon"), "options"),
        (lambda p: p.update(weather="rain"), "weather"),
        (lambda p: p.update(ending={"winner": "ATLANTIS", "powers": [], "reason": ""}), "ending"),
    ],
)
def test_bad_positions_name_the_field(change: Any, words: str) -> None:
    position = json.loads(json.dumps(RULES.write_position(Match(RULES, 7, seed=1).state)))
    change(position)
    with pytest.raises(BadPosition) as err:
        RULES.read_position(position)
    assert words in err.value.message


def test_the_example_in_the_doc_is_a_position() -> None:
    check_doc_example(RULES)
