"""Who a one-at-a-time window has asked and will ask (`Rules.window`): the choice of
Illuminati, an attack's answers and the start of a turn, in the seeded three-player opening
of the browser tests. Seats and order only; a position keeps them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from parley import games
from parley.games.illuminati.state import Phase
from parley.kernel import Match, Window

RULES: Any = games.find("illuminati")
OPENING = json.loads(
    (Path(__file__).parents[2] / "web" / "illuminati_opening.json").read_text("utf-8")
)


def new_match() -> Match[Any, Any]:
    return Match(RULES, 3, OPENING["options"], seed=OPENING["seed"])


def test_the_choice_of_illuminati_is_a_window_in_seat_order() -> None:
    match = new_match()
    first = match.turn().owed[0].seat
    window = RULES.window(match.state)
    assert window is not None and window.answered == () and len(window.later) == 2
    match.act(first, f"take {OPENING['picks'][0]}")
    after = RULES.window(match.state)
    assert after == Window(answered=(first,), later=window.later[1:])


def test_an_attack_window_tells_who_answered_and_who_is_next() -> None:
    match = new_match()
    for pick in OPENING["picks"]:
        match.act(match.turn().owed[0].seat, f"take {pick}")
    assert RULES.window(match.state) is None  # the first turn: one seat acts, nobody waits
    for seat, text in OPENING["steps"][:3]:  # an attack announced, money spent, "roll"
        match.act(seat, text)
    assert match.state.phase is Phase.REACT
    assert RULES.window(match.state) == Window(answered=(), later=(2,))
    assert [o.seat for o in match.turn().owed] == [1]
    match.act(1, "pass")
    assert RULES.window(match.state) == Window(answered=(1,), later=())
    # The position written now reads back with the same window.
    again = RULES.read_position(json.loads(json.dumps(RULES.write_position(match.state))))
    assert RULES.window(again) == Window(answered=(1,), later=())
    match.act(2, "pass")  # the dice are rolled: this window is closed
    assert match.state.phase is not Phase.REACT
    assert Phase.REACT not in match.state.answered


def test_the_start_window_asks_only_card_holders_and_closes() -> None:
    match = new_match()
    for pick in OPENING["picks"]:
        match.act(match.turn().owed[0].seat, f"take {pick}")
    for seat, text in OPENING["steps"][:-1]:
        match.act(seat, text)
    assert match.state.phase is Phase.START
    assert RULES.window(match.state) == Window(answered=(), later=())  # Player 2 alone
    match.act(1, "pass")
    assert RULES.window(match.state) is None and not match.state.answered
