"""Whole games on a real server as installed by default: the native Diplomacy core in use.

Every seat a bot, each of the five games is played to its end by `parley serve`, on SQLite
and on PostgreSQL. The same games are played again on a server killed with SIGKILL in the
middle, after snapshots were taken, and restarted: they end with the same records.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy
from tests.server.conftest import IN_CI, Client, free_port, postgres_schema, sign_up, wait_until

from parley import games
from parley.games.diplomacy import native
from parley.kernel import ARCHIVE, replay
from parley.server.record import load_snapshot, snapshot_format

ROOT = Path(__file__).resolve().parents[2]
# The server's environment: the native core or nothing (a missing build fails the server),
# deadlines polled often so bots' work goes on promptly, rates no test client reaches.
SERVER_ENV = {
    "PARLEY_DIPLOMACY_ENGINE": "native",
    "PARLEY_SCHEDULER_POLL": "0.05",
    "PARLEY_FIXED_SEEDS": "1",  # the host's seed as given: two runs of a game are the same
    "PARLEY_RATE": "1000",
    "PARLEY_SIGNUP_RATE": "1000",
    "PARLEY_READ_RATE_PER_SECOND": "1000",
    "PARLEY_READ_BURST": "1000",
}
# A server as `parley serve` builds it, but acting for bots a few moves at a time (so a
# game takes many changes), snapshotting often, and leasing a deadline it fires for one
# second (so the restarted server takes over at once what the killed one had claimed).
SLOW_SERVER = """
import dataclasses, sys
import uvicorn
from parley.server.app import create_app
from parley.server.gateway import install
from parley.server.logs import configure, log_config
from parley.server.serving import uvicorn_options
from parley.server.settings import Settings
settings = dataclasses.replace(
    Settings.from_env(), database_url=sys.argv[2], automation_batch=4, snapshot_every=16,
    deadline_lease_seconds=1.0,
)
configure("warning")
app = create_app(settings)
install(app)
uvicorn.run(
    app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning",
    log_config=log_config("warning", "text"), **uvicorn_options(),
)
"""
SNAPSHOT_EVERY = 16  # as SLOW_SERVER takes them
FINISH_SECONDS = 120.0  # the most the bots may take to finish every game (they take seconds)

# (game, seats, options, random bots; the other seats are `heuristic` bots)
BOT_GAMES: list[tuple[str, int, dict[str, Any], int]] = [
    ("diplomacy", 7, {"year_limit": 1906}, 3),
    ("sucker", 4, {}, 1),
    ("campus", 4, {}, 1),
    ("illuminati", 4, {}, 1),
    ("planets", 3, {}, 1),
]


@pytest.fixture(autouse=True)
def native_core() -> None:
    """These tests are about the default install, which builds the native core."""
    if not native.available():
        if IN_CI:
            pytest.fail("the native Diplomacy core was not built on CI")
        pytest.skip("the native Diplomacy core is not built (no C compiler)")


@pytest.fixture(params=["sqlite", "postgresql"])
def databases(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], str]]:
    """Makes fresh databases of one backend: SQLite files or PostgreSQL schemas."""
    with contextlib.ExitStack() as stack:
        made: list[str] = []

        def make() -> str:
            if request.param == "sqlite":
                url = f"sqlite:///{tmp_path / f'parley{len(made)}.sqlite3'}"
            else:
                url = stack.enter_context(postgres_schema())
            made.append(url)
            return url

        yield make


@dataclass
class Served:
    """A server process: `parley serve` itself, or SLOW_SERVER."""

    database_url: str
    log: Path
    slow: bool = False
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Served:
        env = {**os.environ, **SERVER_ENV}
        if self.slow:
            command = [sys.executable, "-c", SLOW_SERVER, str(self.port), self.database_url]
            env["PARLEY_SCHEDULER_POLL"] = "0.2"  # 4 actions per game and tick, 20 a second
        else:
            command = [sys.executable, "-m", "parley.cli", "serve", "--port", str(self.port)]
            command += ["--database-url", self.database_url, "--log-level", "warning"]
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

        def healthy() -> bool:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise AssertionError(f"the server exited: {self.log.read_text()[-3000:]}")
            try:
                return httpx.get(self.url + "/api/health", timeout=1).status_code == 200
            except httpx.HTTPError:
                return False

        wait_until(healthy, timeout=60, what="the server to answer")
        return self

    def kill(self) -> None:
        """SIGKILL: no cleanup, no flush, like a crash."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def problems(self) -> list[str]:
        """Lines of the server's log that tell of an error, a failing bot or anything amiss."""
        marks = ("Traceback", "ERROR", "CRITICAL", "WARNING", "Exception")
        return [line for line in self.log.read_text().splitlines() if any(m in line for m in marks)]


