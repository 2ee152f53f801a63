"""`parley export` on arena records: time, size, and peak memory as the game count grows.

Plays `--games` So Long Sucker arena games (random bots, 3 seats), then exports them:
CPU time, lines, bytes, and the peak of Python allocations (`tracemalloc`) while exporting
a quarter, half and all of the games. A streaming export keeps one game in memory at a
time, so the peak should not grow with the number of games.

With `--database URL` (PostgreSQL) the same games are also stored in a fresh schema of
that database, as a server stores them, and exported from there (`parley export
--database`): CPU time of this process and wall time (the database server's own work is
only in the latter), and the peak of Python allocations for a fifth and all of the games.
The schema is dropped at the end.

    .venv/bin/python benchmarks/export_bench.py [--games 1000]
    .venv/bin/python benchmarks/export_bench.py --games 1000 \
        --database postgresql+psycopg://postgres@127.0.0.1:5432/test
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import tempfile
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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


class Sink:
    """A text stream that keeps only its size."""

    def __init__(self) -> None:
        self.size = 0

    def write(self, text: str) -> int:
        self.size += len(text)
        return len(text)


@contextlib.contextmanager
def fresh_schema(url: str) -> Iterator[str]:
    """A new empty PostgreSQL schema, selected by the URL handed out; dropped afterwards."""
    import psycopg

    schema = f"parley_bench_{secrets.token_hex(4)}"
    dsn = url.replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(dsn, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')


def store(url: str, files: list[Path]) -> None:
    """Store arena records as a server stores its games: a games row and its entries."""
    from sqlalchemy.orm import Session

    from parley.server import store as db
    from parley.server.db.engine import make_engine
    from parley.server.db.migrate import upgrade
    from parley.server.vocab import GameRecord, GameStatus, PressMode

    engine = make_engine(url)
    upgrade(engine)
    with Session(engine) as s, s.begin():
        host = db.insert_user(s, "bench", None, 0.0)
    for start in range(0, len(files), 100):
        with Session(engine) as s, s.begin():
            for i, path in enumerate(files[start : start + 100], start):
                record: dict[str, Any] = json.loads(path.read_text())
                game_id = f"g{i:06d}"
                db.insert_game(
                    s,
                    GameRecord(
                        id=game_id, game=record["game"], name=game_id, description="",
                        options=record["options"], seats=len(record["players"]),
                        period_seconds=60, press=PressMode.FULL, private=False,
                        invite_code=None, host_id=host.id, status=GameStatus.FINISHED,
                        seed=record["seed"], players=tuple(record["players"]),
                        seq=len(record["entries"]), version=1, outcome=record["outcome"],
                        disorder_after=0, bot_after=0, takeover_bot="",
                        created_at=float(i), started_at=float(i), ended_at=float(i),
                    ),
                )  # fmt: skip
                db.insert_entries(
                    s,
                    game_id,
                    [
                        db.EntryRow(e["seq"], e["type"], json.dumps(e), "bench", 0, float(i))
                        for e in record["entries"]
                    ],
                )
    engine.dispose()


def database_export(url: str, files: list[Path]) -> None:
    from parley.server.export import records_in_database

    with fresh_schema(url) as schema_url:
        started = time.perf_counter()
        store(schema_url, files)
        print(f"stored {len(files)} games in {time.perf_counter() - started:.1f} s (wall)")
        wall, cpu = time.perf_counter(), time.process_time()
        stats = write_decisions(Sink(), records_in_database(schema_url))  # type: ignore[arg-type]
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(
            f"database export: {stats.decisions} decisions from {stats.games} games in "
            f"{cpu:.2f} s CPU ({stats.decisions / cpu:,.0f}/s), {wall:.2f} s wall"
        )
        peaks = []
        for count in (len(files) // 5, len(files)):
            with fresh_schema(url) as part:
                store(part, files[:count])
                tracemalloc.start()
                write_decisions(Sink(), records_in_database(part))  # type: ignore[arg-type]
                peaks.append((count, tracemalloc.get_traced_memory()[1]))
                tracemalloc.stop()
        print(
            "database export peak traced memory: "
            + ", ".join(f"{top / 1e6:.2f} MB for {n} games" for n, top in peaks)
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=3)
    parser.add_argument("--database", help="Also export from this PostgreSQL database.")
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
        if args.database:
            database_export(args.database, files)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
