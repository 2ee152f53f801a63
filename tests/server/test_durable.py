"""Group-synced commits (SQLite at FULL): nothing shows a change before it is on disk.

The syncer's flush is held on an event by the test: while it is held, a committed move is
neither answered nor broadcast, and readers of its game wait; once released, all of them
go out. Many commits share one flush; a failing flush turns into error answers and no
broadcast; and a process killed right after its answers loses none of them.
"""

from __future__ import annotations

import errno
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.conftest import WAIT, Client, LiveServer, ServerProcess, sign_up, wait_until
from tests.server.test_play import mover, start_game

from parley.server.db.syncer import Syncer

Users = Callable[..., Client]


class Gate:
    """Holds every flush of `syncer` until `release()` (bounded by WAIT)."""

    def __init__(self, syncer: Syncer) -> None:
        self.syncer = syncer
        self.real = syncer.fsync
        self.opened = threading.Event()
        wait_until(lambda: syncer.synced >= syncer.committed(), what="the syncer to be idle")
        syncer.fsync = self

    def __call__(self, fd: int) -> None:
        assert self.opened.wait(WAIT), "the test never released the flush"
        self.real(fd)

    def release(self) -> None:
        self.opened.set()
        self.syncer.fsync = self.real


def in_thread(fn: Callable[[], Any]) -> tuple[threading.Thread, dict[str, Any]]:
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = fn()
        except BaseException as err:  # reported by the test
            out["error"] = err

    thread = threading.Thread(target=run)
    thread.start()
    return thread, out


def syncer_of(live: LiveServer) -> Syncer:
    syncer = live.services.tables.syncer
    assert syncer is not None, "SQLite at FULL runs with a syncer"
    return syncer


@pytest.mark.parametrize("submit", ["http", "ws"])
def test_a_move_shows_nowhere_until_it_is_on_disk(
    live: LiveServer, users: Users, submit: str
) -> None:
    amy, bob = users("amy"), users("bob")
    gid, _seats = start_game(amy, [bob], "countdown", options={"start": 10})
    syncer = syncer_of(live)
    player = mover([amy, bob], gid)
    other = bob if player is amy else amy
    watcher = other.ws(gid)
    seq = watcher.wait_for(lambda m: m["type"] == "state")["seq"]
    own = player.ws(gid) if submit == "ws" else None
    if own is not None:
        own.wait_for(lambda m: m["type"] == "state")
    watcher.drain()

    gate = Gate(syncer)
    before = syncer.reserved
    if own is not None:
        own.send({"type": "act", "id": "m1", "action": "take 1"})
        answer, answered = None, None
    else:
        answer, answered = in_thread(
            lambda: player.post(f"/api/games/{gid}/actions", {"action": "take 1"})
        )
    wait_until(lambda: syncer.committed() > before, what="the move's commit")
    reader, read = in_thread(lambda: other.get(f"/api/games/{gid}/state"))
    # Committed, not on disk: no answer, no frame, and the other player's read waits.
    quiet = watcher.drain(quiet=0.3)
    assert not [m for m in quiet if m["type"] == "entries"], quiet
    if own is not None:
        assert not [m for m in own.drain(quiet=0.1) if m.get("id") == "m1"]
    else:
        assert answer is not None and answer.is_alive()
    assert reader.is_alive()
    assert syncer.synced <= before

    gate.release()
    if own is not None:
        ack = own.wait_for(lambda m: m.get("id") == "m1", what="the ack")
        assert ack["type"] == "ack", ack
        entry = ack["result"]["entry"]
    else:
        assert answer is not None and answered is not None
        answer.join(WAIT)
        assert "error" not in answered, answered
        entry = answered["value"]["entry"]
    assert entry["seq"] == seq
    assert syncer.synced > before
    frame = watcher.wait_for(lambda m: m["type"] == "entries", what="the broadcast")
    assert [e["seq"] for e in frame["entries"]] == [seq]
    reader.join(WAIT)
    assert read["value"]["seq"] == seq + 1
    watcher.close()
    if own is not None:
        own.close()