@contextlib.contextmanager
def serving(database_url: str, log: Path, *, slow: bool = False) -> Iterator[Served]:
    server = Served(database_url, log, slow)
    try:
        yield server.start()
    finally:
        server.kill()


def create_bot_games(host: Client, only: str | None = None) -> dict[str, str]:
    """The five games (or `only` one), created with their bots, not started; ids by game."""
    ids = {}
    for game, seats, options, randoms in BOT_GAMES:
        if only is not None and game != only:
            continue
        body = {
            "game": game,
            "seats": seats,
            "options": options,
            "host_role": "spectator",
            "seed": 24_000 + seats,
        }
        gid = host.post("/api/games", body, expect=201)["id"]
        host.post(f"/api/games/{gid}/bots", {"bot": "random", "count": randoms})
        ids[game] = gid
    return ids


def start_all(host: Client, ids: dict[str, str]) -> dict[str, dict[str, Any]]:
    """Start each game filled with heuristic bots; a start must never fail (it once answered
    500 for Diplomacy: the bots' first moves crossed a snapshot the native map broke)."""
    return {
        game: host.post(f"/api/games/{gid}/start", {"fill_with": "heuristic"}, expect=200)
        for game, gid in ids.items()
    }


def wait_finished(host: Client, ids: dict[str, str]) -> dict[str, dict[str, Any]]:
    finished: dict[str, dict[str, Any]] = {}

    def all_done() -> bool:
        for game, gid in ids.items():
            if game not in finished:
                found = host.get(f"/api/games/{gid}")
                if found["status"] != "active":
                    finished[game] = found
        return len(finished) == len(ids)

    wait_until(all_done, timeout=FINISH_SECONDS, what="the bots to finish every game")
    return finished


def archive(host: Client, gid: str) -> dict[str, Any]:
    record: dict[str, Any] = host.get(f"/api/games/{gid}/record", params={"view": "archive"})[
        "record"
    ]
    return record


def latest_snapshot(database_url: str, gid: str) -> tuple[int, str, bytes]:
    """The game's newest snapshot: its seq, format tag and pickle."""
    engine = sqlalchemy.create_engine(database_url)
    try:
        with engine.connect() as conn:
            seq, fmt, data = conn.execute(
                sqlalchemy.text(
                    "SELECT seq, format, data FROM snapshots WHERE game_id = :g "
                    "ORDER BY seq DESC LIMIT 1"
                ),
                {"g": gid},
            ).one()
    finally:
        engine.dispose()
    return int(seq), str(fmt), bytes(data)


def stored(database_url: str, gid: str) -> tuple[str, int, list[int]]:
    """What the database holds of a game: its status, its record's length, its snapshots."""
    engine = sqlalchemy.create_engine(database_url)
    try:
        with engine.connect() as conn:
            status, seq = conn.execute(
                sqlalchemy.text("SELECT status, seq FROM games WHERE id = :g"), {"g": gid}
            ).one()
            rows = conn.execute(
                sqlalchemy.text("SELECT seq FROM snapshots WHERE game_id = :g"), {"g": gid}
            ).all()
    finally:
        engine.dispose()
    return str(status), int(seq), sorted(int(r[0]) for r in rows)


