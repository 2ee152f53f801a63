"""A player attacking the rules: malformed text, acting out of turn, spending money one does
not have, attacking one's own groups, cards that do not exist, huge and negative numbers,
unicode, stale and replayed actions. Each is refused with a clear error and changes nothing.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.games.illuminati.helpers import act, build

from parley.games.illuminati import RULES
from parley.games.illuminati.actions import Attack, Interfere, PayMoney, Spend, Transfer
from parley.games.illuminati.state import IlluminatiState
from parley.kernel import (
    ARCHIVE,
    IllegalAction,
    InvalidAction,
    Match,
    OutOfTurn,
    ParleyError,
    Rng,
    Script,
    StaleState,
)

POSITION: dict[str, Any] = {
    "illuminati": ["Gnomes of Zurich", "Network", "UFOs"],
    "structure": ["P1: Big Media on Gnomes of Zurich north", "P2: Texas on Network north"],
    "money": {"Gnomes of Zurich": 12, "Big Media": 2, "Network": 9, "Texas": 4, "UFOs": 8},
    "center": ["Democrats", "Punk Rockers"],
    "hands": {"P1": ["Slush Fund"], "P2": ["Murphy's Law"]},
    "dice": [[1, 1]],
}

BIG = "9" * 5000  # more digits than Python converts to an int by default

# (seat, text, the error it must get) in the first player's main phase
MAIN_PHASE = [
    (0, "", InvalidAction),
    (0, "   ", InvalidAction),
    (0, "\x00", InvalidAction),
    (0, "attack", InvalidAction),
    (0, "attack Democrats", InvalidAction),
    (0, "attack Democrats with Gnomes to conquer", InvalidAction),
    (0, "\uff41ttack Democrats with Gnomes to control", InvalidAction),
    (0, "attack Democr\u0430ts with Gnomes to control", InvalidAction),  # Cyrillic a
    (0, "attack \U0001f3b2 with Gnomes to control", InvalidAction),
    (0, "attack Atlantis with Gnomes to control", InvalidAction),
    (0, "attack Democrats with Atlantis to control", InvalidAction),
    (0, "attack Democrats with Texas to control", IllegalAction),  # another player's card
    (0, "attack Democrats with Network to control", IllegalAction),
    (0, "attack Big Media with Gnomes to control", IllegalAction),  # one's own group
    (0, "attack Big Media with Gnomes to neutralize", IllegalAction),
    (0, "attack Democrats with Gnomes to neutralize", IllegalAction),  # uncontrolled
    (0, "attack Network with Gnomes to destroy", IllegalAction),  # an Illuminati
    (0, "attack Slush Fund with Gnomes to control", IllegalAction),  # a special card
    (0, "attack Punk Rockers with Gnomes to destroy", IllegalAction),  # power 0
    (0, "attack Big Media with Big Media to destroy", IllegalAction),
    (0, "attack Democrats with Gnomes to control, spend 13", IllegalAction),
    (0, "attack Democrats with Gnomes to control, spend 3 from Big Media", IllegalAction),
    (0, "attack Democrats with Gnomes to control, spend 1 from Texas", IllegalAction),
    (0, "attack Democrats with Gnomes to control, spend 0", InvalidAction),
    (0, "attack Democrats with Gnomes to control, spend -1", InvalidAction),
    (0, f"attack Democrats with Gnomes to control, spend {BIG}", InvalidAction),
    (0, "give 13 from Gnomes to Big Media", IllegalAction),
    (0, "give 0 from Gnomes to Big Media", IllegalAction),
    (0, "give -1 from Gnomes to Big Media", InvalidAction),
    (0, f"give {BIG} from Gnomes to Big Media", InvalidAction),
    (0, "give 1 from Texas to Gnomes", IllegalAction),
    (0, "give 1 from Gnomes to Texas", IllegalAction),
    (0, "pay 13 to Player 2", IllegalAction),
    (0, "pay 1 to Player 1", IllegalAction),
    (0, "pay 1 to Player 9", InvalidAction),
    (0, "pay 1 to Player 0", InvalidAction),
    (0, f"pay 1 to Player {BIG}", InvalidAction),
    (0, "pay 99999999999999 to Player 2", InvalidAction),
    (0, "give Texas to Player 3", IllegalAction),
    (0, "give Network to Player 2", IllegalAction),
    (0, "give Murphy's Law to Player 3", IllegalAction),
    (0, "play Murphy's Law", IllegalAction),
    (0, "play Slush Fund on Player 2", IllegalAction),
    (0, f"play Computer Espionage on Player {BIG}", InvalidAction),
    (0, "play Bribery on Democrats", IllegalAction),
    (0, "roll", IllegalAction),
    (0, "call off", IllegalAction),
    (0, "accept", IllegalAction),
    (0, "aid with Big Media", IllegalAction),
    (0, "spend 1", IllegalAction),
    (0, "interfere 1", IllegalAction),
    (0, "drop Texas", IllegalAction),
    (0, "drop Gnomes of Zurich", IllegalAction),
    (0, "move Big Media to Big Media north", IllegalAction),
    (0, "move Big Media to Texas north", IllegalAction),
    (0, "lasers Texas add Weird", IllegalAction),
    (0, "lasers Texas add Nonsense", InvalidAction),
    (0, "take UFOs", IllegalAction),
    (0, "goal Network", IllegalAction),
    (0, "place Democrats on Gnomes of Zurich east", IllegalAction),
    (0, "release Democrats", IllegalAction),
    (0, "recycle", IllegalAction),
    (0, "attack again", IllegalAction),
    (0, "done", IllegalAction),  # nothing done yet: pass, not done
    (1, "pass", IllegalAction),  # not the player to decide
    (1, "attack Democrats with Network to control", IllegalAction),
    (2, "play Murphy's Law", IllegalAction),
]


def snapshot(state: IlluminatiState) -> str:
    rng = state.rng.copy()
    # a scripted generator shows what it has left; a seeded one, what it would roll next
    draws = (
        [rng.left, len(rng.drawn)]
        if isinstance(rng, Script)
        else [rng.randint(1, 6) for _ in range(4)]
    )
    return json.dumps([RULES.observe(state, ARCHIVE), draws], sort_keys=True)


def refused(state: IlluminatiState, seat: int, text: str, kind: type[ParleyError]) -> None:
    before = snapshot(state)
    with pytest.raises(kind) as err:
        act(state, seat, text)
    assert err.value.message, text
    assert snapshot(state) == before, f"{text!r} was refused but changed the game"


@pytest.mark.parametrize(
    ("seat", "text", "kind"), MAIN_PHASE, ids=[f"P{s + 1} {t[:60]!r}" for s, t, _ in MAIN_PHASE]
)
def test_hostile_input_in_the_main_phase(seat: int, text: str, kind: type[ParleyError]) -> None:
    refused(build(POSITION), seat, text, kind)


def test_hostile_input_in_an_attack_window() -> None:
    state = build(POSITION)
    act(state, 0, "attack Texas with Gnomes of Zurich to neutralize, spend 2")
    # announced: only the attacker acts, and only with what it holds
    for seat, text, kind in [
        (0, "spend 11", IllegalAction),
        (0, "spend 1 from Big Media", IllegalAction),  # not the attacking card
        (0, "interfere 1", IllegalAction),
        (0, "aid with Texas", IllegalAction),
        (0, "attack Democrats with Big Media to control", IllegalAction),
        (1, "spend 1", IllegalAction),  # the defender waits for the window
        (2, "interfere 1", IllegalAction),
    ]:
        refused(state, seat, text, kind)
    act(state, 0, "roll")
    assert RULES.turn(state).owing == frozenset({1})
    for seat, text, kind in [
        (1, "spend 10", IllegalAction),  # the Network holds 9
        (1, "spend 5 from Texas", IllegalAction),  # Texas holds 4
        (1, "spend 1 from Big Media", IllegalAction),  # not the target
        (1, "interfere 1 against", IllegalAction),  # the defender spends, it does not interfere
        (1, "privilege by discarding Murphy's Law", IllegalAction),
        (1, "play Murphy's Law", IllegalAction),  # only after the roll
        (2, "interfere 1", IllegalAction),  # not its say yet
        (0, "spend 1", IllegalAction),
        (0, "roll", IllegalAction),  # a replay of the attacker's last action
    ]:
        refused(state, seat, text, kind)
    act(state, 1, "spend 4 from Texas")
    act(state, 1, "pass")
    for text in ("interfere 9", "interfere 1 from Network", "spend 1"):
        refused(
            state, 2, text, IllegalAction if text != "interfere 1 from Network" else InvalidAction
        )
    act(state, 2, "interfere 8")
    refused(state, 2, "interfere 1", IllegalAction)  # nothing left


def test_the_match_refuses_out_of_turn_stale_and_replayed_actions() -> None:
    match = Match(RULES, 3, {"illuminati": "choose"}, seed=5)
    chooser = min(match.turn().owing)
    other = (chooser + 1) % 3
    before = json.dumps(match.observe(ARCHIVE))
    with pytest.raises(OutOfTurn):
        match.act(other, "take UFOs")
    with pytest.raises(StaleState):
        match.act(chooser, "take UFOs", state_id=match.state_id + 1)
    with pytest.raises(InvalidAction):
        match.act(7, "take UFOs")
    assert json.dumps(match.observe(ARCHIVE)) == before and match.seq == 0
    stale_id = match.state_id
    match.act(chooser, "take UFOs", state_id=stale_id)
    after = json.dumps(match.observe(ARCHIVE))
    nxt = min(match.turn().owing)
    with pytest.raises(IllegalAction):
        match.act(nxt, "take UFOs")  # taken already
    with pytest.raises(StaleState):
        match.act(nxt, "take Network", state_id=stale_id)  # aimed at the state before
    assert json.dumps(match.observe(ARCHIVE)) == after and match.seq == 1


@pytest.mark.parametrize(
    "action",
    [
        Spend(-3),
        Spend(0),
        Interfere(-4, False),
        Transfer(-5, "Gnomes of Zurich", "Big Media"),
        Transfer(10**30, "Gnomes of Zurich", "Big Media"),
        PayMoney(-5, 1),
        PayMoney(5, -1),
        PayMoney(5, 99),
        Attack("Democrats", "Gnomes of Zurich", "control", -5),
        Attack("Democrats", "Gnomes of Zurich", "control", 0, "Big Media"),
        Attack("Democrats", "Gnomes of Zurich", "explode"),
        Attack("Atlantis", "Gnomes of Zurich", "control"),
    ],
    ids=repr,
)
def test_forged_action_records_are_refused(action: Any) -> None:
    """Actions built as records (past the parser) meet the same rules."""
    state = build(POSITION)
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        RULES.apply(state, 0, action)
    assert snapshot(state) == before


HOSTILE = [
    "spend -1",
    "spend 0",
    f"spend {BIG}",
    "interfere 0",
    "give 1 from {ill} to {ill}",
    "pay 100000 to p2",
    "attack {ill} with {ill} to destroy",
    "aid with {ill}",
    "drop {ill}",
    "move {ill} to {ill} north",
    "play Bribery on {ill}",
    "play Media Campaign on {ill}",
    "abolish privilege by discarding Slush Fund and Slush Fund",
    "ask for {ill}",
    "place {ill} on {ill} north",
    "release {ill}",
    "take {ill}",
    "\u2603",
]


@pytest.mark.parametrize(("seats", "seed"), [(3, 11), (5, 12)])
def test_hostile_input_throughout_random_games(seats: int, seed: int) -> None:
    """At every step of a random game each seat tries hostile text and actions that were
    legal earlier: refused with a Parley error, the game unchanged."""
    match = Match(RULES, seats, {"illuminati": "random"}, seed=seed)
    rng = Rng(seed)
    seen: dict[str, Any] = {}
    for _ in range(80):
        if match.is_over:
            break
        state = match.state
        before = json.dumps(match.observe(ARCHIVE), sort_keys=True)
        seq = match.seq
        owed = min(match.turn().owing)
        for seat in sorted({owed, (owed + 1) % seats}):
            ill = state.players[seat].illuminati
            legal = {RULES.format(a) for a in match.legal_actions(seat)}
            tries: list[Any] = [h.replace("{ill}", ill) for h in HOSTILE]
            tries += [a for text, a in list(seen.items())[-12:] if text not in legal]
            for attempt in tries:
                with pytest.raises(ParleyError) as err:
                    match.act(seat, attempt)
                assert err.value.message
        # nothing refused changed the game (checked once per step: any change would last)
        assert json.dumps(match.observe(ARCHIVE), sort_keys=True) == before
        assert match.seq == seq
        action = RULES.random_action(match.state, owed, rng)
        seen[RULES.format(action)] = action
        match.act(owed, action)


def test_other_scripts_digits_are_no_amount() -> None:
    # As in every game: only 0-9 are digits ('٣' is an Arabic-Indic three).
    match = Match(RULES, 3, seed=1)
    seat = next(iter(match.turn().owing))
    for text in ("spend ٣", "pay ٣ to 2"):
        with pytest.raises(InvalidAction):
            RULES.parse(text, match.state, seat)
