"""`parley export` on arena records: time, size, and peak memory as the game count grows.

Plays `--games` So Long Sucker arena games (random bots, 3 seats), then exports them:
CPU time, lines, bytes, and the peak of Python allocations (`tracemalloc`) while exporting
a quarter, half and all of the games. A streaming export keeps one game in memory at a
time, so the peak should not grow with the number of games.

    .venv/bin/python benchmarks/export_bench.py [--games 1000]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
import tracemalloc
from pathlib import Path

from parley.agents.arena import ArenaConfig, run_arena
from parley.agents.export import records_in, write_decisions


def export(files: list[Path], out: Path) -> tuple[float, int, int]:
    started = time.process_time()
    stats = write_decisions(out, records_in(files))
    return time.process_time() - started, stats.decisions, out.stat().st_size


def peak(files: list[Path], out: Path) -> int:
    """Peak traced allocations while exporting (tracing slows it down: timed apart)."""
    tracemalloc.start()
    write_decisions(out, records_in(files))
    _, top = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return top


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=3)
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        started = time.perf_counter()
        run_arena(ArenaConfig("sucker", ("random",), games=args.games, seats=args.seats, out=root))
        print(f"arena: {args.games} games in {time.perf_counter() - started:.1f} s (wall)")
        files = sorted((root / "games").glob("*.json"))
        print("| games | decisions | CPU s | decisions/s | MB written |")
        print("|---:|---:|---:|---:|---:|")
        for share in (4, 2, 1):
            chosen = files[: len(files) // share]
            seconds, lines, size = export(chosen, root / f"d{share}.jsonl")
            print(
                f"| {len(chosen)} | {lines} | {seconds:.2f} | {lines / seconds:,.0f} "
                f"| {size / 1e6:.1f} |"
            )
        seconds, lines, size = export(files, root / "d.jsonl.gz")
        print(f"gzip: {lines} decisions in {seconds:.2f} s CPU, {size / 1e6:.1f} MB")
        small, large = files[: len(files) // 20], files[: len(files) // 5]
        print(
            f"peak traced memory: {peak(small, root / 'p1.jsonl') / 1e6:.2f} MB for "
            f"{len(small)} games, {peak(large, root / 'p2.jsonl') / 1e6:.2f} MB for {len(large)}"
        )
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
