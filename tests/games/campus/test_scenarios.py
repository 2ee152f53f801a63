"""Every line of the turn outline (I.A–IV.B) and every branch of its use case, as data.

Each case in scenarios.toml is a concrete position, started as a match from its position
(`Match.from_position`) with every random result scripted (`dice`), the actions played
(`[who, notation]`), and what must hold afterwards.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from tests.games.campus.helpers import act, owners, position, seat_of, units

from parley.games.campus import COLLEGES, NOBODY, RULES, CampusState
from parley.kernel import ARCHIVE, IllegalAction, InvalidAction, Match, ParleyError, Script

CASES: list[dict[str, Any]] = tomllib.loads(
    (Path(__file__).resolve().parent / "scenarios.toml").read_text(encoding="utf-8")
)["case"]
ERRORS: dict[str, type[ParleyError]] = {"illegal": IllegalAction, "invalid": InvalidAction}
POSITION_KEYS = [
    "seats",
    "owners",
    "units",
    "pvc",
    "revealed",
    "current",
    "steps",
    "begin",
    "options",
    "pvc_attack",
    "pvc_defence",
    "cycles",
    "cycle_mask",
    "turns",
]


def build(case: dict[str, Any]) -> CampusState:
    state = position(**{k: case[k] for k in POSITION_KEYS if k in case})
    index = state.board.index
    # Sectors in the script are written by code; the rules draw their numbers.
    dice = [
        (label, index[value] if "PVC" in label else value) for label, value in case.get("dice", [])
    ]
    match: Match[CampusState, Any] = Match.from_position(
        RULES, RULES.write_position(state), chance=dice
    )
    return match.state


def events_of(state: CampusState, start: int) -> list[tuple[Any, ...]]:
    return state.events[start:]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_scenario(case: dict[str, Any]) -> None:
    state = build(case)
    start = 0  # position() starts with an empty event list (a begun turn adds its own)
    for who, text in case.get("actions", []):
        act(state, who, text)
    if "refused" in case:
        who, text, kind = case["refused"]
        before = json.dumps(RULES.observe(state, ARCHIVE), sort_keys=True)
        with pytest.raises(ERRORS[kind]) as err:
            act(state, who, text)
        assert err.value.message
        for word in case.get("message_has", []):
            assert word in err.value.message, err.value.message
        assert json.dumps(RULES.observe(state, ARCHIVE), sort_keys=True) == before
    check(case.get("expect", {}), state, events_of(state, start))
    assert isinstance(state.rng, Script)
    state.rng.finish()  # every scripted result was drawn


def check(expect: dict[str, Any], state: CampusState, events: list[tuple[Any, ...]]) -> None:
    codes = state.board.codes
    if "units" in expect:
        assert units(state) == expect["units"]
    if "units_have" in expect:
        have = units(state)
        for code, unit in expect["units_have"].items():
            assert have.get(code) == unit, (code, have.get(code))
    if "no_unit" in expect:
        assert not set(expect["no_unit"]) & set(units(state))
    if "owners" in expect:
        assert owners(state) == expect["owners"]
    if "owners_have" in expect:
        have = owners(state)
        for code, who in expect["owners_have"].items():
            assert have.get(code) == who, (code, have.get(code))
    if "phase" in expect:
        assert state.phase.value == expect["phase"]
    if "current" in expect:
        assert COLLEGES[state.current] == expect["current"]
    if "steps" in expect:
        assert state.steps == expect["steps"]
    if "alive" in expect:
        assert [COLLEGES[s] for s in state.survivors()] == expect["alive"]
    if "winner" in expect:
        winner = expect["winner"]
        assert state.winner == (None if winner == "" else seat_of(winner))
        outcome = RULES.outcome(state)
        assert (outcome is None) == (winner == "")
        if outcome is not None:
            assert outcome.winners == {seat_of(winner)}
    if "pvc" in expect:
        where = expect["pvc"]
        assert (NOBODY if where == "away" else state.board.index[where]) == state.pvc
    if "pvc_not" in expect:
        assert state.pvc != NOBODY
        assert codes[state.pvc] not in expect["pvc_not"]
        assert not state.board.is_landmark[state.pvc] and state.unit[state.pvc] == NOBODY
    if "revealed" in expect:
        assert state.pvc_revealed == expect["revealed"]
    if "cycles" in expect:
        assert state.cycles == expect["cycles"]
    if "bonus" in expect:  # {college: [attack, defence]} from PVC bonuses
        for who, (atk, dfc) in expect["bonus"].items():
            s = seat_of(who)
            assert (state.pvc_attack[s], state.pvc_defence[s]) == (atk, dfc), who
    if "attack" in expect:
        for who, total in expect["attack"].items():
            assert state.attack(seat_of(who)) == total, who
    if "defence" in expect:
        for who, total in expect["defence"].items():
            assert state.defence(seat_of(who)) == total, who
    if "combat" in expect:  # [attack roll, defence roll, attacker won]
        fights = [e for e in events if e[0] == "combat"]
        assert len(fights) == 1, fights
        _, *_, a_roll, _, d_roll, _, won = fights[0]
        assert [a_roll, d_roll, won] == expect["combat"]
    if "events" in expect:  # the kinds, in order, as a subsequence of what happened
        kinds = iter(e[0] for e in events)
        missing = [k for k in expect["events"] if not any(k == got for got in kinds)]
        assert not missing, (missing, [e[0] for e in events])
    if "no_events" in expect:
        assert not {e[0] for e in events} & set(expect["no_events"])
    if "minigame" in expect:
        game = state.minigame
        assert game is not None
        want = expect["minigame"]
        assert [COLLEGES[s] for s in game.players] == want["players"]
        assert COLLEGES[game.capturer] == want["capturer"]
    if "last_minigame" in expect:
        last = state.last_minigame
        assert last is not None
        want = expect["last_minigame"]
        winner = last["winner"]
        assert (None if winner is None else COLLEGES[winner]) == (want["winner"] or None)
        if "target" in want:
            assert last["target"] == want["target"]
    if "legal" in expect:
        legal = {RULES.format(a) for a in RULES.legal_actions(state, state.current)}
        assert set(expect["legal"]) <= legal
    if "not_legal" in expect:
        legal = {RULES.format(a) for a in RULES.legal_actions(state, state.current)}
        assert not set(expect["not_legal"]) & legal
