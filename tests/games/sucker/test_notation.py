"""Notation: lenient in, canonical out, and back again."""

from __future__ import annotations

import pytest
from tests.games.sucker.helpers import act

from parley.games.sucker import (
    RULES,
    Accept,
    ChipPromise,
    ChooseNext,
    Colour,
    Decline,
    GivePrisoner,
    KillFromPile,
    KillPrisoner,
    PassPromise,
    Play,
    Propose,
    Reject,
    Rescue,
    Withdraw,
)
from parley.games.sucker.position import position
from parley.kernel import InvalidAction

R, B, G, Y, P, _ = Colour

CANONICAL = [
    (Play(R, 2), "play red on 2"),
    (Play(B, None), "play blue new"),
    (ChooseNext(2), "next green"),
    (KillFromPile(Y), "kill yellow"),
    (KillPrisoner(Y), "kill prisoner yellow"),
    (GivePrisoner(R, 2), "give red to green"),
    (Rescue(1, (G, R, R)), "rescue blue with 2 red, green"),
    (Decline(), "decline"),
    (Accept(3), "accept 3"),
    (Reject(3), "reject 3"),
    (Withdraw(12), "withdraw 12"),
    (
        Propose((1,), (ChipPromise(0, G, 1, 1), PassPromise(1, 0)), "together?"),
        'propose to blue: red gives green to blue; blue passes to red; "together?"',
    ),
    (
        Propose((2, 1), (ChipPromise(1, R, 2, 0),), "", True),
        "propose privately to blue, green: blue gives 2 red to red",
    ),
    (Propose((5,), (), "meet me: later; ok"), 'propose to orange: "meet me: later; ok"'),
    (Play(P, None), "play purple new"),
]


@pytest.mark.parametrize(("action", "text"), CANONICAL)
def test_canonical_form_round_trips(action: object, text: str) -> None:
    assert RULES.format(action) == text  # type: ignore[arg-type]
    assert RULES.parse(text) == action


LENIENT = [
    ("Play RED on 2", "play red on 2"),
    ("  red on pile 2 ", "play red on 2"),
    ("put b onto #3", "play blue on 3"),
    ("lay off blue", "play blue new"),
    ("play blue to a new pile", "play blue new"),
    ("GREEN NEW", "play green new"),
    ("pass to green", "next green"),
    ("next 3", "next green"),
    ("next player 4", "next yellow"),
    ("give the move to p2", "next blue"),
    ("yellow goes next", "next yellow"),
    ("choose Orange", "next orange"),
    ("kill y", "kill yellow"),
    ("kill the yellow chip from the pile", "kill yellow"),
    ("kill yellow prisoner", "kill prisoner yellow"),
    ("transfer a red to 3", "give red to green"),
    ("give red prisoner to player 2", "give red to blue"),
    ("send R to Yellow", "give red to yellow"),
    ("rescue 2 with red", "rescue blue with red"),
    ("rescue blue with red and 2 green", "rescue blue with red, 2 green"),
    ("rescue blue with red x2", "rescue blue with 2 red"),
    ("save 3 with two yellow", "rescue green with 2 yellow"),
    ("no", "decline"),
    ("pass", "decline"),
    ("I won't rescue", "decline"),
    ("accept #3", "accept 3"),
    ("yes bargain 3", "accept 3"),
    ("no 4", "reject 4"),
    ("decline deal 4", "reject 4"),
    ("cancel 2", "withdraw 2"),
    (
        "offer to 2: 1 gives 2 greens to 2, 2 will pass the move to 1",
        "propose to blue: red gives 2 green to blue; blue passes to red",
    ),
    (
        "Propose secretly to blue and yellow; yellow picks blue \u201cTrust me.\u201d",
        'propose privately to blue, yellow: yellow passes to blue; "Trust me."',
    ),
]


@pytest.mark.parametrize(("text", "canonical"), LENIENT)
def test_lenient_input_reads_as_the_canonical_action(text: str, canonical: str) -> None:
    assert RULES.format(RULES.parse(text)) == canonical


def test_me_and_you_need_context() -> None:
    text = 'offer to blue: I give 2 green to you; you pass to me; "deal?"'
    proposal = RULES.parse(text, None, 0)
    assert RULES.format(proposal) == (
        'propose to blue: red gives 2 green to blue; blue passes to red; "deal?"'
    )
    with pytest.raises(InvalidAction, match="who is acting"):
        RULES.parse(text)
    assert RULES.parse("next me", None, 2) == ChooseNext(2)


def test_kill_reads_as_a_prisoner_kill_for_a_player_who_owes_no_capture_kill() -> None:
    state = position(hands={"blue": "6 blue, yellow", "red": "red"}, piles=["blue red"])
    assert RULES.parse("kill yellow", state, 1) == KillPrisoner(Y)
    act(state, "red", "play red on 1")
    assert RULES.parse("kill blue", state, 0) == KillFromPile(B)  # red owes the capture kill
    assert RULES.parse("kill yellow", state, 1) == KillPrisoner(Y)


def test_rescue_without_a_target_rescues_the_player_being_asked_about() -> None:
    state = position(
        hands={"red": "red", "blue": "", "green": "5 green, yellow"}, piles=["green"], mover="red"
    )
    act(state, "red", "play red on 1")
    act(state, "red", "next blue")
    assert RULES.parse("rescue with yellow", state, 2) == Rescue(1, (Y,))
    assert RULES.parse("rescue yellow", state, 2) == Rescue(1, (Y,))
    assert RULES.parse("rescue blue yellow", state, 2) == Rescue(1, (Y,))


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "\u2603 this is no action \u2603",
        "fly to the moon",
        "play red",
        "play red on 2 new",
        "play red blue new",
        "give 2 red to blue",
        "give red",
        "next",
        "next red blue",
        "kill",
        "kill red from the pile prisoner",
        "rescue with red",  # without a position there is nobody to rescue
        "propose: red gives green to blue",
        'propose to blue: "one" "two"',
        "propose to blue: red sings to blue",
        "next 0",
    ],
)
def test_nonsense_is_invalid(text: str) -> None:
    with pytest.raises(InvalidAction):
        RULES.parse(text)


def test_every_legal_action_round_trips_in_context() -> None:
    state = position(
        hands={"red": "3 red, blue, green", "yellow": "6 yellow, red"}, piles=["blue", "green red"]
    )
    for seat in range(4):
        for action in RULES.legal_actions(state, seat):
            text = RULES.format(action)
            assert RULES.parse(text, state, seat) == action, text
            assert RULES.parse(text) == action, text
