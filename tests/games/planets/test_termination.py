"""Random games end at the round limit, within the ply bound stated in docs/planets.md."""

from __future__ import annotations

from typing import Any

import pytest

from parley.games.planets import RULES
from parley.kernel import Match, Rng
from parley.kernel.conformance import play_random

# Random games at the default options, 3 to 6 players, by rules (docs/planets.md).
BOUNDS = {"full": 1000, "compact": 600}
PLY_BOUND = BOUNDS["full"]


@pytest.mark.parametrize("rules", sorted(BOUNDS))
@pytest.mark.parametrize("seats", [3, 4, 6])
def test_random_games_end_by_the_round_limit_within_the_bound(seats: int, rules: str) -> None:
    for seed in range(8):
        match: Match[Any, Any] = Match(RULES, seats, {"rules": rules}, seed=seed)
        plies = play_random(match, Rng(seed + 77), BOUNDS[rules])
        outcome = match.outcome()
        assert outcome is not None, f"{seats} seats seed {seed}: not over after {plies} plies"
        assert match.state.round <= match.state.rounds
        assert sum(outcome.scores) == sum(match.state.points)


def test_a_one_round_game_ends_after_its_status_phase() -> None:
    match: Match[Any, Any] = Match(RULES, 3, {"rounds": 1}, seed=4)
    play_random(match, Rng(4), PLY_BOUND)
    assert match.outcome() is not None
    assert match.state.round == 1


def test_the_hidden_variant_reorders_only_the_decks() -> None:
    from parley.kernel import SPECTATOR

    match: Match[Any, Any] = Match(RULES, 3, seed=2)
    play_random(match, Rng(2), 40)
    variant = RULES.hidden_variant(match.state, SPECTATOR, Rng(9))
    assert variant.decks != match.state.decks
    assert {k: sorted(v) for k, v in variant.decks.items()} == {
        k: sorted(v) for k, v in match.state.decks.items()
    }
    assert RULES.observe(variant, SPECTATOR) == RULES.observe(match.state, SPECTATOR)
