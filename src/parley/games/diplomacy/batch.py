"""The batched API for search and self-play: whole games on the native core's tables.

A `_core.Game` holds a position in C structs: `clone()` is a memory copy, `legal(power)`
lists the order codes of one power's units without computing the others', `step(codes)`
resolves the phase (movement, retreats or adjustments, as `phases.process` does) and goes on
to the next phase that needs orders. `step_many` steps many games in one call. Orders are
codes (see `native`); `native.order_table(dip)` turns them into order values and back. The
codes given to `step` are taken as the orders of the powers whose units they name.
"""

from __future__ import annotations

from typing import Any

from .civil_disorder import CivilDisorderRule
from .map import DipMap
from .native import EngineError, compile_map, core_module
from .phase import Phase, PhaseKind, Season
from .phases import GameOptions
from .position import Dislodged, Piece, Position

SEASONS = (Season.SPRING, Season.FALL, Season.WINTER)
KINDS = (PhaseKind.MOVEMENT, PhaseKind.RETREAT, PhaseKind.ADJUSTMENT)


def new_game(pos: Position, options: GameOptions | None = None) -> Any:
    """A native game (`_core.Game`) at this position: `legal(power)`, `step(codes)`,
    `clone()`, `state()`; EngineError when the core is not built or the map does not fit."""
    options = options or GameOptions()
    dip = pos.map
    core = _core_for(dip)
    owner = [pos.owner.get(p, -1) for p in range(dip.province_count)]
    units = [(p, u.power, u.fleet, u.loc) for p, u in pos.units.items()]
    dislodged = [
        (p, a.piece.power, a.piece.fleet, a.piece.loc, a.attacker_from)
        for p, a in pos.dislodged.items()
    ]
    phase = pos.phase
    rule = 0 if options.civil_disorder is CivilDisorderRule.SEED else 1
    return _core().Game(
        core,
        SEASONS.index(phase.season),
        phase.year,
        KINDS.index(phase.kind),
        units,
        owner,
        dislodged,
        pos.contested,
        options.year_limit,
        rule,
    )


def position_of(game: Any, dip: DipMap) -> Position:
    """The Python position of a native game (units in province order)."""
    season, year, kind, units, owner, dislodged, contested, _, _ = game.state()
    return Position(
        dip,
        Phase(SEASONS[season], year, KINDS[kind]),
        {p: Piece(power, fleet, loc) for p, power, fleet, loc in units},
        {p: o for p, o in enumerate(owner) if o >= 0},
        {p: Dislodged(Piece(pw, f, loc), came) for p, pw, f, loc, came in dislodged},
        contested,
    )


def step_many(games: list[Any], orders: list[list[int]]) -> list[bool]:
    """Step many native games in one call, each with its order codes; which have ended."""
    ended: list[bool] = _core().step_many(games, orders)
    return ended


def _core() -> Any:
    found = core_module()
    if found is None:
        raise EngineError("the native Diplomacy core is not built")
    return found


def _core_for(dip: DipMap) -> Any:
    if core_module() is None:
        raise EngineError("the native Diplomacy core is not built")
    found = dip.derived.get("native_game")
    if found is None:
        found = compile_map(dip)
        if found is None:
            raise EngineError(f"the {dip.name} map is too large for the native core")
        names = sorted(range(dip.province_count), key=lambda p: dip.provinces[p].name.lower())
        rank = [0] * dip.province_count
        for r, p in enumerate(names):
            rank[p] = r
        found.set_rules(dip.victory_centres, rank)  # type: ignore[attr-defined]
        dip.derived["native_game"] = found
    return found
