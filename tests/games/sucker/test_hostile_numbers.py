"""Numbers a player could type that no rule needs: refused as not understood, never raising."""

from __future__ import annotations

import pytest

from parley import games
from parley.kernel import InvalidAction, Match

BIG = "9" * 5000


@pytest.mark.parametrize(
    "text",
    [f"play {BIG}", f"pile {BIG}", f"give {BIG} to red", f"kill {BIG}", f"red {BIG}", "play ٣"],
)
def test_long_or_foreign_numbers_are_refused_as_not_understood(text: str) -> None:
    rules = games.find("sucker")
    match = Match(rules, 4, seed=1)
    seat = next(iter(match.turn().owing))
    with pytest.raises(InvalidAction) as caught:
        rules.parse(text, match.state, seat)
    assert len(str(caught.value)) < 600  # the echo of the input is cut short
