"""Invariants over random play, and the bound on a game's length."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from parley.games.campus import NOBODY, RULES, CampusState, Phase
from parley.kernel import Match, Rng
from parley.kernel.conformance import play_random

BOUND_PLIES = RULES.spec.max_plies  # round_limit x 6 seats x (2 steps + pass + 6 picks)


def check_invariants(state: CampusState) -> None:
    board = state.board
    for s in range(board.size):
        if state.unit[s] != NOBODY:
            assert state.owner[s] == state.unit[s], "a unit stands on its own player's sector"
            assert 1 <= state.level[s] <= state.settings.max_level
        else:
            assert state.level[s] == 0
    assert state.held == [state.owner.count(p) for p in range(state.seats)]
    assert state.alive == [n > 0 for n in state.held]
    if state.pvc != NOBODY:
        assert not board.is_landmark[state.pvc] and state.unit[state.pvc] == NOBODY
    assert (state.phase is Phase.MINIGAME) == (state.minigame is not None)
    if state.phase is not Phase.OVER:
        assert state.alive[state.current]


@settings(max_examples=15, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.sampled_from([2, 3, 4, 6]))
def test_invariants_hold_after_every_action(seed: int, seats: int) -> None:
    match = Match(RULES, seats, {"round_limit": 8}, seed=seed)
    rng = Rng(seed)
    while not match.is_over:
        turn = match.turn()
        seat = rng.choice(sorted(turn.owing))
        match.act(seat, RULES.random_action(match.state, seat, rng))
        check_invariants(match.state)


def test_random_games_end_within_the_stated_bound() -> None:
    for seed, seats in enumerate((2, 4, 6, 3)):
        match = Match(RULES, seats, seed=seed)
        taken = play_random(match, Rng(seed), BOUND_PLIES + 1)
        assert match.is_over, f"seed {seed}: not over after {taken} actions"
        assert taken <= BOUND_PLIES
        assert match.state.turns <= match.state.settings.round_limit * seats
        outcome = match.outcome()
        assert outcome is not None and outcome.winners


def test_round_limit_ranks_by_sectors() -> None:
    match = Match(RULES, 3, {"round_limit": 2}, seed=5)
    play_random(match, Rng(5), 1000)
    state = match.state
    outcome = match.outcome()
    assert outcome is not None and "round limit" in outcome.reason
    best = max(state.held)
    assert outcome.winners == {s for s in range(3) if state.held[s] == best}
