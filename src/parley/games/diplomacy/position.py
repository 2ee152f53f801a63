"""A position: the phase, the units, who owns each centre, and what a retreat phase needs.

The engine keeps units as int tuples keyed by province, so copying a position is cheap and
lookups in the adjudicator are dict hits on small ints. `Unit` values (strings) are made
only at the edges: observations, JSON, tests.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import NamedTuple

from .map import DipMap
from .phase import Phase, PhaseKind, Season
from .units import Unit, UnitKind


class PositionError(ValueError):
    """A position that breaks the rules of the map (two units in a province, a fleet inland...)."""


class Piece(NamedTuple):
    """A unit inside the engine: power index, fleet or not, location index."""

    power: int
    fleet: bool
    loc: int


class Dislodged(NamedTuple):
    """A dislodged unit waiting to retreat; `attacker_from` is -1 when it may retreat anywhere
    free (no attacker, or an attacker that came by convoy: DATC 4.A.5)."""

    piece: Piece
    attacker_from: int


class Position:
    """Everything the rules need to go on from here (besides options and history)."""

    __slots__ = ("contested", "dislodged", "map", "owner", "phase", "units")

    def __init__(
        self,
        dip: DipMap,
        phase: Phase,
        units: dict[int, Piece],
        owner: dict[int, int],
        dislodged: dict[int, Dislodged] | None = None,
        contested: int = 0,
    ) -> None:
        self.map = dip
        self.phase = phase
        self.units = units
        self.owner = owner  # centre province -> power index; neutral centres are absent
        self.dislodged = dislodged if dislodged is not None else {}
        self.contested = contested

    def copy(self) -> Position:
        return Position(
            self.map,
            self.phase,
            dict(self.units),
            dict(self.owner),
            dict(self.dislodged),
            self.contested,
        )

    # --- public views ------------------------------------------------------------------

    def unit(self, piece: Piece) -> Unit:
        dip = self.map
        kind = UnitKind.FLEET if piece.fleet else UnitKind.ARMY
        return Unit(dip.powers[piece.power], kind, dip.locations[piece.loc].code)

    def units_of(self, power: str) -> list[Unit]:
        """The units of one power, sorted by location."""
        p = self.map.power_index[power]
        return sorted(
            (self.unit(u) for u in self.units.values() if u.power == p), key=lambda u: u.location
        )

    def all_units(self) -> list[Unit]:
        return sorted((self.unit(u) for u in self.units.values()), key=lambda u: u.location)

    def centres_of(self, power: str) -> list[str]:
        p = self.map.power_index[power]
        return sorted(self.map.provinces[c].code for c, o in self.owner.items() if o == p)

    def centre_counts(self) -> list[int]:
        counts = [0] * len(self.map.powers)
        for o in self.owner.values():
            counts[o] += 1
        return counts

    def unit_counts(self) -> list[int]:
        counts = [0] * len(self.map.powers)
        for u in self.units.values():
            counts[u.power] += 1
        return counts

    def unit_at(self, province: str) -> Unit | None:
        piece = self.units.get(self.map.prov_index[province.upper().split("/")[0]])
        return None if piece is None else self.unit(piece)

    def __repr__(self) -> str:
        return f"Position({self.map.name}, {self.phase}, {len(self.units)} units)"

    # --- building from text -------------------------------------------------------------

    @staticmethod
    def initial(dip: DipMap) -> Position:
        """The starting position of a map: its units, and each power owning its home centres."""
        units: dict[int, Piece] = {}
        for start in dip.start_units:
            piece = make_piece(dip, start.power, start.kind, start.location)
            units[dip.loc_province[piece.loc]] = piece
        owner = {
            c: dip.power_index[power] for power, homes in dip.home_centres.items() for c in homes
        }
        return Position(dip, Phase(Season.SPRING, dip.first_year, PhaseKind.MOVEMENT), units, owner)

    @staticmethod
    def build(
        dip: DipMap,
        phase: Phase,
        units: Mapping[str, Iterable[str]],
        centres: Mapping[str, Iterable[str]] | None = None,
        dislodged: Mapping[str, Iterable[str]] | None = None,
        contested: Iterable[str] = (),
    ) -> Position:
        """A position from text: units per power (`"A PAR"`), centres per power (home
        centres when None), dislodged units per power (`"F NTH <- HOL"`), contested provinces."""
        placed: dict[int, Piece] = {}
        for power, texts in units.items():
            for text in texts:
                piece = parse_piece(dip, power, text)
                prov = dip.loc_province[piece.loc]
                if prov in placed:
                    raise PositionError(
                        f"two units in {dip.provinces[prov].code} ({text!r} and another)"
                    )
                placed[prov] = piece
        owner: dict[int, int] = {}
        if centres is None:
            for power, homes in dip.home_centres.items():
                for c in homes:
                    owner[c] = dip.power_index[power]
        else:
            for power, codes in centres.items():
                p = _power(dip, power)
                for code in codes:
                    centre = dip.prov_index.get(code.upper(), -1)
                    if centre < 0 or not dip.provinces[centre].centre:
                        raise PositionError(
                            f"{code!r} is not a supply centre of the {dip.name} map"
                        )
                    if centre in owner and owner[centre] != p:
                        raise PositionError(f"centre {code} is owned by two powers")
                    owner[centre] = p
        away: dict[int, Dislodged] = {}
        for power, texts in (dislodged or {}).items():
            for text in texts:
                unit_text, sep, origin = text.partition("<-")
                piece = parse_piece(dip, power, unit_text.strip())
                prov = dip.loc_province[piece.loc]
                if prov in away:
                    raise PositionError(f"two dislodged units in {dip.provinces[prov].code}")
                came_from = _origin(dip, origin, text) if sep else -1
                away[prov] = Dislodged(piece, came_from)
        mask = 0
        for code in contested:
            spot = dip.prov_index.get(code.upper(), -1)
            if spot < 0:
                raise PositionError(f"unknown contested province {code!r}")
            mask |= 1 << spot
        return Position(dip, phase, placed, owner, away, mask)


def _origin(dip: DipMap, origin: str, text: str) -> int:
    """The province after `<-`: a code, `NONE`, or `CODE VIA` (came by convoy: no bar)."""
    words = origin.strip().upper().split()
    if not words or words == ["NONE"] or words[-1] == "VIA":
        return -1
    if len(words) != 1 or words[0] not in dip.prov_index:
        raise PositionError(f"cannot read the attacker's origin in {text!r}")
    return dip.prov_index[words[0]]


def _power(dip: DipMap, power: str) -> int:
    index = dip.power_index.get(power.upper())
    if index is None:
        raise PositionError(f"{power!r} is not a power of the {dip.name} map")
    return index


def make_piece(dip: DipMap, power: str, kind: UnitKind, location: str) -> Piece:
    loc = dip.loc_index.get(location.upper())
    if loc is None:
        raise PositionError(f"no location {location!r} on the {dip.name} map")
    fleet = kind is UnitKind.FLEET
    if fleet and not dip.fleet_can_stand[loc]:
        coasts = dip.provinces[dip.loc_province[loc]].coasts
        if coasts:
            names = ", ".join(dip.locations[c].code for c in coasts)
            raise PositionError(f"a fleet in {location} must name its coast ({names})")
        raise PositionError(f"a fleet cannot stand in {location}")
    if not fleet and not dip.army_can_stand[loc]:
        if dip.locations[loc].coast is not None:
            loc = dip.locations[loc].province  # an army ignores a coast
        else:
            raise PositionError(f"an army cannot stand in {location}")
    return Piece(_power(dip, power), fleet, loc)


def parse_piece(dip: DipMap, power: str, text: str) -> Piece:
    """`"A PAR"` / `"F STP/SC"` for `power` → Piece."""
    parts = text.strip().upper().split()
    if len(parts) != 2 or parts[0] not in ("A", "F"):
        raise PositionError(f"cannot read unit {text!r} (expected like 'A PAR' or 'F STP/SC')")
    return make_piece(dip, power, UnitKind(parts[0]), parts[1])
