"""Random play for Diplomacy tests: reachable positions, and the reports that led to them."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

from parley.games.diplomacy.legal import adjustment_orders, movement_orders, retreat_orders
from parley.games.diplomacy.map import DipMap, standard_map
from parley.games.diplomacy.orders import Order
from parley.games.diplomacy.phase import PhaseKind
from parley.games.diplomacy.phases import GameOptions, PhaseReport, process
from parley.games.diplomacy.position import Position


@dataclass
class Step:
    """One phase of a random game: the position, the orders given, and what came of it."""

    position: Position
    orders: dict[str, list[Order]]
    report: PhaseReport


def random_orders(pos: Position, rng: random.Random, noise: float = 0.0) -> dict[str, list[Order]]:
    """One random legal order per unit (or random adjustments); with `noise`, some orders are
    swapped for another unit's, which is usually illegal or unmatched."""
    dip = pos.map
    orders: dict[str, list[Order]] = {}
    kind = pos.phase.kind
    if kind is PhaseKind.ADJUSTMENT:
        for power in dip.powers:
            legal = adjustment_orders(pos, power)
            if legal:
                orders[power] = [rng.choice(legal) for _ in range(rng.randint(0, 4))]
        return orders
    if kind is PhaseKind.MOVEMENT:
        lists = movement_orders(pos)
        owners = {p: u.power for p, u in pos.units.items()}
    else:
        lists = retreat_orders(pos)
        owners = {p: d.piece.power for p, d in pos.dislodged.items()}
    every = [o for lst in lists.values() for o in lst]
    for prov, legal in lists.items():
        if rng.random() < 0.05:
            continue  # unordered
        pick = rng.choice(every) if noise and rng.random() < noise else rng.choice(legal)
        orders.setdefault(dip.powers[owners[prov]], []).append(pick)
    return orders


def random_game(
    seed: int,
    phases: int,
    dip: DipMap | None = None,
    noise: float = 0.0,
    options: GameOptions | None = None,
) -> Iterator[Step]:
    """Up to `phases` phases of random play from the map's start."""
    rng = random.Random(seed)
    pos = Position.initial(dip or standard_map())
    for _ in range(phases):
        orders = random_orders(pos, rng, noise)
        report = process(pos, orders, options or GameOptions())
        yield Step(pos, orders, report)
        if report.ending is not None:
            return
        pos = report.position
