"""Planet Control: random complete games and actions per second on this machine.

    .venv/bin/python benchmarks/planets_bench.py              # both presets, 3, 4 and 6 players
    .venv/bin/python benchmarks/planets_bench.py --games 100 --seats 3 --preset full

Two drivers, both ending every game (at the round limit or a win):

* `rules`: the bare rules, as a search or RL loop would use them: the owed seat takes
  `random_action`, with no record.
* `match`: the kernel's `Match` with the conformance suite's random driver (`play_random`):
  every action checked and recorded.

Each driver runs under both presets of the `rules` option, side by side in one run: `full`
(the default: strategy phase, command sheet, building, the whole combat) and `compact` (the
game of control alone). Reports games and actions per second of this process's CPU time
(the machine may be shared, so wall-clock time and the load average are shown too), and
actions per game.
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


def rules_game(seats: int, seed: int, preset: str) -> int:
    options = RULES.spec.resolve_options({"rules": preset})
    state = RULES.setup(Setup(seats, options, Rng(seed)))
    rng = Rng(seed * 7919 + 1)
    actions = 0
    while RULES.outcome(state) is None:
        seat = RULES.turn(state).owed[0].seat
        RULES.apply(state, seat, RULES.random_action(state, seat, rng))
        actions += 1
        assert actions < RULES.spec.max_plies, f"seed {seed} did not end"
    return actions


def match_game(seats: int, seed: int, preset: str) -> int:
    match = Match(RULES, seats, seed=seed, options={"rules": preset})
    play_random(match, Rng(seed * 7919 + 1), RULES.spec.max_plies)
    assert match.is_over, f"seed {seed} did not end"
    return match.ply


def run(
    driver: Callable[[int, int, str], int], seats: int, games: int, preset: str
) -> tuple[float, float, int]:
    wall, cpu = time.perf_counter(), time.process_time()
    actions = sum(driver(seats, seed, preset) for seed in range(games))
    return time.process_time() - cpu, time.perf_counter() - wall, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seats", type=int, nargs="+", default=[3, 4, 6])
    parser.add_argument(
        "--preset", choices=("full", "compact"), nargs="+", default=["full", "compact"]
    )
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, load {os.getloadavg()}")
    print()
    print(
        "| rules | players | driver | games | actions/game | CPU s | games/CPU s "
        "| actions/CPU s | wall s |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for seats in args.seats:
        for preset in args.preset:
            for name, driver in (("rules", rules_game), ("match", match_game)):
                cpu, wall, actions = run(driver, seats, args.games, preset)
                print(
                    f"| {preset} | {seats} | {name} | {args.games} | {actions / args.games:.0f} "
                    f"| {cpu:.2f} | {args.games / cpu:.1f} | {actions / cpu:.0f} | {wall:.2f} |"
                )


if __name__ == "__main__":
    main()
