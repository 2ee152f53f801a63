"""Many seeded games between bots, in parallel processes or on a Ray cluster.

Every game's seeds and seat lineup follow from the run's seed and the game's index, so a
run gives the same records and figures with any number of workers or on any backend.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parley.kernel import JSON, ParleyError, replay
from parley.kernel.errors import BadOptions

from ..bots import make_bot
from .play import (
    ForkPoint,
    GameResult,
    GameTask,
    game_seeds,
    import_path,
    lineup,
    play_game,
    resolve_rules,
)
from .ratings import Standings
from .report import PLOT, plot_ratings, write_results, write_summary

GAMES_DIR = "games"


class ArenaError(ParleyError):
    """An arena run that cannot start: bad bots, a bad fork point, a missing backend."""

    code = "arena"


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """One arena run. `game` is a registered name or a `module:attribute` path."""

    game: str
    bots: tuple[str, ...] = ("random",)
    games: int = 10
    workers: int = 1
    seed: int = 0
    out: Path = Path("arena-out")
    seats: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    max_plies: int | None = None
    fork: ForkPoint | None = None
    ray: str | None = None  # a Ray address ("auto", "ray://head:10001", "local")


@dataclass(slots=True)
class ArenaReport:
    """What a run produced."""

    config: ArenaConfig
    results: list[GameResult]
    standings: Standings
    seconds: float
    summary: dict[str, JSON]

    @property
    def games_per_second(self) -> float:
        return len(self.results) / self.seconds if self.seconds > 0 else 0.0


def plan(config: ArenaConfig) -> list[GameTask]:
    """The run's games, checked before any is played: game, seats, options, bots, fork."""
    if config.games < 1:
        raise ArenaError("an arena run needs at least one game (--games)")
    if config.workers < 1:
        raise ArenaError("--workers must be at least 1")
    if not config.bots:
        raise ArenaError("name at least one bot (--bots)")
    rules = resolve_rules(config.game)
    spec = rules.spec
    options: dict[str, Any]
    if config.fork is not None:
        record = config.fork.record
        try:
            base = replay(rules, record)
            base.fork(config.fork.at)
        except ParleyError as err:
            source = config.fork.source or "the record"
            raise ArenaError(f"cannot fork {source}: {err.message}") from None
        seats = base.seats
        options = dict(base.options)
    else:
        seats = config.seats or spec.default_seats or spec.min_seats
        spec.check_seats(seats)
        options = dict(spec.resolve_options(config.options))
    for name in dict.fromkeys(config.bots):
        make_bot(name, rules)  # raises BadOptions naming the known bots
    cap = config.max_plies or spec.max_plies
    out_games = config.out / GAMES_DIR
    tasks = []
    for index in range(config.games):
        seed, bot_seed = game_seeds(config.seed, index)
        if config.fork is not None:
            seed = int(config.fork.record.get("seed", 0))
        tasks.append(
            GameTask(
                index=index,
                game=config.game,
                seats=seats,
                options=options,
                seed=seed,
                bot_seed=bot_seed,
                lineup=lineup(config.bots, seats, index),
                max_plies=cap,
                out_dir=None if config.ray else str(out_games),
                fork=config.fork,
                game_class=import_path(rules),
            )
        )
    return tasks


def run_arena(
    config: ArenaConfig,
    on_result: Callable[[GameResult], None] | None = None,
) -> ArenaReport:
    """Play the run, write records and reports under `config.out`, and return the figures."""
    tasks = plan(config)
    (config.out / GAMES_DIR).mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    results: list[GameResult] = []
    for result in _execute(config, tasks):
        if result.record is not None:
            result = _store(config.out / GAMES_DIR, result)
        results.append(result)
        if on_result is not None:
            on_result(result)
    seconds = time.perf_counter() - started
    results.sort(key=lambda r: r.index)
    table = Standings(list(dict.fromkeys(config.bots)))
    for result in results:
        table.add(result.lineup, result.outcome)
    summary = _summary(config, tasks, results, table, seconds)
    write_results(config.out, [r.to_json() for r in results])
    write_summary(config.out, summary)
    title = resolve_rules(config.game).spec.title
    plot_ratings(config.out / PLOT, table, f"{title}: arena ratings")
    return ArenaReport(config, results, table, seconds, summary)


