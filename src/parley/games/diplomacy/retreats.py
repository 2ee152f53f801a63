"""The retreat phase: where dislodged units may go, and what happens to them.

A dislodged unit may retreat to a province its unit kind can move to that is empty, was
not left empty by a standoff, and is not where its attacker came from (unless the attacker
came by convoy: DATC 4.A.5). Two retreats to one province both fail; a unit whose retreat
fails, is illegal, or is not ordered is disbanded.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from .legality import fleet_destination
from .map import DipMap
from .native import ILLEGAL, CoreMap, core_map, order_table
from .orders import Disband, Order, Retreat
from .position import Dislodged, Position
from .results import OrderResult, Outcome, Reason
from .units import UnitKind


@dataclass(frozen=True, slots=True)
class RetreatReport:
    results: list[OrderResult]
    position: Position


def retreat_options(pos: Position, prov: int) -> list[int]:
    """Locations the dislodged unit in province `prov` may retreat to."""
    dip = pos.map
    away = pos.dislodged[prov]
    piece = away.piece
    blocked = pos.contested
    if away.attacker_from >= 0:
        blocked |= 1 << away.attacker_from
    units = pos.units
    candidates = dip.fleet_adj[piece.loc] if piece.fleet else dip.army_adj[piece.loc]
    loc_province = dip.loc_province
    return [
        d for d in candidates if not blocked >> loc_province[d] & 1 and loc_province[d] not in units
    ]


def _check(dip: DipMap, pos: Position, power: int, order: Order) -> tuple[int, int] | Reason:
    """(dislodged province, destination location or -1 for a disband), or why illegal."""
    if not isinstance(order, (Retreat, Disband)):
        return Reason.WRONG_PHASE
    loc = dip.loc_index.get(order.loc)
    if loc is None:
        return Reason.NO_UNIT
    prov = dip.loc_province[loc]
    away: Dislodged | None = pos.dislodged.get(prov)
    if away is None:
        return Reason.NOT_DISLODGED if prov in pos.units else Reason.NO_UNIT
    if away.piece.power != power:
        return Reason.FOREIGN_UNIT
    if isinstance(order, Disband):
        return prov, -1
    piece = away.piece
    if piece.fleet:
        found = fleet_destination(dip, piece.loc, order.dst)
        if isinstance(found, Reason):
            return found
        dst = found
    else:
        d = dip.loc_index.get(order.dst)
        if d is None:
            return Reason.UNREACHABLE
        dst = dip.loc_province[d]
        if dst not in dip.army_adj[piece.loc]:
            return Reason.UNREACHABLE
    if dst not in retreat_options(pos, prov):
        return Reason.RETREAT_BLOCKED
    return prov, dst


def _native_checks(
    core: CoreMap, pos: Position, orders: Mapping[str, Sequence[Order]]
) -> Iterator[tuple[int, int] | Reason]:
    """`_check` of every order, in the order given, by the native core."""
    dip = pos.map
    powers: list[int] = []
    given: list[Order] = []
    for power_name, mine in orders.items():
        powers.extend([dip.power_index.get(power_name.upper(), -1)] * len(mine))
        given.extend(mine)
    dislodged = [
        (p, a.piece.power, a.piece.fleet, a.piece.loc, a.attacker_from)
        for p, a in pos.dislodged.items()
    ]
    found = core.retreat_check(
        list(pos.units), dislodged, pos.contested, powers, given, order_table(dip)
    )
    return (ILLEGAL[x] if isinstance(x, int) else x for x in found)


def adjudicate_retreats(pos: Position, orders: Mapping[str, Sequence[Order]]) -> RetreatReport:
    """Resolve a retreat phase; the returned position has no dislodged units left."""
    dip = pos.map
    entries: list[tuple[str, Order, tuple[int, int] | Reason]] = []
    chosen: dict[int, tuple[int, int]] = {}
    clashes: set[int] = set()
    core = core_map(dip)
    checked = None if core is None else _native_checks(core, pos, orders)
    for power_name, given in orders.items():
        p_index = dip.power_index.get(power_name.upper(), -1)
        for order in given:
            found = _check(dip, pos, p_index, order) if checked is None else next(checked)
            entries.append((power_name, order, found))
            if isinstance(found, tuple):
                prev = chosen.get(found[0])
                if prev is None:
                    chosen[found[0]] = found
                elif prev != found:
                    clashes.add(found[0])
    for prov in clashes:
        del chosen[prov]
    arrivals: dict[int, list[int]] = {}
    for prov, (_, dst) in chosen.items():
        if dst >= 0:
            arrivals.setdefault(dip.loc_province[dst], []).append(prov)

    def name(prov: int) -> str:
        piece = pos.dislodged[prov].piece
        return f"{'F' if piece.fleet else 'A'} {dip.locations[piece.loc].code}"

    units = dict(pos.units)
    results: list[OrderResult] = []
    for power_name, order, found in entries:
        if isinstance(found, Reason):
            results.append(OrderResult(power_name, order, Outcome.ILLEGAL, found))
            continue
        prov, dst = found
        if prov in clashes:
            results.append(OrderResult(power_name, order, Outcome.ILLEGAL, Reason.DUPLICATE))
            continue
        if dst < 0:
            results.append(OrderResult(power_name, order, Outcome.SUCCEEDS, Reason.DISBANDED))
            continue
        rivals = arrivals[dip.loc_province[dst]]
        if len(rivals) > 1:
            who = tuple(name(r) for r in rivals if r != prov)
            results.append(
                OrderResult(power_name, order, Outcome.FAILS, Reason.RETREAT_BOUNCED, who)
            )
            continue
        piece = pos.dislodged[prov].piece
        units[dip.loc_province[dst]] = piece._replace(loc=dst)
        results.append(OrderResult(power_name, order, Outcome.SUCCEEDS, Reason.RETREATED))
    for prov, away in pos.dislodged.items():
        if prov not in chosen:
            piece = away.piece
            kind = UnitKind.FLEET if piece.fleet else UnitKind.ARMY
            results.append(
                OrderResult(
                    dip.powers[piece.power],
                    Disband(kind, dip.locations[piece.loc].code),
                    Outcome.SUCCEEDS,
                    Reason.DISBANDED,
                    defaulted=True,
                )
            )
    nxt = Position(dip, pos.phase, units, dict(pos.owner), {}, 0)
    return RetreatReport(results, nxt)
