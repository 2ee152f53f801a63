"""Every registered game passes the shared conformance suite; registering is enough."""

from __future__ import annotations

import os

import pytest

from parley import games
from parley.kernel.conformance import CHECKS, check_snapshot_roundtrip


def test_every_builtin_game_is_registered() -> None:
    assert set(games.BUILTIN) <= set(games.names())


@pytest.mark.parametrize("check", sorted(CHECKS))
@pytest.mark.parametrize("game", games.names())
def test_conformance(game: str, check: str) -> None:
    CHECKS[check](games.find(game))


@pytest.mark.parametrize("engine", ["python", "native"])
def test_diplomacy_snapshots_on_both_engines(engine: str) -> None:
    """The native core's compiled map lives beside the state, never in a snapshot of it."""
    from parley.games.diplomacy import native
    from parley.games.diplomacy.differential import engine as use_engine

    if engine == "native" and not native.available():
        if os.environ.get("CI") == "true":
            pytest.fail("the native Diplomacy core was not built on CI")
        pytest.skip("the native core is not built (no C compiler)")
    with use_engine(engine):
        assert native.engine() == engine
        assert check_snapshot_roundtrip(games.find("diplomacy")) > 300
