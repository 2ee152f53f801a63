"""So Long Sucker negotiators: they propose and answer bargains of mutual passes.

Out of turn, the bot offers each rival it has no bargain with a pact: each gives the move
to the other whenever the rules let them choose. It accepts pacts of passes from anyone
but the strongest rival, and refuses every bargain that asks it for chips. The `honest`
policy then gives the move to its partner whenever it may; the `opportunist` makes the
same pacts and chooses as the heuristic would.
"""

from __future__ import annotations

from typing import Any

from parley.games.sucker.actions import (
    Accept,
    ChipPromise,
    ChooseNext,
    PassPromise,
    Propose,
    Reject,
)
from parley.games.sucker.analysis import Verdict, bargain_report
from parley.games.sucker.state import SuckerState
from parley.kernel import Match, Rules

from ..heuristics.sucker import SuckerHeuristic
from ..protocol import Decision, Reply


class SuckerNegotiator:
    talks = True
    acts_anytime = True

    def __init__(self, rules: Rules[Any, Any], policy: str) -> None:
        self.name = "negotiator" if policy == "honest" else "opportunist"
        self.policy = policy
        self.rules = rules
        self.heuristic = SuckerHeuristic(rules)

    def accepts_draw(self, decision: Decision) -> bool:
        """As the heuristic it plays by: late enough, and not ahead."""
        return self.heuristic.accepts_draw(decision)

    def choose(self, decision: Decision) -> Any:
        state: SuckerState = decision.state
        me = decision.seat
        answer = self._answer_bargains(state, me)
        if answer is not None:
            return Reply(answer)
        if not decision.owed:
            offer = self._offer(state, me)
            return Reply(offer)
        if self.policy == "honest":
            promised = self._promised_pass(state, me, decision)
            if promised is not None:
                return promised
        return self.heuristic.choose(decision)

    def _strongest_rival(self, state: SuckerState, me: int) -> int | None:
        """The rival holding strictly more chips than every other, if there is one."""
        rivals = sorted((s for s in state.survivors() if s != me), key=state.held)
        if not rivals or (len(rivals) > 1 and state.held(rivals[-1]) == state.held(rivals[-2])):
            return None
        return rivals[-1]

    def _answer_bargains(self, state: SuckerState, me: int) -> Accept | Reject | None:
        leader = self._strongest_rival(state, me)
        for bargain in state.bargains.values():
            if me not in bargain.to or me in bargain.accepted:
                continue
            asks_chips = any(isinstance(t, ChipPromise) and t.giver == me for t in bargain.terms)
            if asks_chips or bargain.proposer == leader:
                return Reject(bargain.id)
            return Accept(bargain.id)
        return None

    def _offer(self, state: SuckerState, me: int) -> Propose | None:
        if not state.alive[me]:
            return None
        tied = {p for b in state.agreed if me in b.parties for p in b.parties}
        tied |= {p for b in state.bargains.values() if b.proposer == me for p in b.to}
        leader = self._strongest_rival(state, me)
        for rival in state.survivors():
            if rival in (me, leader) or rival in tied:
                continue
            if self._strongest_rival(state, rival) == me:
                continue  # it would refuse: to it, I am the one to stop
            return Propose(
                to=(rival,),
                terms=(PassPromise(me, rival), PassPromise(rival, me)),
            )
        return None

    def _promised_pass(self, state: SuckerState, me: int, decision: Decision) -> Any:
        choices = [a for a in decision.legal if isinstance(a, ChooseNext)]
        if not choices:
            return None
        owed_to = {
            t.to
            for b in state.agreed
            if me in b.parties
            for t in b.terms
            if isinstance(t, PassPromise) and t.chooser == me
        }
        for action in choices:
            if action.player in owed_to:
                return action
        return None


def make(rules: Rules[Any, Any], policy: str) -> SuckerNegotiator:
    return SuckerNegotiator(rules, policy)


def promises(match: Match[Any, Any]) -> dict[str, int]:
    counts = {"kept": 0, "broken": 0, "open": 0}
    for report in bargain_report(match):
        for check in report.checks:
            if check.verdict is Verdict.KEPT:
                counts["kept"] += 1
            elif check.verdict is Verdict.BROKEN:
                counts["broken"] += 1
            elif check.verdict in (Verdict.PENDING, Verdict.UNTESTED):
                counts["open"] += 1
    return counts
