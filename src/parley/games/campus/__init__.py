"""Campus conquest with the hidden Pro-Vice-Chancellor: sectors, units, dice and a minigame."""

from .actions import NO_PICK, PASS, PICK_MAX, Action, Move, Pass, Pick
from .board import Bonus, CampusMap, MapError, Sector, load_map, parse_map
from .rules import RULES, CampusRules
from .state import COLLEGES, NOBODY, CampusState, Minigame, Phase, Settings

__all__ = [
    "COLLEGES",
    "NOBODY",
    "NO_PICK",
    "PASS",
    "PICK_MAX",
    "RULES",
    "Action",
    "Bonus",
    "CampusMap",
    "CampusRules",
    "CampusState",
    "MapError",
    "Minigame",
    "Move",
    "Pass",
    "Phase",
    "Pick",
    "Sector",
    "Settings",
    "load_map",
    "parse_map",
]
