"""Captures with a defeated colour (both options), the last survivor, and the stall draw."""

from __future__ import annotations

from tests.games.sucker.helpers import act, conserved, dead, hand, owed, pile

from parley.games.sucker import RULES, STALL_LIMIT, Phase
from parley.games.sucker.position import position


def test_a_defeated_colour_capture_sends_the_pile_to_the_dead_box_by_default() -> None:
    state = position(
        hands={"yellow": "6 yellow, green"}, piles=["red green"], mover="yellow", defeated=["green"]
    )
    act(state, "yellow", "play green on 1")
    assert state.piles == {}
    assert dead(state) == {"red": 1, "green": 7, "yellow": 1}  # a yellow was never placed
    assert owed(state) == ("yellow", "move")  # the mover moves again
    assert conserved(state)


def test_with_the_leave_option_the_pile_stays_and_the_mover_moves_again() -> None:
    state = position(
        hands={"yellow": "6 yellow, green"},
        piles=["red green"],
        mover="yellow",
        defeated=["green"],
        capture_rule="leave",
    )
    act(state, "yellow", "play green on 1")
    assert pile(state, 1) == ["red", "green", "green"]
    assert state.dead[0] == 0
    assert owed(state) == ("yellow", "move")


def test_a_mover_left_chipless_by_a_defeated_colour_capture_needs_rescuing() -> None:
    state = position(
        hands={"yellow": "green", "red": "6 red, yellow"},
        piles=["red green"],
        mover="yellow",
        defeated=["green"],
    )
    act(state, "yellow", "play green on 1")
    assert state.phase is Phase.RESCUE and state.holder == 3
    assert owed(state) == ("red", "rescue")  # asked from after the mover: red first


def test_the_last_survivor_wins_even_with_no_chips() -> None:
    state = position(3, hands={"red": "red", "blue": ""}, mover="red", defeated=["green"])
    act(state, "red", "play red new")  # only blue is absent: blue gets the move, chipless
    assert state.phase is Phase.OVER
    assert state.winner == 0 and hand(state, "red") == {}
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.winners == frozenset({0}) and not outcome.draw
    assert outcome.ranks == (1, 2, 3)  # green fell first, then blue
    assert outcome.scores == (1.0, 0.0, 0.0)
    assert RULES.turn(state).owed == ()
    assert RULES.legal_actions(state, 0) == []


def test_passing_a_prisoner_round_the_mover_forever_is_a_draw() -> None:
    # Red holds only a blue prisoner. It gives it to green, which makes red chipless with
    # the move; green, asked first, rescues red with it; and so on: no chip is played.
    state = position(hands={"red": "blue", "blue": "6 blue"}, mover="red")
    cycles = 0
    while not state.over:
        assert owed(state) == ("red", "move")
        act(state, "red", "give blue to green")
        if state.over:
            break
        assert owed(state) == ("green", "rescue")
        act(state, "green", "rescue red with blue")
        cycles += 1
    assert state.stall == STALL_LIMIT
    assert cycles == STALL_LIMIT // 2  # two turn changes a cycle: the round and the rescue
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.draw
    assert outcome.winners == frozenset({0, 1, 2, 3})
    assert outcome.scores == (0.25, 0.25, 0.25, 0.25)
    assert "draw" in outcome.reason


def test_a_chip_played_resets_the_stall_count() -> None:
    state = position(hands={"red": "blue, red"}, mover="red")
    act(state, "red", "give blue to green")
    assert state.phase is Phase.MOVE  # red still holds a red chip: no rescue round
    state = position(hands={"red": "blue"}, mover="red")
    act(state, "red", "give blue to green")
    act(state, "green", "rescue red with blue")
    assert state.stall == 2
    act(state, "red", "play blue new")
    assert state.stall == 0
