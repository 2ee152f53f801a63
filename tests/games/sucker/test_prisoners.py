"""Prisoners: killed or transferred by any surviving player at any time; never one's own colour."""

from __future__ import annotations

import pytest
from tests.games.sucker.helpers import act, dead, hand, owed, seat

from parley.games.sucker import RULES, Colour, GivePrisoner, KillPrisoner
from parley.games.sucker.position import position
from parley.kernel import IllegalAction, Match


def test_anyone_may_kill_a_prisoner_out_of_turn() -> None:
    state = position(hands={"blue": "6 blue, green"}, mover="red")
    act(state, "blue", "kill prisoner green")
    assert hand(state, "blue") == {"blue": 6}
    assert dead(state) == {"blue": 1, "green": 1}
    assert owed(state) == ("red", "move")  # the move is untouched


def test_anyone_may_transfer_a_prisoner_out_of_turn() -> None:
    state = position(hands={"blue": "6 blue, green"}, mover="red")
    act(state, "blue", "give green to yellow")
    assert hand(state, "yellow") == {"green": 1, "yellow": 7}
    act(state, "yellow", "give green to green")  # back to its owner: it is their own now
    assert hand(state, "green") == {"green": 7}
    with pytest.raises(IllegalAction, match="own colour"):
        act(state, "green", "give green to red")


def test_own_colour_is_never_killed_or_given_outside_a_capture() -> None:
    state = position(mover="red")
    with pytest.raises(IllegalAction, match="own colour"):
        act(state, "blue", "kill prisoner blue")
    with pytest.raises(IllegalAction, match="own colour"):
        act(state, "blue", "give blue to red")


def test_transfers_go_to_another_surviving_player_and_need_the_chip() -> None:
    state = position(hands={"blue": "6 blue, green"}, mover="red", defeated=["yellow"])
    with pytest.raises(IllegalAction, match="out of the game"):
        act(state, "blue", "give green to yellow")
    with pytest.raises(IllegalAction, match="another player"):
        act(state, "blue", "give green to blue")
    with pytest.raises(IllegalAction, match="no red"):
        act(state, "blue", "give red to green")
    with pytest.raises(IllegalAction, match="holds no yellow"):
        act(state, "blue", "kill prisoner yellow")


def test_every_survivor_may_act_any_time_in_a_match() -> None:
    match = Match(RULES, 4, seed=2)
    match.state = position(hands={"blue": "6 blue, green"}, mover="red", defeated=["yellow"])
    turn = match.turn()
    assert turn.owing == {0}
    assert turn.anytime == {0, 1, 2}
    legal = match.legal_actions(seat("blue"))
    assert {RULES.format(a) for a in legal} == {
        "kill prisoner green",
        "give green to red",
        "give green to green",
    }
    assert KillPrisoner(Colour.GREEN) in legal and GivePrisoner(Colour.GREEN, 0) in legal
    match.act(seat("blue"), "give green to red")
    assert hand(match.state, "red")["green"] == 1
