"""The units: the base game's published statistics, and the reinforcements each player has."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class UnitStats:
    """One unit type's printed values; 0 means the unit lacks that value or ability."""

    name: str
    cost: int  # resources
    per_cost: int  # units made for that cost (infantry come two for one)
    combat: int  # a die showing this or more is a hit; 0: does not fight
    dice: int
    move: int
    capacity: int
    sustain: bool  # SUSTAIN DAMAGE
    bombard: int  # BOMBARDMENT value (one die), 0 for none
    cannon: int  # SPACE CANNON value (one die), 0 for none
    shield: bool  # PLANETARY SHIELD
    production: int  # PRODUCTION: added to its planet's resources
    limit: int  # reinforcements: how many a player owns
    ship: bool
    ground: bool
    structure: bool


UNITS: dict[str, UnitStats] = {
    u.name: u
    for u in (
        UnitStats("carrier", 3, 1, 9, 1, 1, 4, False, 0, 0, False, 0, 4, True, False, False),
        UnitStats("cruiser", 2, 1, 7, 1, 2, 0, False, 0, 0, False, 0, 8, True, False, False),
        UnitStats("destroyer", 1, 1, 9, 1, 2, 0, False, 0, 0, False, 0, 8, True, False, False),
        UnitStats("dreadnought", 4, 1, 5, 1, 1, 1, True, 5, 0, False, 0, 5, True, False, False),
        UnitStats("infantry", 1, 2, 8, 1, 0, 0, False, 0, 0, False, 0, 12, False, True, False),
        UnitStats("mech", 2, 1, 6, 1, 0, 0, True, 0, 0, False, 0, 4, False, True, False),
        UnitStats("pds", 0, 1, 0, 0, 0, 0, False, 0, 6, True, 0, 6, False, False, True),
        UnitStats("dock", 0, 1, 0, 0, 0, 0, False, 0, 0, False, 2, 3, False, False, True),
    )
}
SHIPS = tuple(n for n, u in UNITS.items() if u.ship)
GROUND = tuple(n for n, u in UNITS.items() if u.ground)
STRUCTURES = tuple(n for n, u in UNITS.items() if u.structure)
PRODUCIBLE = SHIPS + GROUND  # structures come only with the starting forces
ORDER = {name: i for i, name in enumerate(UNITS)}

# What each player starts with in their home system.
START_SPACE = {"carrier": 2, "cruiser": 1, "destroyer": 1, "dreadnought": 1}
START_HOME = {"infantry": 3, "mech": 1, "dock": 1, "pds": 1}  # on the main home planet
START_MINOR = {"infantry": 1}  # on the second home planet

ALIASES = {
    "carrier": "carrier",
    "carriers": "carrier",
    "cv": "carrier",
    "cruiser": "cruiser",
    "cruisers": "cruiser",
    "ca": "cruiser",
    "destroyer": "destroyer",
    "destroyers": "destroyer",
    "dd": "destroyer",
    "dreadnought": "dreadnought",
    "dreadnoughts": "dreadnought",
    "dread": "dreadnought",
    "dreads": "dreadnought",
    "dn": "dreadnought",
    "infantry": "infantry",
    "infantries": "infantry",
    "inf": "infantry",
    "gf": "infantry",
    "mech": "mech",
    "mechs": "mech",
    "pds": "pds",
    "dock": "dock",
    "docks": "dock",
    "spacedock": "dock",
}


def cost_of(name: str, count: int) -> int:
    """Resources to produce `count` units of a type (a pair of infantry costs one)."""
    stats = UNITS[name]
    return stats.cost * -(-count // stats.per_cost)
