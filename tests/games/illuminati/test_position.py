"""Illuminati positions: round trips on random states, and clear errors on bad ones."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.games.illuminati.helpers import build
from tests.games.positions import check_doc_example, check_round_trip, random_match

from parley.games.illuminati import RULES
from parley.kernel import SPECTATOR, BadPosition


@pytest.mark.parametrize("seed", range(10))
def test_round_trip_on_random_states(seed: int) -> None:
    check_round_trip(RULES, seed, plies=seed * 29)


def played() -> dict[str, Any]:
    return json.loads(json.dumps(RULES.write_position(random_match(RULES, 4, 60).state)))


def first_group(p: dict[str, Any]) -> tuple[int, str]:
    for seat, player in enumerate(p["players"]):
        for name in player["links"]:
            if name != player["illuminati"]:
                return seat, name
    raise AssertionError("no group in any structure")


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda p: p["deck"].append("Flying Spaghetti"), "deck["),
        (lambda p: p["center"].append(p["players"][0]["illuminati"]), "center["),
        (lambda p: p.update(active=17), "active"),
        (lambda p: p.update(phase="siesta"), "phase"),
        (lambda p: p["players"][0].update(money={"Nowhere": 3}), "players[0].money['Nowhere']"),
        (lambda p: p["players"][1].update(seat=0), "players[1].seat"),
        (lambda p: p.update(options={"rounds": "many"}), "options"),
        (
            lambda p: p.update(deck=[*p["deck"], p["deck"][0]] if p["deck"] else ["Texas"] * 2),
            "places",
        ),
        (lambda p: p.pop("players"), "players: missing"),
    ],
)
def test_bad_positions_name_the_field(change: Any, words: str) -> None:
    position = played()
    change(position)
    with pytest.raises(BadPosition) as err:
        RULES.read_position(position)
    assert words in err.value.message


def test_a_structure_must_hang_together() -> None:
    state = build(
        {
            "illuminati": ["Gnomes of Zurich", "Network"],
            "structure": ["P1: Big Media on Gnomes of Zurich north"],
        }
    )
    position = json.loads(json.dumps(RULES.write_position(state)))
    assert RULES.write_position(RULES.read_position(position)) == position
    seat, group = first_group(position)
    position["players"][seat]["links"][group] = {"parent": "Atlantis", "side": "top"}
    with pytest.raises(BadPosition, match=rf"players\[{seat}\]\.links\['{group}'\]\.parent"):
        RULES.read_position(position)


def test_hands_and_deck_are_in_the_position_not_in_the_spectators_view() -> None:
    match = random_match(RULES, 2, 30)
    position = RULES.write_position(match.state)
    assert position["deck"] == match.state.deck
    view = json.dumps(match.observe(SPECTATOR))
    assert json.dumps(position["deck"]) not in view


def test_the_example_in_the_doc_is_a_position() -> None:
    check_doc_example(RULES)
