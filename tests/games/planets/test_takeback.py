"""Taking back a step of a tactical action: allowed while the same seat owes the next
decision of that action and nothing was rolled, drawn or revealed (the activation, a move
before `done`, an exhausted planet or a unit produced); never once the dice or a deck
spoke, nor once another seat owes a decision."""

from __future__ import annotations

from typing import Any

import pytest

from parley import games
from parley.kernel import IllegalAction, Match, Rng
from parley.kernel.conformance import random_step

RULES: Any = games.find("planets")
COMPACT = {"rules": "compact"}


def first_leaf(match: Match[Any, Any], kind: str, steps: int = 400) -> tuple[int, str]:
    """Random play until the seat to move is offered a leaf starting with `kind`."""
    rng = Rng(11)
    for _ in range(steps):
        seat = match.turn().owed[0].seat
        for leaf in RULES.options_tree(match.state, seat).leaves():
            if leaf.startswith(kind):
                return seat, leaf
        random_step(match, rng)
    raise AssertionError(f"no {kind!r} came up")


def test_an_activation_and_a_move_are_taken_back() -> None:
    match: Match[Any, Any] = Match(RULES, 3, COMPACT, seed=2)
    seat, activation = first_leaf(match, "activate ")
    before = RULES.write_position(match.state)
    match.act(seat, activation)
    assert match.can_take_back(seat)
    with pytest.raises(IllegalAction):
        match.take_back((seat + 1) % 3)
    match.take_back(seat)
    assert RULES.write_position(match.state) == before  # the command token is back too
    match.act(seat, activation)
    moves = [x for x in RULES.options_tree(match.state, seat).leaves() if x.startswith("move ")]
    assert moves, "the activated system can be reached"
    at_move = RULES.write_position(match.state)
    match.act(seat, moves[0])
    assert match.can_take_back(seat)
    match.take_back(seat)
    assert RULES.write_position(match.state) == at_move
    assert not match.can_take_back(seat)  # once: the activation before it stays


def test_nothing_rolled_drawn_or_handed_on_is_taken_back() -> None:
    match: Match[Any, Any] = Match(RULES, 3, COMPACT, seed=5)
    rng = Rng(3)
    kinds: set[str] = set()
    for _ in range(600):
        if match.is_over:
            break
        seat = match.turn().owed[0].seat
        for leaf in RULES.options_tree(match.state, seat).leaves():
            trial = match.copy()
            trial.act(seat, leaf)
            chance = trial.state.rng != match.state.rng or trial.state.decks != match.state.decks
            if trial.can_take_back(seat):
                assert not chance, leaf
                assert trial.turn().owing == {seat}, leaf
                kinds.add(leaf.split(" ", 1)[0])
            elif not chance and trial.turn().owing == {seat} and trial.state.active:
                assert trial.state.round != match.state.round or trial.state.hits, leaf
        random_step(match, rng)
    assert {"activate", "move", "exhaust", "produce"} <= kinds
