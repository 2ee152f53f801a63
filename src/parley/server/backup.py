"""`parley backup` and `parley restore`: a consistent copy of the database, and back.

SQLite: SQLite's online backup API copies the whole file inside one read transaction, so the
copy is one moment of the database even while the server keeps writing (its writers never
wait for it: WAL readers and writers do not block each other). The copy is written beside
its destination and renamed into place, so a backup never leaves half a file.

PostgreSQL: `pg_dump --format=custom` (one consistent snapshot, while the server runs) and
`pg_restore` into an empty database or schema; for point-in-time recovery use PostgreSQL's
own WAL archiving (docs/deployment.md).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import unquote

from sqlalchemy.engine import make_url

from .db.engine import is_sqlite, normalize_url


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why, in one line."""


def _sqlite_file(url: str) -> Path:
    database = make_url(normalize_url(url)).database
    if not database or database == ":memory:":
        raise BackupError("an in-memory SQLite database has nothing to back up")
    return Path(database)


def _is_parley(path: Path) -> bool:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            found = conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type='table' AND name='alembic_version'"
            ).fetchone()
        return found is not None
    except sqlite3.DatabaseError:
        return False


def _copy_sqlite(source: Path, target: Path) -> None:
    """Copy `source` into `target` (a new file beside it, then renamed into place)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
    os.close(fd)
    try:
        src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
        try:
            dst = sqlite3.connect(temp)
            try:
                src.backup(dst)  # all pages in one step: one read transaction, one moment
                dst.execute("PRAGMA journal_mode=DELETE")  # a single self-contained file
            finally:
                dst.close()
        finally:
            src.close()
        with open(temp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(temp, target)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise


def _libpq(url: str) -> tuple[str, str | None]:
    """A libpq connection string for pg_dump/pg_restore, and the schema the URL selects."""
    parsed = make_url(normalize_url(url))
    schema = None
    options = parsed.query.get("options")
    if isinstance(options, tuple):
        options = options[0]
    for part in unquote(options or "").split():
        if part.startswith("-csearch_path="):
            schema = part.split("=", 1)[1].split(",")[0]
    plain = parsed.set(drivername="postgresql").difference_update_query(["options"])
    return plain.render_as_string(hide_password=False), schema


def _run(command: list[str], what: str) -> None:
    tool = command[0]
    if shutil.which(tool) is None:
        raise BackupError(f"{tool} is not installed (Debian: apt-get install postgresql-client)")
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        raise BackupError(f"{what} failed: {lines[-1] if lines else f'exit {done.returncode}'}")


def backup(url: str, destination: Path, *, overwrite: bool = False) -> str:
    """Write a backup of the database at `url` to `destination`; returns what was done."""
    if destination.exists() and not overwrite:
        raise BackupError(f"{destination} exists; choose another name or pass --overwrite")
    if is_sqlite(url):
        source = _sqlite_file(url)
        if not source.is_file():
            raise BackupError(f"no database at {source}")
        if not _is_parley(source):
            raise BackupError(f"{source} is not a Parley database")
        _copy_sqlite(source, destination)
        return f"SQLite {source} backed up to {destination}"
    conn, schema = _libpq(url)
    command = ["pg_dump", "--format=custom", "--no-owner", f"--file={destination}"]
    if schema:
        command.append(f"--schema={schema}")
    _run([*command, conn], "pg_dump")
    return f"PostgreSQL {'schema ' + schema if schema else 'database'} backed up to {destination}"


def restore(source: Path, url: str, *, overwrite: bool = False) -> str:
    """Restore the backup at `source` into the database at `url` (stop its server first)."""
    if not source.is_file():
        raise BackupError(f"no backup at {source}")
    if is_sqlite(url):
        if not _is_parley(source):
            raise BackupError(f"{source} is not a backup of a Parley SQLite database")
        target = _sqlite_file(url)
        if target.exists() and not overwrite:
            raise BackupError(
                f"{target} exists; stop its server and pass --overwrite to replace it"
            )
        for suffix in ("-wal", "-shm"):  # the old file's log must not replay over the copy
            Path(f"{target}{suffix}").unlink(missing_ok=True)
        _copy_sqlite(source, target)
        return f"{source} restored to SQLite {target}"
    conn, schema = _libpq(url)
    if _has_parley_tables(url, schema) and not overwrite:
        raise BackupError(
            "the target database already holds Parley's tables; stop its server and pass "
            "--overwrite to replace them"
        )
    command = ["pg_restore", "--no-owner", "--exit-on-error", f"--dbname={conn}"]
    if overwrite:
        command += ["--clean", "--if-exists"]
    _run([*command, str(source)], "pg_restore")
    return f"{source} restored to PostgreSQL {'schema ' + schema if schema else 'database'}"


def _has_parley_tables(url: str, schema: str | None) -> bool:
    import psycopg

    conn, _ = _libpq(url)
    with psycopg.connect(conn, connect_timeout=10) as pg:
        found = pg.execute(
            "SELECT 1 FROM information_schema.tables WHERE table_name = 'alembic_version'"
            " AND table_schema = %s",
            (schema or "public",),
        ).fetchone()
    return found is not None
