"""JSON forms of positions and results, in the conventional notation.

A position is `{"phase": "S1901M", "units": {"FRANCE": ["A PAR", ...]}, "centres":
{"FRANCE": ["PAR", ...]}}`, plus, in a retreat phase, `"dislodged": {"ENGLAND":
["F NTH <- HOL"]}` (the province the attacker came from, or `NONE` when the unit may
retreat anywhere free) and `"contested": ["BEL"]` (provinces left empty by a standoff).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from .map import DipMap
from .orders import format_order
from .phase import Phase, PhaseError
from .position import Position, PositionError
from .results import OrderResult


def position_to_json(pos: Position) -> dict[str, Any]:
    dip = pos.map
    units: dict[str, list[str]] = {p: [] for p in dip.powers}
    for unit in pos.all_units():
        units[unit.power].append(f"{unit.kind.value} {unit.location}")
    centres = {p: pos.centres_of(p) for p in dip.powers}
    out: dict[str, Any] = {"phase": pos.phase.name, "units": units, "centres": centres}
    if pos.dislodged:
        away: dict[str, list[str]] = {}
        for d in sorted(pos.dislodged.values(), key=lambda d: d.piece.loc):
            unit = pos.unit(d.piece)
            origin = "NONE" if d.attacker_from < 0 else dip.provinces[d.attacker_from].code
            away.setdefault(unit.power, []).append(f"{unit.kind.value} {unit.location} <- {origin}")
        out["dislodged"] = away
    if pos.contested:
        out["contested"] = [p.code for p in dip.provinces if pos.contested >> p.index & 1]
    return out


def position_from_json(obj: Any, dip: DipMap) -> Position:
    """A position from its JSON form; PositionError naming the faulty part."""
    if not isinstance(obj, Mapping):
        raise PositionError("a position must be a JSON object")
    phase_text = obj.get("phase")
    if not isinstance(phase_text, str):
        raise PositionError("the position needs a 'phase' such as \"S1901M\"")
    try:
        phase = Phase.parse(phase_text)
    except PhaseError as err:
        raise PositionError(str(err)) from None
    units = _power_lists(obj.get("units"), "units", required=True)
    centres = _power_lists(obj.get("centres"), "centres") if "centres" in obj else None
    dislodged = _power_lists(obj.get("dislodged"), "dislodged") if "dislodged" in obj else None
    contested = obj.get("contested", [])
    if not isinstance(contested, list) or not all(isinstance(c, str) for c in contested):
        raise PositionError("'contested' must be a list of province codes")
    return Position.build(dip, phase, units, centres, dislodged, contested)


def _power_lists(value: Any, key: str, required: bool = False) -> dict[str, list[str]]:
    if value is None and not required:
        return {}
    if not isinstance(value, Mapping):
        raise PositionError(f"'{key}' must be an object of power: [list of text]")
    out: dict[str, list[str]] = {}
    for power, items in value.items():
        if not isinstance(items, list) or not all(isinstance(i, str) for i in items):
            raise PositionError(f"'{key}' of {power}: expected a list of text")
        out[str(power)] = list(items)
    return out


def result_to_json(result: OrderResult) -> dict[str, Any]:
    out: dict[str, Any] = {
        "order": format_order(result.order),
        "outcome": result.outcome.value,
        "reason": result.reason.value,
        "message": result.message,
    }
    if result.who:
        out["with"] = list(result.who)
    if result.dislodged_by is not None:
        out["dislodged_by"] = result.dislodged_by
    if result.defaulted:
        out["defaulted"] = True
    return out


def results_to_json(results: Iterable[OrderResult]) -> dict[str, list[dict[str, Any]]]:
    """Results grouped by power, in the order the orders were given (defaults last)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for result in results:
        out.setdefault(result.power, []).append(result_to_json(result))
    return out
