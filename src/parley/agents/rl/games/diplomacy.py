"""Diplomacy for RL: one order index per province, and board features.

Action space: `MultiDiscrete`, one slot per province of the map (plus one for WAIVE).
A slot's table lists every order a unit standing anywhere in that province (on any
coast) could ever be given, built from the map alone: holds, moves (by land, sea and
convoy), supports, convoys, retreats, disbands and builds. Index 0 means "no order": legal
only for a slot with no unit to order, and in adjustment phases, where a build or disband
may be left out (builds left out are waived; disbands left out are chosen by the
civil-disorder rule). Builds, waives or disbands beyond the number owed are dropped, in
slot order (WAIVE's slot comes last), since the rules refuse a set with too many. A unit
whose slot gets no order in a movement or retreat phase would hold or disband, so the
mask forbids it.

Observation: per province, who has a unit there and of which kind, who has a dislodged
unit there, and who owns it if it is a centre; then the season, phase kind and year, the
seat, each power's builds or disbands owed, and who has submitted orders; then, per
province, the kind of order its unit was given in the phases resolved since the seat's
previous decision and whether it succeeded. `feature_names()` names every entry.

Environments default to a year limit (`env_options`), so games between bots that never
break a stalemate still end, in a draw, within a known number of phases.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import cache
from typing import Any, cast

import numpy as np
from gymnasium import spaces

from parley.games.diplomacy import DiplomacyState, DipMap
from parley.games.diplomacy.adjustments import adjustment_counts
from parley.games.diplomacy.map import ProvinceKind, standard_map
from parley.games.diplomacy.orders import Order, format_order
from parley.games.diplomacy.phase import PhaseKind
from parley.games.diplomacy.rules import DiplomacyRules, OrderSet
from parley.kernel import JSON, Match, Rules

from ..codecs import Choices, SlotCodec
from ..encoders import Features

WAIVE = "WAIVE"


def slot_of(text: str) -> str:
    """The province an order's unit stands in (`F STP/SC - BOT` → `STP`)."""
    if text == WAIVE:
        return WAIVE
    return text.split()[1].split("/")[0]


def _kinds(dip: DipMap, loc: int) -> Iterator[str]:
    if dip.army_can_stand[loc]:
        yield "A"
    if dip.fleet_can_stand[loc]:
        yield "F"


def _locations(dip: DipMap, prov: int) -> list[int]:
    return [prov, *dip.provinces[prov].coasts]


def _destinations(dip: DipMap, kind: str, loc: int) -> list[int]:
    """Locations a unit of `kind` at `loc` may move to over a border."""
    if kind == "F":
        return list(dip.fleet_adj[loc])
    return [d for d in dip.army_adj[loc] if dip.locations[d].coast is None]


