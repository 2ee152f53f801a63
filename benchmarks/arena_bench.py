"""The arena's throughput: complete games per second with random bots, next to the bare loop.

    .venv/bin/python benchmarks/arena_bench.py                 # the issue's two runs
    .venv/bin/python benchmarks/arena_bench.py --workers 1 2   # and with two workers
    .venv/bin/python benchmarks/arena_bench.py --heuristic     # heuristic v random figures

Rows, per game:

* `arena`: `run_arena` as `parley arena GAME --games N --workers K` runs it: games in
  worker processes (spawned; K > 1), every record written as JSON, results, summary,
  TrueSkill ratings and the PNG plot. Wall-clock time from start to the plot, so the
  workers' start-up counts.
* `bare loop`: the same games (seeds, bots, cap) in this process, with no record kept
  or written: what the arena adds is the difference.

The machine may be shared: each row shows wall-clock seconds and CPU seconds (this
process and its finished worker processes), and games per second of each.
"""

from __future__ import annotations

import argparse
import platform
import resource
import tempfile
import time
from pathlib import Path
from typing import Any

from parley import games
from parley.agents.arena import ArenaConfig, game_seeds, lineup, run_arena
from parley.agents.bots import decide, make_bot
from parley.kernel import Match, Rng

RUNS = {"diplomacy": 20, "sucker": 200}


def cpu_now() -> float:
    """CPU seconds of this process and of its children that have ended."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def bare_loop(game: str, count: int, bots: tuple[str, ...], seed: int) -> tuple[float, float]:
    """The same games with the same bots and seeds, in this process, nothing recorded."""
    rules = games.find(game)
    seats = rules.spec.default_seats or rules.spec.min_seats
    made = {name: make_bot(name, rules) for name in set(bots)}
    wall, cpu = time.perf_counter(), cpu_now()
    for index in range(count):
        game_seed, bot_seed = game_seeds(seed, index)
        players = lineup(bots, seats, index)
        match: Match[Any, Any] = Match(rules, list(players), None, game_seed)
        rngs = [Rng(bot_seed).fork(s + 1) for s in range(seats)]
        while not match.is_over and match.ply < rules.spec.max_plies:
            for s in sorted(match.turn().owing):
                if not match.is_over and s in match.turn().owing:
                    match.act(s, decide(made[players[s]], match, s, rngs[s]))
    return time.perf_counter() - wall, cpu_now() - cpu


def arena(
    game: str, count: int, workers: int, bots: tuple[str, ...], seed: int, out: Path
) -> tuple[float, float, dict[str, Any]]:
    wall, cpu = time.perf_counter(), cpu_now()
    report = run_arena(ArenaConfig(game, bots, count, workers, seed, out / f"{game}-{workers}"))
    return time.perf_counter() - wall, cpu_now() - cpu, report.summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--heuristic", action="store_true", help="one heuristic bot against random ones"
    )
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}")
    print()
    print("| game | games | driver | workers | wall s | games/s (wall) | CPU s | games/CPU s |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for game, count in RUNS.items():
            seats = games.find(game).spec.default_seats or 2
            bots: tuple[str, ...] = ("random",)
            if args.heuristic:
                bots = ("heuristic", *["random"] * (seats - 1))
            for workers in args.workers:
                wall, cpu, summary = arena(game, count, workers, bots, args.seed, Path(tmp))
                print(_row(game, count, "arena", workers, wall, cpu))
                if args.heuristic:
                    standings = summary["standings"]
                    for bot, row in standings.items():
                        print(
                            f"|  | | {bot}: wins {row['wins']}, draws {row['draws']}, "
                            f"win share {row['win_share']:.3f} | | | | | |"
                        )
            wall, cpu = bare_loop(game, count, bots, args.seed)
            print(_row(game, count, "bare loop", 1, wall, cpu))


def _row(game: str, count: int, driver: str, workers: int, wall: float, cpu: float) -> str:
    return (
        f"| {game} | {count} | {driver} | {workers} | {wall:.2f} | {count / wall:.2f} | "
        f"{cpu:.2f} | {count / cpu:.2f} |"
    )


if __name__ == "__main__":
    main()
