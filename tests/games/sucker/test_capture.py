"""Captures: two chips of one colour in a row; the owner of that colour captures and kills."""

from __future__ import annotations

import pytest
from tests.games.sucker.helpers import act, conserved, dead, hand, owed, pile

from parley.games.sucker import Phase
from parley.games.sucker.position import position
from parley.kernel import IllegalAction


def test_the_capture_goes_to_the_owner_of_the_colour_not_the_mover() -> None:
    state = position(hands={"blue": "red, 7 blue"}, piles=["green yellow red"], mover="blue")
    act(state, "blue", "play red on 1")
    assert state.phase is Phase.KILL
    assert owed(state) == ("red", "kill")  # red owes the kill although blue moved
    assert 1 not in state.piles
    with pytest.raises(IllegalAction):
        act(state, "blue", "kill green")  # the mover has nothing to kill
    act(state, "red", "kill green")
    assert dead(state) == {"green": 1}
    assert hand(state, "red") == {"red": 7, "yellow": 1}  # five in hand, two from the pile
    assert owed(state) == ("red", "move")  # the capturer has the next move
    assert state.given_by[0] == 1  # given by blue: a later defeat of red rebounds there
    assert conserved(state)


def test_a_mover_capturing_with_their_own_colour_moves_again() -> None:
    state = position(hands={"red": "2 red"}, piles=["blue red"], mover="red")
    act(state, "red", "play red on 1")
    assert owed(state) == ("red", "kill")
    act(state, "red", "kill blue")
    assert hand(state, "red") == {"red": 3}
    assert owed(state) == ("red", "move")


def test_the_capturer_may_kill_a_chip_of_their_own_colour() -> None:
    state = position(hands={"red": "red"}, piles=["blue red"], mover="red")
    act(state, "red", "play red on 1")
    act(state, "red", "kill red")
    assert hand(state, "red") == {"red": 1, "blue": 1}


def test_only_a_colour_in_the_captured_pile_can_be_killed() -> None:
    state = position(hands={"red": "red"}, piles=["blue red"], mover="red")
    act(state, "red", "play red on 1")
    with pytest.raises(IllegalAction, match="no green"):
        act(state, "red", "kill green")
    assert state.phase is Phase.KILL and state.captured == (1, 0, 0)


def test_same_colour_not_on_top_is_no_capture() -> None:
    state = position(hands={"red": "red, blue"}, piles=["red blue"], mover="red")
    act(state, "red", "play red on 1")
    assert pile(state, 1) == ["red", "blue", "red"]
    assert state.phase is not Phase.KILL


def test_other_piles_keep_their_numbers_after_a_capture() -> None:
    state = position(hands={"red": "2 red"}, piles=["blue red", "green", "yellow"], mover="red")
    act(state, "red", "play red on 1")
    act(state, "red", "kill blue")
    assert sorted(state.piles) == [2, 3]
    act(state, "red", "play red new")
    assert sorted(state.piles) == [2, 3, 4]
