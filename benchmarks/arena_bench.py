"""The arena's throughput: complete games per second with random bots, next to the bare loop.

    .venv/bin/python benchmarks/arena_bench.py                 # the issue's two runs
    .venv/bin/python benchmarks/arena_bench.py --workers 1 2   # and with two workers
    .venv/bin/python benchmarks/arena_bench.py --heuristic     # heuristic v random figures
    .venv/bin/python benchmarks/arena_bench.py --workers 1 2 --ray 1 2 --games sucker=200 \
        --games diplomacy=6                                    # local workers next to Ray

Rows, per game:

* `arena`: `run_arena` as `parley arena GAME --games N --workers K` runs it: games in
  worker processes (spawned; K > 1), every record written as JSON, results, summary,
  TrueSkill ratings and the PNG plot. Wall-clock time from start to the plot, so the
  workers' start-up counts.
* `ray`: the same run with `--ray`, K Ray worker processes (actors) on a Ray started
  here once (`ray.init`, not timed; its start-up is printed). The workers' start counts.
* `bare loop`: the same games (seeds, bots, cap) in this process, with no record kept
  or written: what the arena adds is the difference.

The machine may be shared: each row shows wall-clock seconds and CPU seconds (this
process and every process under it: worker processes, and Ray's own processes and
workers), and games per second of each.
"""

from __future__ import annotations

import argparse
import logging
import os
import platform
import resource
import tempfile
import threading
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


def _tree_ticks() -> dict[int, tuple[int, int]]:
    """(CPU clock ticks, own and ended children's; parent) of every process under this one."""
    parents: dict[int, int] = {}
    ticks: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        pid = int(stat.parent.name)
        parents[pid] = int(fields[1])
        ticks[pid] = sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
    mine = {os.getpid()}
    changed = True
    while changed:
        changed = False
        for pid, parent in parents.items():
            if parent in mine and pid not in mine:
                mine.add(pid)
                changed = True
    return {pid: (ticks[pid], parents[pid]) for pid in mine if pid != os.getpid()}


class TreeCpu:
    """CPU seconds of this process and every process under it while the block runs.

    Processes under this one (spawned workers, Ray's daemons and its worker processes)
    are sampled every 50 ms, so one that ends within the block counts up to its last
    sample; what it used after that, at most 50 ms of CPU, is missed.
    """

    def __enter__(self) -> TreeCpu:
        self.first = _tree_ticks()
        self.last = dict(self.first)
        self.started = cpu_now()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()
        return self

    def _sample(self) -> None:
        while not self.stop.wait(0.05):
            self.last.update(_tree_ticks())

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join()
        self.last.update(_tree_ticks())
        own = cpu_now() - self.started  # includes this process's children that ended
        ticks = 0
        for pid, (last, parent) in self.last.items():
            if parent == os.getpid() and not _alive(pid):
                continue  # ended and waited for here: already in `own`
            ticks += last - self.first.get(pid, (0, 0))[0]
        self.seconds = own + ticks / os.sysconf("SC_CLK_TCK")


def _alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists()


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
    game: str,
    count: int,
    workers: int,
    bots: tuple[str, ...],
    seed: int,
    out: Path,
    ray: bool = False,
) -> tuple[float, float, dict[str, Any]]:
    where = out / f"{game}-{workers}{'-ray' if ray else ''}"
    wall = time.perf_counter()
    with TreeCpu() as cpu:
        report = run_arena(ArenaConfig(game, bots, count, workers, seed, where, ray=ray))
    return time.perf_counter() - wall, cpu.seconds, report.summary


def start_ray(cpus: int) -> None:
    import ray

    wall = time.perf_counter()
    ray.init(address="local", num_cpus=cpus, include_dashboard=False, logging_level=logging.WARNING)
    print(f"Ray {ray.__version__} started here in {time.perf_counter() - wall:.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, nargs="+", default=[1])
    parser.add_argument(
        "--ray", type=int, nargs="*", default=[], help="Ray worker counts to run as well"
    )
    parser.add_argument(
        "--games", action="append", default=[], help="GAME=N: play N games of GAME (repeatable)"
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--heuristic", action="store_true", help="one heuristic bot against random ones"
    )
    args = parser.parse_args()
    runs = dict(RUNS)
    if args.games:
        runs = {name: int(n) for name, _, n in (g.partition("=") for g in args.games)}
    print(f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}")
    if args.ray:
        start_ray(max(args.ray))
    print(f"load average before: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")
    print()
    print("| game | games | driver | workers | wall s | games/s (wall) | CPU s | games/CPU s |")
    print("|---|---:|---|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for game, count in runs.items():
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
            for workers in args.ray:
                wall, cpu, _ = arena(game, count, workers, bots, args.seed, Path(tmp), ray=True)
                print(_row(game, count, "ray", workers, wall, cpu))
            wall, cpu = bare_loop(game, count, bots, args.seed)
            print(_row(game, count, "bare loop", 1, wall, cpu))
    print()
    print(f"load average after: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")


def _row(game: str, count: int, driver: str, workers: int, wall: float, cpu: float) -> str:
    return (
        f"| {game} | {count} | {driver} | {workers} | {wall:.2f} | {count / wall:.2f} | "
        f"{cpu:.2f} | {count / cpu:.2f} |"
    )


if __name__ == "__main__":
    main()