def test_many_concurrent_changes_share_flushes(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    gid, _seats = start_game(amy, [bob], "countdown", options={"start": 10})
    syncer = syncer_of(live)
    gate = Gate(syncer)
    before, flushes = syncer.reserved, syncer.flushes
    count = 12
    sent = [
        in_thread(lambda who=who, n=n: who.post(f"/api/games/{gid}/press", {"text": f"note {n}"}))
        for n, who in enumerate([amy, bob] * (count // 2))
    ]
    # Every message commits while the first flush is held: none is answered yet.
    wait_until(lambda: syncer.committed() >= before + count, what="every commit")
    assert all(thread.is_alive() for thread, _ in sent)
    gate.release()
    for thread, out in sent:
        thread.join(WAIT)
        assert "error" not in out, out
    seqs = sorted(out["value"]["entry"]["seq"] for _, out in sent)
    assert len(set(seqs)) == count
    # The held flush, then one for everything committed meanwhile (and perhaps one more
    # for a commit of the server's own after the release): far fewer than the messages.
    assert syncer.flushes - flushes <= 3 < count


def test_a_change_is_published_on_the_bus_only_once_on_disk(live: LiveServer, users: Users) -> None:
    amy, bob = users("amy"), users("bob")
    gid, _seats = start_game(amy, [bob], "countdown", options={"start": 10})
    tables = live.services.tables
    syncer = syncer_of(live)
    published: list[tuple[str, int]] = []  # (game, what the syncer had covered then)
    publish = tables.notify

    def recording(notice: Any) -> None:
        published.append((notice.game_id, syncer.synced))
        publish(notice)

    tables.notify = recording
    gate = Gate(syncer)
    before = syncer.reserved
    answer, _ = in_thread(
        lambda: mover([amy, bob], gid).post(f"/api/games/{gid}/press", {"text": "hi"})
    )
    wait_until(lambda: syncer.committed() > before, what="the commit")
    gate.release()
    answer.join(WAIT)
    wait_until(lambda: any(g == gid for g, _ in published), what="the notice")
    assert all(synced > before for g, synced in published if g == gid), published


def test_a_failed_flush_answers_errors_and_shows_nothing(
    live: LiveServer, users: Users, caplog: pytest.LogCaptureFixture
) -> None:
    amy, bob = users("amy"), users("bob")
    gid, _seats = start_game(amy, [bob], "countdown", options={"start": 10})
    syncer = syncer_of(live)
    player = mover([amy, bob], gid)
    other = bob if player is amy else amy
    watcher = other.ws(gid)
    seq = watcher.wait_for(lambda m: m["type"] == "state")["seq"]
    watcher.drain()
    Gate(syncer).release()  # wait for the syncer to be idle

    def failing(fd: int) -> None:
        raise OSError(errno.EIO, "injected disk failure")

    syncer.fsync = failing
    refused = player.post(f"/api/games/{gid}/actions", {"action": "take 1"}, expect=503)
    assert refused["error"] == "not_durable"
    assert "may be lost" in refused["message"]
    # No frame ever shows the move, and the process takes no more changes or shows the game.
    frames = watcher.drain(quiet=0.3)
    assert not [m for m in frames if m["type"] == "entries" and m["seq"] > seq], frames
    again = other.post(f"/api/games/{gid}/press", {"text": "hello?"}, expect=503)
    assert again["error"] == "not_durable"
    assert other.get(f"/api/games/{gid}/state", expect=503)["error"] == "not_durable"
    assert any("write-ahead log" in r.getMessage() for r in caplog.records)
    watcher.close()


def test_the_syncer_flushes_the_wal_and_calls_back_after(tmp_path: Path) -> None:
    database = tmp_path / "db.sqlite3"
    database.write_bytes(b"")
    flushed: list[int] = []
    syncer = Syncer(str(database), fsync=lambda fd: flushed.append(os.fstat(fd).st_ino))
    # No WAL file (SQLite removed it after a complete checkpoint): nothing to flush.
    ticket = syncer.reserve()
    syncer.complete(ticket)
    syncer.wait(ticket, timeout=WAIT)
    assert flushed == []
    wal = Path(str(database) + "-wal")
    wal.write_bytes(b"frames")
    called = threading.Event()
    second = syncer.reserve()
    syncer.after(second, called.set)
    assert not called.is_set()  # the commit has not even returned
    syncer.complete(second)
    syncer.wait(second, timeout=WAIT)
    assert called.wait(WAIT)
    # The new WAL file, and its folder (its name must survive too), once.
    assert flushed == [wal.stat().st_ino, tmp_path.stat().st_ino]
    syncer.stop()


def test_nothing_acknowledged_over_websocket_is_lost_after_kill_9(
    sqlite_url: str, tmp_path: Path
) -> None:
    args = ["--database-url", sqlite_url, "--snapshot-every", "5"]
    server = ServerProcess(args, tmp_path / "server.log")
    try:
        server.start()
        amy, bob = sign_up(server.url, "amy"), sign_up(server.url, "bob")
        gid, _seats = start_game(amy, [bob], "sealed-bids", options={"rounds": 20})
        sockets = {c.username: c.ws(gid) for c in (amy, bob)}
        for socket in sockets.values():
            socket.wait_for(lambda m: m["type"] == "state")
        acked: dict[int, str] = {}
        n = 0
        while len(acked) < 25:
            who = "amy" if n % 2 == 0 else "bob"
            if n % 3 == 2:
                sockets[who].send({"type": "say", "id": n, "text": f"note {n}"})
            else:
                sockets[who].send({"type": "act", "id": n, "action": f"bid {n % 6}"})
            ack = sockets[who].wait_for(lambda m, n=n: m.get("id") == n, what="the ack")
            assert ack["type"] == "ack", ack
            entry = ack["result"]["entry"] if "entry" in ack["result"] else ack["result"]
            acked[entry["seq"]] = entry.get("notation") or entry.get("text")
            n += 1
        server.kill()  # right after the last acknowledgement
        for socket in sockets.values():
            socket.close()

        server = ServerProcess(args, tmp_path / "server.log").start()
        for who in (amy, bob):
            who.http = httpx.Client(base_url=server.url, timeout=WAIT)
        by_seq: dict[int, dict[str, Any]] = {}
        for who in (amy, bob):
            for entry in who.get(f"/api/games/{gid}/record")["record"]["entries"]:
                if not entry.get("hidden"):
                    by_seq.setdefault(entry["seq"], entry)
        for seq, what in acked.items():
            assert what in (by_seq[seq].get("notation"), by_seq[seq].get("text")), seq
    finally:
        server.kill()
