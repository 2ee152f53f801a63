"""Campus Conquest attacked through Rules and Match with hand-built actions (the parser never
makes these): each is refused with a clear message and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from parley.games.campus import RULES, Move, Pick
from parley.kernel import ARCHIVE, IllegalAction, Match, ParleyError


def minigame() -> Match[Any, Any]:
    match: Match[Any, Any] = Match(RULES, 2, seed=65)  # seat 0 finds the PVC on D1
    match.act(0, "move D2 to D1")
    return match


@pytest.mark.parametrize("value", [2.5, True, "7", "x", (1,), -1, 101, 10**40, float("nan")])
def test_a_pick_that_is_not_a_whole_number_from_0_to_100_is_refused(value: object) -> None:
    match = minigame()
    before = match.observe(ARCHIVE)
    with pytest.raises(IllegalAction) as err:
        match.act(1, Pick(value))  # type: ignore[arg-type]
    assert "0 to 100" in err.value.message and len(err.value.message) < 200
    assert match.observe(ARCHIVE) == before


@pytest.mark.parametrize(
    ("src", "dst"), [("D2", "ZZ"), (None, "D1"), (3, "D3"), ("", ""), (["D2"], "D1"), ("D2", {})]
)
def test_a_step_between_odd_sectors_is_refused(src: object, dst: object) -> None:
    match: Match[Any, Any] = Match(RULES, 2, seed=65)
    before = match.observe(ARCHIVE)
    with pytest.raises(ParleyError) as err:
        match.act(0, Move(src, dst))  # type: ignore[arg-type]
    assert "sector" in err.value.message
    assert match.observe(ARCHIVE) == before
