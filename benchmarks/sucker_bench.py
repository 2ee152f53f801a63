"""So Long Sucker: random complete games per second on this machine.

    .venv/bin/python benchmarks/sucker_bench.py            # default: 400 games per row
    .venv/bin/python benchmarks/sucker_bench.py --games 2000

Two drivers, both ending every game (a win or a draw):

* `match`: the kernel's `Match` with the conformance suite's random driver (`play_random`):
  owed decisions mostly, and now and then an out-of-turn action by another seat (kill or
  give a prisoner, answer or make a bargain). Every action is checked and recorded.
* `rules`: the bare rules, as a search or RL loop would use them: the seat that owes the
  decision takes `random_action`, with no record.

Reports games per second of this process's CPU time (best of three runs; the machine may be
shared, so wall-clock time is shown too), actions and chips played per game, and the
longest game, next to the proven bound on chips played.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass

from parley.games.sucker import RULES, Phase, move_bound
from parley.kernel import Match, Rng, Setup
from parley.kernel.conformance import play_random


@dataclass
class Row:
    games: int = 0
    seconds: float = 0.0  # CPU time of this process
    wall: float = 0.0
    actions: int = 0
    moves: int = 0
    longest: int = 0
    most_moves: int = 0
    draws: int = 0


def match_game(seats: int, chips: int, seed: int, row: Row) -> None:
    match = Match(RULES, seats, {"chips": chips}, seed=seed)
    play_random(match, Rng(seed * 7919 + 1), RULES.spec.max_plies)
    assert match.is_over, f"seed {seed} did not end"
    _count(row, match.ply, match.state.moves, match.state.drawn)


def rules_game(seats: int, chips: int, seed: int, row: Row) -> None:
    state = RULES.setup(Setup(seats, {"chips": chips}, Rng(seed)))
    rng = Rng(seed * 7919 + 1)
    actions = 0
    while state.phase is not Phase.OVER:
        actor = state.actor()
        assert actor is not None
        RULES.apply(state, actor, RULES.random_action(state, actor, rng))
        actions += 1
        assert actions < RULES.spec.max_plies, f"seed {seed} did not end"
    _count(row, actions, state.moves, state.drawn)


def _count(row: Row, actions: int, moves: int, drawn: bool) -> None:
    row.games += 1
    row.actions += actions
    row.moves += moves
    row.longest = max(row.longest, actions)
    row.most_moves = max(row.most_moves, moves)
    row.draws += drawn


def measure(
    driver: Callable[[int, int, int, Row], None], seats: int, chips: int, games: int
) -> Row:
    best: Row | None = None
    for _ in range(3):
        row = Row()
        start, wall = time.process_time(), time.perf_counter()
        for seed in range(games):
            driver(seats, chips, seed, row)
        row.seconds = time.process_time() - start
        row.wall = time.perf_counter() - wall
        if best is None or row.seconds < best.seconds:
            best = row
    assert best is not None
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per row (default 400)")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {args.games} games a row")
    header = "| driver | players | chips | games/s (CPU) | games/s (wall) | actions/game "
    header += "| chips played/game "
    header += "| longest (actions) | most chips played (bound) | draws |"
    print(header)
    print("|" + "---|" * 10)
    for driver_name, driver in (("match", match_game), ("rules", rules_game)):
        for seats, chips in ((3, 7), (4, 7), (4, 3), (6, 7)):
            row = measure(driver, seats, chips, args.games)
            print(
                f"| {driver_name} | {seats} | {chips} | {row.games / row.seconds:,.0f} "
                f"| {row.games / row.wall:,.0f} "
                f"| {row.actions / row.games:.0f} | {row.moves / row.games:.0f} "
                f"| {row.longest} | {row.most_moves} ({move_bound(seats, chips)}) "
                f"| {row.draws} |"
            )


if __name__ == "__main__":
    main()
