"""Every legal order, per unit (movement, retreats) or per power (adjustments).

"Legal" is the DATC's sense (4.E.1): an order that could be valid given the position,
whatever the other orders. Supports of fleet moves into split-coast provinces name the
coast (as the DATC recommends for web play, 6.B.7); a move to an adjacent province by
convoy is listed with `VIA` when a convoy route exists.

Order values are interned per map, so generating the lists allocates little: in self-play
the same few thousand orders recur in every game.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace

from .adjustments import adjustment_counts, free_homes
from .convoys import ConvoyTables, tables_for
from .map import DipMap, ProvinceKind
from .native import CoreMap, core_map, order_table
from .orders import (
    WAIVE,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
)
from .phase import PhaseKind
from .position import Piece, Position
from .retreats import retreat_options
from .units import UnitKind

_KIND = {False: UnitKind.ARMY, True: UnitKind.FLEET}


class _Interned:
    """Order values of one map, made once, and static tables of them.

    `pairs[(fleet, loc, other_fleet, other_loc)]` holds every support a unit at `loc` could
    give a unit at `other_loc` whatever else is on the board (support to hold, and to move
    over a border into each province both reach); only supports of convoyed moves depend on
    the position and are added per phase.
    """

    def __init__(self, dip: DipMap) -> None:
        self.dip = dip
        self.codes = [loc.code for loc in dip.locations]
        self.cache: dict[Hashable, Order] = {}
        self.pairs: dict[tuple[bool, int, bool, int], tuple[Order, ...]] = {}
        self.basics: dict[tuple[bool, int], tuple[Order, ...]] = {}
        self.near: list[int] = []
        for p in range(dip.province_count):
            mask = dip.any_adj[p]
            two = mask
            for q in _members(mask):
                two |= dip.any_adj[q]
            self.near.append(two & ~(1 << p))

    def basic(self, fleet: bool, loc: int) -> tuple[Order, ...]:
        """Hold and every move over a border of a unit at `loc`."""
        key = (fleet, loc)
        found = self.basics.get(key)
        if found is None:
            dip, codes = self.dip, self.codes
            kind = _KIND[fleet]
            here = codes[loc]
            targets = dip.fleet_adj[loc] if fleet else dip.army_adj[loc]
            orders: list[Order] = [Hold(kind, here)]
            for d in targets:
                move_key = ("M", fleet, loc, d, False)
                move = self.cache.get(move_key)
                if move is None:
                    move = self.cache[move_key] = Move(kind, here, codes[d])
                orders.append(move)
            found = self.basics[key] = tuple(orders)
        return found

    def pair(self, fleet: bool, loc: int, ofleet: bool, oloc: int) -> tuple[Order, ...]:
        key = (fleet, loc, ofleet, oloc)
        found = self.pairs.get(key)
        if found is None:
            found = self.pairs[key] = self._make_pair(fleet, loc, ofleet, oloc)
        return found

    def _make_pair(self, fleet: bool, loc: int, ofleet: bool, oloc: int) -> tuple[Order, ...]:
        dip, codes = self.dip, self.codes
        kind, okind = _KIND[fleet], _KIND[ofleet]
        here, there = codes[loc], codes[oloc]
        reach = dip.reach_mask_of(fleet, loc)
        oprov = dip.loc_province[oloc]
        out: list[Order] = []
        if reach >> oprov & 1:
            out.append(SupportHold(kind, here, okind, there))
        for d in _members(reach & ~(1 << oprov)):
            if ofleet:
                dests = [x for x in dip.fleet_adj[oloc] if dip.loc_province[x] == d]
            else:
                dests = [d] if dip.army_mask[oprov] >> d & 1 else []
            for x in dests:
                sm_key = ("SM", fleet, loc, ofleet, oloc, x)
                support = self.cache.get(sm_key)
                if support is None:
                    support = self.cache[sm_key] = SupportMove(kind, here, okind, there, codes[x])
                out.append(support)
        return tuple(out)


def _members(mask: int) -> list[int]:
    out: list[int] = []
    while mask:
        low = mask & -mask
        mask ^= low
        out.append(low.bit_length() - 1)
    return out


def _interned(dip: DipMap) -> _Interned:
    found = dip.derived.get("orders")
    if found is None:
        found = dip.derived["orders"] = _Interned(dip)
    return found  # type: ignore[return-value]


def movement_orders(pos: Position, convoys: ConvoyTables | None = None) -> dict[int, list[Order]]:
    """Legal orders of every unit in a movement phase, by the unit's province."""
    dip = pos.map
    core = core_map(dip)
    if core is not None:
        return _native_movement_orders(pos, core)
    tables = convoys or tables_for(dip)
    interned = _interned(dip)
    pairs = interned.pairs
    near = interned.near
    units = pos.units
    sea_mask = dip.sea_mask
    fleets = 0
    occupied = 0
    for p, u in units.items():
        occupied |= 1 << p
        if u.fleet and sea_mask >> p & 1:
            fleets |= 1 << p

    # Convoyed moves (over no border): army province -> {destination: seas of its routes}.
    convoy_moves: dict[int, dict[int, int]] = {}
    if fleets:
        coast_mask = dip.coast_mask
        for p, u in units.items():
            if not u.fleet and coast_mask >> p & 1:
                reach = tables.reach(fleets, p)
                if reach:
                    convoy_moves[p] = reach

    out: dict[int, list[Order]] = {}
    for p, u in units.items():
        fleet = u.fleet
        loc = u.loc
        mine = list(interned.basic(fleet, loc))
        others = near[p] & occupied
        while others:
            low = others & -others
            others ^= low
            q = low.bit_length() - 1
            other = units[q]
            key = (fleet, loc, other.fleet, other.loc)
            found = pairs.get(key)
            if found is None:
                found = interned.pair(fleet, loc, other.fleet, other.loc)
            if found:
                mine.extend(found)
        out[p] = mine
    if convoy_moves:
        _add_convoy_orders(dip, tables, interned, units, fleets, convoy_moves, out)
    return out


