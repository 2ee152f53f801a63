"""Diplomacy: the classical game, a DATC-complete adjudicator, and maps as data.

The engine (map, orders, adjudicator, phases) is pure and does not use the kernel; `RULES`
plays it on the kernel, and `adjudicate_json` serves other tools.
"""

from __future__ import annotations

from .adjudicator import MovementReport, adjudicate_movement
from .jsonio import AdjudicationError, adjudicate_json
from .legal import legal_orders
from .map import DipMap, MapError, load_map, standard_map
from .orders import Order, OrderSyntaxError, format_order, parse_order
from .phase import Phase, PhaseKind, Season
from .phases import Ending, GameOptions, PhaseReport, process
from .position import Position, PositionError
from .results import OrderResult, Outcome, Reason
from .rules import DiplomacyRules, DiplomacyState, OrderSet
from .units import Unit, UnitKind

RULES = DiplomacyRules()

__all__ = [
    "RULES",
    "AdjudicationError",
    "DipMap",
    "DiplomacyRules",
    "DiplomacyState",
    "Ending",
    "GameOptions",
    "MapError",
    "MovementReport",
    "Order",
    "OrderResult",
    "OrderSet",
    "OrderSyntaxError",
    "Outcome",
    "Phase",
    "PhaseKind",
    "PhaseReport",
    "Position",
    "PositionError",
    "Reason",
    "Season",
    "Unit",
    "UnitKind",
    "adjudicate_json",
    "adjudicate_movement",
    "format_order",
    "legal_orders",
    "load_map",
    "parse_order",
    "process",
    "standard_map",
]
