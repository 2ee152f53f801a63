"""Diplomacy maps: loaded from TOML data files, validated, and compiled to int tables.

Provinces and locations are small ints inside the engine. Location `i < len(provinces)` is
province `i` itself (where armies stand, and fleets in provinces without split coasts);
locations past that are the named coasts of split-coast provinces (`STP/NC`). Sets of
provinces are int bitmasks (bit `i` is province `i`), which keeps the adjudicator and the
legal-order generator free of set objects in their inner loops.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any

from .units import UnitKind

DATA_DIR = Path(__file__).resolve().parent / "data"
COAST_CODES = ("NC", "SC", "EC", "WC")
COAST_NAMES = {"NC": "north coast", "SC": "south coast", "EC": "east coast", "WC": "west coast"}
MAP_FORMAT = 1


class MapError(ValueError):
    """A map file that cannot be read or breaks the map rules; the message names the place."""


class ProvinceKind(Enum):
    """What a province is made of."""

    LAND = "land"  # inland: armies only
    COAST = "coast"  # armies, and fleets along the coast
    SEA = "sea"  # fleets only
    IMPASSABLE = "impassable"  # nobody


@dataclass(frozen=True, slots=True)
class Province:
    """One province of a map."""

    index: int
    code: str
    name: str
    kind: ProvinceKind
    centre: bool
    home: str | None  # the power whose home centre this is
    coasts: tuple[int, ...]  # coast location indices of a split-coast province, else ()


@dataclass(frozen=True, slots=True)
class Location:
    """A place a unit can stand: a province, or one named coast of a split-coast province."""

    index: int
    code: str  # "PAR", "STP/NC"
    province: int
    coast: str | None  # "NC", ... for a named coast


@dataclass(frozen=True, slots=True)
class StartUnit:
    """A unit on the board when a game begins."""

    power: str
    kind: UnitKind
    location: str


def bits(indices: Sequence[int] | set[int] | frozenset[int]) -> int:
    """A bitmask with the given bits set."""
    mask = 0
    for i in indices:
        mask |= 1 << i
    return mask


def members(mask: int) -> list[int]:
    """The bits set in `mask`, ascending."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class DipMap:
    """A validated map with precomputed adjacency; shared read-only by every game on it."""

    def __init__(
        self,
        *,
        name: str,
        title: str,
        powers: tuple[str, ...],
        victory_centres: int,
        first_year: int,
        provinces: tuple[Province, ...],
        locations: tuple[Location, ...],
        army_adj: tuple[tuple[int, ...], ...],
        fleet_adj: tuple[tuple[int, ...], ...],
        start_units: tuple[StartUnit, ...],
    ) -> None:
        self.name = name
        self.title = title
        self.powers = powers
        self.power_index = {p: i for i, p in enumerate(powers)}
        self.victory_centres = victory_centres
        self.first_year = first_year
        self.provinces = provinces
        self.locations = locations
        self.start_units = start_units
        self.province_count = len(provinces)
        self.prov_index = {p.code: p.index for p in provinces}
        self.loc_index = {loc.code: loc.index for loc in locations}
        self.loc_province = tuple(loc.province for loc in locations)
        # Army moves, by province: a tuple and a bitmask of destinations.
        self.army_adj = army_adj
        self.army_mask = tuple(bits(a) for a in army_adj)
        # Fleet moves, by location: destination locations, and the provinces they lie in.
        self.fleet_adj = fleet_adj
        self.fleet_mask = tuple(bits([self.loc_province[d] for d in f]) for f in fleet_adj)
        kinds = [p.kind for p in provinces]
        self.sea_mask = bits([p.index for p in provinces if p.kind is ProvinceKind.SEA])
        self.coast_mask = bits([p.index for p in provinces if p.kind is ProvinceKind.COAST])
        self.land_mask = bits([p.index for p in provinces if p.kind is ProvinceKind.LAND])
        self.centre_mask = bits([p.index for p in provinces if p.centre])
        self.centre_count = sum(1 for p in provinces if p.centre)
        # Where a unit of each kind may stand.
        self.army_can_stand = tuple(
            loc.coast is None and kinds[loc.province] in (ProvinceKind.LAND, ProvinceKind.COAST)
            for loc in locations
        )
        self.fleet_can_stand = tuple(
            (loc.coast is not None)
            or (
                kinds[loc.province] in (ProvinceKind.SEA, ProvinceKind.COAST)
                and not provinces[loc.province].coasts
            )
            for loc in locations
        )
        # Seas a convoyed army can use from each coastal province, and the coasts each
        # sea touches (fleet adjacency at province level).
        self.seas_near = tuple(self._seas_near(i) for i in range(self.province_count))
        self.sea_adj = tuple(
            (self.fleet_mask[i] & self.sea_mask) if kinds[i] is ProvinceKind.SEA else 0
            for i in range(self.province_count)
        )
        self.sea_coasts = tuple(
            (self.fleet_mask[i] & self.coast_mask) if kinds[i] is ProvinceKind.SEA else 0
            for i in range(self.province_count)
        )
        # Any adjacency at all, by province (for civil-disorder distances).
        self.any_adj = tuple(self._any_adj(i) for i in range(self.province_count))
        # "A PAR" / "F STP/SC" by fleet-or-not and location, for result messages.
        self.unit_names = (
            tuple(f"A {loc.code}" for loc in locations),
            tuple(f"F {loc.code}" for loc in locations),
        )
        # Tables other modules derive from the map (convoy routes, interned orders), built
        # once per map and kept here so looking them up costs one dict hit.
        self.derived: dict[str, object] = {}
        # Set on the maps Parley ships (see standard_map), which pickle by name.
        self.shipped: str | None = None
        self._name_codes: dict[str, str] | None = None
        self._name_pattern: re.Pattern[str] | None = None
        self.home_centres = {
            power: tuple(p.index for p in provinces if p.home == power) for power in powers
        }

    def __reduce__(self) -> tuple[Any, ...]:
        # A game's state holds its map, and snapshots pickle the state. The derived tables
        # may hold the native core's compiled map, which cannot be pickled, and are rebuilt
        # on first use anyway: a shipped map pickles as its name (and unpickles as the
        # process's shared copy, tables and all); any other map without its tables.
        if self.shipped is not None:
            return (standard_map, (self.shipped,))
        state = dict(self.__dict__)
        state["derived"] = {}
        return (_restore_map, (state,))

    def _seas_near(self, prov: int) -> int:
        mask = 0
        locs = [prov, *self.provinces[prov].coasts]
        for loc in locs:
            mask |= self.fleet_mask[loc]
        return mask & self.sea_mask if self.provinces[prov].kind is ProvinceKind.COAST else 0

    def _any_adj(self, prov: int) -> int:
        mask = self.army_mask[prov] | self.fleet_mask[prov]
        for loc in self.provinces[prov].coasts:
            mask |= self.fleet_mask[loc]
        return mask

    # --- lookups by code -----------------------------------------------------------------

    def province(self, code: str) -> Province:
        """The province with this code (a coast suffix is ignored)."""
        index = self.prov_index.get(code.upper().split("/")[0])
        if index is None:
            raise KeyError(f"no province {code!r} on the {self.name} map")
        return self.provinces[index]

    def location(self, code: str) -> Location:
        """The location with this code (`PAR`, `STP/NC`)."""
        index = self.loc_index.get(code.upper())
        if index is None:
            raise KeyError(f"no location {code!r} on the {self.name} map")
        return self.locations[index]

    def province_of(self, loc_code: str) -> str:
        """The province code of a location code."""
        return self.provinces[self.loc_province[self.location(loc_code).index]].code

    def can_stand(self, kind: UnitKind, loc: int) -> bool:
        return self.fleet_can_stand[loc] if kind is UnitKind.FLEET else self.army_can_stand[loc]

    def adjacent(self, kind: UnitKind, loc: int, dst: int) -> bool:
        """True when a unit of `kind` at location `loc` can move to location `dst`."""
        if kind is UnitKind.FLEET:
            return dst in self.fleet_adj[loc]
        return self.locations[dst].coast is None and dst in self.army_adj[loc]

    def reach_mask(self, kind: UnitKind, loc: int) -> int:
        """Provinces a unit of `kind` at `loc` could move to (any coast)."""
        return self.fleet_mask[loc] if kind is UnitKind.FLEET else self.army_mask[loc]

    def reach_mask_of(self, fleet: bool, loc: int) -> int:
        """Provinces a unit at `loc` could move to (any coast); an army's loc is its province."""
        return self.fleet_mask[loc] if fleet else self.army_mask[loc]

    def distances(self, sources: int, *, fleet: bool | None = None) -> list[int]:
        """Steps from the nearest province in `sources` to every province (-1 unreachable).

        With `fleet` None every border counts; True follows fleet moves, False army moves.
        """
        n = self.province_count
        dist = [-1] * n
        frontier = sources
        step = 0
        seen = 0
        while frontier:
            for p in members(frontier):
                dist[p] = step
            seen |= frontier
            nxt = 0
            for p in members(frontier):
                nxt |= self._step_mask(p, fleet)
            frontier = nxt & ~seen
            step += 1
        return dist

    def _step_mask(self, prov: int, fleet: bool | None) -> int:
        if fleet is None:
            return self.any_adj[prov]
        if not fleet:
            return self.army_mask[prov]
        mask = self.fleet_mask[prov]
        for loc in self.provinces[prov].coasts:
            mask |= self.fleet_mask[loc]
        return mask

    # --- names, for the order parser ----------------------------------------------------

    @property
    def name_codes(self) -> Mapping[str, str]:
        """Lower-case province names (and simple variants) to codes."""
        if self._name_codes is None:
            table: dict[str, str] = {}
            for p in self.provinces:
                for variant in _name_variants(p.name):
                    table.setdefault(variant, p.code)
            self._name_codes = table
        return self._name_codes

    @property
    def name_pattern(self) -> re.Pattern[str] | None:
        """One pattern matching any province name in lower-case text, longest first."""
        if self._name_pattern is None:
            names = sorted(self.name_codes, key=len, reverse=True)
            parts = [r"[\s-]+".join(re.escape(w) for w in n.split()) for n in names]
            self._name_pattern = re.compile(r"(?<![\w/])(?:" + "|".join(parts) + r")(?![\w])")
        return self._name_pattern

    def __repr__(self) -> str:
        return f"DipMap({self.name!r}, {self.province_count} provinces)"


