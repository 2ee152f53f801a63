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
seat, each power's builds or disbands owed, and who has submitted orders.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from functools import cache
from typing import Any

import numpy as np
from gymnasium import spaces

from parley.games.diplomacy import DiplomacyState, DipMap
from parley.games.diplomacy.adjustments import adjustment_counts
from parley.games.diplomacy.map import ProvinceKind, standard_map
from parley.games.diplomacy.phase import PhaseKind
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

    def choices(self, match: Match[Any, Any], seat: int) -> Choices:
        found = super().choices(match, seat)
        state: DiplomacyState = match.state
        adjusting = state.position.phase.kind is PhaseKind.ADJUSTMENT
        found.extra["adjusting"] = adjusting
        if adjusting:
            found.extra["limit"] = abs(adjustment_counts(state.position)[seat])
        return found


def codec(rules: Rules[Any, Any], seats: int, options: Mapping[str, Any]) -> DiplomacyCodec:
    return DiplomacyCodec(str(options.get("map", "standard")))


_SEASONS = ("S", "F", "W")
_KINDS = ("M", "R", "A")
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
        self.size = n * self.per_province + len(_SEASONS) + len(_KINDS) + 1 + 4 * k
        self._space = spaces.Box(0.0, 1.0, (self.size,), np.float32)

    @property
    def space(self) -> spaces.Box:
        return self._space

    def encode(self, observation: Mapping[str, JSON], seat: int) -> Features:
        view = observation.get("view", {})
        assert isinstance(view, dict)
        pos = view.get("position", {})
        k = len(self.powers)
        board = np.zeros((len(self.provinces), self.per_province), np.float32)
        board[:, 3 * k + 2] = self.centres
        for power, units in pos.get("units", {}).items():
            p = self.power_index[power]
            for text in units:
                kind, loc = text.split()[:2]
                row = self.prov_index[loc.split("/")[0]]
                board[row, p] = 1.0
                board[row, 3 * k + (0 if kind == "A" else 1)] = 1.0
        for power, units in pos.get("dislodged", {}).items():
            p = self.power_index[power]
            for text in units:
                board[self.prov_index[text.split()[1].split("/")[0]], k + p] = 1.0
        for power, centres in pos.get("centres", {}).items():
            p = self.power_index[power]
            for code in centres:
                board[self.prov_index[code], 2 * k + p] = 1.0
        phase = str(pos.get("phase", "S1901M"))
        tail = np.zeros(len(_SEASONS) + len(_KINDS) + 1 + 4 * k, np.float32)
        tail[_SEASONS.index(phase[0])] = 1.0
        tail[len(_SEASONS) + _KINDS.index(phase[-1])] = 1.0
        at = len(_SEASONS) + len(_KINDS)
        tail[at] = min(1.0, max(0.0, (int(phase[1:-1]) - self.first_year) / 200))
        at += 1
        if 0 <= seat < k:
            tail[at + seat] = 1.0
        at += k
        for power, owed in (view.get("adjustments") or {}).items():
            p = self.power_index[power]
            tail[at + p] = min(1.0, max(0, int(owed)) / _MAX_UNITS)
            tail[at + k + p] = min(1.0, max(0, -int(owed)) / _MAX_UNITS)
        at += 2 * k
        for power in view.get("submitted", []):
            tail[at + self.power_index[power]] = 1.0
        return np.concatenate([board.reshape(-1), tail])


def encoder(rules: Rules[Any, Any], seats: int, options: Mapping[str, Any]) -> DiplomacyEncoder:
    return DiplomacyEncoder(str(options.get("map", "standard")))
