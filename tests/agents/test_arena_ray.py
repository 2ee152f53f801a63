"""The arena on real Ray: `ray.init()` in this process, and a head and a worker node started
as separate processes (`ray start`), one of them stopped in the middle of a run.

Bots that must overlap or pause call a loopback HTTP endpoint (`Gate`) once per move, so the
tests decide when games may go on instead of hoping for timings. Under CI=true a missing
Ray is a failure; elsewhere the module is skipped with the command that installs it.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from parley.agents.arena import ArenaConfig, ArenaError, run_arena
from parley.agents.arena.play import Progress
from parley.agents.bots import Decision
from parley.cli import app

IN_CI = os.environ.get("CI", "").lower() == "true"
try:
    import ray
except ImportError:  # pragma: no cover - depends on the environment
    if IN_CI:
        raise
    pytest.skip(
        "Ray is not installed: pip install -e '.[test,ray]' (scripts/test installs it)",
        allow_module_level=True,
    )

pytestmark = pytest.mark.timeout(240)

ROOT = Path(__file__).resolve().parents[2]
COUNTDOWN = "tests.kernel.toygames:Countdown"
SMART = "tests.agents.toys:CountdownBot"
WAITING = "tests.agents.test_arena_ray:WaitingBot"
GATE_ENV = "PARLEY_TEST_GATE"
WAIT = 60.0  # the longest any request, node start or stop waits: a failed test ends by itself


class WaitingBot:
    """Plays like `random`, after asking the test's gate whether it may move (once a move)."""

    name = "waiting"

    def __init__(self) -> None:
        self.game = uuid.uuid4().hex  # one bot instance per game and bot name

    def choose(self, decision: Decision) -> Any:
        query = urllib.parse.urlencode(
            {"game": self.game, "pid": os.getpid(), "parent": os.getppid()}
        )
        with urllib.request.urlopen(f"{os.environ[GATE_ENV]}/move?{query}", timeout=WAIT) as r:
            r.read()
        return decision.rules.random_action(decision.state, decision.seat, decision.rng)


class CrashingBot:
    name = "crashing"

    def choose(self, decision: Decision) -> Any:
        raise RuntimeError("the bot's own bug")


class ExitingBot:
    """Ends the process it plays in, as a bot that crashes or runs out of memory would."""

    name = "exiting"

    def choose(self, decision: Decision) -> Any:
        os._exit(3)


class Gate:
    """The endpoint the waiting bots call: it holds their requests while it is closed.

    It opens by itself once `barrier` games wait at the same moment, or when the test
    calls `open()`. The first `free` games of each node never wait. A node is known by the
    process group of the bot's parent: a Ray worker process is the child of its node's
    raylet, which `ray start` left in the node's process group.
    """

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.reset(barrier=0, free=10**9)
        server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        server.daemon_threads = True
        self.server = server
        self.url = f"http://127.0.0.1:{server.server_address[1]}"
        threading.Thread(target=server.serve_forever, daemon=True).start()

    def reset(self, *, barrier: int, free: int) -> None:
        with self.cond:
            self.barrier, self.free = barrier, free
            self.opened = barrier == 0 and free >= 10**9
            self.tripped = False
            self.games: dict[str, int] = {}  # game -> process group
            self.pids: set[int] = set()
            self.waiting: dict[str, int] = {}  # game -> process group, while held
            self.peak = 0

    def open(self) -> None:
        with self.cond:
            self.opened = True
            self.cond.notify_all()

    def wait_for(self, predicate: Any) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: predicate(self), timeout=WAIT)

    def _request(self, game: str, pid: int, pgid: int) -> None:
        with self.cond:
            self.games.setdefault(game, pgid)
            self.pids.add(pid)
            mine = [g for g, group in self.games.items() if group == pgid]
            if mine.index(game) < self.free:
                return
            self.waiting[game] = pgid
            self.peak = max(self.peak, len(self.waiting))
            if self.barrier and len(self.waiting) >= self.barrier:
                self.opened = self.tripped = True
            self.cond.notify_all()
            self.cond.wait_for(lambda: self.opened, timeout=WAIT)
            del self.waiting[game]

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        gate = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                query = urllib.parse.parse_qs(urllib.parse.urlparse(self.path).query)
                pid, parent = int(query["pid"][0]), int(query["parent"][0])
                gate._request(query["game"][0], pid, _group(parent))
                try:
                    self.send_response(200)
                    self.send_header("Content-Length", "2")
                    self.end_headers()
                    self.wfile.write(b"ok")
                except OSError:
                    pass  # the bot's process was stopped while it waited

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return Handler


