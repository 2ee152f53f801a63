from __future__ import annotations

import pytest
from tests.kernel.toygames import Countdown

from parley import games
from parley.kernel import UnknownGame


def test_register_and_find_by_name_or_alias() -> None:
    rules = Countdown()
    games.register(rules)
    assert games.find("countdown") is rules
    assert games.find("  Count ") is rules
    assert "countdown" in games.names()
    with pytest.raises(ValueError, match="registered already"):
        games.register(Countdown())


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(UnknownGame, match=r"no game called 'chess'; known games: .*countdown"):
        games.find("chess")
