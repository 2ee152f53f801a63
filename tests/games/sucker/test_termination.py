"""Random games end, with a win or a draw, well inside the stated bounds."""

from __future__ import annotations

import pytest

from parley.games.sucker import RULES, STALL_LIMIT, Phase, move_bound
from parley.games.sucker.engine import owed_actions
from parley.kernel import Match, Rng, Setup
from parley.kernel.conformance import play_random

CONFIGS = [
    (seats, {"chips": chips, "defeated_capture": rule})
    for seats in (3, 4, 5, 6)
    for chips in (3, 7)
    for rule in ("dead-box", "leave")
]


@pytest.mark.parametrize(("seats", "options"), CONFIGS)
def test_random_games_always_end(seats: int, options: dict[str, object]) -> None:
    longest = 0
    for seed in range(25):
        match = Match(RULES, seats, options, seed=seed)
        play_random(match, Rng(seed * 7919 + 1), RULES.spec.max_plies)
        outcome = match.outcome()
        assert outcome is not None, f"seed {seed} did not end in {RULES.spec.max_plies} actions"
        assert len(outcome.winners) == 1 or outcome.draw
        assert match.state.moves <= move_bound(seats, int(str(options["chips"])))
        longest = max(longest, match.ply)
    # Measured: the longest of these is a few hundred actions; the cap is 20,000.
    assert longest < RULES.spec.max_plies // 20


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_honest_play_stays_far_below_the_stall_limit(seats: int) -> None:
    """Answering only what is owed, turn changes without progress stay within seats + 2."""
    worst = 0
    for seed in range(60):
        state = RULES.setup(Setup(seats, {"chips": 7}, Rng(seed)))
        rng = Rng(seed + 1)
        while state.phase is not Phase.OVER:
            actor = state.actor()
            assert actor is not None
            RULES.apply(state, actor, rng.choice(owed_actions(state, actor)))
            worst = max(worst, state.stall)
        assert state.winner is not None  # honest games never stall into a draw
    assert worst <= seats + 2 < STALL_LIMIT
