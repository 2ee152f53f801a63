"""Planet control attacked through Rules and Match with hand-built actions (the parser never
makes these): fields of the wrong type are refused as invalid and change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from parley.games.planets import RULES
from parley.games.planets.actions import (
    Activate,
    Assign,
    Bombard,
    Commit,
    Exhaust,
    Explore,
    Move,
    Produce,
)
from parley.kernel import ARCHIVE, InvalidAction, Match

ODD: list[Any] = [
    Activate(["0203"]),  # type: ignore[arg-type]
    Activate({"a": 1}),  # type: ignore[arg-type]
    Activate(None),  # type: ignore[arg-type]
    Move("0301", "cruiser", "0203"),  # type: ignore[arg-type]
    Move("0301", None, "0203"),  # type: ignore[arg-type]
    Move("0301", ((None, None),), "0203"),  # type: ignore[arg-type]
    Move("0301", (("cruiser", 1.5),), "0203"),  # type: ignore[arg-type]
    Move("0301", (("cruiser", True),), "0203"),
    Move(["0301"], (("cruiser", 1),), "0203"),  # type: ignore[arg-type]
    Commit(["Vesta"], 1, 0),  # type: ignore[arg-type]
    Commit("Vesta", 2.5, 0),  # type: ignore[arg-type]
    Commit("Vesta", 1, "x"),  # type: ignore[arg-type]
    Assign(["cruiser"], False),  # type: ignore[arg-type]
    Assign("cruiser", "yes"),  # type: ignore[arg-type]
    Bombard(["Vesta"]),  # type: ignore[arg-type]
    Explore(None, "Vesta"),  # type: ignore[arg-type]
    Exhaust({"Vesta": 1}),  # type: ignore[arg-type]
    Produce("infantry", "2", "Aurel"),  # type: ignore[arg-type]
    Produce(["infantry"], 2, "Aurel"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("action", ODD, ids=[repr(a)[:50] for a in ODD])
def test_a_hand_built_action_with_fields_of_the_wrong_type_is_invalid(action: Any) -> None:
    match: Match[Any, Any] = Match(RULES, 3, seed=7)
    seat = min(match.turn().owing)
    before = match.observe(ARCHIVE)
    with pytest.raises(InvalidAction) as err:
        match.act(seat, action)
    assert "malformed" in err.value.message and len(err.value.message) < 300
    assert match.observe(ARCHIVE) == before
