"""Campus Conquest: random complete games and random actions per second on this machine.

    .venv/bin/python benchmarks/campus_bench.py            # default: 200 games per row
    .venv/bin/python benchmarks/campus_bench.py --games 1000

Two drivers, both playing every game to its end (a conquest or the round limit):

* `rules`: the bare rules, as a search or RL loop uses them: the owed seat (any one of them
  in the minigame) lists its legal actions with `legal_actions` and plays one drawn
  uniformly; `apply`, no record. This is the figure with legal-action enumeration included.
* `match`: the kernel's `Match` with the conformance suite's random driver (`play_random`):
  every action checked, recorded, and the turn computed before each.

Reports games and actions per second of this process's CPU time (best of three runs; the
machine may be shared, so wall-clock rates and the load average are shown too), actions per
game, the longest game, and how many games ended by conquest.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass

from parley.games.campus import RULES, Phase
from parley.kernel import Match, Rng, Setup
from parley.kernel.conformance import play_random


@dataclass
class Row:
    games: int = 0
    seconds: float = 0.0  # CPU time of this process
    wall: float = 0.0
    actions: int = 0
    longest: int = 0
    conquests: int = 0


def rules_game(seats: int, seed: int, row: Row) -> None:
    state = RULES.setup(Setup(seats, RULES.spec.resolve_options({}), Rng(seed)))
    rng = Rng(seed * 7919 + 1)
    actions = 0
    while state.phase is not Phase.OVER:
        owed = RULES.turn(state).owed
        seat = owed[rng.below(len(owed))].seat if len(owed) > 1 else owed[0].seat
        legal = RULES.legal_actions(state, seat)
        RULES.apply(state, seat, legal[rng.below(len(legal))])
        actions += 1
    _count(row, actions, state.winner is not None)


def match_game(seats: int, seed: int, row: Row) -> None:
    match = Match(RULES, seats, seed=seed)
    play_random(match, Rng(seed * 7919 + 1), RULES.spec.max_plies)
    assert match.is_over, f"seed {seed} did not end"
    _count(row, match.ply, match.state.winner is not None)


def _count(row: Row, actions: int, conquest: bool) -> None:
    row.games += 1
    row.actions += actions
    row.longest = max(row.longest, actions)
    row.conquests += conquest


def measure(driver: Callable[[int, int, Row], None], seats: int, games: int) -> Row:
    best: Row | None = None
    for _ in range(3):
        row = Row()
        start, wall = time.process_time(), time.perf_counter()
        for seed in range(games):
            driver(seats, seed, row)
        row.seconds = time.process_time() - start
        row.wall = time.perf_counter() - wall
        if best is None or row.seconds < best.seconds:
            best = row
    assert best is not None
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per row (default 200)")
    parser.add_argument("--seats", type=int, nargs="*", default=[2, 4, 6])
    args = parser.parse_args()
    load = os.getloadavg()[0]
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {args.games} games a "
        f"row, load average {load:.2f} at the start"
    )
    print(
        "| driver | players | games/s (CPU) | actions/s (CPU) | actions/s (wall) "
        "| actions/game | longest | conquests |"
    )
    print("|" + "---|" * 8)
    for name, driver in (("rules", rules_game), ("match", match_game)):
        for seats in args.seats:
            row = measure(driver, seats, args.games)
            print(
                f"| {name} | {seats} | {row.games / row.seconds:,.0f} "
                f"| {row.actions / row.seconds:,.0f} | {row.actions / row.wall:,.0f} "
                f"| {row.actions / row.games:.0f} | {row.longest} "
                f"| {row.conquests}/{row.games} |"
            )
    print(f"load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
