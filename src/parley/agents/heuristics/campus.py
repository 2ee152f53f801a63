"""A Campus Conquest player that takes landmarks, fights only good odds and hunts the PVC.

* Each step is scored one at a time from the public board (owners, units, levels, bonuses):
  unowned and undefended enemy landmarks first, then other free sectors, then attacks whose
  exact chance of winning (both dice enumerated, bonuses included) is high enough for what
  the sector is worth; an opponent's last sector is taken whenever the odds allow.
* Without a capture in reach it walks towards the nearest sector it could take, and towards
  the PVC once it is revealed; it vacates landmarks so new units appear on them, and keeps a
  unit on a landmark that an enemy unit stands next to.
* Minigame: the best reply, given the mean the other players picked last time (50 before
  any minigame), to "closest to two thirds of the average".

It never reads the hidden PVC: only its revealed sector, as every player sees it.
"""

from __future__ import annotations

from collections import deque
from functools import cache
from typing import Any

from parley.games.campus import NOBODY, CampusMap, CampusState, Move, Pass, Phase, Pick
from parley.kernel import Rules

from ..draws import heuristic_accepts
from ..protocol import Decision

LANDMARK = 12.0
SECTOR = 4.0
LAST_SECTOR = 1000.0
UNIT = 5.0  # what losing a unit costs (more for higher levels)
PVC_REVEALED = 25.0


@cache
def win_chance(a_level: int, d_level: int, a_bonus: int, d_bonus: int) -> float:
    """Chance that 1..(4+a_level)+a_bonus beats 1..(4+d_level)+d_bonus strictly."""
    a_sides, d_sides = 4 + a_level, 4 + d_level
    wins = sum(
        1 for a in range(1, a_sides + 1) for d in range(1, d_sides + 1) if a + a_bonus > d + d_bonus
    )
    return wins / (a_sides * d_sides)


def _distances(board: CampusMap, targets: list[int]) -> list[int]:
    """Steps from every sector to the nearest target (a large number if none)."""
    far = board.size * 2
    dist = [far] * board.size
    todo: deque[int] = deque()
    for t in targets:
        dist[t] = 0
        todo.append(t)
    while todo:
        s = todo.popleft()
        for n in board.adjacent[s]:
            if dist[n] > dist[s] + 1:
                dist[n] = dist[s] + 1
                todo.append(n)
    return dist


class CampusHeuristic:
    """Greedy on one step at a time, with exact combat odds."""

    name = "heuristic"

    def __init__(self, rules: Rules[Any, Any]) -> None:
        self.rules = rules

    def accepts_draw(self, decision: Decision) -> bool:
        """Late enough in the game, and not ahead (`parley.agents.draws`)."""
        return heuristic_accepts(decision)

    def choose(self, decision: Decision) -> Any:
        state: CampusState = decision.state
        me = decision.seat
        if state.phase is Phase.MINIGAME:
            return self._pick(state, me)
        legal = decision.legal
        if state.phase is not Phase.MOVE or state.current != me or not legal:
            return decision.rules.default_action(state, me)
        best: Any = Pass()
        best_score = 0.0
        targets = self._targets(state, me)
        dist = _distances(state.board, targets) if targets else None
        for action in legal:
            if not isinstance(action, Move):
                continue
            score = self._score(state, me, action, dist)
            if score > best_score:
                best, best_score = action, score
        return best

    # --- steps ---------------------------------------------------------------------------

    def _targets(self, state: CampusState, me: int) -> list[int]:
        """Where it wants to go: sectors it could take without a fight, and the seen PVC."""
        board = state.board
        out = [s for s in range(board.size) if state.owner[s] != me and state.unit[s] == NOBODY]
        if state.pvc_revealed and state.pvc != NOBODY:
            out = [state.pvc]
        return out

    def _score(self, state: CampusState, me: int, move: Move, dist: list[int] | None) -> float:
        board = state.board
        src, dst = board.index[move.src], board.index[move.dst]
        owner, unit, level = state.owner[dst], state.unit[dst], state.level
        landmark = board.is_landmark[dst]
        worth = LANDMARK if landmark else SECTOR
        revealed_pvc = state.pvc_revealed and dst == state.pvc
        if revealed_pvc:
            worth += PVC_REVEALED
        score: float
        if unit == me:
            return -1.0  # swaps rarely help a greedy player
        if unit != NOBODY:
            last = state.held[unit] == 1
            p = win_chance(level[src], level[dst], state.attack(me), state.defence(unit))
            gain = worth + UNIT + (LAST_SECTOR if last else 0.0)
            loss = UNIT + 2.0 * level[src]
            score = p * gain - (1 - p) * loss
            if p < (0.5 if last else 0.6):
                return -1.0
            return score
        if owner == me:
            score = 0.0
        else:
            score = worth + (LAST_SECTOR if owner != NOBODY and state.held[owner] == 1 else 0)
            if owner != NOBODY and state.steps > 1:
                score -= 1.0  # a free capture ends the turn: take unowned ground first
        # walking: closer to something worth taking (or the revealed PVC)
        if dist is not None:
            score += 1.5 * (dist[src] - dist[dst])
        if board.is_landmark[src]:
            threatened = any(state.unit[n] not in (NOBODY, me) for n in board.adjacent[src])
            score += -6.0 if threatened else 1.0  # vacate it so a new unit appears
        return score

    # --- the minigame --------------------------------------------------------------------

    def _pick(self, state: CampusState, me: int) -> Pick:
        game = state.minigame
        players = len(game.players) if game is not None else 2
        mean = 50.0
        last = state.last_minigame
        if last is not None:
            others = [v for s, v in last["picks"].items() if int(s) != me and v is not None]
            if others:
                mean = sum(others) / len(others)
        # x = 2/3 * (x + (n-1) m) / n  =>  x = 2 (n-1) m / (3n - 2)
        n = max(players, 2)
        return Pick(max(0, min(100, round(2 * (n - 1) * mean / (3 * n - 2)))))


def make(rules: Rules[Any, Any]) -> CampusHeuristic:
    return CampusHeuristic(rules)
