"""Were bargains kept? A replay of a match's record that checks every agreed promise.

A chip promise is kept once the giver has transferred (or rescued with) that many chips of
that colour to the receiver after the agreement; a move promise is judged at the promiser's
first choice of next player, after the agreement, where the promised player was allowed.
The rules never enforce either; this only reads what happened.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from parley.kernel import ActionEntry, Match

from .actions import (
    Accept,
    ChipPromise,
    ChooseNext,
    GivePrisoner,
    PassPromise,
    Promise,
    Propose,
    Rescue,
)
from .colours import label
from .notation import format_promise
from .rules import RULES
from .state import SuckerState


class Verdict(Enum):
    KEPT = "kept"
    BROKEN = "broken"
    PENDING = "pending"  # the game goes on and the promise can still be kept
    UNTESTED = "untested"  # a move promise that never met a choice where it applied
    UNCHECKABLE = "uncheckable"  # free text


@dataclass(frozen=True, slots=True)
class PromiseCheck:
    """One promise of an agreed bargain and what became of it."""

    text: str
    promise: Promise | None  # None for the bargain's free-text note
    verdict: Verdict
    evidence: tuple[int, ...] = ()  # sequence numbers of the entries that decided it
    detail: str = ""


@dataclass(frozen=True, slots=True)
class BargainReport:
    bargain: int
    proposer: int
    to: tuple[int, ...]
    private: bool
    proposed_at: int
    agreed_at: int
    checks: tuple[PromiseCheck, ...]


@dataclass
class _Tracker:
    promise: Promise
    left: int = 0  # chips still owed
    verdict: Verdict | None = None
    evidence: list[int] = field(default_factory=list)
    detail: str = ""


@dataclass
class _Pending:
    seq: int
    proposer: int
    action: Propose
    accepted: set[int] = field(default_factory=set)


def bargain_report(match: Match[SuckerState, Any]) -> list[BargainReport]:
    """Every bargain agreed in `match`, each promise marked kept, broken or open."""
    state = match.start_state()  # its position, or its set-up
    proposals: dict[int, _Pending] = {}
    agreed: list[tuple[int, _Pending, int, list[_Tracker]]] = []
    for entry in match.entries:
        if not isinstance(entry, ActionEntry):
            continue
        seat, action, seq = entry.seat, entry.action, entry.seq
        for _, _, _, trackers in agreed:
            for tracker in trackers:
                if tracker.verdict is None:
                    _observe(tracker, state, seat, action, seq)
        number = state.next_bargain
        RULES.apply(state, seat, action)
        if isinstance(action, Propose):
            proposals[number] = _Pending(seq, seat, action)
        elif isinstance(action, Accept) and action.bargain in proposals:
            pending = proposals[action.bargain]
            pending.accepted.add(seat)
            if pending.accepted >= set(pending.action.to):
                trackers = [_tracker(t) for t in pending.action.terms]
                agreed.append((action.bargain, pending, seq, trackers))
                del proposals[action.bargain]
    over = match.is_over
    reports = []
    for number, pending, agreed_at, trackers in agreed:
        checks = [_close(t, state, over) for t in trackers]
        if pending.action.note:
            checks.append(PromiseCheck(f'"{pending.action.note}"', None, Verdict.UNCHECKABLE))
        reports.append(
            BargainReport(
                bargain=number,
                proposer=pending.proposer,
                to=pending.action.to,
                private=pending.action.private,
                proposed_at=pending.seq,
                agreed_at=agreed_at,
                checks=tuple(checks),
            )
        )
    return reports


def _tracker(promise: Promise) -> _Tracker:
    return _Tracker(promise, left=promise.count if isinstance(promise, ChipPromise) else 0)


def _observe(tracker: _Tracker, state: SuckerState, seat: int, action: Any, seq: int) -> None:
    """Update one open promise with the action about to be applied in `state`."""
    promise = tracker.promise
    if isinstance(promise, ChipPromise):
        if seat != promise.giver:
            return
        given = 0
        if isinstance(action, GivePrisoner) and action.to == promise.to:
            given = int(action.chip == promise.chip)
        elif isinstance(action, Rescue) and action.target == promise.to:
            given = sum(1 for chip in action.chips if chip == promise.chip)
        if given:
            tracker.left -= given
            tracker.evidence.append(seq)
            if tracker.left <= 0:
                tracker.verdict = Verdict.KEPT
    elif isinstance(action, ChooseNext) and seat == promise.chooser and promise.to in state.choices:
        tracker.evidence.append(seq)
        if action.player == promise.to:
            tracker.verdict = Verdict.KEPT
        else:
            tracker.verdict = Verdict.BROKEN
            tracker.detail = f"chose {label(action.player)} instead"


def _close(tracker: _Tracker, state: SuckerState, over: bool) -> PromiseCheck:
    promise = tracker.promise
    verdict = tracker.verdict
    detail = tracker.detail
    if verdict is None:
        if isinstance(promise, ChipPromise):
            gone = not (state.alive[promise.giver] and state.alive[promise.to])
            if over or gone:
                verdict = Verdict.BROKEN
                detail = f"{promise.count - tracker.left} of {promise.count} given"
            else:
                verdict = Verdict.PENDING
        else:
            assert isinstance(promise, PassPromise)
            gone = not (state.alive[promise.chooser] and state.alive[promise.to])
            verdict = Verdict.UNTESTED if over or gone else Verdict.PENDING
    return PromiseCheck(format_promise(promise), promise, verdict, tuple(tracker.evidence), detail)
