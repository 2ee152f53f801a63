"""Planet control: a small galaxy built around the Twilight Imperium control rules."""

from .actions import (
    Action,
    Activate,
    Assign,
    Bombard,
    Commit,
    Done,
    Exhaust,
    Explore,
    Move,
    Pass,
    Produce,
    SpendGood,
)
from .galaxy import Galaxy, GalaxyError, builtin, galaxy_for, load_galaxy, read_galaxy
from .rules import RULES, PlanetsRules
from .state import Area, Hit, PlanetsState, PlanetState, Stage
from .units import UNITS, UnitStats

__all__ = [
    "RULES",
    "UNITS",
    "Action",
    "Activate",
    "Area",
    "Assign",
    "Bombard",
    "Commit",
    "Done",
    "Exhaust",
    "Explore",
    "Galaxy",
    "GalaxyError",
    "Hit",
    "Move",
    "Pass",
    "PlanetState",
    "PlanetsRules",
    "PlanetsState",
    "Produce",
    "SpendGood",
    "Stage",
    "UnitStats",
    "builtin",
    "galaxy_for",
    "load_galaxy",
    "read_galaxy",
]