def _store(directory: Path, result: GameResult) -> GameResult:
    import json

    from .play import record_name

    path = directory / record_name(result.index)
    path.write_text(json.dumps(result.record, indent=1), encoding="utf-8")
    return GameResult(
        index=result.index,
        seed=result.seed,
        lineup=result.lineup,
        outcome=result.outcome,
        capped=result.capped,
        plies=result.plies,
        seconds=result.seconds,
        bot_errors=result.bot_errors,
        path=str(path),
    )


def _execute(config: ArenaConfig, tasks: Sequence[GameTask]) -> Iterator[GameResult]:
    if config.ray is not None:
        yield from _execute_ray(config.ray, tasks)
    elif config.workers == 1 or len(tasks) == 1:
        for task in tasks:
            yield play_game(task)
    else:
        # Spawned workers import parley afresh: no state leaks from the parent, and it works
        # the same on every platform.
        context = multiprocessing.get_context("spawn")
        with context.Pool(min(config.workers, len(tasks))) as pool:
            yield from pool.imap_unordered(play_game, tasks, chunksize=1)


def _execute_ray(address: str, tasks: Sequence[GameTask]) -> Iterator[GameResult]:
    try:
        import ray
    except ImportError:
        raise ArenaError(
            "--ray needs the optional Ray package: pip install 'parley-games[ray]'"
        ) from None
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(address=None if address == "local" else address)
    try:
        remote = ray.remote(play_game)
        pending = [remote.remote(task) for task in tasks]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield ray.get(ref)
    finally:
        if started_here:
            ray.shutdown()


def _summary(
    config: ArenaConfig,
    tasks: Sequence[GameTask],
    results: Sequence[GameResult],
    table: Standings,
    seconds: float,
) -> dict[str, JSON]:
    rules = resolve_rules(config.game)
    out: dict[str, JSON] = {
        "game": rules.spec.name,
        "bots": list(config.bots),
        "games": len(results),
        "seats": tasks[0].seats,
        "options": dict(tasks[0].options),
        "seed": config.seed,
        "workers": config.workers,
        "backend": f"ray:{config.ray}" if config.ray else "processes",
        "max_plies": tasks[0].max_plies,
        "seconds": round(seconds, 3),
        "games_per_second": round(len(results) / seconds, 3) if seconds > 0 else None,
        "plies": sum(r.plies for r in results),
        "ended_by_rules": sum(1 for r in results if not r.capped),
        "capped": sum(1 for r in results if r.capped),
        "bot_errors": _sum_errors(results),
        "press": _press(results),
        "standings": table.to_json(),
        "records": GAMES_DIR,
    }
    if config.fork is not None:
        out["forked_from"] = {"record": config.fork.source, "at": config.fork.at}
    return out


def _press(results: Sequence[GameResult]) -> dict[str, JSON]:
    """Messages sent per bot and per seat, and the promises made in press or bargains."""
    by_bot: dict[str, int] = {}
    by_seat: dict[int, int] = {}
    promises = {"kept": 0, "broken": 0, "open": 0}
    for r in results:
        for seat, sent in enumerate(r.press_sent):
            by_bot[r.lineup[seat]] = by_bot.get(r.lineup[seat], 0) + sent
            by_seat[seat] = by_seat.get(seat, 0) + sent
        for verdict, n in r.promises.items():
            promises[verdict] = promises.get(verdict, 0) + n
    return {
        "messages_by_bot": by_bot,
        "messages_by_seat": {str(k): v for k, v in sorted(by_seat.items())},
        "promises": promises,
    }


def _sum_errors(results: Sequence[GameResult]) -> dict[str, JSON]:
    total: dict[str, int] = {}
    for r in results:
        for bot, n in r.bot_errors.items():
            total[bot] = total.get(bot, 0) + n
    return dict(total)


def parse_bots(text: str) -> tuple[str, ...]:
    bots = tuple(b.strip() for b in text.split(",") if b.strip())
    if not bots:
        raise BadOptions("--bots names at least one bot, e.g. random,heuristic", text=text)
    return bots