def _native_movement_orders(
    pos: Position, core: CoreMap, power: int = -1
) -> dict[int, list[Order]]:
    """The core's lists, for every unit or (power >= 0) only that power's units."""
    units = pos.units
    provs = list(units)
    pieces = list(units.values())
    owners = [u[0] for u in pieces]
    lists = core.movement_values(
        provs, owners, [u[1] for u in pieces], [u[2] for u in pieces], power, order_table(pos.map)
    )
    if power < 0:
        return dict(zip(provs, lists, strict=True))
    return {
        p: orders for p, owner, orders in zip(provs, owners, lists, strict=True) if owner == power
    }


def _add_convoy_orders(
    dip: DipMap,
    tables: ConvoyTables,
    interned: _Interned,
    units: dict[int, Piece],
    fleets: int,
    convoy_moves: dict[int, dict[int, int]],
    out: dict[int, list[Order]],
) -> None:
    """Moves by convoy, the convoy orders that carry them, and supports of them."""
    codes = interned.codes
    cache = interned.cache
    landings = 0  # destinations reached only by convoy
    for a, reach in convoy_moves.items():
        army_adj = dip.army_mask[a]
        mine = out[a]
        for d, seas in reach.items():
            via = bool(army_adj >> d & 1)
            if not via:
                landings |= 1 << d
            key: Hashable = ("M", False, a, d, via)
            order = cache.get(key)
            if order is None:
                order = cache[key] = Move(UnitKind.ARMY, codes[a], codes[d], via)
            mine.append(order)
            s_bits = seas
            while s_bits:
                low = s_bits & -s_bits
                s_bits ^= low
                sea = low.bit_length() - 1
                key = ("C", sea, a, d)
                order = cache.get(key)
                if order is None:
                    order = cache[key] = Convoy(UnitKind.FLEET, codes[sea], codes[a], codes[d])
                out[sea].append(order)
    if not landings:
        return
    # Supports of the convoyed moves, from every unit that reaches the landing (a support
    # over a border of a move by land would be the same order, so those are not repeated).
    reachers: dict[int, list[int]] = {}
    fleet_mask, army_mask = dip.fleet_mask, dip.army_mask
    for p, u in units.items():
        bits = (fleet_mask[u.loc] if u.fleet else army_mask[p]) & landings
        while bits:
            low = bits & -bits
            bits ^= low
            reachers.setdefault(low.bit_length() - 1, []).append(p)
    for a, reach in convoy_moves.items():
        army_adj = dip.army_mask[a]
        for d, seas in reach.items():
            if army_adj >> d & 1:
                continue
            for p in reachers.get(d, ()):
                if p == a:
                    continue
                u = units[p]
                if u.fleet and seas >> p & 1 and not tables.possible(fleets & ~(1 << p), a, d):
                    continue  # its only routes need this fleet, which cannot also support
                key = ("SM", u.fleet, u.loc, False, a, d)
                order = cache.get(key)
                if order is None:
                    order = cache[key] = SupportMove(
                        _KIND[u.fleet], codes[u.loc], UnitKind.ARMY, codes[a], codes[d]
                    )
                out[p].append(order)


def retreat_orders(pos: Position) -> dict[int, list[Order]]:
    """Legal orders of every dislodged unit, by its province: each retreat, and disband."""
    dip = pos.map
    codes = _interned(dip).codes
    out: dict[int, list[Order]] = {}
    for p, away in pos.dislodged.items():
        piece = away.piece
        kind = _KIND[piece.fleet]
        here = codes[piece.loc]
        mine: list[Order] = [Retreat(kind, here, codes[d]) for d in retreat_options(pos, p)]
        mine.append(Disband(kind, here))
        out[p] = mine
    return out


