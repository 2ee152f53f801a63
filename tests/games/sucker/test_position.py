"""So Long Sucker positions: the whole state (bargains, phase, whose move) round trips."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.games.positions import check_doc_example, check_round_trip

from parley.games.sucker import RULES
from parley.games.sucker.position import position as build
from parley.kernel import BadPosition, Match


@pytest.mark.parametrize("seed", range(12))
def test_round_trip_on_random_states(seed: int) -> None:
    check_round_trip(RULES, seed, plies=seed * 11)


def test_a_built_position_round_trips_and_plays() -> None:
    state = build(4, hands={"red": "3 red, blue"}, piles=["red blue green"], mover="red")
    match = Match.from_position(RULES, RULES.write_position(state))
    assert match.turn().owing == {0}
    match.act(0, match.legal_actions(0)[0])


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda p: p["hands"][0].__setitem__(0, 99), "chips are placed"),
        (lambda p: p["piles"].update({"1": []}), "piles[1]"),
        (lambda p: p["piles"].update({"one": [0]}), "'one'"),
        (lambda p: p.update(holder=9), "holder"),
        (lambda p: p.update(phase="lunch"), "phase"),
        (lambda p: p["options"].update(chips=0), "options"),
        (lambda p: p.update(bargains={"1": {"id": 1}}), "bargains['1'].proposer: missing"),
    ],
)
def test_bad_positions_name_the_field(change: Any, words: str) -> None:
    position = json.loads(json.dumps(RULES.write_position(Match(RULES, 4, seed=1).state)))
    change(position)
    with pytest.raises(BadPosition) as err:
        RULES.read_position(position)
    assert words in err.value.message


def test_the_example_in_the_doc_is_a_position() -> None:
    check_doc_example(RULES)
