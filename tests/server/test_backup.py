"""`parley backup` while games are played, `parley restore` into a fresh server: every game
is served with its record intact and continues."""

from __future__ import annotations

import contextlib
import secrets
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.server.conftest import (
    POSTGRES_URL,
    Client,
    make_settings,
    sign_up,
    start_live_server,
)
from tests.server.test_play import mover, start_game

from parley.server.backup import BackupError, backup, restore


def parley(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from parley.cli import main; main()", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@contextlib.contextmanager
def restored_target(source_url: str, tmp_path: Path) -> Iterator[str]:
    """An empty place to restore into: a new SQLite file, or a new PostgreSQL database."""
    if source_url.startswith("sqlite"):
        yield f"sqlite:///{tmp_path / 'restored.sqlite3'}"
        return
    import psycopg

    admin = POSTGRES_URL.replace("postgresql+psycopg://", "postgresql://")
    name = f"parley_restore_{secrets.token_hex(4)}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    base, _, query = source_url.partition("?")
    try:
        yield f"{base.rsplit('/', 1)[0]}/{name}?{query}"
    finally:
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')


def history(client: Client, gid: str) -> list[dict[str, object]]:
    entries: list[dict[str, object]] = client.get(f"/api/games/{gid}/history")["entries"]
    return entries


def test_backup_under_play_restores_every_game(database_url: str, tmp_path: Path) -> None:
    source = start_live_server(make_settings(database_url))
    try:
        amy, bob = sign_up(source.url, "amy"), sign_up(source.url, "bob")
        games = [start_game(amy, [bob], "countdown", options={"start": 90})[0] for _ in range(4)]
        stop = threading.Event()
        played = [0]
        failures: list[BaseException] = []

        def play() -> None:
            try:
                for _ in range(400):  # bounded: 4 games of at most 90 moves
                    if stop.is_set():
                        return
                    live = [g for g in games if amy.get(f"/api/games/{g}")["status"] != "finished"]
                    if not live:
                        return
                    gid = live[played[0] % len(live)]
                    mover([amy, bob], gid).post(f"/api/games/{gid}/actions", {"action": "take 1"})
                    played[0] += 1
            except BaseException as err:  # reported by the test below
                failures.append(err)

        worker = threading.Thread(target=play)
        worker.start()
        while played[0] < 20 and worker.is_alive():
            worker.join(0.05)
        before = {g: len(history(amy, g)) for g in games}
        dump = tmp_path / "parley.backup"
        done = parley("backup", str(dump), "--database-url", database_url)
        assert done.returncode == 0, done.stderr
        assert "backed up" in done.stdout
        again = parley("backup", str(dump), "--database-url", database_url)
        assert again.returncode == 2 and len(again.stderr.strip().splitlines()) == 1
        while played[0] < 40 and worker.is_alive():
            worker.join(0.05)
        stop.set()
        worker.join(30)
        assert not failures, failures
        original = {g: history(amy, g) for g in games}
    finally:
        source.stop()
    with restored_target(database_url, tmp_path) as target:
        done = parley("restore", str(dump), "--database-url", target)
        assert done.returncode == 0, done.stderr
        twice = parley("restore", str(dump), "--database-url", target)
        assert twice.returncode == 2 and "--overwrite" in twice.stderr
        fresh = start_live_server(make_settings(target))
        try:
            amy2 = Client(fresh.url, "amy", amy.token)
            bob2 = Client(fresh.url, "bob", bob.token)
            listed = {g["id"] for g in amy2.get("/api/me/games")["games"]}
            assert set(games) <= listed
            for gid in games:
                kept = history(amy2, gid)
                # One moment of the database: each game's record is a prefix of the live
                # one, at least as long as it was before the backup began.
                assert len(kept) >= before[gid]
                assert kept == original[gid][: len(kept)]
                if amy2.get(f"/api/games/{gid}")["status"] != "finished":
                    who = mover([amy2, bob2], gid)
                    out = who.post(f"/api/games/{gid}/actions", {"action": "take 1"})
                    assert out["entry"]["seq"] == len(kept)  # the next entry, numbered from 0
            amy2.close()
            bob2.close()
        finally:
            fresh.stop()


def test_restore_refuses_what_is_not_a_parley_backup(tmp_path: Path) -> None:
    junk = tmp_path / "junk.backup"
    junk.write_bytes(b"not a database at all")
    with pytest.raises(BackupError, match="not a backup"):
        restore(junk, f"sqlite:///{tmp_path / 'x.sqlite3'}")
    with pytest.raises(BackupError, match="no database"):
        backup(f"sqlite:///{tmp_path / 'missing.sqlite3'}", tmp_path / "out.backup")
    done = parley("restore", str(tmp_path / "nowhere"), "--database-url", "sqlite:///x.db")
    assert done.returncode == 2
    assert done.stderr.strip() == f"parley restore: no backup at {tmp_path / 'nowhere'}"