@cache
def order_tables(map_name: str) -> dict[str, tuple[str, ...]]:
    """Every order notation a unit in each province could be given, by province."""
    dip = standard_map(map_name)
    codes = [loc.code for loc in dip.locations]
    coastal = [p.index for p in dip.provinces if p.kind is ProvinceKind.COAST]
    # Who could move into each province, as (kind, location code, destination code).
    movers: dict[int, list[tuple[str, str, str]]] = {p: [] for p in range(dip.province_count)}
    for loc in range(len(dip.locations)):
        here = dip.loc_province[loc]
        for kind in _kinds(dip, loc):
            for dst in _destinations(dip, kind, loc):
                prov = dip.loc_province[dst]
                movers[prov].append((kind, codes[loc], codes[dst]))
                if kind == "F" and dip.provinces[prov].coasts:
                    movers[prov].append((kind, codes[loc], dip.provinces[prov].code))
            if kind == "A" and here in coastal:
                for far in coastal:
                    if far != here:
                        movers[far].append(("A", codes[loc], dip.provinces[far].code))
    tables: dict[str, tuple[str, ...]] = {}
    for prov in range(dip.province_count):
        province = dip.provinces[prov]
        if province.kind is ProvinceKind.IMPASSABLE:
            continue
        orders: list[str] = []
        for loc in _locations(dip, prov):
            for kind in _kinds(dip, loc):
                unit = f"{kind} {codes[loc]}"
                orders += [f"{unit} H", f"{unit} D", f"{unit} B"]
                steps = _destinations(dip, kind, loc)
                orders += [f"{unit} - {codes[d]}" for d in steps]
                orders += [f"{unit} R {codes[d]}" for d in steps]
                if kind == "A" and prov in coastal:
                    for far in coastal:
                        if far != prov:
                            code = dip.provinces[far].code
                            orders += [f"{unit} - {code}", f"{unit} - {code} VIA"]
                reach = {dip.loc_province[d] for d in steps}
                for target in sorted(reach):
                    for other in _locations(dip, target):
                        orders += [f"{unit} S {k} {codes[other]}" for k in _kinds(dip, other)]
                    for mover_kind, origin, into in movers[target]:
                        if origin.split("/")[0] != province.code:
                            orders.append(f"{unit} S {mover_kind} {origin} - {into}")
                if kind == "F" and province.kind is ProvinceKind.SEA:
                    for army in coastal:
                        for far in coastal:
                            if far != army:
                                a, b = dip.provinces[army].code, dip.provinces[far].code
                                orders.append(f"{unit} C A {a} - {b}")
        tables[province.code] = tuple(dict.fromkeys(orders))
    tables[WAIVE] = (WAIVE,)
    return tables


Known = tuple[Order, str, int]  # an order, its notation, its flat table index


class _Lazy(Mapping[Any, OrderSet]):
    """Key (notation or flat index) to one-order OrderSet, from a decision's known orders.

    The key table is built on first use and each OrderSet when asked for: most decisions
    only ever sample and decode a few parts.
    """

    def __init__(self, known: list[Known], key: int) -> None:
        self._known = known
        self._key = key
        self._table: dict[Any, Order] | None = None

    def _orders(self) -> dict[Any, Order]:
        if self._table is None:
            k = self._key
            self._table = {row[k]: row[0] for row in self._known}
        return self._table

    def __getitem__(self, key: Any) -> OrderSet:
        return OrderSet((self._orders()[key],))

    def __iter__(self) -> Iterator[Any]:
        return iter(self._orders())

    def __len__(self) -> int:
        return len(self._known)


class DiplomacyCodec(SlotCodec):
    """Order indices per province; "no order" allowed only where the rules allow it."""

    def __init__(self, map_name: str) -> None:
        tables = order_tables(map_name)
        super().__init__(
            list(tables),
            tables,
            slot_of,
            optional=lambda choices, slot: bool(choices.extra.get("adjusting")),
            split=lambda action: [type(action)((order,)) for order in action.orders],
        )
        # Order value -> (the order, its notation, its flat index), by identity: the legal
        # lists hand out the same interned order objects phase after phase, so each is
        # formatted and looked up once. The order is kept alive so its id stays its own.
        self._known: dict[int, Known] = {}

    def _entry(self, order: Order) -> Known:
        if len(self._known) >= _KNOWN_LIMIT:
            self._known.clear()  # orders made afresh (adjustments) must not pile up
        text = format_order(order)
        found = self._known[id(order)] = (order, text, self._flat_of(text))
        return found

    def choices(self, match: Match[Any, Any], seat: int) -> Choices:
        # The rules' per-unit order lists, each order formatted and looked up once per
        # codec; the OrderSets `legal_actions` would build for every legal order are left
        # to the few the policy picks, through `_Lazy`.
        state: DiplomacyState = match.state
        rules = cast(DiplomacyRules, match.rules)
        legal = rules.legal_orders(state, seat) if match.turn().can_act(seat) else {}
        seen = self._known.get
        known: list[Known] = []
        for orders in legal.values():
            for order in orders:
                row = seen(id(order))
                known.append(row if row is not None and row[0] is order else self._entry(order))
        found = Choices(
            seat,
            _Lazy(known, 1),  # type: ignore[arg-type]
            {"flat": np.array([row[2] for row in known], np.int64), "parts": _Lazy(known, 2)},
        )
        adjusting = state.position.phase.kind is PhaseKind.ADJUSTMENT
        found.extra["adjusting"] = adjusting
        if adjusting:
            found.extra["limit"] = abs(adjustment_counts(state.position)[seat])
        return found


