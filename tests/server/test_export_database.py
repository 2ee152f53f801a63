"""`parley export --database`: a server's games as a dataset, on SQLite and PostgreSQL.

The PostgreSQL cases use the real server (127.0.0.1:5432, database `test`) through the
fixtures every server test uses: skipped only outside CI when it is unreachable, failed
under CI=true.
"""

from __future__ import annotations

import json
import tracemalloc
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session
from tests.agents.test_export import _sucker_with_secrets
from typer.testing import CliRunner

from parley import games
from parley.agents.export import decisions, read_decisions, write_decisions
from parley.cli import app
from parley.kernel import Match, Rng
from parley.kernel.conformance import random_step
from parley.server import store as db
from parley.server.db.engine import make_engine
from parley.server.db.migrate import upgrade
from parley.server.export import records_in_database
from parley.server.gateway.sqlstore import SqlStore
from parley.server.gateway.store import Note
from parley.server.vocab import GameRecord, GameStatus, PressMode

SUCKER = games.find("sucker")


def _plain_sucker(seed: int) -> dict[str, Any]:
    match: Match[Any, Any] = Match(SUCKER, 3, {"chips": 3}, seed)
    rng = Rng(seed)
    while not match.is_over and match.ply < 300 and random_step(match, rng):
        pass
    return match.to_json()


def _fill(
    url: str,
    games_: Sequence[tuple[str, GameStatus, float, dict[str, Any]]],
    notes: Sequence[dict[str, Any]] = (),
) -> None:
    """Store (id, status, created_at, record) games as the server would, and notes for
    the first game."""
    engine = make_engine(url)
    upgrade(engine)
    with Session(engine) as s, s.begin():
        known = db.user_with_password(s, "host")
        host = known[0] if known is not None else db.insert_user(s, "host", None, 0.0)
        for game_id, status, created, record in games_:
            db.insert_game(
                s,
                GameRecord(
                    id=game_id,
                    game=record["game"],
                    name=game_id,
                    description="",
                    options=record["options"],
                    seats=len(record["players"]),
                    period_seconds=60,
                    press=PressMode.FULL,
                    private=False,
                    invite_code=None,
                    host_id=host.id,
                    status=status,
                    seed=record["seed"],
                    players=tuple(record["players"]),
                    seq=len(record["entries"]),
                    version=1,
                    outcome=record["outcome"],
                    disorder_after=0,
                    bot_after=0,
                    takeover_bot="",
                    created_at=created,
                    started_at=created,
                    ended_at=None,
                ),
            )
            db.insert_entries(
                s,
                game_id,
                [
                    db.EntryRow(e["seq"], e["type"], json.dumps(e), "x", 0, created)
                    for e in record["entries"]
                ],
            )
    store = SqlStore(engine)
    for note in notes:
        store.add_note(
            Note(games_[0][0], note["seat"], note["state_id"], host.id, 1.0, note["text"])
        )
    engine.dispose()


def test_a_server_database_exports_with_its_agents_notes(database_url: str) -> None:
    record = _sucker_with_secrets(2)
    _fill(
        database_url,
        [
            ("done", GameStatus.FINISHED, 1.0, record),
            ("going", GameStatus.ACTIVE, 2.0, record),
        ],
        record["notes"][:5],
    )
    finished = list(records_in_database(database_url))
    assert [game_id for game_id, _ in finished] == ["done"]
    assert [g for g, _ in records_in_database(database_url, finished_only=False)] == [
        "done",
        "going",
    ]
    lines = list(decisions(finished[0][1], "done"))
    assert lines == list(decisions(dict(record, notes=record["notes"][:5]), "done"))
    assert sum(len(d.reasoning or []) for d in lines) >= 1


def test_pages_of_games_list_every_game_once_in_order(database_url: str) -> None:
    # Ties on created_at fall on page boundaries: the id breaks them, so no game is lost
    # or read twice between two pages.
    record = _plain_sucker(1)
    stored = [
        (f"g{i:02d}", GameStatus.FINISHED if i % 4 else GameStatus.ACTIVE, float(i // 3), record)
        for i in range(14)
    ]
    _fill(database_url, stored)
    finished = [g for g, status, _, _ in stored if status is GameStatus.FINISHED]
    for page in (1, 2, 3, 200):
        assert [g for g, _ in records_in_database(database_url, page=page)] == finished
    everything = [g for g, _, _, _ in stored]
    assert [g for g, _ in records_in_database(database_url, False, page=4)] == everything


def test_the_cli_exports_a_database_to_a_file(database_url: str, tmp_path: Path) -> None:
    record = _sucker_with_secrets(4)
    _fill(database_url, [("only", GameStatus.FINISHED, 1.0, record)], record["notes"])
    out = tmp_path / "decisions.jsonl.gz"
    result = CliRunner().invoke(app, ["export", "--database", database_url, "--out", str(out)])
    assert result.exit_code == 0, result.output
    expected = list(decisions(record, "only"))
    assert f"{len(expected)} decisions from 1 games" in result.output
    assert list(read_decisions(out)) == expected
    bare = tmp_path / "bare.jsonl"
    result = CliRunner().invoke(
        app, ["export", "--database", database_url, "--no-reasoning", "--out", str(bare)]
    )
    assert result.exit_code == 0, result.output
    assert all(d.reasoning is None for d in read_decisions(bare))


class _Sink:
    """A text stream that keeps nothing but its size."""

    def __init__(self) -> None:
        self.size = 0

    def write(self, text: str) -> int:
        self.size += len(text)
        return len(text)


def _export_peak(url: str) -> tuple[int, int]:
    """(games exported, peak traced allocations while exporting them)."""
    tracemalloc.start()
    try:
        stats = write_decisions(_Sink(), records_in_database(url, page=10))  # type: ignore[arg-type]
        _, top = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return stats.games, top


def test_exporting_five_times_the_games_takes_no_more_memory(postgres_url: str) -> None:
    # Many pages of games, one game in memory at a time: the peak must not follow the
    # number of games (holding every record would multiply it by five here).
    records = [_plain_sucker(seed) for seed in range(4)]
    small = [(f"a{i:03d}", GameStatus.FINISHED, float(i), records[i % 4]) for i in range(20)]
    _fill(postgres_url, small)
    games_small, peak_small = _export_peak(postgres_url)
    more = [(f"b{i:03d}", GameStatus.FINISHED, 100.0 + i, records[i % 4]) for i in range(80)]
    _fill(postgres_url, more)
    games_large, peak_large = _export_peak(postgres_url)
    assert (games_small, games_large) == (20, 100)
    assert peak_large < peak_small * 1.3 + 64_000, (peak_small, peak_large)
