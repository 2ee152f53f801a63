"""Many seeded games between bots, in parallel processes or on a Ray cluster.

Every game's seeds and seat lineup follow from the run's seed and the game's index, so a
run gives the same records and figures with any number of workers or on any backend.
"""

from __future__ import annotations

import multiprocessing
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parley.kernel import JSON, ParleyError, replay
from parley.kernel.errors import BadOptions

from ..bots import make_bot
from .errors import ArenaError
from .folder import GAMES_DIR, append_result, prepare, record_digest
from .play import (
    ForkPoint,
    GameResult,
    GameTask,
    Progress,
    game_seeds,
    import_path,
    lineup,
    play_game,
    resolve_rules,
)
from .ratings import Standings
from .report import PLOT, plot_ratings, write_results, write_summary
from .scores import by_seat, centre_scores

# A game lost with its worker this many times is not tried again: something in it (a bot
# that crashes its process or exhausts memory) kills workers, and would go on doing so.
MAX_LOSSES = 3


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """One arena run. `game` is a registered name or a `module:attribute` path.

    `workers` defaults to one local process, or on Ray to one worker per CPU of the cluster.
    """

    game: str
    bots: tuple[str, ...] = ("random",)
    games: int = 10
    workers: int | None = None
    seed: int = 0
    out: Path = Path("arena-out")
    seats: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    max_plies: int | None = None
    fork: ForkPoint | None = None
    ray: bool = False  # play on Ray: the cluster `ray.init()` finds, unless `ray_address`
    ray_address: str | None = None  # "auto", "HOST:6379", "ray://HOST:10001", "local"
    concurrency: int = 1  # games each Ray worker plays at once (threads; for waiting bots)
    resume: bool = False  # `out` may hold this run, stopped part-way: play only what is missing
    overwrite: bool = False  # `out` may hold another run: remove its files first

    @property
    def on_ray(self) -> bool:
        return self.ray or self.ray_address is not None

    @property
    def backend(self) -> str:
        if not self.on_ray:
            return "processes"
        return f"ray:{self.ray_address}" if self.ray_address else "ray"


@dataclass(slots=True)
class ArenaReport:
    """What a run produced."""

    config: ArenaConfig
    results: list[GameResult]
    standings: Standings
    seconds: float
    summary: dict[str, JSON]
    resumed: int = 0  # games a resumed run found finished already, not played this time

    @property
    def games_per_second(self) -> float:
        played = len(self.results) - self.resumed
        return played / self.seconds if self.seconds > 0 else 0.0


def plan(config: ArenaConfig) -> list[GameTask]:
    """The run's games, checked before any is played: game, seats, options, bots, fork."""
    if config.games < 1:
        raise ArenaError("an arena run needs at least one game (--games)")
    if config.workers is not None and config.workers < 1:
        raise ArenaError("--workers must be at least 1")
    if config.concurrency < 1:
        raise ArenaError("--concurrency must be at least 1")
    if config.concurrency > 1 and not config.on_ray:
        raise ArenaError(
            "--concurrency applies to Ray workers (--ray); local worker processes play one "
            "game at a time"
        )
    if not config.bots:
        raise ArenaError("name at least one bot (--bots)")
    if config.on_ray:
        from .cluster import import_ray

        import_ray()  # says how to install Ray when it is missing, before anything is made
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
                out_dir=None if config.on_ray else str(out_games),
                fork=config.fork,
                game_class=import_path(rules),
            )
        )
    return tasks


def run_arena(
    config: ArenaConfig,
    on_result: Callable[[GameResult], None] | None = None,
    on_progress: Callable[[Progress], None] | None = None,
) -> ArenaReport:
    """Play the run, write records and reports under `config.out`, and return the figures.

    Each record is on disk, and its line in `results.jsonl`, as soon as its game's result
    arrives, so a run that stops part-way keeps every game it finished and can be resumed.
    A folder holding another run is refused unless `config.resume` or `config.overwrite`.
    """
    tasks = plan(config)
    source = Path(config.fork.source) if config.fork is not None and config.fork.source else None
    done = prepare(
        config.out,
        _settings(config, tasks),
        config.games,
        resume=config.resume,
        overwrite=config.overwrite,
        source=source,
    )
    todo = [task for task in tasks if task.index not in done]
    progress = Progress(total=len(tasks), done=len(done))

    def notify() -> None:
        if on_progress is not None:
            on_progress(progress)

    started = time.perf_counter()
    results: list[GameResult] = list(done.values())
    for result in _execute(config, todo, progress, notify) if todo else iter(()):
        if result.record is not None:
            result = _store(config.out / GAMES_DIR, result)
        append_result(config.out, result)
        results.append(result)
        progress.done += 1
        if on_result is not None:
            on_result(result)
        notify()
    seconds = time.perf_counter() - started
    results.sort(key=lambda r: r.index)
    table = Standings(list(dict.fromkeys(config.bots)))
    for result in results:
        table.add(result.lineup, result.outcome)
    summary = _summary(config, tasks, results, table, seconds, progress, len(done))
    write_results(config.out, [r.to_json() for r in results])  # in index order now
    write_summary(config.out, summary)
    title = resolve_rules(config.game).spec.title
    plot_ratings(config.out / PLOT, table, f"{title}: arena ratings")
    return ArenaReport(config, results, table, seconds, summary, len(done))


