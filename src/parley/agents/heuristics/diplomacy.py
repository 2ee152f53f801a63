"""A Diplomacy player that keeps what it has and takes what is near.

Movement: a unit on a centre it does not own yet holds (ownership changes after the
fall); a unit on one of its own centres with an enemy next door holds; the others move
onto free centres next to them, else a step towards the nearest centre not yet theirs,
never two units into one province. Units that cannot advance support a threatened
holder, or the attack of a neighbour. Retreats go towards centres; builds fill the free
home centres nearest to a centre worth taking, with the kind of unit that gets there
sooner (on a tie, whichever the power has fewer of); disbands drop the units farthest
from anything worth taking. It gives no convoys.

It reads the seat's observation (units and centres are public) and its legal orders,
and uses the map's adjacency from the state; it never looks at anyone's pending orders.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from parley.games.diplomacy import DiplomacyState, DipMap
from parley.kernel import Rules

from ..draws import heuristic_accepts
from ..protocol import Decision

# Scores of a move's destination: the higher, the better.
_NEUTRAL_CENTRE = 30
_ENEMY_CENTRE = 20
_OWN_THREATENED = 25


@dataclass(frozen=True, slots=True)
class _Order:
    """A legal order by its notation: `A PAR - BUR`, `F NTH S A YOR - NWY`, `WAIVE`."""

    text: str
    kind: str  # "H", "-", "S", "C", "R", "D", "B", "WAIVE"
    unit: str  # "A" / "F" ("" for WAIVE)
    loc: str  # the ordered unit's location code
    target: str = ""  # supported/convoyed unit location
    dst: str = ""  # destination location code (move, retreat, supported move)
    via: bool = False

    @property
    def prov(self) -> str:
        return self.loc.split("/")[0]

    @property
    def dst_prov(self) -> str:
        return self.dst.split("/")[0]


def _read(text: str) -> _Order:
    words = text.split()
    if words == ["WAIVE"]:
        return _Order(text, "WAIVE", "", "")
    unit, loc, verb, *rest = words
    if verb == "-":
        return _Order(text, "-", unit, loc, dst=rest[0], via=rest[-1] == "VIA")
    if verb == "R":
        return _Order(text, "R", unit, loc, dst=rest[0])
    if verb in ("S", "C"):
        # "S A BUR" / "S A BUR - PAR" / "C A LON - NWY"
        target = rest[1]
        dst = rest[3] if len(rest) >= 4 else ""
        return _Order(text, verb, unit, loc, target=target, dst=dst)
    return _Order(text, verb, unit, loc)


class DiplomacyHeuristic:
    """Holds and supports its centres, takes neutral ones, builds."""

    name = "heuristic"

    def __init__(self, rules: Rules[Any, Any]) -> None:
        self.rules = rules

    def accepts_draw(self, decision: Decision) -> bool:
        """Late enough in the game, and not ahead (`parley.agents.draws`)."""
        return heuristic_accepts(decision)

    def choose(self, decision: Decision) -> Any:
        legal = {decision.rules.format(a): a for a in decision.legal}
        if not legal:
            return decision.rules.default_action(decision.state, decision.seat)
        board = _Board(decision)
        phase = str(board.position.get("phase", "S1901M"))
        orders = [_read(text) for text in legal]
        if phase.endswith("A"):
            chosen = board.adjust(orders)
        elif phase.endswith("R"):
            chosen = board.retreat(orders)
        else:
            chosen = board.move(orders)
        parts = [legal[text] for text in chosen]
        return decision.rules.combine(decision.state, decision.seat, parts)


class _Board:
    """The position as the seat sees it, with the map's distances at hand."""

    def __init__(self, decision: Decision) -> None:
        view = decision.view
        state: DiplomacyState = decision.state
        self.map: DipMap = state.map
        self.power: str = self.map.powers[decision.seat]
        self.position: Mapping[str, Any] = view.get("position", {})
        self.adjustments: Mapping[str, int] = view.get("adjustments", {}) or {}
        self.phase = str(self.position.get("phase", ""))
        self.fall = self.phase.startswith("F")
        self.unit_at: dict[str, tuple[str, str, str]] = {}  # province -> (power, kind, loc)
        for power, units in self.position.get("units", {}).items():
            for text in units:
                kind, loc = text.split()
                self.unit_at[loc.split("/")[0]] = (power, kind, loc)
        self.owner: dict[str, str] = {}
        for power, centres in self.position.get("centres", {}).items():
            for c in centres:
                self.owner[c] = power
        self.centres = [p.code for p in self.map.provinces if p.centre]
        self.targets = [c for c in self.centres if self.owner.get(c) != self.power]
        mask = 0
        for c in self.targets:
            mask |= 1 << self.map.prov_index[c]
        self.to_target = {
            "A": self.map.distances(mask, fleet=False) if mask else [],
            "F": self.map.distances(mask, fleet=True) if mask else [],
        }

    # --- facts ---------------------------------------------------------------------------

    def mine(self, prov: str) -> bool:
        unit = self.unit_at.get(prov)
        return unit is not None and unit[0] == self.power

    def enemy_at(self, prov: str) -> bool:
        unit = self.unit_at.get(prov)
        return unit is not None and unit[0] != self.power

    def reach(self, kind: str, loc: str) -> int:
        index = self.map.loc_index.get(loc)
        if index is None:
            return 0
        return int(self.map.reach_mask_of(kind == "F", index))

    def threatened(self, prov: str) -> bool:
        """An enemy unit stands next to `prov` and could move in."""
        bit = 1 << self.map.prov_index[prov]
        return any(
            power != self.power and self.reach(kind, loc) & bit
            for power, kind, loc in self.unit_at.values()
        )

    def distance(self, kind: str, prov: str) -> int:
        table = self.to_target[kind]
        if not table:
            return 0
        d = table[self.map.prov_index[prov]]
        return d if d >= 0 else 99

    def is_centre(self, prov: str) -> bool:
        return bool(self.map.provinces[self.map.prov_index[prov]].centre)

    # --- movement ------------------------------------------------------------------------

    def move(self, orders: Sequence[_Order]) -> list[str]:
        by_unit: dict[str, list[_Order]] = {}
        for order in orders:
            by_unit.setdefault(order.loc, []).append(order)
        chosen: dict[str, _Order] = {}
        claimed: set[str] = set()  # provinces my units will stand in
        # 1. Hold what would be lost: unowned centres under my units, threatened own centres.
        for loc, options in by_unit.items():
            prov = loc.split("/")[0]
            hold = next((o for o in options if o.kind == "H"), None)
            if hold is None or not self.is_centre(prov):
                continue
            owned = self.owner.get(prov) == self.power
            if not owned or self.threatened(prov):
                chosen[loc] = hold
                claimed.add(prov)
        # 2. Take free centres next door, best first.
        moves = [
            (self._move_score(o), o)
            for loc, options in by_unit.items()
            if loc not in chosen
            for o in options
            if o.kind == "-" and not o.via and self.is_centre(o.dst_prov)
        ]
        for score, order in sorted(moves, key=lambda x: (-x[0], x[1].text)):
            if score <= 0 or order.loc in chosen or order.dst_prov in claimed:
                continue
            if self.mine(order.dst_prov):
                continue
            chosen[order.loc] = order
            claimed.add(order.dst_prov)
        # 3. Everyone else: a step towards the nearest centre not yet mine.
        stay: list[str] = []
        for loc, options in sorted(by_unit.items()):
            if loc in chosen:
                continue
            kind = options[0].unit
            here = self.distance(kind, loc.split("/")[0])
            steps = [
                (self.distance(kind, o.dst_prov), o.text, o)
                for o in options
                if o.kind == "-"
                and not o.via
                and o.dst_prov not in claimed
                and not self.mine(o.dst_prov)
            ]
            best = min(steps, default=None, key=lambda x: (x[0], x[1]))
            if best is not None and best[0] < here:
                chosen[loc] = best[2]
                claimed.add(best[2].dst_prov)
            else:
                stay.append(loc)
        # 4. Units that cannot advance help: support a threatened holder or an attack.
        for loc in stay:
            options = by_unit[loc]
            support = self._support(options, chosen)
            if support is not None:
                chosen[loc] = support
            else:
                hold = next((o for o in options if o.kind == "H"), options[0])
                chosen[loc] = hold
            claimed.add(loc.split("/")[0])
        return [o.text for o in chosen.values()]

    def _move_score(self, order: _Order) -> int:
        dst = order.dst_prov
        owner = self.owner.get(dst)
        if owner == self.power:
            return 0
        score = _NEUTRAL_CENTRE if owner is None else _ENEMY_CENTRE
        if self.fall:
            score += 5  # centres change hands after the fall
        if self.enemy_at(dst):
            score -= 15  # it bounces without support
        return score

    def _support(self, options: Sequence[_Order], chosen: Mapping[str, _Order]) -> _Order | None:
        """A support for one of my own units' chosen orders, threatened holders first."""
        best: tuple[int, str, _Order] | None = None
        for option in options:
            if option.kind != "S":
                continue
            target = chosen.get(option.target)
            if target is None:
                continue
            if not option.dst and target.kind == "H":
                value = _OWN_THREATENED if self.threatened(target.prov) else 5
            elif option.dst and target.kind == "-" and target.dst == option.dst:
                value = self._move_score(target) + (10 if self.enemy_at(target.dst_prov) else 0)
            else:
                continue
            if best is None or (value, option.text) > (best[0], best[1]):
                best = (value, option.text, option)
        return best[2] if best is not None and best[0] > 0 else None

    # --- retreats ------------------------------------------------------------------------

    def retreat(self, orders: Sequence[_Order]) -> list[str]:
        by_unit: dict[str, list[_Order]] = {}
        for order in orders:
            by_unit.setdefault(order.loc, []).append(order)
        chosen: list[str] = []
        taken: set[str] = set()
        for _loc, options in sorted(by_unit.items()):
            ranked = sorted(
                (self._retreat_score(o), o.text, o)
                for o in options
                if o.kind == "R" and o.dst_prov not in taken
            )
            if ranked:
                order = ranked[-1][2]
                taken.add(order.dst_prov)
                chosen.append(order.text)
            else:
                disband = next((o for o in options if o.kind == "D"), options[0])
                chosen.append(disband.text)
        return chosen

    def _retreat_score(self, order: _Order) -> int:
        dst = order.dst_prov
        score = -self.distance(order.unit, dst)
        if self.is_centre(dst):
            owner = self.owner.get(dst)
            score += 10 if owner != self.power else 6
        return score

    # --- adjustments ---------------------------------------------------------------------

    def adjust(self, orders: Sequence[_Order]) -> list[str]:
        count = int(self.adjustments.get(self.power, 0))
        if count > 0:
            return self._builds(orders, count)
        if count < 0:
            return self._disbands(orders, -count)
        return []

    def _builds(self, orders: Sequence[_Order], count: int) -> list[str]:
        mine = [u for u in self.unit_at.values() if u[0] == self.power]
        fleets = sum(1 for u in mine if u[1] == "F")
        armies = len(mine) - fleets
        by_prov: dict[str, list[_Order]] = {}
        for order in orders:
            if order.kind == "B":
                by_prov.setdefault(order.prov, []).append(order)
        # Build where something is worth taking nearby.
        ranked = sorted(
            by_prov, key=lambda p: (min(self.distance(o.unit, p) for o in by_prov[p]), p)
        )
        chosen: list[str] = []
        for prov in ranked[:count]:
            options = by_prov[prov]
            want = "F" if fleets < armies else "A"
            # The kind that gets nearest to a centre; on a tie, whichever is scarcer.
            pick = min(options, key=lambda o: (self.distance(o.unit, prov), o.unit != want, o.text))
            if pick.unit == "F":
                fleets += 1
            else:
                armies += 1
            chosen.append(pick.text)
        return chosen

    def _disbands(self, orders: Sequence[_Order], count: int) -> list[str]:
        disbands = [o for o in orders if o.kind == "D"]
        ranked = sorted(disbands, key=lambda o: (-self.distance(o.unit, o.prov), o.text))
        return [o.text for o in ranked[:count]]


def make(rules: Rules[Any, Any]) -> DiplomacyHeuristic:
    return DiplomacyHeuristic(rules)
