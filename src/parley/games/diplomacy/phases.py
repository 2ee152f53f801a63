"""The game as a sequence of phases: movement, retreats, adjustments, and the end.

`process` takes a position and the orders given for its phase and returns the results and
the position of the next phase that needs orders. Phases with nothing to decide are
resolved on the way: a retreat phase where no dislodged unit can go anywhere (they are
disbanded), and a winter where no power can build or must disband. Centres change hands
after Fall (after its retreats). The game ends with a solo victory (a power owning
`victory_centres`), with one power left, or, with a year limit, in a draw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from .adjudicator import MovementOrders, MovementReport, adjudicate_movement
from .adjustments import adjudicate_adjustments
from .civil_disorder import CivilDisorderRule
from .orders import Order
from .phase import Phase, PhaseKind, Season
from .position import Position
from .results import OrderResult
from .retreats import adjudicate_retreats, retreat_options


def power_name(power: str) -> str:
    """A power as every text people read spells it: "France" (maps name them "FRANCE")."""
    return power.title()


@dataclass(frozen=True, slots=True)
class GameOptions:
    """Rule options of one game."""

    civil_disorder: CivilDisorderRule = CivilDisorderRule.SEED
    year_limit: int = 0  # 0: none; else the game is drawn once this year is over


@dataclass(frozen=True, slots=True)
class Ending:
    """How a game ended: a solo winner, or a draw shared by `powers`."""

    winner: str | None
    powers: tuple[str, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class PhaseReport:
    """What one `process` call did."""

    phase: Phase
    results: list[OrderResult]
    position: Position  # the next phase to be ordered (or the final position)
    auto: list[tuple[Phase, list[OrderResult]]] = field(default_factory=list)
    ending: Ending | None = None


def process(
    pos: Position,
    orders: Mapping[str, Sequence[Order]],
    options: GameOptions = GameOptions(),
) -> PhaseReport:
    """Resolve the phase of `pos` with `orders` (missing orders: units hold, retreats
    disband, owed disbands by civil disorder, builds waived)."""
    phase = pos.phase
    if phase.kind is PhaseKind.MOVEMENT:
        return _after_movement(phase, adjudicate_movement(pos, orders), options)
    if phase.kind is PhaseKind.RETREAT:
        report_r = adjudicate_retreats(pos, orders)
        return _after_season(phase, report_r.results, report_r.position, [], options)
    report_a = adjudicate_adjustments(pos, orders, options.civil_disorder)
    nxt = report_a.position
    nxt.phase = Phase(Season.SPRING, phase.year + 1, PhaseKind.MOVEMENT)
    return PhaseReport(phase, report_a.results, nxt, [], ending(nxt, options))


def process_validated(orders: MovementOrders, options: GameOptions = GameOptions()) -> PhaseReport:
    """`process` for a movement phase whose orders were validated already (the checked
    stage done once, e.g. when they were submitted)."""
    return _after_movement(orders.pos.phase, orders.adjudicate(), options)


def _after_movement(phase: Phase, report: MovementReport, options: GameOptions) -> PhaseReport:
    results, nxt = report.results, report.position
    auto: list[tuple[Phase, list[OrderResult]]] = []
    if nxt.dislodged:
        retreat = Phase(phase.season, phase.year, PhaseKind.RETREAT)
        nxt.phase = retreat
        if any(retreat_options(nxt, p) for p in nxt.dislodged):
            return PhaseReport(phase, results, nxt)
        forced = adjudicate_retreats(nxt, {})
        auto.append((retreat, forced.results))
        nxt = forced.position
    nxt.contested = 0  # standoffs matter only to the retreat phase that follows
    return _after_season(phase, results, nxt, auto, options)


def _after_season(
    phase: Phase,
    results: list[OrderResult],
    nxt: Position,
    auto: list[tuple[Phase, list[OrderResult]]],
    options: GameOptions,
) -> PhaseReport:
    """After a movement or retreat phase with nothing more to retreat."""
    if phase.season is Season.SPRING:
        # No centre changes hands in spring, and a power with a unit still owns a centre
        # (winter disbanded the rest), so the game cannot end here.
        nxt.phase = Phase(Season.FALL, phase.year, PhaseKind.MOVEMENT)
        return PhaseReport(phase, results, nxt, auto, None)
    update_centres(nxt)
    nxt.phase = Phase(Season.WINTER, phase.year, PhaseKind.ADJUSTMENT)
    centres, units = nxt.centre_counts(), nxt.unit_counts()
    done = ending(nxt, options, after_fall=True, counts=(centres, units))
    if done is None and not _adjustments_due(nxt, centres, units):
        nxt.phase = Phase(Season.SPRING, phase.year + 1, PhaseKind.MOVEMENT)
        done = ending(nxt, options, counts=(centres, units))
    return PhaseReport(phase, results, nxt, auto, done)


def _adjustments_due(pos: Position, centres: list[int], units: list[int]) -> bool:
    """True when some power must disband or can build (a quick form of adjustment_counts)."""
    homes = pos.map.home_centres
    powers = pos.map.powers
    owner = pos.owner
    occupied = pos.units
    for p, (c, u) in enumerate(zip(centres, units, strict=True)):
        if c < u:
            return True
        if c > u:
            for home in homes.get(powers[p], ()):
                if owner.get(home) == p and home not in occupied:
                    return True
    return False


def update_centres(pos: Position) -> None:
    """Every occupied centre now belongs to the occupying power (after Fall, UC 39)."""
    centres = pos.map.centre_mask
    for prov, piece in pos.units.items():
        if centres >> prov & 1:
            pos.owner[prov] = piece.power


def ending(
    pos: Position,
    options: GameOptions,
    after_fall: bool = False,
    counts: tuple[list[int], list[int]] | None = None,
) -> Ending | None:
    """The end of the game at `pos`, if it has come; `counts` (centres and units per
    power) saves recounting."""
    dip = pos.map
    centres, units = counts or (pos.centre_counts(), pos.unit_counts())
    living = [p for i, p in enumerate(dip.powers) if centres[i] or units[i]]
    if after_fall:
        best = max(centres)
        if best >= dip.victory_centres and centres.count(best) == 1:
            winner = dip.powers[centres.index(best)]
            return Ending(winner, (winner,), f"{power_name(winner)} owns {best} supply centres")
    if len(living) == 1:
        last = living[0]
        return Ending(last, (last,), f"{power_name(last)} is the last power standing")
    if not living:
        return Ending(None, (), "no power is left")
    limit = options.year_limit
    if limit and pos.phase.year > limit:
        return Ending(None, tuple(living), f"the year limit {limit} was reached")
    return None
