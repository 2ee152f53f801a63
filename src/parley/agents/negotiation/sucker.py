"""So Long Sucker negotiators: they propose and answer bargains of mutual passes.

Out of turn, the bot offers each rival it has no bargain with a pact: each gives the move
to the other whenever the rules let them choose. It accepts pacts of passes from anyone
but the strongest rival, and refuses every bargain that asks it for chips. The `honest`
policy then gives the move to its partner whenever it may; the `opportunist` makes the
same pacts and chooses as the heuristic would.

Each seat keeps a ledger (`trust.Ledger`): a rival that broke a promise in a bargain with it
(the bargain report's verdict) is refused and never offered a pact again, and an honest
seat no longer passes to it. A choice that kept an older pact of passes is excused: first
come, first served. The honest seat keeps its oldest open pact first and takes a new pact
of passes only once it owes none (`one_pact_at_a_time`). A rival that never answers a
bargain is offered one once; an offer refused is not made again. The `naive` variant keeps
the same books but trusts everyone, and plays as before.
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
from parley.games.sucker.colours import label
from parley.games.sucker.state import SuckerState
from parley.kernel import ActionEntry, Match, Rules

from ..heuristics.sucker import SuckerHeuristic
from ..protocol import Decision, Reply
from .trust import Ledger


class SuckerNegotiator:
    talks = True
    acts_anytime = True
    # The parts of a seat's memory worth keeping across a server restart (plain JSON).
    remembers = ("ledger", "judged", "seen", "owe_after", "open_offers")

    def __init__(self, rules: Rules[Any, Any], policy: str, naive: bool = False) -> None:
        self.name = ("negotiator" if policy == "honest" else "opportunist") + (
            "-naive" if naive else ""
        )
        self.policy = policy
        self.naive = naive
        self.rules = rules
        self.heuristic = SuckerHeuristic(rules)

    def accepts_draw(self, decision: Decision) -> bool:
        """As the heuristic it plays by: late enough, and not ahead."""
        return self.heuristic.accepts_draw(decision)

    def choose(self, decision: Decision) -> Any:
        state: SuckerState = decision.state
        me = decision.seat
        ledger = Ledger(decision.memory, trusting=self.naive)
        self._audit(decision, ledger)
        answer = self._answer_bargains(state, me, ledger, decision.memory)
        if answer is not None:
            return Reply(answer)
        if not decision.owed:
            offer = self._offer(state, me, ledger, decision.memory)
            return Reply(offer)
        action = None
        if self.policy == "honest":
            action = self._promised_pass(state, me, decision, ledger)
        if action is None:
            action = self.heuristic.choose(decision)
        if isinstance(action, ChooseNext):
            # Every pass owed so far is now kept or broken; later pacts owe the next one.
            decision.memory["owe_after"] = state.next_bargain
        return action

    one_pact_at_a_time = True

    def _careful(self) -> bool:
        """An honest seat that minds its name promises one pass at a time: two pacts of
        passes owed at once cannot both be kept, and the partner left out would count
        it a betrayal."""
        return self.policy == "honest" and not self.naive and self.one_pact_at_a_time

    def _open_pacts(self, state: SuckerState, me: int, memory: dict[str, Any]) -> list[int]:
        """Whom this seat owes a pass, by pacts agreed since its last choice of who moves."""
        since = int(memory.get("owe_after", 0))
        return [
            t.to
            for b in state.agreed
            if b.id >= since
            for t in b.terms
            if isinstance(t, PassPromise) and t.chooser == me
        ]

    def _strongest_rival(self, state: SuckerState, me: int) -> int | None:
        """The rival holding strictly more chips than every other, if there is one."""
        rivals = sorted((s for s in state.survivors() if s != me), key=state.held)
        if not rivals or (len(rivals) > 1 and state.held(rivals[-1]) == state.held(rivals[-2])):
            return None
        return rivals[-1]

    def _audit(self, decision: Decision, ledger: Ledger) -> None:
        """Note who answers and who broke a promise to this seat since it last looked."""
        me = decision.seat
        for note in decision.inbox:
            sender = note.get("seat")
            if note.get("type") == "press" and isinstance(sender, int):
                ledger.heard(label(sender))
        match = decision.match
        if match is None:
            return
        memory = decision.memory
        seen = int(memory.get("seen", 0))
        entries = match.entries
        offers: dict[str, str] = memory.setdefault("open_offers", {})
        choices = False
        for entry in entries[seen:]:
            if not isinstance(entry, ActionEntry):
                continue
            action = entry.action
            if entry.seat == me:
                continue
            who = label(entry.seat)
            if isinstance(action, Accept | Reject) and who in offers:
                ledger.answered_offer(who, offers.pop(who), isinstance(action, Accept))
            elif isinstance(action, Accept | Reject | Propose):
                ledger.heard(who)
            choices = choices or isinstance(action, ChooseNext)
        memory["seen"] = len(entries)
        if not choices:
            return  # a promise of passes is only tested by a choice of who moves next
        judged: list[str] = memory.setdefault("judged", [])
        reports = bargain_report(match)
        # Passes kept: (chooser, to, record seq of the choice) -> when that pact was agreed.
        kept_at = {
            (check.promise.chooser, seq): report.agreed_at
            for report in reports
            for check in report.checks
            if isinstance(check.promise, PassPromise) and check.verdict is Verdict.KEPT
            for seq in check.evidence
        }
        for report in reports:
            if me != report.proposer and me not in report.to:
                continue
            for check in report.checks:
                promise = check.promise
                if check.verdict is not Verdict.BROKEN or promise is None:
                    continue
                culprit = promise.chooser if isinstance(promise, PassPromise) else promise.giver
                key = f"{report.bargain}:{check.text}"
                if culprit == me or key in judged:
                    continue
                judged.append(key)
                if isinstance(promise, PassPromise) and any(
                    kept_at.get((culprit, seq), report.agreed_at) < report.agreed_at
                    for seq in check.evidence
                ):
                    continue  # it kept an older pact at that choice: first come, first served
                ledger.broke(label(culprit), f"{check.text}: {check.detail}")

    def _answer_bargains(
        self, state: SuckerState, me: int, ledger: Ledger, memory: dict[str, Any]
    ) -> Accept | Reject | None:
        leader = self._strongest_rival(state, me)
        for bargain in state.bargains.values():
            if me not in bargain.to or me in bargain.accepted:
                continue
            asks_chips = any(isinstance(t, ChipPromise) and t.giver == me for t in bargain.terms)
            trusted = ledger.trusted(label(bargain.proposer))
            overcommits = (
                self._careful()
                and any(isinstance(t, PassPromise) and t.chooser == me for t in bargain.terms)
                and bool(self._open_pacts(state, me, memory))
            )
            if asks_chips or bargain.proposer == leader or not trusted or overcommits:
                return Reject(bargain.id)
            return Accept(bargain.id)
        return None

    def _offer(
        self, state: SuckerState, me: int, ledger: Ledger, memory: dict[str, Any]
    ) -> Propose | None:
        if not state.alive[me] or (self._careful() and self._open_pacts(state, me, memory)):
            return None
        tied = {p for b in state.agreed if me in b.parties for p in b.parties}
        tied |= {p for b in state.bargains.values() if b.proposer == me for p in b.to}
        leader = self._strongest_rival(state, me)
        for rival in state.survivors():
            if rival in (me, leader) or rival in tied:
                continue
            if self._strongest_rival(state, rival) == me:
                continue  # it would refuse: to it, I am the one to stop
            who = label(rival)
            key = f"pact of passes {label(me)}-{who}"
            if not ledger.worth_asking(who, key):
                continue  # broke its word, never answers, or refused this very pact
            ledger.offered(who, key)
            memory.setdefault("open_offers", {})[who] = key
            return Propose(
                to=(rival,),
                terms=(PassPromise(me, rival), PassPromise(rival, me)),
            )
        return None

    def _promised_pass(
        self, state: SuckerState, me: int, decision: Decision, ledger: Ledger
    ) -> Any:
        choices = [a for a in decision.legal if isinstance(a, ChooseNext)]
        if not choices:
            return None
        if not self.naive:
            # The oldest pact first: a choice that keeps an older pact is no betrayal.
            allowed = {a.player: a for a in choices}
            for to in self._open_pacts(state, me, decision.memory):
                if to in allowed and ledger.trusted(label(to)):
                    return allowed[to]
            return None
        else:
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


def make(rules: Rules[Any, Any], policy: str, naive: bool = False) -> SuckerNegotiator:
    return SuckerNegotiator(rules, policy, naive)


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
