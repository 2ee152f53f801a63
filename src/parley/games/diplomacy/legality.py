"""Whether a movement order is legal: could it be valid, knowing the position but no orders?

These are the DATC's definitions (4.E.1): an illegal order is ignored entirely and its unit
holds. Each check returns the compiled ints the adjudicator needs, or the Reason it fails.
"""

from __future__ import annotations

from .convoys import ConvoyTables
from .map import DipMap
from .orders import Convoy, Move, SupportHold, SupportMove
from .position import Piece
from .results import Reason


def fleet_destination(dip: DipMap, loc: int, dst_code: str) -> int | Reason:
    """The location a fleet at `loc` moves to when ordered to `dst_code` (DATC 4.B.1–4.B.3)."""
    d = dip.loc_index.get(dst_code)
    if d is None:
        return Reason.UNREACHABLE
    adj = dip.fleet_adj[loc]
    target = dip.locations[d]
    if target.coast is not None:
        if d in adj:
            return d
        # A named coast the fleet cannot reach is illegal, not corrected (4.B.3).
        return (
            Reason.BAD_COAST if dip.fleet_mask[loc] >> target.province & 1 else Reason.UNREACHABLE
        )
    coasts = dip.provinces[target.province].coasts
    if coasts:
        reachable = [c for c in coasts if c in adj]
        if len(reachable) == 1:
            return reachable[0]  # the only possible coast is meant (4.B.2)
        return Reason.NEEDS_COAST if reachable else Reason.UNREACHABLE
    return d if d in adj else Reason.UNREACHABLE


def check_move(
    dip: DipMap, convoys: ConvoyTables, fleets: int, piece: Piece, order: Move
) -> tuple[int, bool] | Reason:
    """(destination location, ordered via convoy) for a legal move, else the Reason."""
    src = dip.loc_province[piece.loc]
    d = dip.loc_index.get(order.dst)
    if d is None:
        return Reason.UNREACHABLE
    dprov = dip.loc_province[d]
    if dprov == src:
        return Reason.SAME_PLACE
    if piece.fleet:
        if order.via_convoy:
            return Reason.FLEET_CONVOYED
        return _fleet_move(dip, piece.loc, order.dst)
    # Armies ignore coasts (4.B.6).
    needs_convoy = order.via_convoy or not dip.army_mask[src] >> dprov & 1
    if needs_convoy and not convoys.possible(fleets, src, dprov):
        return Reason.UNREACHABLE
    return dprov, order.via_convoy


def _fleet_move(dip: DipMap, loc: int, dst_code: str) -> tuple[int, bool] | Reason:
    found = fleet_destination(dip, loc, dst_code)
    return found if isinstance(found, Reason) else (found, False)


def check_support_hold(
    dip: DipMap, units: dict[int, Piece], piece: Piece, order: SupportHold
) -> int | Reason:
    """The supported unit's province, else the Reason."""
    target = dip.loc_index.get(order.target)
    if target is None:
        return Reason.NOTHING_THERE
    tprov = dip.loc_province[target]
    own = dip.loc_province[piece.loc]
    if tprov == own or tprov not in units:
        return Reason.NOTHING_THERE
    reach = dip.fleet_mask[piece.loc] if piece.fleet else dip.army_mask[own]
    if not reach >> tprov & 1:
        return Reason.UNREACHABLE
    return tprov


def check_support_move(
    dip: DipMap,
    convoys: ConvoyTables,
    fleets: int,
    units: dict[int, Piece],
    piece: Piece,
    order: SupportMove,
) -> tuple[int, int, int] | Reason:
    """(supported unit's province, destination province, named coast or -1), else the Reason."""
    loc_index = dip.loc_index
    target = loc_index.get(order.target)
    dst = loc_index.get(order.dst)
    if target is None or dst is None:
        return Reason.NOTHING_THERE if target is None else Reason.UNREACHABLE
    loc_province = dip.loc_province
    own = loc_province[piece.loc]
    tprov = loc_province[target]
    dprov = loc_province[dst]
    supported = units.get(tprov)
    if supported is None or tprov == own:
        return Reason.NOTHING_THERE
    if dprov in (own, tprov):
        return Reason.UNREACHABLE
    reach = dip.fleet_mask[piece.loc] if piece.fleet else dip.army_mask[own]
    if not reach >> dprov & 1:
        return Reason.UNREACHABLE
    # Location indices of named coasts come after every province (see map.py).
    coast = dst if dst != dprov else -1
    if supported.fleet:
        if coast >= 0:
            if coast not in dip.fleet_adj[supported.loc]:
                return Reason.BAD_COAST
        elif not dip.fleet_mask[supported.loc] >> dprov & 1:
            return Reason.UNREACHABLE
        return tprov, dprov, coast
    if not dip.army_mask[tprov] >> dprov & 1:
        # Only by convoy, and the supporting fleet cannot also be on the route (6.D.31).
        usable = fleets & ~(1 << own) if piece.fleet else fleets
        if not convoys.possible(usable, tprov, dprov):
            return Reason.UNREACHABLE
    return tprov, dprov, -1


def check_convoy(
    dip: DipMap,
    convoys: ConvoyTables,
    fleets: int,
    units: dict[int, Piece],
    piece: Piece,
    order: Convoy,
) -> tuple[int, int] | Reason:
    """(army province, destination province), else the Reason."""
    own = dip.loc_province[piece.loc]
    if not piece.fleet or not dip.sea_mask >> own & 1:
        return Reason.NOT_AT_SEA
    army = dip.loc_index.get(order.army)
    dst = dip.loc_index.get(order.dst)
    if army is None or dst is None:
        return Reason.NOTHING_THERE if army is None else Reason.UNREACHABLE
    aprov = dip.loc_province[army]
    dprov = dip.loc_province[dst]
    carried = units.get(aprov)
    if carried is None:
        return Reason.NOTHING_THERE
    if carried.fleet:
        return Reason.NOT_AN_ARMY
    if aprov == dprov:
        return Reason.SAME_PLACE
    routes = convoys.reach(fleets, aprov)
    if not routes.get(dprov, 0) >> own & 1:
        return Reason.NOT_ON_ROUTE
    return aprov, dprov
