"""Galaxies as data: systems on a hex grid, their planets, homes and anomalies, checked on load."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from enum import Enum
from functools import cache
from pathlib import Path
from typing import Any

DATA_DIR = Path(__file__).resolve().parent / "data"
GALAXY_FORMAT = 1
TRAITS = ("cultural", "hazardous", "industrial")
SPECIALTIES = ("biotic", "cybernetic", "propulsion", "warfare")
# Axial hex directions: every system's neighbours are these steps away.
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


class GalaxyError(ValueError):
    """A galaxy file that cannot be read or breaks the galaxy rules; the message says where."""


class SystemKind(Enum):
    """What a system is."""

    CENTRAL = "central"  # the one central system
    HOME = "home"  # a player's home system
    PLANETS = "planets"  # one or more planets
    EMPTY = "empty"  # empty space
    ASTEROIDS = "asteroids"  # an asteroid field: ships never move into or through it


@dataclass(frozen=True, slots=True)
class Planet:
    """One planet as printed on its card."""

    name: str
    system: str
    resources: int
    influence: int
    traits: tuple[str, ...]
    specialty: str | None
    legendary: bool
    home: int | None  # the seat whose home planet this is


@dataclass(frozen=True, slots=True)
class System:
    """One hex of the galaxy."""

    id: str
    q: int
    r: int
    kind: SystemKind
    planets: tuple[str, ...]
    home: int | None


@dataclass(frozen=True, slots=True)
class Galaxy:
    """A whole galaxy, its adjacency worked out from the hex coordinates."""

    name: str
    title: str
    seats: int
    systems: dict[str, System]
    planets: dict[str, Planet]
    neighbours: dict[str, tuple[str, ...]]
    layouts: dict[int, tuple[int, ...]]  # seat count -> the home slots used, in seat order

    def homes(self, seats: int) -> tuple[int, ...]:
        """The home slots the seats take, in seat order, for a game of `seats` players."""
        if seats == self.seats:
            return tuple(range(seats))
        if seats in self.layouts:
            return self.layouts[seats]
        raise GalaxyError(f"{self.name} is laid out for {self.seat_range()} players, not {seats}")

    def seat_range(self) -> str:
        return ", ".join(str(n) for n in sorted({self.seats, *self.layouts}))

    def home_system(self, slot: int) -> System:
        for system in self.systems.values():
            if system.home == slot:
                return system
        raise GalaxyError(f"{self.name}: no home system for slot {slot}")

    def central(self) -> System:
        return next(s for s in self.systems.values() if s.kind is SystemKind.CENTRAL)

    def legendary(self) -> tuple[str, ...]:
        return tuple(p.name for p in self.planets.values() if p.legendary)


def _int(raw: Any, where: str, low: int = 0, high: int = 99) -> int:
    if isinstance(raw, bool) or not isinstance(raw, int) or not low <= raw <= high:
        raise GalaxyError(f"{where}: expected a whole number {low}..{high}, got {raw!r}")
    return raw


def load_galaxy(data: dict[str, Any], source: str = "galaxy") -> Galaxy:
    """A galaxy from parsed TOML, or GalaxyError naming the first problem found."""
    if data.get("format") != GALAXY_FORMAT:
        raise GalaxyError(f"{source}: format must be {GALAXY_FORMAT}, got {data.get('format')!r}")
    name = data.get("name")
    if not isinstance(name, str) or not name:
        raise GalaxyError(f"{source}: a galaxy needs a name")
    seats = _int(data.get("seats"), f"{source}: seats", 2, 8)
    systems: dict[str, System] = {}
    planets: dict[str, Planet] = {}
    at: dict[tuple[int, int], str] = {}
    for raw in data.get("system", []):
        sid = raw.get("id")
        if not isinstance(sid, str) or not sid.isdigit() or len(sid) != 4:
            raise GalaxyError(f"{source}: system id {sid!r} is not four digits like '0203'")
        if sid in systems:
            raise GalaxyError(f"{source}: system {sid} is listed twice")
        where = f"{source}: system {sid}"
        q, r = _int(raw.get("q"), f"{where} q", -20, 20), _int(raw.get("r"), f"{where} r", -20, 20)
        if (q, r) in at:
            raise GalaxyError(f"{where} stands on the same hex as {at[q, r]}")
        at[q, r] = sid
        try:
            kind = SystemKind(raw.get("kind"))
        except ValueError:
            kinds = ", ".join(k.value for k in SystemKind)
            raise GalaxyError(f"{where}: kind {raw.get('kind')!r} is not one of {kinds}") from None
        home = _int(raw["home"], f"{where} home", 0, seats - 1) if "home" in raw else None
        if (home is not None) != (kind is SystemKind.HOME):
            raise GalaxyError(f"{where}: home systems, and only they, name their seat")
        names: list[str] = []
        for p in raw.get("planet", []):
            pname = p.get("name")
            if not isinstance(pname, str) or not pname.strip():
                raise GalaxyError(f"{where}: a planet without a name")
            if pname.lower() in {n.lower() for n in planets}:
                raise GalaxyError(f"{where}: planet {pname!r} is named twice in the galaxy")
            if pname.split()[0].isdigit():
                raise GalaxyError(f"{where}: planet {pname!r} may not start with a number")
            traits = tuple(p.get("traits", ()))
            if any(t not in TRAITS for t in traits) or len(set(traits)) != len(traits):
                raise GalaxyError(f"{where}: planet {pname} has traits {traits}, not from {TRAITS}")
            if traits and kind in (SystemKind.HOME, SystemKind.CENTRAL):
                raise GalaxyError(f"{where}: home and central planets have no traits ({pname})")
            specialty = p.get("specialty")
            if specialty is not None and specialty not in SPECIALTIES:
                raise GalaxyError(f"{where}: planet {pname} has an unknown specialty {specialty!r}")
            planets[pname] = Planet(
                name=pname,
                system=sid,
                resources=_int(p.get("resources"), f"{where} {pname} resources", 0, 9),
                influence=_int(p.get("influence"), f"{where} {pname} influence", 0, 9),
                traits=traits,
                specialty=specialty,
                legendary=bool(p.get("legendary", False)),
                home=home,
            )
            names.append(pname)
        if kind in (SystemKind.EMPTY, SystemKind.ASTEROIDS) and names:
            raise GalaxyError(f"{where}: {kind.value} systems have no planets")
        if kind in (SystemKind.HOME, SystemKind.CENTRAL, SystemKind.PLANETS) and not names:
            raise GalaxyError(f"{where}: a {kind.value} system needs a planet")
        systems[sid] = System(sid, q, r, kind, tuple(names), home)
    centrals = [s for s in systems.values() if s.kind is SystemKind.CENTRAL]
    if len(centrals) != 1:
        raise GalaxyError(f"{source}: a galaxy has exactly one central system, not {len(centrals)}")
    homes = sorted(s.home for s in systems.values() if s.home is not None)
    if homes != list(range(seats)):
        raise GalaxyError(f"{source}: home systems for seats {homes}, expected 0..{seats - 1}")
    if len([p for p in planets.values() if p.legendary]) != 1:
        raise GalaxyError(f"{source}: a galaxy has exactly one legendary planet")
    neighbours = {
        sid: tuple(at[s.q + dq, s.r + dr] for dq, dr in DIRECTIONS if (s.q + dq, s.r + dr) in at)
        for sid, s in systems.items()
    }
    _check_connected(source, systems, neighbours)
    layouts: dict[int, tuple[int, ...]] = {}
    for count, slots in dict(data.get("layouts", {})).items():
        n = _int(int(count) if str(count).isdigit() else count, f"{source}: layout", 2, seats)
        if not isinstance(slots, list) or len(slots) != n or len(set(slots)) != n:
            raise GalaxyError(f"{source}: layout for {n} players must name {n} home slots")
        layouts[n] = tuple(_int(x, f"{source}: layout for {n}", 0, seats - 1) for x in slots)
    title = str(data.get("title", name))
    return Galaxy(name, title, seats, systems, planets, neighbours, layouts)


def _check_connected(
    source: str, systems: dict[str, System], neighbours: dict[str, tuple[str, ...]]
) -> None:
    """Every system can be reached from the centre without crossing an asteroid field."""
    start = next(s for s in systems.values() if s.kind is SystemKind.CENTRAL).id
    seen, todo = {start}, [start]
    while todo:
        for n in neighbours[todo.pop()]:
            if n not in seen:
                seen.add(n)
                if systems[n].kind is not SystemKind.ASTEROIDS:
                    todo.append(n)
    cut = sorted(set(systems) - seen)
    if cut:
        raise GalaxyError(f"{source}: systems {', '.join(cut)} cannot be reached from the centre")


MAX_GALAXY_BYTES = 256 * 1024  # far more than a galaxy of 8 seats needs


def read_galaxy(path: str | Path) -> Galaxy:
    """A galaxy from a TOML file: a regular `.toml` file of at most `MAX_GALAXY_BYTES`.

    The path may come from a game's options, so nothing else is opened (no device, pipe or
    directory), and a file too big for a galaxy is refused before it is read.
    """
    path = Path(path)
    refused = GalaxyError(
        f"galaxy {str(path)[:80]!r} is neither a built-in galaxy nor a readable .toml file"
    )
    too_big = GalaxyError(f"{path}: larger than a galaxy file may be ({MAX_GALAXY_BYTES} bytes)")
    try:
        if path.suffix != ".toml" or not path.is_file():
            raise refused
        if path.stat().st_size > MAX_GALAXY_BYTES:
            raise too_big
        with path.open("rb") as f:
            raw = f.read(MAX_GALAXY_BYTES + 1)
    except OSError:
        raise refused from None
    if len(raw) > MAX_GALAXY_BYTES:  # it grew since it was measured
        raise too_big
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise GalaxyError(f"{path}: not a TOML galaxy file ({err})") from err
    return load_galaxy(data, str(path))


@cache
def builtin(name: str) -> Galaxy:
    """A galaxy shipped with the game ("trine" or "sextant")."""
    return read_galaxy(DATA_DIR / f"{name}.toml")


@cache
def galaxy_for(option: str) -> Galaxy:
    """The galaxy an option names: a built-in name, or a path to a TOML file."""
    if (DATA_DIR / f"{option}.toml").is_file():
        return builtin(option)
    return read_galaxy(option)