def _name_variants(name: str) -> list[str]:
    base = " ".join(name.lower().replace("-", " ").replace(".", " ").split())
    out = [base]
    if base.startswith("st "):
        out.append("saint " + base[3:])
    if base.startswith("the "):
        out.append(base[4:])
    return out


# --- loading ------------------------------------------------------------------------------


def load_map(name_or_path: str | Path) -> DipMap:
    """A map by name (a file shipped in `data/`) or by path to a TOML file of our format."""
    path = Path(name_or_path)
    if path.suffix != ".toml" and not path.exists():
        return standard_map(str(name_or_path))
    return _load_path(path.resolve())


@cache
def standard_map(name: str = "standard") -> DipMap:
    """A map shipped with Parley, loaded once per process."""
    path = DATA_DIR / f"{name}.toml"
    if not path.is_file():
        shipped = ", ".join(sorted(p.stem for p in DATA_DIR.glob("*.toml")))
        raise MapError(f"no map called {name!r}; shipped maps: {shipped}")
    found = _load_path(path)
    found.shipped = name
    return found


def _restore_map(state: dict[str, Any]) -> DipMap:
    found = DipMap.__new__(DipMap)
    found.__dict__.update(state)
    return found


def _load_path(path: Path) -> DipMap:
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except OSError as err:
        raise MapError(f"cannot read map file {path}: {err.strerror}") from err
    except tomllib.TOMLDecodeError as err:
        raise MapError(f"map file {path} is not valid TOML: {err}") from err
    return build_map(data, source=str(path))


