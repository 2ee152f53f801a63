"""The winter adjustment phase: builds, disbands and waived builds.

A power with more centres than units may build, up to the difference, only in its own
home centres that it still owns and that are empty; a power with fewer centres disbands
down to its centre count. Orders are taken one by one in the order given; orders beyond
what is owed are ignored (DATC 4.D.4–4.D.6). Disbands still owed afterwards are chosen
by the civil-disorder rule; builds not ordered are waived.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .civil_disorder import CivilDisorderRule, disorder_disbands
from .map import DipMap, ProvinceKind
from .orders import Build, Disband, Order, Waive
from .position import Piece, Position
from .results import OrderResult, Outcome, Reason
from .units import UnitKind


@dataclass(frozen=True, slots=True)
class AdjustmentReport:
    results: list[OrderResult]
    position: Position


def adjustment_counts(pos: Position) -> list[int]:
    """Per power: builds owed (>0) or disbands owed (<0); free home centres cap builds."""
    dip = pos.map
    centres = pos.centre_counts()
    units = pos.unit_counts()
    out: list[int] = []
    for p, power in enumerate(dip.powers):
        delta = centres[p] - units[p]
        if delta > 0:
            delta = min(delta, len(free_homes(pos, power)))
        out.append(delta)
    return out


def free_homes(pos: Position, power: str) -> list[int]:
    """Home centres of `power` it owns and nobody stands in (where it may build)."""
    p = pos.map.power_index[power]
    return [
        c
        for c in pos.map.home_centres.get(power, ())
        if pos.owner.get(c) == p and c not in pos.units
    ]


def _build_location(dip: DipMap, order: Build) -> tuple[int, bool] | Reason:
    """(location, is fleet) for a build order, or why it is illegal (DATC 4.B.7, 4.C.3–4.C.4)."""
    loc = dip.loc_index.get(order.loc)
    if loc is None:
        return Reason.NO_UNIT
    prov = dip.provinces[dip.loc_province[loc]]
    named_coast = dip.locations[loc].coast is not None
    kind = order.unit
    if kind is None:
        if prov.kind is ProvinceKind.LAND:
            kind = UnitKind.ARMY
        elif named_coast:
            kind = UnitKind.FLEET
        else:
            return Reason.NEEDS_COAST if prov.coasts else Reason.WRONG_TERRAIN
    if kind is UnitKind.ARMY:
        if prov.kind not in (ProvinceKind.LAND, ProvinceKind.COAST):
            return Reason.WRONG_TERRAIN
        return prov.index, False
    if prov.kind is not ProvinceKind.COAST:
        return Reason.WRONG_TERRAIN
    if prov.coasts and not named_coast:
        return Reason.NEEDS_COAST
    return loc, True


def adjudicate_adjustments(
    pos: Position,
    orders: Mapping[str, Sequence[Order]],
    rule: CivilDisorderRule = CivilDisorderRule.SEED,
) -> AdjustmentReport:
    """Resolve a winter adjustment phase."""
    dip = pos.map
    owed = adjustment_counts(pos)
    units = dict(pos.units)
    results: list[OrderResult] = []
    removed: dict[int, set[int]] = {}
    for power_name, given in orders.items():
        p = dip.power_index.get(power_name.upper(), -1)
        for order in given:
            results.append(_one(dip, pos, units, owed, removed, p, power_name, order))
    for p, need in enumerate(owed):
        if need >= 0:
            continue
        gone = removed.setdefault(p, set())
        for prov in disorder_disbands(pos, p, -need, rule, gone):
            piece = units.pop(prov)
            gone.add(prov)
            kind = UnitKind.FLEET if piece.fleet else UnitKind.ARMY
            results.append(
                OrderResult(
                    dip.powers[p],
                    Disband(kind, dip.locations[piece.loc].code),
                    Outcome.SUCCEEDS,
                    Reason.DISBANDED,
                    defaulted=True,
                )
            )
        owed[p] = 0
    nxt = Position(dip, pos.phase, units, dict(pos.owner), {}, 0)
    return AdjustmentReport(results, nxt)


def _one(
    dip: DipMap,
    pos: Position,
    units: dict[int, Piece],
    owed: list[int],
    removed: dict[int, set[int]],
    p: int,
    power_name: str,
    order: Order,
) -> OrderResult:
    def illegal(reason: Reason, *who: str) -> OrderResult:
        return OrderResult(power_name, order, Outcome.ILLEGAL, reason, who)

    if p < 0:
        return illegal(Reason.FOREIGN_UNIT)
    if isinstance(order, Waive):
        if owed[p] <= 0:
            return illegal(Reason.TOO_MANY, "no build is owed")
        owed[p] -= 1
        return OrderResult(power_name, order, Outcome.SUCCEEDS, Reason.WAIVED)
    if isinstance(order, Build):
        where = _build_location(dip, order)
        if isinstance(where, Reason):
            return illegal(where)
        loc, fleet = where
        prov = dip.loc_province[loc]
        home = dip.provinces[prov].home
        if home != dip.powers[p]:
            return illegal(Reason.NOT_HOME_CENTRE)
        if pos.owner.get(prov) != p:
            return illegal(Reason.NOT_OWNED)
        if prov in units:
            return illegal(Reason.OCCUPIED)
        if owed[p] <= 0:
            return illegal(Reason.TOO_MANY, "no build is left")
        owed[p] -= 1
        units[prov] = Piece(p, fleet, loc)
        return OrderResult(power_name, order, Outcome.SUCCEEDS, Reason.BUILT)
    if isinstance(order, Disband):
        spot = dip.loc_index.get(order.loc)
        prov = -1 if spot is None else dip.loc_province[spot]
        piece = units.get(prov)
        if piece is None or prov in removed.get(p, ()) or prov not in pos.units:
            return illegal(Reason.NO_UNIT)
        if piece.power != p:
            return illegal(Reason.FOREIGN_UNIT, dip.powers[piece.power])
        if owed[p] >= 0:
            return illegal(Reason.TOO_MANY, "no disband is owed")
        owed[p] += 1
        del units[prov]
        removed.setdefault(p, set()).add(prov)
        return OrderResult(power_name, order, Outcome.SUCCEEDS, Reason.DISBANDED)
    return illegal(Reason.WRONG_PHASE)
