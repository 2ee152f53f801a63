"""A So Long Sucker player that keeps its chips, starves its rivals and props up allies.

* Move: every chip it could play is tried on a copy of the table (the table is public);
  it prefers plays that capture for itself, never feeds a rival a capture when it can
  help it, and avoids handing the next mover a pile topped with that mover's own colour.
  It plays prisoners before its own colour, which it keeps for its own captures.
* Next player: someone chipless (who may fall), else whoever can capture least.
* Kill: a chip of the strongest rival's colour, keeping its own and the useful ones.
* Rescue: allies only, with the prisoner it needs least. Allies are the partners of
  bargains it agreed to, and, when one rival leads, the weakest of the others (keeping a
  counterweight alive is better than leaving the leader one rival fewer).

It answers only what it owes; it proposes no bargains.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parley.games.sucker import (
    ChooseNext,
    Decline,
    KillFromPile,
    Phase,
    Play,
    Rescue,
    SuckerState,
)
from parley.kernel import Rules

from ..draws import heuristic_accepts
from ..protocol import Decision

_WIN = 1000.0


class SuckerHeuristic:
    """Avoids feeding captures, uses prisoners, rescues allies."""

    name = "heuristic"

    def __init__(self, rules: Rules[Any, Any]) -> None:
        self.rules = rules

    def accepts_draw(self, decision: Decision) -> bool:
        """Late enough in the game, and not ahead (`parley.agents.draws`)."""
        return heuristic_accepts(decision)

    def choose(self, decision: Decision) -> Any:
        state: SuckerState = decision.state
        me = decision.seat
        owed = [a for a in decision.legal if isinstance(a, _OWED_KINDS)]
        if not owed:
            return decision.rules.default_action(state, me)
        if state.phase is Phase.MOVE:
            return self._play(decision, [a for a in owed if isinstance(a, Play)])
        if state.phase is Phase.NEXT:
            return self._next(decision, [a for a in owed if isinstance(a, ChooseNext)])
        if state.phase is Phase.KILL:
            return self._kill(decision, [a for a in owed if isinstance(a, KillFromPile)])
        return self._rescue(decision, owed)

    # --- moves ---------------------------------------------------------------------------

    def _play(self, decision: Decision, owed: Sequence[Play]) -> Play:
        state: SuckerState = decision.state
        me = decision.seat
        best: tuple[float, str] | None = None
        choice = owed[0]
        for action in owed:
            after = decision.rules.clone(state)
            decision.rules.apply(after, me, action)
            value = _value(after, me)
            if int(action.chip) == me:
                value -= 0.3  # own colour is worth keeping for own captures
            key = (value, decision.rules.format(action))
            if best is None or key > best:
                best, choice = key, action
        return choice

    def _next(self, decision: Decision, owed: Sequence[ChooseNext]) -> ChooseNext:
        state: SuckerState = decision.state

        def score(action: ChooseNext) -> tuple[float, int]:
            seat = action.player
            if state.held(seat) == 0 and seat not in _allies(state, decision.seat):
                return (100.0, -seat)  # chipless: it may fall
            return (-_best_capture(state, seat) - 0.1 * state.held(seat), -seat)

        return max(owed, key=score)

    def _kill(self, decision: Decision, owed: Sequence[KillFromPile]) -> KillFromPile:
        state: SuckerState = decision.state
        me = decision.seat
        strength = _strength(state)

        def score(action: KillFromPile) -> tuple[float, int]:
            colour = int(action.chip)
            if colour == me:
                return (-100.0, colour)
            if not state.alive[colour]:
                return (-1.0, colour)  # a fallen colour is harmless in my hand
            return (float(strength[colour]), -colour)

        return max(owed, key=score)

    def _rescue(self, decision: Decision, owed: Sequence[Any]) -> Any:
        state: SuckerState = decision.state
        me = decision.seat
        target = state.holder
        rescues = [a for a in owed if isinstance(a, Rescue)]
        decline = next((a for a in owed if isinstance(a, Decline)), owed[-1])
        if not rescues or target not in _allies(state, me):
            return decline

        def cost(action: Rescue) -> tuple[int, int, int]:
            colour = int(action.chips[0])
            if not state.alive[colour]:
                tier = 0  # a fallen colour costs nothing
            elif colour == target:
                tier = 1  # their own colour lets them capture for themselves
            else:
                tier = 2
            return (tier, -state.hands[me][colour], colour)  # then what it holds most of

        return min(rescues, key=cost)


_OWED_KINDS = (Play, ChooseNext, KillFromPile, Rescue, Decline)


def _strength(state: SuckerState) -> list[int]:
    """Chips each seat could still play, counting what it holds."""
    return [state.held(s) if state.alive[s] else 0 for s in range(state.seats)]


def _allies(state: SuckerState, me: int) -> set[int]:
    allies: set[int] = set()
    for bargain in state.agreed:
        if me in bargain.parties:
            allies |= set(bargain.parties)
    strength = _strength(state)
    rivals = [s for s in state.survivors() if s != me]
    if len(rivals) >= 2:
        leader = max(rivals, key=lambda s: strength[s])
        if strength[leader] > strength[me]:
            allies.add(min((s for s in rivals if s != leader), key=lambda s: strength[s]))
    allies.discard(me)
    return allies


def _best_capture(state: SuckerState, seat: int) -> int:
    """Chips `seat` would win by playing its own colour on a pile topped with it."""
    if not state.alive[seat] or not state.hands[seat][seat]:
        return 0
    best = 0
    for chips in state.piles.values():
        if chips and chips[-1] == seat:
            best = max(best, len(chips))
    return best


def _value(state: SuckerState, me: int) -> float:
    """How good a table is for `me` once the chip is down (higher is better)."""
    if state.winner is not None:
        return _WIN if state.winner == me else -_WIN
    if not state.alive[me]:
        return -_WIN
    phase = state.phase
    if phase is Phase.OVER:
        return _WIN / 4  # a drawn game with me in it
    held = [float(h) for h in _strength(state)]
    if phase is Phase.KILL:
        held[state.capturer] += len(state.captured) - 1
    mover = state.actor()
    if phase is Phase.MOVE and mover is not None:
        held[mover] += 0.7 * _best_capture(state, mover)
    elif phase is Phase.NEXT and state.holder == me:
        # I choose next: the least dangerous of my choices.
        threat = min((_best_capture(state, s) for s in state.choices), default=0)
        held[me] += 0.2  # choosing keeps the initiative
        return held[me] - 0.7 * threat - 0.5 * _lead(held, me)
    elif phase is Phase.RESCUE and state.holder != me:
        held[state.holder] -= 2  # chipless and maybe about to fall
    fallen = sum(1 for s in range(state.seats) if not state.alive[s])
    return held[me] - 0.5 * _lead(held, me) + 3.0 * fallen


def _lead(held: Sequence[float], me: int) -> float:
    rivals = [h for s, h in enumerate(held) if s != me]
    return max(rivals, default=0.0) + 0.5 * sum(rivals) / max(1, len(rivals))


def make(rules: Rules[Any, Any]) -> SuckerHeuristic:
    return SuckerHeuristic(rules)
