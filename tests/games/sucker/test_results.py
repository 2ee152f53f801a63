"""Results as data: the last capture (who played onto which pile, who captured it, the chip
killed and what the capturer took) in the state and every observation, until the next."""

from __future__ import annotations

from collections import Counter
from typing import Any

from parley.games.sucker.rules import RULES
from parley.games.sucker.state import SuckerState
from parley.kernel import SPECTATOR, Match, Rng, Viewer
from parley.kernel.conformance import random_step


def until(done: Any, seed: int = 1) -> Match[SuckerState, Any]:
    match = Match(RULES, 4, seed=seed)
    rng = Rng(seed)
    for _ in range(3000):
        if done(match.state):
            return match
        assert random_step(match, rng)
    raise AssertionError("not reached")


def view(match: Match[SuckerState, Any], viewer: Viewer) -> dict[str, Any]:
    obs = match.observe(viewer)
    return dict(obs.get("view", obs))


def captured(state: SuckerState) -> bool:
    return state.last_capture is not None


def killed(state: SuckerState) -> bool:
    return state.last_capture is not None and state.last_capture["killed"] is not None


def test_a_capture_is_data_before_and_after_the_kill() -> None:
    match = until(captured)
    capture = match.state.last_capture
    assert capture is not None and capture["killed"] is None and capture["taken"] == []
    assert capture["chips"] == [str(c) for c in capture["chips"]]
    assert capture["chips"][-1] == capture["chips"][-2] == capture["capturer"]
    assert match.state.phase.value == "kill"
    match = until(killed)
    capture = match.state.last_capture
    assert capture == {
        "pile": 3,
        "chips": ["green", "yellow", "blue", "blue"],
        "played_by": "blue",
        "capturer": "blue",
        "killed": "yellow",
        "taken": ["green", "blue", "blue"],
    }
    assert Counter(capture["chips"]) == Counter([capture["killed"], *capture["taken"]])


def test_everyone_sees_it_and_the_picture_tells_it() -> None:
    match = until(killed)
    for viewer in [Viewer.of(s) for s in range(4)] + [SPECTATOR]:
        assert view(match, viewer)["last_capture"] == match.state.last_capture
    assert (
        "Last capture: Blue played on pile 3 (green yellow blue blue) and Blue captured it, "
        "killed yellow and took green blue blue"
    ) in RULES.render(view(match, SPECTATOR))


def test_it_survives_a_position_and_stays_until_the_next_capture() -> None:
    match = until(killed)
    first = match.state.last_capture
    again = Match.from_position(RULES, RULES.write_position(match.state))
    assert again.state.last_capture == first
    rng = Rng(7)
    steps = 0
    while match.state.last_capture is first and steps < 3000 and random_step(match, rng):
        steps += 1
    new = match.state.last_capture
    assert steps > 0 and new is not None and new is not first
    assert new["killed"] is None  # the next capture, before its kill


def test_a_state_pickled_before_captures_were_kept_shows_none() -> None:
    match = until(killed)
    del match.state.last_capture  # as a snapshot from before the slot existed restores
    assert view(match, SPECTATOR)["last_capture"] is None
    assert RULES.clone(match.state).last_capture is None
