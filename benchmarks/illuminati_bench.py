"""Illuminati: random complete games and actions per second on this machine.

    .venv/bin/python benchmarks/illuminati_bench.py            # default: 60 games per row
    .venv/bin/python benchmarks/illuminati_bench.py --games 200

Two drivers, both playing every game to its end (a goal, the last player standing, or the
round limit):

* `match`: the kernel's `Match` with the conformance suite's random driver (`play_random`);
  every action is checked, applied and recorded.
* `rules`: the bare rules, as a search or RL loop would use them: the owed seat takes
  `random_action` and the rules apply it, with no record.

Rows with the default options (random players are usually out after their third turn)
and with `elimination=off` (games run to the 12-round limit). Reports games and actions
per second of this process's CPU time (best of three runs; wall-clock time too, since the
machine may be shared), actions per game and the longest game, beside the load average.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from parley.games.illuminati import RULES, Phase, engine
from parley.kernel import Match, Rng, Setup
from parley.kernel.conformance import play_random


@dataclass
class Row:
    games: int = 0
    seconds: float = 0.0
    wall: float = 0.0
    actions: int = 0
    longest: int = 0


def match_game(seats: int, options: dict[str, Any], seed: int, row: Row) -> None:
    match = Match(RULES, seats, options, seed=seed)
    play_random(match, Rng(seed * 7919 + 1), RULES.spec.max_plies)
    assert match.is_over, f"seed {seed} did not end"
    _count(row, match.ply)


def rules_game(seats: int, options: dict[str, Any], seed: int, row: Row) -> None:
    state = RULES.setup(Setup(seats, RULES.spec.resolve_options(options), Rng(seed)))
    rng = Rng(seed * 7919 + 1)
    actions = 0
    while state.phase is not Phase.OVER:
        seat = engine.owed_seat(state)
        assert seat is not None
        RULES.apply(state, seat, RULES.random_action(state, seat, rng))
        actions += 1
        assert actions < RULES.spec.max_plies, f"seed {seed} did not end"
    _count(row, actions)


def _count(row: Row, actions: int) -> None:
    row.games += 1
    row.actions += actions
    row.longest = max(row.longest, actions)


def measure(
    driver: Callable[[int, dict[str, Any], int, Row], None],
    seats: int,
    options: dict[str, Any],
    games: int,
) -> Row:
    best: Row | None = None
    for _ in range(3):
        row = Row()
        start, wall = time.process_time(), time.perf_counter()
        for seed in range(games):
            driver(seats, options, seed, row)
        row.seconds = time.process_time() - start
        row.wall = time.perf_counter() - wall
        if best is None or row.seconds < best.seconds:
            best = row
    assert best is not None
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60, help="games per row (default 60)")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {args.games} games a "
        f"row, load average {load:.1f}"
    )
    print(
        "| driver | players | options | games/s (CPU) | actions/s (CPU) | games/s (wall) "
        "| actions/game | longest |"
    )
    print("|" + "---|" * 8)
    for driver_name, driver in (("rules", rules_game), ("match", match_game)):
        for seats, options in (
            (4, {}),
            (8, {}),
            (4, {"elimination": False}),
        ):
            row = measure(driver, seats, options, args.games)
            label = ", ".join(f"{k}={v}" for k, v in options.items()) or "defaults"
            print(
                f"| {driver_name} | {seats} | {label} | {row.games / row.seconds:,.1f} "
                f"| {row.actions / row.seconds:,.0f} | {row.games / row.wall:,.1f} "
                f"| {row.actions / row.games:.0f} | {row.longest} |"
            )


if __name__ == "__main__":
    main()