def _settings(config: ArenaConfig, tasks: Sequence[GameTask]) -> dict[str, JSON]:
    """What makes a run this run, as `run.json` keeps it: resuming needs the same."""
    fork: JSON = None
    if config.fork is not None:
        fork = {
            "record": config.fork.source,
            "at": config.fork.at,
            "digest": record_digest(config.fork.record),
        }
    return {
        "format": "parley.arena-run",
        "version": 1,
        "game": config.game,
        "bots": list(config.bots),
        "seed": config.seed,
        "seats": tasks[0].seats,
        "options": dict(tasks[0].options),
        "max_plies": tasks[0].max_plies,
        "fork": fork,
    }


def _store(directory: Path, result: GameResult) -> GameResult:
    import dataclasses
    import json

    from .play import record_name

    path = directory / record_name(result.index)
    path.write_text(json.dumps(result.record, indent=1), encoding="utf-8")
    return dataclasses.replace(result, record=None, path=str(path))


def _execute(
    config: ArenaConfig,
    tasks: Sequence[GameTask],
    progress: Progress,
    notify: Callable[[], None],
) -> Iterator[GameResult]:
    if config.on_ray:
        from .cluster import execute_on_ray

        yield from execute_on_ray(config, tasks, progress, notify)
        return
    workers = min(config.workers or 1, len(tasks))
    progress.workers = workers
    if workers == 1:
        for task in tasks:
            progress.in_flight = 1
            notify()
            result = play_game(task)
            progress.in_flight = 0
            yield result
        return
    yield from _execute_pool(workers, tasks, progress, notify)


def _execute_pool(
    workers: int,
    tasks: Sequence[GameTask],
    progress: Progress,
    notify: Callable[[], None],
) -> Iterator[GameResult]:
    """Play on local worker processes; games lost with a dead worker are played again."""
    # Spawned workers import parley afresh: no state leaks from the parent, and it works
    # the same on every platform. Only as many games as workers are handed out at once, so
    # the games in flight are the games being played.
    queue = deque(tasks)
    running: dict[Future[GameResult], GameTask] = {}
    losses: dict[int, int] = {}
    pool: ProcessPoolExecutor | None = None
    try:
        while queue or running:
            if pool is None:
                pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
            while queue and len(running) < workers:
                task = queue.popleft()
                running[pool.submit(play_game, task)] = task
            progress.in_flight = len(running)
            notify()
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            lost: list[GameTask] = []
            for future in finished:
                task = running.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    lost.append(task)
                    continue
                progress.in_flight = len(running)
                yield result
            if not lost:
                continue
            # A worker process died (killed, crashed, out of memory): the pool is broken and
            # every game still in it is lost, but for those that finished just before. Start
            # a new pool and play the lost games again.
            pool.shutdown(wait=True, cancel_futures=True)
            for future, task in running.items():
                if not future.cancelled() and future.exception() is None:
                    yield future.result()
                else:
                    lost.append(task)
            running.clear()
            pool = None
            for task in sorted(lost, key=lambda t: t.index, reverse=True):
                losses[task.index] = losses.get(task.index, 0) + 1
                if losses[task.index] >= MAX_LOSSES:
                    raise ArenaError(
                        f"game {task.index} was lost with its worker {MAX_LOSSES} times (a "
                        f"bot that crashes its process or runs out of memory?); "
                        f"{progress.done} games finished and written"
                    )
                queue.appendleft(task)
            progress.failed += len(lost)
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)


def _summary(
    config: ArenaConfig,
    tasks: Sequence[GameTask],
    results: Sequence[GameResult],
    table: Standings,
    seconds: float,
    progress: Progress,
    resumed: int = 0,
) -> dict[str, JSON]:
    rules = resolve_rules(config.game)
    played = len(results) - resumed
    out: dict[str, JSON] = {
        "game": rules.spec.name,
        "bots": list(config.bots),
        "games": len(results),
        "seats": tasks[0].seats,
        "options": dict(tasks[0].options),
        "seed": config.seed,
        "workers": progress.workers,
        "backend": config.backend,
        "max_plies": tasks[0].max_plies,
        "seconds": round(seconds, 3),
        "games_per_second": round(played / seconds, 3) if seconds > 0 else None,
        "plies": sum(r.plies for r in results),
        "ended_by_rules": sum(1 for r in results if not r.capped),
        "capped": sum(1 for r in results if r.capped),
        "bot_errors": _sum_errors(results),
        "press": _press(results),
        "standings": table.to_json(),
        "records": GAMES_DIR,
    }
    names = rules.seat_names(tasks[0].seats, tasks[0].options)
    out["by_seat"] = by_seat(names, [(r.lineup, r.outcome) for r in results])
    if any(r.centres is not None for r in results):
        out["centres"] = centre_scores(
            list(dict.fromkeys(config.bots)),
            names,
            [(r.lineup, r.outcome, r.centres) for r in results],
            config.seed,
        )
    out["retried"] = progress.failed
    if config.on_ray:
        out["concurrency"] = config.concurrency
        out["nodes"] = dict(sorted(progress.nodes.items()))
    if resumed:
        out["resumed"] = resumed  # games finished by an earlier start of this run
    if config.fork is not None:
        out["forked_from"] = {"record": config.fork.source, "at": config.fork.at}
        # Deterministic bots in a position whose chance the record's seed fixes play one
        # continuation however many games are asked for: the count says so.
        out["distinct_continuations"] = len({r.digest for r in results})
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