def natural_end(game: str, outcome: dict[str, Any]) -> None:
    reason = str(outcome["reason"])
    assert "draw" not in reason and "closed" not in reason, (game, reason)
    if game == "diplomacy":
        assert reason == "the year limit 1906 was reached" or "solo" in reason, reason


def test_bots_play_every_game_to_its_end_and_again_across_a_kill(
    databases: Callable[[], str], tmp_path: Path
) -> None:
    # An uninterrupted run on `parley serve`.
    first_db = databases()
    with serving(first_db, tmp_path / "first.log") as server:
        host = sign_up(server.url, "host")
        ids = create_bot_games(host)
        started = start_all(host, ids)
        assert started["diplomacy"]["seq"] > 64, "the bots' first moves pass a snapshot point"
        finished = wait_finished(host, ids)
        records = {game: archive(host, gid) for game, gid in ids.items()}
        assert server.problems() == []
    assert stored(first_db, ids["diplomacy"])[2], "the Diplomacy game was snapshotted"
    for game in ids:
        final = finished[game]
        assert final["status"] == "finished", (game, final)
        natural_end(game, final["outcome"])
        again = replay(games.find(game), records[game])
        outcome = again.outcome()
        assert outcome is not None and outcome.to_json() == final["outcome"], game
        assert again.seq == final["seq"] == len(records[game]["entries"])

    # The same games on a server killed with SIGKILL in their middle, after snapshots, and
    # then restarted.
    second_db = databases()
    log = tmp_path / "second.log"
    with serving(second_db, log, slow=True) as slow:
        host = sign_up(slow.url, "host")
        ids = create_bot_games(host)
        start_all(host, ids)

        def past_a_snapshot() -> bool:
            seqs = [host.get(f"/api/games/{gid}")["seq"] for gid in ids.values()]
            return min(seqs) >= SNAPSHOT_EVERY + 4

        wait_until(past_a_snapshot, timeout=FINISH_SECONDS, what="every game to pass a snapshot")
        slow.kill()
        assert slow.problems() == []
    killed_at, snapshots = {}, {}
    for game, gid in ids.items():
        status, seq, taken = stored(second_db, gid)
        assert status == "active", f"{game} ended before the server was killed"
        assert taken and max(taken) <= seq, (game, seq, taken)
        killed_at[game] = seq
        snapshots[game] = latest_snapshot(second_db, gid)
    with serving(second_db, log) as server:
        host.http = httpx.Client(base_url=server.url, timeout=10)
        finished = wait_finished(host, ids)
        resumed = {game: archive(host, gid) for game, gid in ids.items()}
        assert server.problems() == []
    for game in ids:
        assert finished[game]["outcome"] == records[game]["outcome"], game
        assert strip(resumed[game]) == strip(records[game]), f"{game}: the records differ"
        assert len(records[game]["entries"]) > killed_at[game], game
        # The restarted server could use the snapshot the killed one wrote (a snapshot it
        # cannot read is silently replaced by a replay): it loads in another process, in
        # the format this code looks for, as the record's prefix.
        rules = games.find(game)
        seq, fmt, data = snapshots[game]
        assert fmt == snapshot_format(rules), (game, fmt)
        loaded = load_snapshot(data, rules, seq)
        assert loaded is not None, f"{game}: the snapshot does not load"
        prefix = replay(rules, records[game]).fork(seq)
        assert loaded.to_json() == prefix.to_json(), game
        assert loaded.observe(ARCHIVE) == prefix.observe(ARCHIVE), game


def strip(record: dict[str, Any]) -> dict[str, Any]:
    """A record without what differs between two servers' runs of one game (when, which id)."""
    volatile = {"created_at", "at", "time", "game_id", "id", "url"}

    def clean(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items() if k not in volatile}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value

    out: dict[str, Any] = clean(record)
    return out
