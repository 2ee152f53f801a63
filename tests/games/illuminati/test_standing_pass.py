"""The start-of-turn window: short, answered at once by a standing pass, and asking the same
seats whatever cards they hold (so neither the question nor the instant answer tells what
anyone holds). The position is the seeded three-player opening of the browser tests: at
its end Player 2 holds Assassination face down, which cannot be played at the start."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from parley import games
from parley.games.illuminati.actions import Pass
from parley.games.illuminati.engine import CARDS
from parley.games.illuminati.rules import STANDING_PASS
from parley.games.illuminati.state import Held, Phase
from parley.kernel import Match, Viewer

RULES: Any = games.find("illuminati")
OPENING = json.loads(
    (Path(__file__).parents[2] / "web" / "illuminati_opening.json").read_text("utf-8")
)


def opening(steps: int, **options: Any) -> Match[Any, Any]:
    """The opening up to (not including) step `steps`; every pick is made."""
    match: Match[Any, Any] = Match(
        RULES, 3, {**OPENING["options"], **options}, seed=OPENING["seed"]
    )
    for pick in OPENING["picks"]:
        match.act(match.turn().owed[0].seat, f"take {pick}")
    for seat, text in OPENING["steps"][:steps]:
        match.act(seat, text)
    return match


def test_the_start_window_is_short_and_the_standing_pass_answers_it() -> None:
    match = opening(len(OPENING["steps"]) - 1)  # Player 1's turn starts: Player 2 is asked
    state = match.state
    assert state.phase is Phase.START and state.active == 0
    assert [o.seat for o in match.turn().owed] == [1]
    assert [h.card for h in state.players[1].hand] == ["Assassination"]
    assert RULES.standing_answer(state, 1, STANDING_PASS) == Pass()
    assert RULES.standing_answer(state, 0, STANDING_PASS) is None  # not asked now
    assert RULES.standing_answer(state, 1, "sing") is None
    assert RULES.step_seconds(state) == 30.0
    assert STANDING_PASS in RULES.standing_settings()
    match.act(1, "pass")
    assert match.state.phase is not Phase.START
    assert RULES.step_seconds(match.state) is None  # the turn itself has the whole deadline
    assert RULES.standing_answer(match.state, 0, STANDING_PASS) is None


def test_the_window_limit_is_a_host_option() -> None:
    match = opening(len(OPENING["steps"]) - 1, start_window=12)
    assert RULES.step_seconds(match.state) == 12.0
    whole = opening(len(OPENING["steps"]) - 1, start_window=0)
    assert whole.state.phase is Phase.START and RULES.step_seconds(whole.state) is None


def test_who_is_asked_and_the_standing_answer_do_not_depend_on_the_cards_held() -> None:
    before = opening(len(OPENING["steps"]) - 2)  # Player 3 is about to end its turn
    assert before.turn().owed[0].seat == 2
    asked: set[tuple[int, ...]] = set()
    answers: set[Any] = set()
    views: set[str] = set()
    playable = 0
    for special in CARDS.specials:
        match = before.copy()
        match.state.players[1].hand = [Held(special.name, face_up=False)]
        match.act(2, "done")
        state = match.state
        assert state.phase is Phase.START
        asked.add(tuple(state.queue))
        answers.add(RULES.standing_answer(state, 1, STANDING_PASS))
        views.add(json.dumps(match.observe(Viewer.of(0))["view"]["window"], sort_keys=True))
        playable += any(a != Pass() for a in RULES.legal_actions(state, 1))
    assert asked == {(1,)} and answers == {Pass()} and len(views) == 1
    assert playable == 1  # only Senate Investigating Committee could be played there
