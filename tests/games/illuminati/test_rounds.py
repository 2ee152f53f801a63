"""Rounds: every seat gets exactly `rounds` turns, whoever plays first."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from parley.games.illuminati import RULES, IlluminatiState
from parley.kernel import Match, Rng
from parley.kernel.conformance import random_step


def _turns_from_first(state: IlluminatiState) -> list[int]:
    """Turns taken per seat, in play order from the first player."""
    return [state.players[(state.first + i) % state.seats].turns for i in range(state.seats)]


def _play(seats: int, rounds: int, seed: int, **options: object) -> Match[IlluminatiState, object]:
    match = Match(
        RULES,
        seats,
        {"rounds": rounds, "elimination": False, "illuminati": "random", **options},
        seed=seed,
    )
    rng = Rng(seed)
    for _ in range(20_000):
        turns = _turns_from_first(match.state)
        # Play goes round from the first player: earlier seats are at most one turn ahead.
        assert turns == sorted(turns, reverse=True) and turns[0] - turns[-1] <= 1, turns
        if match.is_over or not random_step(match, rng):
            break
    assert match.is_over
    return match


def test_three_players_two_rounds_seed_one_each_get_two_turns() -> None:
    match = _play(3, 2, 1)
    assert match.state.first == 1  # the case where counting from Player 1 went wrong
    assert [p.turns for p in match.state.players] == [2, 2, 2]
    assert "round limit" in match.state.reason


def test_games_stored_before_the_option_keep_counting_from_player_1() -> None:
    match = _play(3, 2, 1, round_ends="player_1")
    assert [p.turns for p in match.state.players] == [1, 2, 2]


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 100_000), seats=st.integers(2, 8), rounds=st.integers(1, 2))
def test_every_seat_gets_exactly_rounds_turns(seed: int, seats: int, rounds: int) -> None:
    match = _play(seats, rounds, seed)
    turns = [p.turns for p in match.state.players]
    if "round limit" in match.state.reason:
        assert turns == [rounds] * seats
    else:  # someone met a goal first: nobody got more than the limit
        assert max(turns) <= rounds
