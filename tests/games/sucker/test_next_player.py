"""Who moves next after a move without a capture."""

from __future__ import annotations

import pytest
from tests.games.sucker.helpers import act, owed

from parley.games.sucker import RULES, ChooseNext, Phase, SuckerState
from parley.games.sucker.position import position
from parley.kernel import IllegalAction


def choices(state: SuckerState) -> list[int]:
    legal = RULES.legal_actions(state, state.holder)
    return sorted(a.player for a in legal if isinstance(a, ChooseNext))


def test_the_mover_chooses_among_the_owners_of_absent_colours() -> None:
    state = position(hands={"red": "2 red"}, piles=["green"], mover="red")
    act(state, "red", "play red on 1")
    assert owed(state) == ("red", "next")
    assert state.choices == (1, 3)  # blue and yellow: absent; green and red are present
    with pytest.raises(IllegalAction, match="only to blue, yellow"):
        act(state, "red", "next green")
    with pytest.raises(IllegalAction):
        act(state, "red", "next red")  # own colour present: not themself
    act(state, "red", "next yellow")
    assert owed(state) == ("yellow", "move")


def test_one_absent_colour_gives_the_move_without_a_choice() -> None:
    state = position(hands={"red": "2 red"}, piles=["green yellow"], mover="red")
    act(state, "red", "play red on 1")
    assert owed(state) == ("blue", "move")
    assert state.given_by[1] == 0


def test_the_mover_may_choose_themself_only_when_their_colour_is_absent() -> None:
    state = position(hands={"red": "red, blue"}, piles=["green"], mover="red")
    act(state, "red", "play blue on 1")  # a prisoner: red stays absent
    assert state.choices == (3, 0)  # yellow, then red: clockwise from the mover
    act(state, "red", "next red")
    assert owed(state) == ("red", "move")
    assert state.given_by[0] is None  # choosing oneself does not change who gave the move


def test_all_colours_present_the_deepest_most_recent_chip_decides() -> None:
    # bottom → top: red blue green yellow red blue, then green plays green.
    # Most recent chips: red at 4, blue at 5, green at 6, yellow at 3: yellow is deepest.
    state = position(
        hands={"green": "2 green"}, piles=["red blue green yellow red blue"], mover="green"
    )
    act(state, "green", "play green on 1")
    assert owed(state) == ("yellow", "move")  # not red, who owns the bottom chip
    assert state.given_by[3] == 2


def test_all_colours_present_can_send_the_move_back_to_the_mover() -> None:
    # bottom → top: blue red green yellow blue, red plays green (a prisoner).
    # Most recent: blue 4, red 1, green 5, yellow 3: red's chip is deepest.
    state = position(hands={"red": "red, green"}, piles=["blue red green yellow blue"], mover="red")
    act(state, "red", "play green on 1")
    assert owed(state) == ("red", "move")


def test_a_new_pile_excludes_only_its_chip_colour() -> None:
    state = position(hands={"red": "2 red, blue"}, mover="red")
    act(state, "red", "play red new")
    assert state.choices == (1, 2, 3)
    state = position(hands={"red": "2 red, blue"}, mover="red")
    act(state, "red", "play blue new")
    assert state.choices == (2, 3, 0)  # the mover may pick themself: red is absent


def test_defeated_colours_are_ignored_when_looking_for_absent_colours() -> None:
    # Green is out. The pile holds red and blue; yellow adds yellow: every colour still
    # in the game is present, so green's absence does not give anyone a choice.
    state = position(
        hands={"yellow": "2 yellow", "red": "red"},
        piles=["red blue"],
        mover="yellow",
        defeated=["green"],
    )
    act(state, "yellow", "play yellow on 1")
    assert owed(state) == ("red", "move")  # red's chip lies deepest


def test_defeated_colours_are_ignored_by_the_deepest_chip_rule() -> None:
    # bottom → top: green red blue; green is out. Yellow plays yellow: the deepest most
    # recent chip of a surviving colour is red's, although green's lies lower.
    state = position(
        hands={"yellow": "2 yellow", "red": "red"},
        piles=["green red blue"],
        mover="yellow",
        defeated=["green"],
    )
    act(state, "yellow", "play yellow on 1")
    assert owed(state) == ("red", "move")


def test_a_new_pile_of_a_defeated_colour_leaves_every_survivor_open() -> None:
    state = position(hands={"red": "red, green"}, mover="red", defeated=["green"])
    act(state, "red", "play green new")
    assert state.phase is Phase.NEXT
    assert state.choices == (1, 3, 0)


def test_choice_list_is_offered_as_legal_actions() -> None:
    state = position(hands={"red": "2 red"}, mover="red")
    act(state, "red", "play red new")
    assert choices(state) == [1, 2, 3]
    assert [RULES.format(a) for a in RULES.legal_actions(state, 0)][:3] == [
        "next blue",
        "next green",
        "next yellow",
    ]


def test_six_players_purple_and_orange_follow_the_same_rules() -> None:
    # bottom → top: orange purple red blue green yellow orange; red plays purple.
    # Most recent: purple 7, orange 6, yellow 5, green 4, blue 3, red 2: red is deepest.
    state = position(
        6,
        hands={"red": "red, purple"},
        piles=["orange purple red blue green yellow orange"],
        mover="red",
    )
    act(state, "red", "play purple on 1")
    assert owed(state) == ("red", "move")
    act(state, "red", "play red new")
    assert state.choices == (1, 2, 3, 4, 5)
    act(state, "red", "next orange")
    assert owed(state) == ("orange", "move")