@contextmanager
def _environment(**values: str) -> Iterator[None]:
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


@pytest.fixture(scope="module", autouse=True)
def ray_auth() -> Iterator[None]:
    # The same mode for every Ray here (in-process, nodes, drivers), given in the environment
    # before any starts: Ray's default for a new cluster is a token it writes to ~/.ray, which
    # the test must not leave behind. These clusters listen on loopback for seconds.
    with _environment(RAY_AUTH_MODE="disabled", RAY_USAGE_STATS_ENABLED="0"):
        yield


@pytest.fixture(scope="module")
def gate() -> Iterator[Gate]:
    # Set before any Ray starts: Ray's worker processes inherit the environment.
    gate = Gate()
    with _environment(**{GATE_ENV: gate.url}):
        yield gate
    gate.server.shutdown()


def _records(out: Path) -> dict[str, Any]:
    return {p.name: json.loads(p.read_text()) for p in sorted((out / "games").glob("*.json"))}


def _results(out: Path) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    return [{k: v for k, v in line.items() if k not in ("seconds", "record")} for line in lines]


def _standings(out: Path) -> Any:
    return json.loads((out / "summary.json").read_text())["standings"]


def _local(config: ArenaConfig, out: Path, gate: Gate) -> tuple[dict[str, Any], Any]:
    """Records and standings of the same run in this process, the gate wide open."""
    gate.reset(barrier=0, free=10**9)
    run_arena(ArenaConfig(config.game, config.bots, config.games, 1, config.seed, out=out))
    return _records(out), _standings(out)


# --- Ray in this process ----------------------------------------------------------------


@pytest.fixture(scope="class")
def local_ray(gate: Gate) -> Iterator[None]:
    # "local": a new Ray here, never a cluster someone else started on this machine.
    temp = tempfile.mkdtemp(prefix="prl-", dir="/tmp")  # socket paths must stay short
    try:
        ray.init(
            address="local",
            num_cpus=2,
            object_store_memory=80 * 2**20,
            include_dashboard=False,
            logging_level="WARNING",
            _temp_dir=temp,
        )
        yield
    finally:
        ray.shutdown()
        shutil.rmtree(temp, ignore_errors=True)