_KNOWN_LIMIT = 200_000  # orders remembered by a codec (the standard tables hold ~53,000)


def codec(rules: Rules[Any, Any], seats: int, options: Mapping[str, Any]) -> DiplomacyCodec:
    return DiplomacyCodec(str(options.get("map", "standard")))


YEARS = 30  # the environments' default year limit: 1901 to 1930 on the standard map


def env_options(rules: Rules[Any, Any], seats: int) -> dict[str, Any]:
    return {"year_limit": standard_map("standard").first_year + YEARS - 1}


_SEASONS = ("S", "F", "W")
_KINDS = ("M", "R", "A")
_ORDERS = ("H", "-", "S", "C", "R", "D", "B")  # hold, move, support, convoy, retreat, ...
_ORDER_NAMES = ("hold", "move", "support", "convoy", "retreat", "disband", "build")
_MAX_UNITS = 17  # builds or disbands owed never exceed this on a 34-centre map


class DiplomacyEncoder:
    """Board features in [0, 1] from the seat's observation."""

    def __init__(self, map_name: str) -> None:
        dip = standard_map(map_name)
        self.powers = dip.powers
        self.power_index = dip.power_index
        self.provinces = [p.code for p in dip.provinces]
        self.prov_index = dip.prov_index
        self.centres = np.array([1.0 if p.centre else 0.0 for p in dip.provinces], np.float32)
        self.first_year = dip.first_year
        n, k = len(self.provinces), len(self.powers)
        self.per_province = 3 * k + 3  # unit owner, dislodged owner, centre owner; A, F, centre
        self.tail = len(_SEASONS) + len(_KINDS) + 1 + 4 * k
        self.per_order = len(_ORDERS) + 1  # the kind of last order, and whether it succeeded
        self.size = n * self.per_province + self.tail + n * self.per_order
        self._space = spaces.Box(0.0, 1.0, (self.size,), np.float32)
        self._centre_cells = np.flatnonzero(self.centres) * self.per_province + 3 * k + 2
        # Where the `me` one-hot starts: after the provinces, season, phase kind and year.
        self._me = n * self.per_province + len(_SEASONS) + len(_KINDS) + 1
        self._units: dict[str, tuple[int, int]] = {}
        self._orders: dict[str, tuple[int, int] | None] = {}

    @property
    def space(self) -> spaces.Box:
        return self._space

    def _unit(self, text: str) -> tuple[int, int]:
        """`A PAR` or `F STP/SC` → (row offset of its province, army or fleet column)."""
        found = self._units.get(text)
        if found is None:
            kind, loc = text.split()[:2]
            row = self.prov_index[loc.split("/")[0]] * self.per_province
            found = self._units[text] = (row, 3 * len(self.powers) + (0 if kind == "A" else 1))
        return found

    def _order(self, text: str) -> tuple[int, int] | None:
        """An order's (province row, kind column) in the last-orders block, None for WAIVE."""
        if text in self._orders:
            return self._orders[text]
        words = text.split()
        found: tuple[int, int] | None = None
        if len(words) >= 3 and words[2] in _ORDERS:
            row = self.prov_index.get(words[1].split("/")[0])
            if row is not None:
                found = (row, _ORDERS.index(words[2]))
        self._orders[text] = found
        return found

    def encode(self, observation: Mapping[str, JSON], seat: int) -> Features:
        out = self._board(observation)
        if 0 <= seat < len(self.powers):
            out[self._me + seat] = 1.0
        return out

    def encode_seats(self, observation: Mapping[str, JSON], seats: Sequence[int]) -> list[Features]:
        """`encode` for each of `seats` from any one seat's observation.

        Every seat of a Diplomacy game sees the same board, adjustments, submitted powers
        and last results; the only part of a seat's view that differs (`my_orders`, its
        own pending orders) is not encoded. So the board is encoded once and each seat's
        copy only gets its own `me` entry: a Parallel step costs one view, not seven.
        """
        board = self._board(observation)
        out: list[Features] = []
        for seat in seats:
            features = board.copy()
            if 0 <= seat < len(self.powers):
                features[self._me + seat] = 1.0
            out.append(features)
        return out

    def _board(self, observation: Mapping[str, JSON]) -> Features:
        """Every feature but the seat's own `me` entry."""
        view = observation.get("view", {})
        assert isinstance(view, dict)
        pos = view.get("position", {})
        k = len(self.powers)
        per = self.per_province
        out = np.zeros(self.size, np.float32)
        out[self._centre_cells] = 1.0
        # Collect the indices of every 1.0 first: one numpy write instead of one per unit.
        ones: list[int] = []
        for power, units in pos.get("units", {}).items():
            p = self.power_index[power]
            for text in units:
                row, kind = self._unit(text)
                ones += (row + p, row + kind)
        for power, units in pos.get("dislodged", {}).items():
            p = self.power_index[power]
            for text in units:
                ones.append(self._unit(text)[0] + k + p)
        for power, centres in pos.get("centres", {}).items():
            column = 2 * k + self.power_index[power]
            for code in centres:
                ones.append(self.prov_index[code] * per + column)
        at = len(self.provinces) * per
        phase = str(pos.get("phase", "S1901M"))
        ones.append(at + _SEASONS.index(phase[0]))
        ones.append(at + len(_SEASONS) + _KINDS.index(phase[-1]))
        at += len(_SEASONS) + len(_KINDS)
        out[at] = min(1.0, max(0.0, (int(phase[1:-1]) - self.first_year) / 200))
        at += 1
        at += k  # the seat's `me` entries, set by the caller
        for power, owed in (view.get("adjustments") or {}).items():
            p = self.power_index[power]
            out[at + p] = min(1.0, max(0, int(owed)) / _MAX_UNITS)
            out[at + k + p] = min(1.0, max(0, -int(owed)) / _MAX_UNITS)
        at += 2 * k
        for power in view.get("submitted", []):
            ones.append(at + self.power_index[power])
        at += k
        latest: dict[int, tuple[int, bool]] = {}  # a later phase's order replaces an earlier
        for phase_results in view.get("last") or []:
            for results in (phase_results.get("results") or {}).values():
                for result in results:
                    found = self._order(str(result.get("order", "")))
                    if found is not None:
                        latest[found[0]] = (found[1], result.get("outcome") == "succeeds")
        width = self.per_order
        for row, (kind, succeeded) in latest.items():
            ones.append(at + row * width + kind)
            if succeeded:
                ones.append(at + row * width + width - 1)
        out[ones] = 1.0
        return out

    def feature_names(self) -> list[str]:
        """Names in encoding order, e.g. `PAR.unit.FRANCE`, `year`, `BUR.last.move`."""
        k = self.powers
        names: list[str] = []
        for prov in self.provinces:
            names += [f"{prov}.unit.{p}" for p in k]
            names += [f"{prov}.dislodged.{p}" for p in k]
            names += [f"{prov}.centre_owner.{p}" for p in k]
            names += [f"{prov}.army", f"{prov}.fleet", f"{prov}.is_centre"]
        names += [f"season.{s}" for s in _SEASONS]
        names += [f"phase.{kind}" for kind in _KINDS]
        names.append("year")
        names += [f"me.{p}" for p in k]
        names += [f"builds_owed.{p}" for p in k]
        names += [f"disbands_owed.{p}" for p in k]
        names += [f"submitted.{p}" for p in k]
        for prov in self.provinces:
            names += [f"{prov}.last.{kind}" for kind in _ORDER_NAMES]
            names.append(f"{prov}.last.succeeded")
        return names


def encoder(rules: Rules[Any, Any], seats: int, options: Mapping[str, Any]) -> DiplomacyEncoder:
    return DiplomacyEncoder(str(options.get("map", "standard")))
