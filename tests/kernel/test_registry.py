from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.kernel.toygames import Countdown

from parley import games
from parley.kernel import UnknownGame


@pytest.fixture
def countdown() -> Iterator[Countdown]:
    rules = Countdown()
    games.register(rules)
    yield rules
    games.unregister(rules.spec.name)


def test_register_and_find_by_name_or_alias(countdown: Countdown) -> None:
    assert games.find("countdown") is countdown
    assert games.find("  Count ") is countdown
    assert "countdown" in games.names()
    with pytest.raises(ValueError, match="registered already"):
        games.register(Countdown())


def test_unknown_game_lists_the_known_ones(countdown: Countdown) -> None:
    with pytest.raises(UnknownGame, match=r"no game called 'chess'; known games: .*countdown"):
        games.find("chess")
