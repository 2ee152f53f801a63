"""Every registered game passes the shared conformance suite; registering is enough."""

from __future__ import annotations

import pytest

from parley import games
from parley.kernel.conformance import CHECKS


def test_every_builtin_game_is_registered() -> None:
    assert set(games.BUILTIN) <= set(games.names())


@pytest.mark.parametrize("check", sorted(CHECKS))
@pytest.mark.parametrize("game", games.names())
def test_conformance(game: str, check: str) -> None:
    CHECKS[check](games.find(game))
