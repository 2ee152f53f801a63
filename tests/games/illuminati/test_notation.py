"""Notation: lenient input from a table, and parse(format(a)) == a over random games."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from parley.games.illuminati import RULES
from parley.kernel import AmbiguousAction, InvalidAction, Match, Rng

TABLE = tomllib.loads((Path(__file__).parent / "notation.toml").read_text("utf-8"))


@pytest.mark.parametrize(("text", "canonical"), TABLE["cases"])
def test_lenient_input(text: str, canonical: str) -> None:
    action = RULES.parse(text)
    assert RULES.format(action) == canonical
    assert RULES.parse(canonical) == action


@pytest.mark.parametrize("text", TABLE["invalid"])
def test_nonsense_is_invalid(text: str) -> None:
    with pytest.raises(InvalidAction) as err:
        RULES.parse(text)
    assert repr(text) in err.value.message or text == ""


@pytest.mark.parametrize("text", TABLE["ambiguous"])
def test_ambiguous_names_list_candidates(text: str) -> None:
    with pytest.raises(AmbiguousAction) as err:
        RULES.parse(text)
    assert len(err.value.candidates) >= 2


def test_every_legal_action_round_trips_in_random_games() -> None:
    seen: set[str] = set()
    for seed, seats in ((1, 2), (2, 3), (3, 5)):
        match = Match(RULES, seats, {"illuminati": "random"}, seed=seed)
        rng = Rng(seed)
        for _ in range(120):
            if match.is_over:
                break
            seat = next(iter(match.turn().owing))
            for action in RULES.legal_actions(match.state, seat):
                text = RULES.format(action)
                assert RULES.parse(text) == action, text
                seen.add(text.split()[0])
            match.act(seat, RULES.random_action(match.state, seat, rng))
    assert {"attack", "give", "pass", "roll"} <= seen


def test_a_seat_beyond_the_table_is_not_understood() -> None:
    match = Match(RULES, 3, seed=1)
    with pytest.raises(InvalidAction) as err:
        RULES.parse("pay 5 to Player 7", match.state, 0)
    assert "3 players" in err.value.message
    assert RULES.parse("pay 5 to Player 3", match.state, 0) == RULES.parse("pay 5 to p3")
