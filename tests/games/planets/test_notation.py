"""Notation: the issue's forms read, canonical forms round-trip, nonsense is refused."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parley.games.planets import (
    RULES,
    Activate,
    Assign,
    Bombard,
    Commit,
    Done,
    Exhaust,
    Explore,
    Move,
    Pass,
    Produce,
    SpendGood,
)
from parley.kernel import InvalidAction, Match

MATCH: Match[Any, Any] = Match(RULES, 3, seed=1)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("activate 0203", Activate("0203")),
        ("Activate 203", Activate("0203")),
        (
            "move 2 cruiser 1 carrier 2 infantry from 0102 to 0203",
            Move("0102", (("carrier", 1), ("cruiser", 2), ("infantry", 2)), "0203"),
        ),
        (
            "move 2 cruisers, carrier from 0102 to 0203",
            Move("0102", (("carrier", 1), ("cruiser", 2)), "0203"),
        ),
        ("commit 2 infantry to Vesta", Commit("Vesta", 2, 0)),
        ("commit 2 inf 1 mech to vesta", Commit("Vesta", 2, 1)),
        ("produce 2 infantry at Aurel", Produce("infantry", 2, "Aurel")),
        ("build 1 dread at aurel minor", Produce("dreadnought", 1, "Aurel Minor")),
        ("explore hazardous at Mirren", Explore("hazardous", "Mirren")),
        ("pass", Pass()),
        ("done", Done()),
        ("sustain dreadnought", Assign("dreadnought", True)),
        ("destroy cruiser", Assign("cruiser", False)),
        ("bombard Vesta", Bombard("Vesta")),
        ("bombard none", Bombard(None)),
        ("exhaust  VESTA", Exhaust("Vesta")),
        ("spend trade good", SpendGood()),
    ],
)
def test_lenient_reading(text: str, action: Any) -> None:
    assert RULES.parse(text, MATCH.state, 0) == action
    assert RULES.parse(RULES.format(action), MATCH.state, 0) == action


def test_home_names_the_seats_home_planet() -> None:
    assert RULES.parse("produce 2 infantry at Home", MATCH.state, 1) == Produce(
        "infantry", 2, "Brisa"
    )


@pytest.mark.parametrize(
    "text",
    [
        "",
        "fly to 0203",
        "activate Vesta",
        "move 2 cruiser to 0203",
        "commit 2 cruiser to Vesta",
        "commit 2 infantry to Atlantis",
        "explore volcanic at Vesta",
        "explore hazardous",
        "produce 2 infantry 1 mech at Aurel",
        "move 2 frigate from 0102 to 0203",
        "destroy",
    ],
)
def test_nonsense_is_invalid_and_says_why(text: str) -> None:
    with pytest.raises(InvalidAction) as err:
        RULES.parse(text, MATCH.state, 0)
    assert repr(text) in err.value.message


@pytest.mark.parametrize(
    "text",
    [
        "move ² cruiser from 0102 to 0203",
        "move ٢ cruiser from 0102 to 0203",
        "move " + "9" * 5000 + " cruiser from 0102 to 0203",
        "produce " + "9" * 5000 + " infantry at Aurel",
        "activate ０２０３",
        "activate ٠٢٠٣",
    ],
)
def test_odd_digits_and_huge_counts_are_invalid_not_a_crash(text: str) -> None:
    """Counts and system numbers are ASCII digits of sensible length; others are refused."""
    with pytest.raises(InvalidAction) as err:
        RULES.parse(text, MATCH.state, 0)
    assert err.value.message and len(err.value.message) < 600


SYSTEMS = st.sampled_from(sorted(MATCH.state.galaxy.systems))
PLANETS = st.sampled_from(sorted(MATCH.state.galaxy.planets))
KINDS = st.sampled_from(["carrier", "cruiser", "destroyer", "dreadnought", "infantry", "mech"])
ACTIONS = st.one_of(
    st.builds(Activate, SYSTEMS),
    st.builds(
        lambda s, d, units: Move(
            s, tuple(sorted(units.items(), key=lambda u: KIND_ORDER.index(u[0]))), d
        ),
        SYSTEMS,
        SYSTEMS,
        st.dictionaries(KINDS, st.integers(1, 9), min_size=1),
    ),
    st.builds(Commit, PLANETS, st.integers(0, 9), st.integers(1, 4)),
    st.builds(Produce, KINDS, st.integers(1, 9), PLANETS),
    st.builds(Explore, st.sampled_from(["cultural", "hazardous", "industrial"]), PLANETS),
    st.builds(Exhaust, PLANETS),
    st.builds(Assign, KINDS, st.booleans()),
    st.builds(Bombard, st.one_of(st.none(), PLANETS)),
    st.just(Pass()),
    st.just(Done()),
    st.just(SpendGood()),
)
KIND_ORDER = ["carrier", "cruiser", "destroyer", "dreadnought", "infantry", "mech"]


@given(ACTIONS)
def test_every_action_round_trips(action: Any) -> None:
    text = RULES.format(action)
    assert RULES.parse(text, MATCH.state, 0) == action
    assert RULES.parse(text) == action  # canonical text reads the same without a game
