"""Planet Control: random complete games and actions per second on this machine.

    .venv/bin/python benchmarks/planets_bench.py              # 3, 4 and 6 players, 40 games each
    .venv/bin/python benchmarks/planets_bench.py --games 100 --seats 3

Two drivers, both ending every game (at the round limit or a win):

* `rules`: the bare rules, as a search or RL loop would use them: the owed seat takes
  `random_action`, with no record.
* `match`: the kernel's `Match` with the conformance suite's random driver (`play_random`):
  every action checked and recorded.

Reports games and actions per second of this process's CPU time (the machine may be
shared, so wall-clock time and the load average are shown too), and actions per game.
"""

from __future__ import annotations

import argparse
import os
import platform
import time
from collections.abc import Callable

from parley.games.planets import RULES
from parley.kernel import Match, Rng, Setup
from parley.kernel.conformance import play_random


def rules_game(seats: int, seed: int) -> int:
    options = RULES.spec.resolve_options({})
    state = RULES.setup(Setup(seats, options, Rng(seed)))
    rng = Rng(seed * 7919 + 1)
    actions = 0
    while RULES.outcome(state) is None:
        seat = RULES.turn(state).owed[0].seat
        RULES.apply(state, seat, RULES.random_action(state, seat, rng))
        actions += 1
        assert actions < RULES.spec.max_plies, f"seed {seed} did not end"
    return actions


def match_game(seats: int, seed: int) -> int:
    match = Match(RULES, seats, seed=seed)
    play_random(match, Rng(seed * 7919 + 1), RULES.spec.max_plies)
    assert match.is_over, f"seed {seed} did not end"
    return match.ply


def run(driver: Callable[[int, int], int], seats: int, games: int) -> tuple[float, float, int]:
    wall, cpu = time.perf_counter(), time.process_time()
    actions = sum(driver(seats, seed) for seed in range(games))
    return time.process_time() - cpu, time.perf_counter() - wall, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seats", type=int, nargs="+", default=[3, 4, 6])
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, load {os.getloadavg()}")
    print()
    print(
        "| players | driver | games | actions/game | CPU s | games/CPU s | actions/CPU s | wall s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for seats in args.seats:
        for name, driver in (("rules", rules_game), ("match", match_game)):
            cpu, wall, actions = run(driver, seats, args.games)
            print(
                f"| {seats} | {name} | {args.games} | {actions / args.games:.0f} | {cpu:.2f} | "
                f"{args.games / cpu:.1f} | {actions / cpu:.0f} | {wall:.2f} |"
            )


if __name__ == "__main__":
    main()