@pytest.mark.usefixtures("local_ray")
class TestInProcess:
    def test_records_and_ratings_match_local_workers(self, tmp_path: Path, gate: Gate) -> None:
        # No move until both workers hold a game, so the two really play side by side.
        gate.reset(barrier=2, free=0)
        config = ArenaConfig(
            COUNTDOWN, (WAITING, SMART), 12, seed=3, out=tmp_path / "ray", ray=True
        )
        seen: list[tuple[int, int, int]] = []

        def track(state: Progress) -> None:
            seen.append((state.done, state.in_flight, state.failed))

        report = run_arena(config, on_progress=track)
        assert gate.tripped
        summary = report.summary
        assert (_records(tmp_path / "ray"), summary["standings"]) == _local(
            config, tmp_path / "local", gate
        )
        assert summary["backend"] == "ray" and summary["workers"] == 2
        assert summary["retried"] == 0 and summary["games"] == 12
        nodes = summary["nodes"]
        assert isinstance(nodes, dict) and sum(nodes.values()) == 12  # type: ignore[arg-type]
        assert [done for done, _, _ in seen] == sorted(done for done, _, _ in seen)
        assert seen[-1] == (12, 0, 0)
        assert max(flight for _, flight, _ in seen) == 2  # one game per worker at a time
        # The per-game lines and the plot too, but for each game's time and record path.
        assert _results(tmp_path / "ray") == _results(tmp_path / "local")
        png = (tmp_path / "ray" / "ratings.png").read_bytes()
        assert png == (tmp_path / "local" / "ratings.png").read_bytes()

    def test_a_worker_plays_many_waiting_games_at_once(self, tmp_path: Path, gate: Gate) -> None:
        # The gate answers no move until four games wait at once: only one worker holding
        # one CPU and playing four games concurrently gets past it.
        gate.reset(barrier=4, free=0)
        config = ArenaConfig(
            COUNTDOWN,
            (WAITING,),
            4,
            workers=1,
            seed=5,
            out=tmp_path / "ray",
            ray=True,
            concurrency=4,
        )
        report = run_arena(config)
        assert gate.tripped and gate.peak == 4 and len(gate.pids) == 1
        assert report.summary["workers"] == 1 and report.summary["concurrency"] == 4
        records, _ = _local(config, tmp_path / "local", gate)
        assert _records(tmp_path / "ray") == records

    def test_a_bot_that_crashes_stops_the_run_with_its_error(self, tmp_path: Path) -> None:
        # A bug is not a lost worker: it is reported, not retried.
        bot = "tests.agents.test_arena_ray:CrashingBot"
        with pytest.raises(RuntimeError, match="the bot's own bug"):
            run_arena(ArenaConfig(COUNTDOWN, (bot,), 3, out=tmp_path, ray=True))

    def test_a_game_that_keeps_killing_its_worker_is_given_up(self, tmp_path: Path) -> None:
        # Lost workers are retried, but not without end: the third loss stops the run.
        bot = "tests.agents.test_arena_ray:ExitingBot"
        states: list[int] = []
        with pytest.raises(ArenaError, match="game 0 was lost with its worker 3 times"):
            run_arena(
                ArenaConfig(COUNTDOWN, (bot,), 1, workers=1, out=tmp_path, ray=True),
                on_progress=lambda state: states.append(state.failed),
            )
        assert states[-1] == 3 and not list((tmp_path / "games").glob("*.json"))

    def test_cli_shows_progress_and_where_games_ran(self, tmp_path: Path) -> None:
        out = tmp_path / "cli"
        result = CliRunner().invoke(
            app,
            [
                "arena",
                COUNTDOWN,
                "--bots",
                f"random,{SMART}",
                "--games",
                "4",
                "--out",
                str(out),
                "--ray",
            ],
        )
        assert result.exit_code == 0, result.output
        printed = " ".join(result.output.split())  # as Rich wrapped it, or not
        assert "4/4" in printed and "0 in flight, 0 failed" in printed
        assert "On ray: 2 workers; games per node: 4; 0 games played again" in printed
        assert len(_records(out)) == 4


def test_concurrency_needs_ray(tmp_path: Path) -> None:
    with pytest.raises(ArenaError, match="--concurrency applies to Ray workers"):
        run_arena(ArenaConfig(COUNTDOWN, ("random",), 2, out=tmp_path, concurrency=3))
    assert not (tmp_path / "games").exists()


# --- A head and a worker node, as separate processes --------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _stat(pid: int) -> list[str]:
    """State, parent, process group, ... of a process, from /proc."""
    return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()


def _group(pid: int) -> int:
    try:
        return int(_stat(pid)[2])
    except OSError:
        return -1  # gone already