def build_map(data: Mapping[str, Any], source: str = "<map>") -> DipMap:
    """A map from parsed TOML data; MapError naming the offending province on any fault."""
    return _Builder(data, source).build()


class _Builder:
    def __init__(self, data: Mapping[str, Any], source: str) -> None:
        self.data = data
        self.source = source

    def fail(self, message: str) -> MapError:
        return MapError(f"{self.source}: {message}")

    def build(self) -> DipMap:
        data = self.data
        if data.get("format") != MAP_FORMAT:
            raise self.fail(f"unsupported map format {data.get('format')!r} (expected 1)")
        name = self._text(data, "name", "the map")
        title = str(data.get("title", name))
        powers_raw = data.get("powers")
        if not isinstance(powers_raw, list) or not powers_raw:
            raise self.fail("'powers' must be a non-empty list of power names")
        powers = tuple(str(p).upper() for p in powers_raw)
        if len(set(powers)) != len(powers):
            raise self.fail("a power is listed twice in 'powers'")
        raw_provs = data.get("provinces")
        if not isinstance(raw_provs, dict) or not raw_provs:
            raise self.fail("the map has no [provinces.*] tables")
        codes = sorted(str(c).upper() for c in raw_provs)
        raw_by_code = {str(c).upper(): v for c, v in raw_provs.items()}
        prov_index = {c: i for i, c in enumerate(codes)}
        # Locations: provinces first, then every named coast.
        loc_codes: list[tuple[str, int, str | None]] = [(c, i, None) for i, c in enumerate(codes)]
        coasts_of: dict[int, list[int]] = {}
        for i, code in enumerate(codes):
            raw = raw_by_code[code]
            if not isinstance(raw, dict):
                raise self.fail(f"province {code}: expected a table")
            for coast in sorted(raw.get("coasts", {}) or {}):
                cc = str(coast).upper()
                if cc not in COAST_CODES:
                    raise self.fail(f"province {code}: unknown coast {coast!r}")
                coasts_of.setdefault(i, []).append(len(loc_codes))
                loc_codes.append((f"{code}/{cc}", i, cc))
        loc_index = {c: k for k, (c, _, _) in enumerate(loc_codes)}
        provinces = tuple(
            self._province(i, code, raw_by_code[code], powers, tuple(coasts_of.get(i, ())))
            for i, code in enumerate(codes)
        )
        locations = tuple(
            Location(index=k, code=c, province=p, coast=cc)
            for k, (c, p, cc) in enumerate(loc_codes)
        )
        army_adj = tuple(
            self._army_list(p, raw_by_code[p.code], prov_index, provinces) for p in provinces
        )
        fleet_lists: list[tuple[int, ...]] = []
        for loc in locations:
            fleet_lists.append(self._fleet_list(loc, raw_by_code, loc_index, provinces, locations))
        fleet_adj = tuple(fleet_lists)
        self._check_symmetry(provinces, locations, army_adj, fleet_adj)
        start_units = self._start_units(powers, loc_index, provinces, locations)
        victory = data.get("victory_centres")
        centre_count = sum(1 for p in provinces if p.centre)
        if not isinstance(victory, int) or not 1 <= victory <= centre_count:
            raise self.fail(f"'victory_centres' must be a number from 1 to {centre_count}")
        first_year = data.get("first_year", 1901)
        if not isinstance(first_year, int):
            raise self.fail("'first_year' must be a whole number")
        dip = DipMap(
            name=name,
            title=title,
            powers=powers,
            victory_centres=victory,
            first_year=first_year,
            provinces=provinces,
            locations=locations,
            army_adj=army_adj,
            fleet_adj=fleet_adj,
            start_units=start_units,
        )
        self._check_reachable(dip)
        return dip

    def _text(self, table: Mapping[str, Any], key: str, what: str) -> str:
        value = table.get(key)
        if not isinstance(value, str) or not value:
            raise self.fail(f"{what}: '{key}' must be non-empty text")
        return value

    def _province(
        self,
        index: int,
        code: str,
        raw: Mapping[str, Any],
        powers: tuple[str, ...],
        coasts: tuple[int, ...],
    ) -> Province:
        if len(code) != 3 or not code.isalpha():
            raise self.fail(f"province {code}: codes are three letters")
        name = self._text(raw, "name", f"province {code}")
        try:
            kind = ProvinceKind(raw.get("kind"))
        except ValueError:
            raise self.fail(
                f"province {code}: kind must be land, coast, sea or impassable, "
                f"not {raw.get('kind')!r}"
            ) from None
        centre = bool(raw.get("centre", False))
        home = raw.get("home")
        if home is not None:
            home = str(home).upper()
            if home not in powers:
                raise self.fail(f"province {code}: home power {home} is not in 'powers'")
            if not centre:
                raise self.fail(f"province {code}: a home centre must be a supply centre")
        if centre and kind not in (ProvinceKind.LAND, ProvinceKind.COAST):
            raise self.fail(f"province {code}: a {kind.value} province cannot be a supply centre")
        if coasts:
            if kind is not ProvinceKind.COAST:
                raise self.fail(f"province {code}: only coastal provinces have split coasts")
            if "fleet" in raw:
                raise self.fail(
                    f"province {code}: a split-coast province lists fleet moves per coast, "
                    "not in a 'fleet' key"
                )
            if len(coasts) < 2:
                raise self.fail(f"province {code}: a split coast needs at least two coasts")
        if kind is ProvinceKind.SEA and "army" in raw:
            raise self.fail(f"province {code}: a sea has no army moves")
        if kind is ProvinceKind.LAND and ("fleet" in raw or "coasts" in raw):
            raise self.fail(f"province {code}: an inland province has no fleet moves")
        if kind is ProvinceKind.IMPASSABLE and any(k in raw for k in ("army", "fleet", "coasts")):
            raise self.fail(f"province {code}: an impassable province has no moves")
        return Province(index, code, name, kind, centre, home, coasts)

    def _army_list(
        self,
        prov: Province,
        raw: Mapping[str, Any],
        prov_index: Mapping[str, int],
        provinces: tuple[Province, ...],
    ) -> tuple[int, ...]:
        out: list[int] = []
        for target in raw.get("army", []) or []:
            code = str(target).upper()
            idx = prov_index.get(code)
            if idx is None:
                raise self.fail(f"province {prov.code}: army move to unknown province {target!r}")
            if provinces[idx].kind not in (ProvinceKind.LAND, ProvinceKind.COAST):
                raise self.fail(
                    f"province {prov.code}: army move to {code}, which is "
                    f"{provinces[idx].kind.value}"
                )
            if idx == prov.index or idx in out:
                raise self.fail(f"province {prov.code}: army move to {code} listed badly")
            out.append(idx)
        return tuple(sorted(out))

    def _fleet_list(
        self,
        loc: Location,
        raw_by_code: Mapping[str, Any],
        loc_index: Mapping[str, int],
        provinces: tuple[Province, ...],
        locations: tuple[Location, ...],
    ) -> tuple[int, ...]:
        prov = provinces[loc.province]
        raw = raw_by_code[prov.code]
        if loc.coast is not None:
            targets = raw["coasts"][_coast_key(raw["coasts"], loc.coast)] or []
        elif prov.coasts:
            return ()
        else:
            targets = raw.get("fleet", []) or []
        out: list[int] = []
        for target in targets:
            code = str(target).upper()
            idx = loc_index.get(code)
            if idx is None:
                raise self.fail(f"location {loc.code}: fleet move to unknown location {target!r}")
            dest = locations[idx]
            dprov = provinces[dest.province]
            if dprov.kind not in (ProvinceKind.SEA, ProvinceKind.COAST):
                raise self.fail(
                    f"location {loc.code}: fleet move to {code}, which is {dprov.kind.value}"
                )
            if dest.coast is None and dprov.coasts:
                raise self.fail(
                    f"location {loc.code}: fleet move to split-coast {code} must name a coast"
                )
            if dest.province == loc.province or idx in out:
                raise self.fail(f"location {loc.code}: fleet move to {code} listed badly")
            out.append(idx)
        return tuple(sorted(out))

    def _check_symmetry(
        self,
        provinces: tuple[Province, ...],
        locations: tuple[Location, ...],
        army_adj: tuple[tuple[int, ...], ...],
        fleet_adj: tuple[tuple[int, ...], ...],
    ) -> None:
        for p in provinces:
            for q in army_adj[p.index]:
                if p.index not in army_adj[q]:
                    raise self.fail(
                        f"province {p.code}: army move to {provinces[q].code} but not back "
                        f"(adjacency must be symmetric)"
                    )
        for loc in locations:
            for d in fleet_adj[loc.index]:
                if loc.index not in fleet_adj[d]:
                    raise self.fail(
                        f"location {loc.code}: fleet move to {locations[d].code} but not back "
                        f"(adjacency must be symmetric)"
                    )
        for p in provinces:
            if p.kind is ProvinceKind.COAST and p.coasts:
                for c in p.coasts:
                    if not fleet_adj[c]:
                        raise self.fail(
                            f"location {locations[c].code}: a coast with no fleet moves"
                        )

    def _start_units(
        self,
        powers: tuple[str, ...],
        loc_index: Mapping[str, int],
        provinces: tuple[Province, ...],
        locations: tuple[Location, ...],
    ) -> tuple[StartUnit, ...]:
        raw_units = self.data.get("units", {}) or {}
        if not isinstance(raw_units, dict):
            raise self.fail("[units] must be a table of power = [units]")
        seen: set[int] = set()
        out: list[StartUnit] = []
        for power_raw, units in raw_units.items():
            power = str(power_raw).upper()
            if power not in powers:
                raise self.fail(f"[units]: {power} is not one of the powers")
            for text in units:
                parts = str(text).upper().split()
                if len(parts) != 2 or parts[0] not in ("A", "F"):
                    raise self.fail(f"[units] {power}: cannot read unit {text!r}")
                kind = UnitKind(parts[0])
                idx = loc_index.get(parts[1])
                if idx is None:
                    raise self.fail(f"[units] {power}: unknown location in {text!r}")
                loc = locations[idx]
                prov = provinces[loc.province]
                ok = (
                    (
                        loc.coast is not None
                        or (prov.kind is not ProvinceKind.LAND and not prov.coasts)
                    )
                    if kind is UnitKind.FLEET
                    else loc.coast is None and prov.kind in (ProvinceKind.LAND, ProvinceKind.COAST)
                )
                if not ok:
                    raise self.fail(f"[units] {power}: {text!r} cannot stand there")
                if prov.index in seen:
                    raise self.fail(f"[units]: two units start in province {prov.code}")
                seen.add(prov.index)
                out.append(StartUnit(power, kind, loc.code))
        return tuple(out)

    def _check_reachable(self, dip: DipMap) -> None:
        starts = bits([dip.loc_province[dip.loc_index[u.location]] for u in dip.start_units])
        starts |= bits([i for hs in dip.home_centres.values() for i in hs])
        if not starts:
            raise self.fail("the map has no starting units and no home centres")
        dist = dip.distances(starts)
        for p in dip.provinces:
            if p.centre and dist[p.index] < 0:
                raise self.fail(
                    f"province {p.code}: supply centre unreachable from any starting position"
                )


def _coast_key(coasts: Mapping[str, Any], coast: str) -> str:
    for key in coasts:
        if str(key).upper() == coast:
            return str(key)
    raise KeyError(coast)
