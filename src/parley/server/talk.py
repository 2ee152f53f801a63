"""Negotiation rounds: press-only rounds, each with its own deadline, before every step in
which all surviving seats decide at once (Diplomacy's movement phases), then the actions.

A game created with `negotiation: {rounds, messages, seconds}` opens round 1 when such a
step begins. While a round is on, actions wait (409 `negotiating`) and each seat may send
at most `messages` messages in it (409 `press_quota`); when its deadline passes the next
round opens, and after the last the step's actions open with the game's ordinary period.
Rounds are announced in the record as table messages on the `rounds` channel, so every
viewer sees them and the quota is counted from the record.
"""

from __future__ import annotations

from typing import Any

from parley.kernel import Match, PressEntry

from .errors import Conflict
from .live import LiveGame, Txn

CHANNEL = "rounds"


class Negotiating(Conflict):
    code = "negotiating"


class QuotaSpent(Conflict):
    code = "press_quota"


def _everyone_decides(match: Match[Any, Any]) -> bool:
    turn = match.turn()
    alive = match.rules.alive(match.state)
    return turn.simultaneous and len(alive) > 1 and alive <= turn.owing


def _talk(txn: Txn) -> tuple[int, int]:
    """(the step whose rounds were opened, the round on there), as this change leaves them."""
    row = txn.row
    return txn.changes.get("talk_state", row.talk_state), txn.changes.get(
        "talk_round", row.talk_round
    )


def round_on(live: LiveGame) -> int:
    """The negotiation round under way in the game's current step (0: none)."""
    match, row = live.match, live.row
    if match is None or row.talk_rounds == 0 or row.talk_state != match.state_id:
        return 0
    return row.talking


def txn_round(txn: Txn) -> int:
    match, row = txn.match, txn.row
    state, on = _talk(txn)
    if row.talk_rounds == 0 or state != match.state_id or match.is_over:
        return 0
    return on if 0 < on <= row.talk_rounds else 0


def open_rounds(txn: Txn) -> int:
    """Open round 1 if a step everyone decides has just begun; the round on now (0: none)."""
    match, row = txn.match, txn.row
    if row.talk_rounds == 0 or match.is_over:
        return 0
    state, _ = _talk(txn)
    if state != match.state_id and _everyone_decides(match):
        _start(txn, 1)
    return txn_round(txn)


def next_round(txn: Txn) -> None:
    """The round's deadline passed: the next round, or the step's actions."""
    _start(txn, txn_round(txn) + 1)


def _start(txn: Txn, number: int) -> None:
    row = txn.row
    txn.set_game(talk_state=txn.match.state_id, talk_round=number)
    txn.restart_clock = True
    if number <= row.talk_rounds:
        txn.period = float(row.talk_seconds)
        text = (
            f"Negotiation round {number} of {row.talk_rounds}: up to {row.talk_messages} "
            f"messages each, for {row.talk_seconds} s; actions open after round "
            f"{row.talk_rounds}."
        )
    else:
        text = "Negotiation is over: actions are open."
    txn.say(None, text, None, CHANNEL)


def messages_left(match: Match[Any, Any], seat: int, limit: int) -> int:
    """How many more messages `seat` may send in the round under way."""
    sent = 0
    for entry in reversed(match.entries):
        if isinstance(entry, PressEntry):
            if entry.seat is None and entry.channel == CHANNEL:
                break
            if entry.seat == seat:
                sent += 1
    return max(0, limit - sent)


def check_action(txn: Txn) -> None:
    if on := txn_round(txn):
        raise Negotiating(
            f"negotiation round {on} of {txn.row.talk_rounds} is on: actions open after "
            f"round {txn.row.talk_rounds} (press only now)"
        )


def check_press(txn: Txn, seat: int) -> None:
    if (on := txn_round(txn)) and messages_left(txn.match, seat, txn.row.talk_messages) <= 0:
        raise QuotaSpent(
            f"you have sent your {txn.row.talk_messages} messages of negotiation round {on}"
        )
