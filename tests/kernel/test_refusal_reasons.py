"""Refusals say why: errors carry a reason tag, out-of-turn refusals name who acts, and the
refusal_reasons conformance check catches a table a game does not live up to."""

from __future__ import annotations

from typing import Any

import pytest
from tests.kernel.toygames import Countdown, CountdownState, Take

from parley.kernel import REASONS, IllegalAction, InvalidAction, Match, OutOfTurn, conformance
from parley.kernel.conformance import check_refusal_reasons
from parley.server.errors import status_and_body


def test_the_reason_reaches_the_json_and_the_server_answer() -> None:
    err = IllegalAction("Texas holds 3 MB, not 5", reason="not_enough_money")
    assert err.to_json() == {
        "error": "illegal",
        "message": "Texas holds 3 MB, not 5",
        "reason": "not_enough_money",
    }
    assert status_and_body(err) == (422, err.to_json())
    assert "reason" not in InvalidAction("what?").to_json()  # not understood: no rule asked
    assert "not_your_turn" in REASONS and all(REASONS.values())


class Explaining(Countdown):
    """Countdown whose rules add why a seat without the move may not take."""

    def out_of_turn(self, state: CountdownState, seat: int, action: Take) -> str | None:
        return f"the counter is at {state.left}"


def test_out_of_turn_names_who_acts_and_what_the_game_adds() -> None:
    match = Match(Countdown(), 3, seed=1)
    mover = match.state.mover
    idle = (mover + 1) % 3
    with pytest.raises(OutOfTurn) as err:
        match.act(idle, "take 1")
    assert err.value.reason == "not_your_turn"
    assert err.value.message == (
        f"Player {idle + 1} has nothing to decide now; Player {mover + 1} to act"
    )
    told = Match(Explaining(), 3, seed=1)
    with pytest.raises(OutOfTurn) as err:
        told.act(idle, "take 1")
    assert err.value.message.endswith("to act: the counter is at 21")
    with pytest.raises(OutOfTurn) as err:  # text that is no action: whose turn says enough
        told.act(idle, "\u2603")
    assert "counter" not in err.value.message


def test_a_finished_game_refuses_as_over() -> None:
    match = Match(Countdown(), 2, {"start": 1}, seed=1)
    match.act(match.state.mover, "take 1")
    with pytest.raises(OutOfTurn) as err:
        match.act(0, "take 1")
    assert err.value.reason == "game_over"


ROW: dict[str, Any] = {"what": "more than three", "seats": 2, "seed": 1, "seat": 1}


@pytest.mark.parametrize(
    ("row", "complaint"),
    [
        ({**ROW, "action": "take 4", "says": "you may take 1 to 2"}, "not in"),
        ({**ROW, "action": "take 4", "code": "out_of_turn"}, "expected out_of_turn"),
        ({**ROW, "action": "take 4", "reason": "no_room"}, "expected reason no_room"),
        ({**ROW, "action": "take 4", "reason": "because"}, "unknown reason"),
        ({**ROW, "action": "take 2"}, "was accepted"),
        ({**ROW, "moves": ["Player 1: take 9"], "action": "take 4"}, "move 0"),
        ({**ROW, "moves": ["take 1"], "action": "take 4"}, "is not '<seat>: <action>'"),
        ({**ROW, "seat": "Nobody", "action": "take 4"}, "no seat called"),
    ],
)
def test_the_check_catches_a_table_the_game_does_not_live_up_to(
    monkeypatch: pytest.MonkeyPatch, row: dict[str, Any], complaint: str
) -> None:
    monkeypatch.setattr(conformance, "refusal_table", lambda rules: [row])
    with pytest.raises(AssertionError, match=complaint):
        check_refusal_reasons(Countdown())


def test_a_game_without_a_table_fails_the_check() -> None:
    class Elsewhere(Countdown):
        spec = Countdown.spec.__class__(
            **{**{f: getattr(Countdown.spec, f) for f in Countdown.spec.__slots__}, "name": "x"}
        )

    with pytest.raises(AssertionError, match="has no row for it"):
        check_refusal_reasons(Elsewhere())