def adjustment_orders(pos: Position, power: str) -> list[Order]:
    """Legal adjustment orders of one power: builds and WAIVE, or disbands; [] when none."""
    dip = pos.map
    p = dip.power_index[power]
    owed = adjustment_counts(pos)[p]
    codes = _interned(dip).codes
    out: list[Order] = []
    if owed > 0:
        for c in free_homes(pos, power):
            prov = dip.provinces[c]
            out.append(Build(UnitKind.ARMY, codes[c]))
            if prov.kind is ProvinceKind.COAST:
                if prov.coasts:
                    out.extend(Build(UnitKind.FLEET, codes[k]) for k in prov.coasts)
                else:
                    out.append(Build(UnitKind.FLEET, codes[c]))
        out.append(WAIVE)
    elif owed < 0:
        for _, piece in sorted(pos.units.items()):
            if piece.power == p:
                out.append(Disband(_KIND[piece.fleet], codes[piece.loc]))
    return out


def legal_orders(pos: Position, power: str | None = None) -> dict[str, list[Order]]:
    """Legal orders keyed by unit location (movement, retreats) or by power (adjustments),
    for one power or all."""
    dip = pos.map
    kind = pos.phase.kind
    if kind is PhaseKind.ADJUSTMENT:
        powers = [power] if power is not None else list(dip.powers)
        found = {pw: adjustment_orders(pos, pw) for pw in powers}
        return {pw: orders for pw, orders in found.items() if orders}
    wanted = None if power is None else dip.power_index[power]
    core = core_map(dip) if kind is PhaseKind.MOVEMENT else None
    if core is not None:
        by_prov = _native_movement_orders(pos, core, -1 if wanted is None else wanted)
        owners = {p: u.power for p, u in pos.units.items()}
        locs = {p: u.loc for p, u in pos.units.items()}
    elif kind is PhaseKind.MOVEMENT:
        by_prov = movement_orders(pos)
        owners = {p: u.power for p, u in pos.units.items()}
        locs = {p: u.loc for p, u in pos.units.items()}
    else:
        by_prov = retreat_orders(pos)
        owners = {p: a.piece.power for p, a in pos.dislodged.items()}
        locs = {p: a.piece.loc for p, a in pos.dislodged.items()}
    return {
        dip.locations[locs[p]].code: orders
        for p, orders in sorted(by_prov.items(), key=lambda kv: dip.locations[locs[kv[0]]].code)
        if wanted is None or owners[p] == wanted
    }


def canonical_order(pos: Position, order: Order) -> Order:
    """The order as the legal-order lists write it, where the position makes that certain:
    unit letters taken from the board (DATC 4.C.1–4.C.2), the only reachable coast filled in
    (4.B.2), and coasts dropped where they mean nothing (an army's move, 4.B.6)."""
    if isinstance(order, Waive):
        return order
    dip = pos.map
    loc = dip.loc_index.get(order.loc)
    if loc is None:
        return order
    prov = dip.loc_province[loc]
    if isinstance(order, Build):
        land = dip.provinces[prov].kind is ProvinceKind.LAND
        if order.unit is UnitKind.ARMY or (order.unit is None and land):
            return Build(UnitKind.ARMY, dip.provinces[prov].code)
        if order.unit is None and dip.locations[loc].coast is not None:
            return Build(UnitKind.FLEET, order.loc)
        return order
    if pos.phase.kind is PhaseKind.RETREAT:
        away = pos.dislodged.get(prov)
        piece = away.piece if away is not None else None
    else:
        piece = pos.units.get(prov)
    if piece is None:
        return order
    here = dip.locations[piece.loc].code
    kind = _KIND[piece.fleet]
    if isinstance(order, (Hold, Disband)):
        return replace(order, unit=kind, loc=here)
    if isinstance(order, (Move, Retreat)):
        dst = _destination(dip, piece.fleet, piece.loc, order.dst)
        return replace(order, unit=kind, loc=here, dst=dst)
    if isinstance(order, Convoy):
        army = dip.loc_index.get(order.army)
        landing = dip.loc_index.get(order.dst)
        army_code = order.army if army is None else dip.provinces[dip.loc_province[army]].code
        dst_code = order.dst if landing is None else dip.provinces[dip.loc_province[landing]].code
        return replace(order, unit=kind, loc=here, army=army_code, dst=dst_code)
    target = dip.loc_index.get(order.target)
    other = None if target is None else pos.units.get(dip.loc_province[target])
    if other is None:
        return replace(order, unit=kind, loc=here)
    there = dip.locations[other.loc].code
    okind = _KIND[other.fleet]
    if isinstance(order, SupportHold):
        return replace(order, unit=kind, loc=here, target_unit=okind, target=there)
    dst = _destination(dip, other.fleet, other.loc, order.dst)
    return replace(order, unit=kind, loc=here, target_unit=okind, target=there, dst=dst)


def _destination(dip: DipMap, fleet: bool, loc: int, dst_code: str) -> str:
    d = dip.loc_index.get(dst_code)
    if d is None:
        return dst_code
    prov = dip.loc_province[d]
    if not fleet:
        return dip.provinces[prov].code
    if dip.locations[d].coast is None and dip.provinces[prov].coasts:
        reachable = [c for c in dip.provinces[prov].coasts if c in dip.fleet_adj[loc]]
        if len(reachable) == 1:
            return dip.locations[reachable[0]].code
    return dst_code