def _members(pgid: int) -> list[int]:
    """Live (not zombie) processes of a process group."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = _stat(int(stat.parent.name))
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            pids.append(int(stat.parent.name))
    return pids


def _stop(pgid: int) -> None:
    """Stop one node: every process `ray start` left in its own process group, and no other."""
    for sig, grace in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(pgid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + grace
        while _members(pgid) and time.monotonic() < deadline:
            time.sleep(0.1)
        if not _members(pgid):
            return


class Cluster:
    """A Ray head node on this machine, and the nodes that join it, one CPU each."""

    def __init__(self, gate: Gate) -> None:
        self.ray = Path(sys.executable).with_name("ray")
        self.temp = tempfile.mkdtemp(prefix="prl-", dir="/tmp")  # socket paths stay short
        self.address = f"127.0.0.1:{_free_port()}"
        self.env = {
            **os.environ,
            GATE_ENV: gate.url,
            "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        }
        self.nodes: list[int] = []  # the process group of each node's processes
        self.head = self.worker = 0

    def start_head(self) -> int:
        return self.start(
            "--head",
            f"--port={self.address.rpartition(':')[2]}",
            f"--temp-dir={self.temp}",
            "--include-dashboard=false",
            "--disable-usage-stats",
        )

    def start(self, *args: str) -> int:
        """Start a node (by default a worker joining the head); its process group."""
        where = args or (f"--address={self.address}",)
        small = ("--num-cpus=1", f"--object-store-memory={80 * 2**20}")
        node = subprocess.Popen(
            [str(self.ray), "start", *where, *small, "--node-ip-address=127.0.0.1"],
            env=self.env,
            cwd=self.temp,
            start_new_session=True,  # its own process group, so stopping it stops exactly it
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        self.nodes.append(node.pid)
        output, _ = node.communicate(timeout=WAIT)
        assert node.returncode == 0, output.decode(errors="replace")
        return node.pid

    def stop(self) -> None:
        for group in reversed(self.nodes):
            _stop(group)
        shutil.rmtree(self.temp, ignore_errors=True)


@pytest.fixture(scope="module")
def cluster(gate: Gate) -> Iterator[Cluster]:
    cluster = Cluster(gate)
    try:
        cluster.head = cluster.start_head()
        cluster.worker = cluster.start()
        yield cluster
    finally:
        cluster.stop()


def test_a_head_and_a_worker_node_share_a_tournament(
    tmp_path: Path, gate: Gate, cluster: Cluster
) -> None:
    # No move until both workers hold a game: each node plays at least one.
    gate.reset(barrier=2, free=0)
    config = ArenaConfig(COUNTDOWN, (WAITING, SMART), 10, seed=11, out=tmp_path / "ray")
    bots = ",".join(config.bots)
    result = CliRunner().invoke(
        app,
        [
            "arena",
            *(config.game, "--bots", bots, "--games", "10", "--seed", "11"),
            *("--out", str(config.out), "--ray-address", cluster.address),
        ],
    )
    assert result.exit_code == 0, result.output
    assert set(gate.games.values()) == {cluster.head, cluster.worker}
    summary = json.loads((config.out / "summary.json").read_text())
    assert gate.tripped and summary["workers"] == 2 and summary["retried"] == 0
    assert summary["backend"] == f"ray:{cluster.address}"
    nodes = summary["nodes"]
    assert len(nodes) == 2 and sum(nodes.values()) == 10 and min(nodes.values()) > 0
    per_node = ", ".join(str(n) for n in nodes.values())
    printed = " ".join(result.output.split())  # as Rich wrapped it, or not
    assert f"2 workers; games per node: {per_node}; 0 games played again" in printed
    records, standings = _local(config, tmp_path / "local", gate)
    assert _records(config.out) == records and summary["standings"] == standings
    assert _results(config.out) == _results(tmp_path / "local")


def test_a_node_stopped_mid_run_loses_no_finished_game(
    tmp_path: Path, gate: Gate, cluster: Cluster
) -> None:
    # A third node joins for this test. Each node plays its first game freely; every later
    # game waits at its first move. Once the new node's second game waits, that node is
    # stopped and the gate opened: its first game is finished and must stay so, its waiting
    # game is lost and must be played again elsewhere.
    doomed = cluster.start()
    gate.reset(barrier=0, free=1)
    config = ArenaConfig(COUNTDOWN, (WAITING,), 8, seed=13, out=tmp_path / "ray")
    seen: list[Progress] = []

    def stop_the_node_when_its_second_game_waits() -> None:
        if gate.wait_for(lambda g: doomed in g.waiting.values()):
            _stop(doomed)
        gate.open()

    stopper = threading.Thread(target=stop_the_node_when_its_second_game_waits)
    stopper.start()
    try:
        report = run_arena(
            ArenaConfig(
                config.game,
                config.bots,
                config.games,
                workers=3,
                seed=config.seed,
                out=config.out,
                ray_address=cluster.address,
            ),
            on_progress=lambda state: seen.append(
                Progress(state.total, done=state.done, failed=state.failed)
            ),
        )
    finally:
        gate.open()
        stopper.join(WAIT)
        _stop(doomed)
    played = dict(gate.games)
    summary = report.summary
    assert summary["retried"] == 1 and summary["games"] == 8
    assert seen[-1].failed == 1 and seen[-1].done == 8
    # Eight games and one replay: no finished game was played twice.
    assert len(played) == 9
    assert sum(1 for group in played.values() if group == doomed) == 2
    nodes = summary["nodes"]
    assert isinstance(nodes, dict) and len(nodes) == 3 and sum(nodes.values()) == 8  # type: ignore[arg-type]
    records, standings = _local(config, tmp_path / "local", gate)
    assert _records(tmp_path / "ray") == records and summary["standings"] == standings
