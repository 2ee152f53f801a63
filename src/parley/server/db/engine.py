"""Engines for SQLite (default) and PostgreSQL, set up for many short write transactions."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.pool import StaticPool

from .syncer import Syncer, register

WRITE_OPTION = "parley_write"  # execution option marking connections that will write


def normalize_url(url: str) -> str:
    """Use psycopg 3 for `postgresql://` and `postgres://` URLs."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def is_sqlite(url: str) -> bool:
    return make_url(normalize_url(url)).get_backend_name() == "sqlite"


def make_engine(
    url: str,
    *,
    sqlite_synchronous: str = "FULL",
    background_checkpoints: bool = False,
    group_sync: bool = False,
) -> Engine:
    """An engine for `url`.

    `background_checkpoints` (SQLite): commits never copy the WAL back into the database
    file themselves (that copy and its fsync took up to seconds, inside a request); the
    caller runs `checkpoint()` from a background thread instead.

    `group_sync` (a SQLite file at `FULL` or `EXTRA`): commits are not synced one by one;
    a `Syncer` (see `syncer.py`, found with `syncer_of(engine)`, started by the caller)
    makes them durable in groups, and whatever shows a change waits for it.
    """
    url = normalize_url(url)
    if not is_sqlite(url):
        return create_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)
    memory = make_url(url).database in (None, "", ":memory:")
    kwargs: dict[str, Any] = {"connect_args": {"check_same_thread": False, "timeout": 30}}
    if memory:
        kwargs["poolclass"] = StaticPool  # one shared connection, or each would see its own DB
    engine = create_engine(url, **kwargs)
    synchronous = sqlite_synchronous.upper()
    if synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
        raise ValueError(f"unknown SQLite synchronous mode {sqlite_synchronous!r}")
    database = make_url(url).database
    plain_file = bool(database) and not memory and "uri" not in make_url(url).query
    if group_sync and plain_file and database and synchronous in ("FULL", "EXTRA"):
        register(engine, Syncer(database))
        synchronous = "NORMAL"  # each commit unsynced: the syncer's flush covers it

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_conn: Any, _record: Any) -> None:
        # Take transactions out of the driver's hands so that BEGIN IMMEDIATE is ours to send.
        dbapi_conn.isolation_level = None
        cursor = dbapi_conn.cursor()
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA busy_timeout=30000")
        if background_checkpoints and not memory:
            cursor.execute("PRAGMA wal_autocheckpoint=0")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(conn: Any) -> None:
        # Writers queue on the database lock at BEGIN instead of failing when a read
        # transaction later tries to upgrade to a write; readers never wait (WAL).
        immediate = conn.get_execution_options().get(WRITE_OPTION, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")

    return engine


def checkpoint(engine: Engine) -> None:
    """Copy committed WAL pages into a SQLite database file, without blocking writers."""
    if engine.dialect.name != "sqlite":
        return
    with engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
