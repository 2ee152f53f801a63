"""Arena games on a Ray cluster: long-lived player actors, and retries for games lost with a node.

Each worker is a Ray actor that imports Parley once and plays many games, `concurrency` of
them at a time in threads, so bots that wait on the network (a model endpoint, the agent
gateway) overlap their waits without holding a CPU per game. The driver hands each worker
only as many games as it plays at once; a game whose worker dies (its node stopped, its
process killed) goes back to the queue and is played by another worker. Games are
deterministic, so the retry's record is the one the lost attempt would have produced.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import ArenaError
from .play import GameResult, GameTask, Progress, play_game
from .run import MAX_LOSSES, ArenaConfig

# How long the driver waits for a worker to come up when none is ready and no game is being
# played (a cluster short of CPUs, or every node lost): then the run stops with an error.
START_TIMEOUT = 120.0
POLL = 1.0  # seconds per wait on the cluster, so the stall check runs while nothing arrives


class Player:
    """The body of a Ray worker actor: plays arena games in whatever node it was placed on."""

    def __init__(self) -> None:
        import ray

        self.node: str = ray.get_runtime_context().get_node_id()

    def ready(self) -> str:
        """The node id, once the actor runs (the driver waits for this before sending games)."""
        return self.node

    def play(self, task: GameTask) -> GameResult:
        return play_game(task)


@dataclass(slots=True)
class _Worker:
    handle: Any
    ready_ref: Any
    node: str | None = None  # known once the actor is up
    playing: int = 0


def import_ray() -> Any:
    """The `ray` module, or an ArenaError saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ArenaError(
            "--ray needs the optional Ray package: pip install 'parley-games[ray]'"
        ) from None
    return ray


def execute_on_ray(
    config: ArenaConfig,
    tasks: Sequence[GameTask],
    progress: Progress,
    notify: Callable[[], None],
) -> Iterator[GameResult]:
    """Play `tasks` on Ray, yielding each result as it arrives; retry games lost with a worker."""
    ray = import_ray()
    started_here = not ray.is_initialized()
    if started_here:
        try:
            ray.init(address=config.ray_address, logging_level=logging.WARNING)
        except (ConnectionError, RuntimeError, ValueError) as err:
            where = config.ray_address or "the address ray.init() finds"
            raise ArenaError(f"cannot start or reach Ray at {where}: {err}") from None
    workers: list[_Worker] = []
    try:
        yield from _play(ray, config, tasks, progress, notify, workers)
    finally:
        for worker in workers:
            # The worker, or the connection to the cluster, may be gone already.
            with contextlib.suppress(Exception):
                ray.kill(worker.handle, no_restart=True)
        if started_here:
            ray.shutdown()


def _play(
    ray: Any,
    config: ArenaConfig,
    tasks: Sequence[GameTask],
    progress: Progress,
    notify: Callable[[], None],
    workers: list[_Worker],
) -> Iterator[GameResult]:
    from ray.exceptions import ObjectLostError, RayActorError

    count = config.workers or max(1, int(ray.cluster_resources().get("CPU", 1)))
    count = min(count, len(tasks))
    # One CPU per worker, however many games it plays at once: its games share that CPU.
    # No restarts by Ray: the driver re-queues a lost worker's games and starts another.
    actor = ray.remote(Player).options(
        num_cpus=1, max_concurrency=config.concurrency, max_restarts=0, max_task_retries=0
    )

    def start_worker() -> None:
        handle = actor.remote()
        workers.append(_Worker(handle, handle.ready.remote()))

    def retire(worker: _Worker) -> None:
        if worker in workers:
            workers.remove(worker)
            ray.kill(worker.handle, no_restart=True)
            start_worker()  # placed when the cluster has a CPU for it (a node may join)

    for _ in range(count):
        start_worker()
    progress.workers = count
    queue = deque(tasks)
    running: dict[Any, tuple[_Worker, GameTask]] = {}
    losses: dict[int, int] = {}  # game index -> attempts lost with their worker
    failed_starts = 0  # workers that died before playing, since one last came up
    waiting_since: float | None = None
    while queue or running:
        for worker in workers:
            while queue and worker.node is not None and worker.playing < config.concurrency:
                task = queue.popleft()
                running[worker.handle.play.remote(task)] = (worker, task)
                worker.playing += 1
        progress.in_flight = len(running)
        notify()
        starting = {w.ready_ref: w for w in workers if w.node is None}
        ready, _ = ray.wait([*running, *starting], num_returns=1, timeout=POLL)
        if not ready:
            if running:
                waiting_since = None
            elif waiting_since is None:
                waiting_since = time.monotonic()
            elif time.monotonic() - waiting_since > START_TIMEOUT:
                raise ArenaError(
                    f"no Ray worker became available within {START_TIMEOUT:.0f} s "
                    f"({progress.done} games finished and written, {len(queue)} not played); "
                    "check the cluster's free CPUs"
                )
            continue
        waiting_since = None
        ref = ready[0]
        if ref in starting:
            worker = starting[ref]
            try:
                worker.node = ray.get(ref)
                failed_starts = 0
            except RayActorError as err:
                failed_starts += 1
                if failed_starts > MAX_LOSSES * count:
                    raise ArenaError(
                        f"Ray workers die as they start ({failed_starts} in a row; is Parley "
                        f"installed on every node?): {_first_line(err)}"
                    ) from None
                retire(worker)
            continue
        worker, task = running.pop(ref)
        worker.playing -= 1
        try:
            result: GameResult = ray.get(ref)
        except (RayActorError, ObjectLostError) as err:
            # The game's worker or its result went with a node: play the game again.
            progress.failed += 1
            progress.in_flight = len(running)
            notify()
            losses[task.index] = losses.get(task.index, 0) + 1
            if losses[task.index] >= MAX_LOSSES:
                raise ArenaError(
                    f"game {task.index} was lost with its worker {MAX_LOSSES} times (a bot "
                    f"that crashes its process or runs out of memory?); {progress.done} "
                    f"games finished and written: {_first_line(err)}"
                ) from None
            queue.appendleft(task)
            if isinstance(err, RayActorError):
                retire(worker)
            continue
        node = worker.node or "?"
        progress.nodes[node] = progress.nodes.get(node, 0) + 1
        progress.in_flight = len(running)
        yield result


def _first_line(err: Exception) -> str:
    """Ray's errors run to many lines; the first says what happened."""
    return next(iter(str(err).strip().splitlines()), type(err).__name__)
