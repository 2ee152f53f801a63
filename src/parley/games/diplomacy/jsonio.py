"""Adjudication for other tools: a JSON position and orders in, results and the next position out.

The format is documented in docs/diplomacy.md. Input that cannot be understood (bad JSON
shape, unknown map, phase, power, province, or an order that cannot be read) raises
AdjudicationError naming what is wrong; orders that are understood but illegal are
adjudicated as the DATC says (the unit holds) and reported as "illegal".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .civil_disorder import CivilDisorderRule
from .map import DipMap, MapError, standard_map
from .orders import Order, OrderSyntaxError, parse_order
from .phases import GameOptions, process
from .position import PositionError
from .serial import position_from_json, position_to_json, results_to_json

FORMAT_VERSION = 1


class AdjudicationError(ValueError):
    """Input the adjudicator cannot understand; the message says what and where."""


def adjudicate_json(obj: Any, dip: DipMap | None = None) -> dict[str, Any]:
    """Adjudicate the phase described by `obj` (see docs/diplomacy.md).

    `dip` overrides the map named in the input (a map loaded from a user's file).
    """
    if not isinstance(obj, Mapping):
        raise AdjudicationError("the input must be a JSON object")
    known = {"map", "position", "phase", "units", "centres", "dislodged", "contested"}
    known |= {"orders", "options", "version"}
    unknown = sorted(set(obj) - known)
    if unknown:
        raise AdjudicationError(f"unknown key(s) {', '.join(unknown)}; known: {sorted(known)}")
    if obj.get("version", FORMAT_VERSION) != FORMAT_VERSION:
        raise AdjudicationError(f"unsupported version {obj.get('version')!r} (expected 1)")
    if dip is None:
        name = obj.get("map", "standard")
        if not isinstance(name, str):
            raise AdjudicationError("'map' must be the name of a shipped map, e.g. \"standard\"")
        try:
            dip = standard_map(name)
        except MapError as err:
            raise AdjudicationError(str(err)) from None
    raw_position = obj.get("position", obj)
    try:
        pos = position_from_json(raw_position, dip)
    except PositionError as err:
        raise AdjudicationError(f"bad position: {err}") from None
    orders = _orders(obj.get("orders", {}), dip, pos.phase.kind)
    options = _options(obj.get("options", {}))
    report = process(pos, orders, options)
    out: dict[str, Any] = {
        "version": FORMAT_VERSION,
        "map": dip.name,
        "phase": report.phase.name,
        "results": results_to_json(report.results),
        "auto": [
            {"phase": phase.name, "results": results_to_json(results)}
            for phase, results in report.auto
        ],
        "next": position_to_json(report.position),
        "ended": None,
    }
    if report.ending is not None:
        out["ended"] = {
            "winner": report.ending.winner,
            "draw": list(report.ending.powers) if report.ending.winner is None else [],
            "reason": report.ending.reason,
        }
    return out


def _orders(raw: Any, dip: DipMap, phase: Any) -> dict[str, list[Order]]:
    if not isinstance(raw, Mapping):
        raise AdjudicationError("'orders' must be an object of power: [order text, ...]")
    out: dict[str, list[Order]] = {}
    for power, texts in raw.items():
        name = str(power).upper()
        if name not in dip.power_index:
            raise AdjudicationError(f"'orders': {power!r} is not a power of the {dip.name} map")
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            raise AdjudicationError(f"'orders' of {name}: expected a list of order texts")
        parsed: list[Order] = []
        for text in texts:
            try:
                parsed.append(parse_order(text, dip, phase))
            except OrderSyntaxError as err:
                raise AdjudicationError(f"order of {name}: {err.message}") from None
        out[name] = parsed
    return out


def _options(raw: Any) -> GameOptions:
    if not isinstance(raw, Mapping):
        raise AdjudicationError("'options' must be an object")
    unknown = sorted(set(raw) - {"civil_disorder", "year_limit"})
    if unknown:
        raise AdjudicationError(f"unknown option(s) {', '.join(unknown)}")
    try:
        rule = CivilDisorderRule(str(raw.get("civil_disorder", CivilDisorderRule.SEED.value)))
    except ValueError:
        raise AdjudicationError('option \'civil_disorder\' must be "seed" or "2023"') from None
    limit = raw.get("year_limit", 0)
    if not isinstance(limit, int) or isinstance(limit, bool) or limit < 0:
        raise AdjudicationError("option 'year_limit' must be a whole number, 0 for none")
    return GameOptions(civil_disorder=rule, year_limit=limit)
