"""Move a Group as the seed says (its steps 9-14): a move that would lose cards shows them
and asks; yes loses them to the uncontrolled area, no leaves everything as it was.

The position: Player 1's Bavarian Illuminati hold Big Media (north) with its puppet the
Pentagon (on Big Media's east arrow), The Mafia (east) and the C.I.A. (south). Moving Big
Media onto The Mafia's south arrow leaves no room for the Pentagon.
"""

from __future__ import annotations

from typing import Any

import pytest
from tests.games.illuminati.helpers import act, build

from parley.games.illuminati import RULES
from parley.games.illuminati.state import IlluminatiState, Phase
from parley.kernel import IllegalAction, Match, Viewer

STRUCTURE = [
    "P1: Big Media on Bavarian Illuminati north",
    "P1: Pentagon on Big Media east",
    "P1: The Mafia on Bavarian Illuminati east",
    "P1: C.I.A. on Bavarian Illuminati south",
]
MOVE = "move Big Media to The Mafia south"


def table(**options: Any) -> IlluminatiState:
    return build(
        {
            "illuminati": ["Bavarian Illuminati", "Gnomes of Zurich"],
            "structure": STRUCTURE,
            "money": {"Pentagon": 4, "Big Media": 3},
            "options": options,
        }
    )


def picture(state: IlluminatiState) -> dict[str, Any]:
    """Everything a move could change: structures, money, the centre, the turn's count."""
    return {
        "links": [dict(p.links) for p in state.players],
        "money": [dict(p.money) for p in state.players],
        "center": list(state.center),
        "pending": list(state.pending),
        "actions_used": state.actions_used,
        "acted": state.acted,
        "phase": state.phase,
    }


def test_the_default_is_the_seeds_question() -> None:
    assert RULES.spec.resolve_options({})["move_overflow"] == "confirm"


def test_steps_9_10_the_cards_that_would_be_lost_are_shown_and_nothing_moves_yet() -> None:
    state = table()
    before = picture(state)
    act(state, 0, MOVE)
    assert state.phase is Phase.CONFIRM
    view = RULES.observe(state, Viewer.of(1))  # the structures are public, so is the question
    assert view["move_question"] == {
        "seat": 0,
        "group": "Big Media",
        "host": "The Mafia",
        "direction": "south",
        "lost": ["Pentagon"],
    }
    assert "Pentagon would not fit" in RULES.render(view)
    assert {k: v for k, v in picture(state).items() if k != "phase"} == {
        k: v for k, v in before.items() if k != "phase"
    }
    turn = RULES.turn(state)
    assert [(o.seat, o.kind) for o in turn.owed] == [(0, "confirm")]
    assert [RULES.format(a) for a in RULES.legal_actions(state, 0)] == ["accept", "decline"]


def test_step_11_no_leaves_everything_as_it_was() -> None:
    state = table()
    before = picture(state)
    act(state, 0, MOVE)
    act(state, 0, "no")
    assert picture(state) == before
    assert state.moving is None
    # The turn goes on: the move was not spent, so two regular actions remain.
    assert state.phase is Phase.MAIN and state.actions_used == 0


def test_steps_12_14_yes_moves_what_fits_and_loses_the_rest_to_the_center() -> None:
    state = table()
    act(state, 0, MOVE)
    act(state, 0, "yes")
    me = state.players[0]
    assert me.links["Big Media"].parent == "The Mafia"
    assert "Pentagon" not in me.links and "Pentagon" in state.center
    assert "Pentagon" not in me.money  # its treasury went to the bank
    assert me.money["Big Media"] == 3
    assert state.phase is Phase.MAIN and state.actions_used == 1
    assert not state.pending


def test_a_move_that_loses_nothing_is_made_at_once() -> None:
    state = table()
    act(state, 0, "move C.I.A. to Bavarian Illuminati west")
    assert state.phase is Phase.MAIN and state.moving is None
    assert state.players[0].links["C.I.A."].parent == "Bavarian Illuminati"
    assert state.actions_used == 1


def test_while_asked_only_yes_or_no_is_taken() -> None:
    state = table()
    act(state, 0, MOVE)
    with pytest.raises(IllegalAction, match="waits for its mover's yes or no") as err:
        act(state, 0, "move C.I.A. to Bavarian Illuminati west")
    assert err.value.reason == "wrong_phase"


def test_a_deadline_declines() -> None:
    state = table()
    act(state, 0, MOVE)
    assert RULES.format(RULES.default_action(state, 0)) == "decline"


def test_option_wait_moves_at_once_and_the_rest_waits_for_room() -> None:
    state = table(move_overflow="wait")
    act(state, 0, MOVE)
    assert state.moving is None
    assert state.players[0].links["Big Media"].parent == "The Mafia"
    assert [p.group for p in state.pending] == ["Pentagon"]
    assert state.phase is Phase.PLACE


def test_the_question_survives_a_position_and_a_snapshot() -> None:
    state = table()
    act(state, 0, MOVE)
    match = Match.from_position(RULES, RULES.write_position(state))
    assert match.state.moving == state.moving
    match.act(0, "yes")
    assert "Pentagon" in match.state.center
