"""Planet Control positions: round trips on random states, and clear errors on bad ones."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.games.positions import check_doc_example, check_round_trip

from parley.games.planets import RULES
from parley.kernel import BadPosition, Match


@pytest.mark.parametrize("seed", range(8))
def test_round_trip_on_random_states(seed: int) -> None:
    check_round_trip(RULES, seed, plies=seed * 37)


def fresh() -> dict[str, Any]:
    return json.loads(json.dumps(RULES.write_position(Match(RULES, 3, seed=2).state)))


def test_empty_systems_and_planets_may_be_left_out() -> None:
    position = fresh()
    assert len(position["space"]) < len(Match(RULES, 3, seed=2).state.space)
    assert "homes" not in position  # recomputed from the galaxy and the seats
    state = RULES.read_position(position)
    assert state.homes == Match(RULES, 3, seed=2).state.homes


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda p: p["space"].update({"9999": {"units": {}}}), "space['9999']"),
        (lambda p: p["space"].update({"0404": {"units": {"0": {"warp gate": 1}}}}), "warp gate"),
        (lambda p: p["space"].update({"0404": {"units": {"5": {"carrier": 1}}}}), "space['0404']"),
        (lambda p: p["space"].update({"0404": {"units": {"x": {"carrier": 1}}}}), "'x'"),
        (
            lambda p: p["space"].update(
                {"0404": {"units": {"0": {"carrier": 1}}, "damaged": {"0": {"carrier": 2}}}}
            ),
            "damaged",
        ),
        (lambda p: p["decks"].update(cultural=["no-such-card"]), "no-such-card"),
        (lambda p: p.update(current=3), "current"),
        (lambda p: p.update(stage="move"), "active"),
        (lambda p: p.update(seats=2), "seats"),
        (lambda p: p["options"].update(galaxy="andromeda"), "options.galaxy"),
        (lambda p: p.update(goods=[1, 2]), "goods"),
    ],
)
def test_bad_positions_name_the_field(change: Any, words: str) -> None:
    position = fresh()
    change(position)
    with pytest.raises(BadPosition) as err:
        RULES.read_position(position)
    assert words in err.value.message


def test_the_example_in_the_doc_is_a_position() -> None:
    check_doc_example(RULES)
