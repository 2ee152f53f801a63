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
    barrage: int = 0  # ANTI-FIGHTER BARRAGE value, 0 for none
    barrage_dice: int = 0
    bombard_dice: int = 1  # dice of its BOMBARDMENT
    full: bool = False  # exists only in the full rules (not in `rules=compact`)


UNITS: dict[str, UnitStats] = {
    u.name: u
    for u in (
        UnitStats("carrier", 3, 1, 9, 1, 1, 4, False, 0, 0, False, 0, 4, True, False, False),
        UnitStats("cruiser", 2, 1, 7, 1, 2, 0, False, 0, 0, False, 0, 8, True, False, False),
        UnitStats(
            "destroyer", 1, 1, 9, 1, 2, 0, False, 0, 0, False, 0, 8, True, False, False, 9, 2
        ),
        UnitStats("dreadnought", 4, 1, 5, 1, 1, 1, True, 5, 0, False, 0, 5, True, False, False),
        # The war sun needs a technology in the base game; technology is cut, so here any
        # player may produce one (12 resources keeps it rare).
        UnitStats(
            "warsun", 12, 1, 3, 3, 2, 6, True, 3, 0, False, 0, 2, True, False, False, 0, 0, 3, True
        ),
        # A generic flagship: the faction sheets are cut, so one set of values for everyone.
        UnitStats(
            "flagship", 8, 1, 7, 2, 1, 3, True, 0, 0, False, 0, 1, True, False, False, full=True
        ),
        # Fighters have no move of their own: ships carry them (capacity), docks shelter 3.
        UnitStats(
            "fighter", 1, 2, 9, 1, 0, 0, False, 0, 0, False, 0, 10, True, False, False, full=True
        ),
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
COMPACT_PRODUCIBLE = tuple(n for n in PRODUCIBLE if not UNITS[n].full)
CARGO = ("fighter", *GROUND)  # what ships carry in the full rules (capacity)
DOCK_FIGHTERS = 3  # fighters in a space dock's system that need no capacity
ORDER = {name: i for i, name in enumerate(UNITS)}

# What each player starts with in their home system.
START_SPACE = {"carrier": 2, "cruiser": 1, "destroyer": 1, "dreadnought": 1}
# The full rules' start fits the starting fleet pool (3 non-fighter ships in a system), so
# nobody begins over the fleet supply; fighters do not count against it.
START_SPACE_FULL = {"carrier": 2, "dreadnought": 1, "fighter": 2}
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
    "warsun": "warsun",
    "warsuns": "warsun",
    "ws": "warsun",
    "flagship": "flagship",
    "flagships": "flagship",
    "fs": "flagship",
    "fighter": "fighter",
    "fighters": "fighter",
    "ff": "fighter",
    "ftr": "fighter",
    "mech": "mech",
    "mechs": "mech",
    "pds": "pds",
    "dock": "dock",
    "docks": "dock",
    "spacedock": "dock",
}


def cost_of(name: str, count: int) -> int:
    """Resources to produce `count` units of a type (a pair of infantry or fighters costs
    one; a single one costs the whole one, 67.2b)."""
    stats = UNITS[name]
    return stats.cost * -(-count // stats.per_cost)
