"""The options tree as the web board reads it under the full rules: retreat announcements and
space cannon targets in groups of their own, and full moves' leaves keyed by their counts and
the place their cargo boards."""

from __future__ import annotations

from typing import Any

from parley.games.planets import RULES
from parley.kernel import OptionNode

from .helpers import act, empty_match, lay_out


def groups(match: Any, seat: int) -> dict[str, OptionNode]:
    tree = RULES.options_tree(match.state, seat)
    return {g.key: g for g in tree.children}


def test_a_retreat_is_announced_from_its_own_group() -> None:
    board = {
        "units": ["0202 red dreadnought 1", "0203 blue cruiser 1", "Saphra blue infantry 1"],
        "control": {"Saphra": "blue"},
        "dice": [1, 1],
    }
    match = lay_out(empty_match(), board)
    act(match, "red: activate 0203")
    act(match, "red: move 1 dreadnought from 0202 to 0203")
    found = groups(match, 1)
    assert list(found) == ["retreat"]
    assert found["retreat"].label == "Retreat or stay"
    assert {leaf.action for leaf in found["retreat"].children} >= {"retreat to 0204", "stay"}


def test_full_moves_are_keyed_by_counts_and_boarding_place() -> None:
    board = {
        "units": ["0202 red carrier 1", "0202 red fighter 1", "Tasko red infantry 2"],
        "control": {"Tasko": "red"},
    }
    match = lay_out(empty_match(), board)
    act(match, "red: activate 0203")
    carrier = {leaf.key: leaf.action for leaf in groups(match, 0)["from 0202"].children[0].children}
    assert carrier["1 0 0 0 -"] == "move 1 carrier from 0202 to 0203"
    assert carrier["1 2 0 0 Tasko"] == "move 1 carrier from 0202 to 0203 with 2 infantry from Tasko"
    assert carrier["1 0 0 1 0202"] == "move 1 carrier from 0202 to 0203 with 1 fighter from 0202"
    for key, action in carrier.items():
        ships, infantry, mech, fighters, *place = key.split(" ")
        assert RULES.parse(action) is not None
        assert int(ships) == 1 and int(infantry) + int(mech) + int(fighters) <= 4
        assert place
