"""A chipless player given the move: the rescue round, defeat, and the rebound (cascading)."""

from __future__ import annotations

import pytest
from tests.games.sucker.helpers import act, conserved, hand, owed, seat

from parley.games.sucker import RULES, Phase, SuckerState
from parley.games.sucker.position import position
from parley.kernel import IllegalAction, Match, OutOfTurn


def red_gives_blue_the_move(**extra: object) -> SuckerState:
    """Red plays red on [green] and gives the move to chipless blue."""
    hands = {"red": "red", "blue": "", "green": "5 green, yellow", "yellow": "6 yellow, red"}
    hands.update(extra.pop("hands", {}))  # type: ignore[call-overload]
    state = position(hands=hands, piles=["green"], mover="red", **extra)  # type: ignore[arg-type]
    act(state, "red", "play red on 1")
    act(state, "red", "next blue")
    return state


def test_survivors_with_prisoners_are_asked_in_seat_order_after_the_giver() -> None:
    state = red_gives_blue_the_move()
    assert state.phase is Phase.RESCUE
    assert owed(state) == ("green", "rescue")  # after red comes blue (the target), then green
    act(state, "green", "decline")
    assert owed(state) == ("yellow", "rescue")
    act(state, "yellow", "rescue blue with red")
    assert owed(state) == ("blue", "move")  # the rescued player moves
    assert hand(state, "blue") == {"red": 1}
    assert conserved(state)


def test_the_giver_is_asked_last_and_players_without_prisoners_are_skipped() -> None:
    # Yellow gives chipless green the move. Order: red, blue, (green), yellow.
    state = position(
        hands={"yellow": "yellow, blue", "green": "", "red": "6 red, green"},
        piles=["red"],
        mover="yellow",
    )
    act(state, "yellow", "play yellow on 1")
    act(state, "yellow", "next green")
    assert owed(state) == ("red", "rescue")
    act(state, "red", "decline")
    assert owed(state) == ("yellow", "rescue")  # blue holds no prisoner: not asked
    act(state, "yellow", "rescue green with blue")
    assert owed(state) == ("green", "move")


def test_if_all_decline_the_player_is_defeated_and_the_move_rebounds_to_the_giver() -> None:
    state = red_gives_blue_the_move(hands={"red": "2 red"})
    act(state, "green", "decline")
    act(state, "yellow", "decline")  # red holds no prisoner: not asked
    assert state.alive == [True, False, True, True]
    assert state.defeated == [1]
    assert owed(state) == ("red", "move")
    with pytest.raises(IllegalAction, match="out of the game"):
        act(state, "blue", 'propose to red: "mercy"')


def test_a_rescue_may_give_several_prisoners() -> None:
    state = red_gives_blue_the_move(hands={"yellow": "4 yellow, 2 red, green"})
    act(state, "green", "decline")
    act(state, "yellow", "rescue blue with 2 red, green")
    assert hand(state, "blue") == {"red": 2, "green": 1}
    assert hand(state, "yellow") == {"yellow": 4}


def test_the_defeat_cascades_when_the_giver_has_no_chips_either() -> None:
    # Red plays its last chip and gives the move to chipless blue; blue falls, the move
    # rebounds to red, who has nothing: red's own round (asked after blue) fails too, and
    # the move goes to the player who gave red the move: yellow.
    state = red_gives_blue_the_move(hands={"yellow": "6 yellow"}, given_by={"red": "yellow"})
    act(state, "green", "decline")  # blue's round: only green holds a prisoner
    assert state.defeated == [1]
    assert owed(state) == ("green", "rescue") and state.holder == 0  # now for red
    act(state, "green", "decline")
    assert state.defeated == [1, 0]
    assert owed(state) == ("yellow", "move")


def test_a_rebound_skips_givers_defeated_since() -> None:
    # Blue (now out) gave red the move, and yellow had given it to blue. Red gives away
    # its only chip, nobody rescues it, and the rebound passes over blue to yellow.
    state = position(
        hands={"red": "blue"},
        mover="red",
        defeated=["blue"],
        given_by={"red": "blue", "blue": "yellow"},
    )
    act(state, "red", "give blue to green")
    assert owed(state) == ("green", "rescue")
    act(state, "green", "decline")
    assert state.defeated == [1, 0]
    assert owed(state) == ("yellow", "move")  # not green, the next seat round


def test_a_rebound_with_no_surviving_giver_goes_to_the_next_survivor() -> None:
    # Blue gave red the move; red then gave it back to blue. Both fall, no one holding a
    # prisoner: the givers' chain only leads back to the fallen, so the move goes round
    # in seat order from red, blue being out: green.
    state = red_gives_blue_the_move(
        hands={"green": "5 green", "yellow": "6 yellow"}, given_by={"red": "blue"}
    )
    assert state.defeated == [1, 0]  # nobody held a prisoner: no one was asked
    assert owed(state) == ("green", "move")


def test_a_gift_from_anyone_ends_the_round() -> None:
    state = red_gives_blue_the_move()
    assert owed(state) == ("green", "rescue")
    act(state, "yellow", "give red to blue")  # yellow is not asked yet, but may give any time
    assert owed(state) == ("blue", "move")


def test_an_asked_player_who_loses_their_prisoners_is_passed_over() -> None:
    state = red_gives_blue_the_move()
    act(state, "green", "kill prisoner yellow")  # green's only prisoner
    assert owed(state) == ("yellow", "rescue")


def test_a_mover_who_gives_away_every_chip_needs_rescuing() -> None:
    state = position(
        hands={"red": "blue", "green": "6 green, red"}, mover="red", given_by={"red": "yellow"}
    )
    act(state, "red", "give blue to blue")
    assert state.phase is Phase.RESCUE and state.holder == 0
    assert owed(state) == ("green", "rescue")  # asked from after yellow: red (target), blue
    act(state, "green", "rescue red with red")
    assert owed(state) == ("red", "move")


def test_only_the_asked_player_rescues_and_only_the_chipless_player() -> None:
    state = red_gives_blue_the_move()
    with pytest.raises(IllegalAction, match="not being asked"):
        act(state, "yellow", "rescue blue with red")
    with pytest.raises(IllegalAction, match="to rescue is Blue"):
        act(state, "green", "rescue red with yellow")
    with pytest.raises(IllegalAction, match="own colour"):
        act(state, "green", "rescue blue with green")
    with pytest.raises(IllegalAction, match="holds 1 yellow"):
        act(state, "green", "rescue blue with 2 yellow")
    assert owed(state) == ("green", "rescue")


def test_a_defeated_player_is_out_of_turn_in_a_match() -> None:
    match = Match(RULES, 4, seed=0)
    match.state = red_gives_blue_the_move(hands={"red": "2 red"})
    match.act(seat("green"), "decline")
    match.act(seat("yellow"), "decline")
    assert RULES.alive(match.state) == frozenset({0, 2, 3})
    assert 1 not in match.turn().anytime
    with pytest.raises(OutOfTurn):
        match.act(seat("blue"), "play blue new")
    with pytest.raises(IllegalAction, match="out of the game"):
        act(match.state, "yellow", "give red to blue")
