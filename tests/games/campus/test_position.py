"""Campus positions: round trips on random states, and clear errors on bad ones."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.games.positions import check_doc_example, check_round_trip, random_match

from parley.games.campus import RULES
from parley.kernel import BadPosition, Match


@pytest.mark.parametrize("seed", range(12))
def test_round_trip_on_random_states(seed: int) -> None:
    check_round_trip(RULES, seed, plies=seed * 23)


def test_held_counts_are_recomputed_not_read() -> None:
    position = RULES.write_position(random_match(RULES, 3, 40).state)
    assert "held" not in position
    state = RULES.read_position(position)
    assert state.held == [state.owner.count(s) for s in range(state.seats)]


def fresh() -> dict[str, Any]:
    return json.loads(json.dumps(RULES.write_position(Match(RULES, 3, seed=2).state)))


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda p: p["board"].update({"Z9": {"owner": 0}}), "board['Z9']"),
        (lambda p: p["board"].update({"E6": {"owner": 7}}), "board['E6'].owner"),
        (lambda p: p["board"].update({"E6": {"owner": 0, "unit": [1, 1]}}), "board['E6']"),
        (lambda p: p["board"].update({"E6": {"owner": 0, "unit": [0, 9]}}), "unit[1]"),
        (lambda p: p.update(pvc="Q1"), "pvc"),
        (lambda p: p.update(phase="dancing"), "phase"),
        (lambda p: p.update(rng="not hex"), "rng"),
        (lambda p: p.pop("seats"), "seats: missing"),
        (lambda p: p.update(colour="red"), "colour: no such field"),
        (lambda p: p["options"].update(max_level=99), "options"),
        (lambda p: p.update(alive=[True]), "alive"),
        (lambda p: p.update(current="Ash"), "current"),
    ],
)
def test_bad_positions_name_the_field(change: Any, words: str) -> None:
    position = fresh()
    change(position)
    with pytest.raises(BadPosition) as err:
        RULES.read_position(position)
    assert words in err.value.message


def test_a_position_is_the_whole_truth_the_views_stay_redacted() -> None:
    match = Match(RULES, 2, seed=5)
    position = RULES.write_position(match.state)
    where = position["pvc"]
    assert where is not None  # the hidden PVC is in the position...
    from parley.kernel import SPECTATOR

    assert where not in json.dumps(match.observe(SPECTATOR)["view"].get("pvc"))  # ...not the view


def test_the_example_in_the_doc_is_a_position() -> None:
    check_doc_example(RULES)
