"""`parley serve`: run the server with uvicorn."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated

import typer

from . import metrics
from .db.engine import is_sqlite
from .logs import FORMATS, log_config
from .logs import configure as configure_logs
from .serving import uvicorn_options
from .settings import default_database_url


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy URL: sqlite:///path or postgresql://user@host/db (default: "
            "PARLEY_DATABASE_URL, else $XDG_DATA_HOME/parley/parley.sqlite3, that is "
            "~/.local/share/parley/parley.sqlite3: one database for every clone and checkout)."
        ),
    ] = None,
    redis_url: Annotated[
        str | None,
        typer.Option(
            help="Redis URL for live updates and rate limits across processes.",
            envvar="PARLEY_REDIS_URL",
        ),
    ] = None,
    reload: Annotated[bool, typer.Option(help="Restart on code changes (development).")] = False,
    workers: Annotated[
        int,
        typer.Option(
            help="Server processes (more than 1 needs PostgreSQL and Redis); each game's "
            "connections are routed to one of them."
        ),
    ] = 1,
    log_level: Annotated[
        str, typer.Option(help="critical, error, warning, info (each request) or debug.")
    ] = "info",
    log_format: Annotated[
        str,
        typer.Option(
            help="text, or json: one object a line with the request id, game and user.",
            envvar="PARLEY_LOG_FORMAT",
        ),
    ] = "text",
) -> None:
    """Run the Parley server: lobby, games, deadlines and live updates over HTTP/WebSocket."""
    import uvicorn

    if log_level not in ("critical", "error", "warning", "info", "debug", "trace"):
        raise typer.BadParameter("--log-level is one of critical, error, warning, info, debug")
    if log_format not in FORMATS:
        raise typer.BadParameter("--log-format is text or json")
    os.environ["PARLEY_LOG_LEVEL"], os.environ["PARLEY_LOG_FORMAT"] = log_level, log_format
    if workers > 1 and not redis_url:
        raise typer.BadParameter("several workers share live updates through --redis-url")
    url = database_url or os.environ.get("PARLEY_DATABASE_URL") or default_database_url()
    if workers > 1 and is_sqlite(url):
        # Each worker would cache games and write the one file on its own: writes would
        # queue on SQLite's single lock and gain nothing, and deadlines, caches and rate
        # limits would only be as consistent as Redis notices make them.
        raise typer.BadParameter(
            "several worker processes need PostgreSQL (--database-url postgresql://...). "
            "On SQLite run one process (--workers 1, the default): it serves the lobby, "
            "games, deadlines and live updates on its own, and every write goes through the "
            "file's single lock, so more processes would only queue on it"
        )
    os.environ["PARLEY_DATABASE_URL"] = url
    if redis_url:
        os.environ["PARLEY_REDIS_URL"] = redis_url
    if workers > 1 and not reload:
        _serve_routed(host, port, url, workers, log_level)
        return
    from .startup import AnnouncingServer, StartFailed, build_app, check_database, check_redis

    announce = f"Parley on http://{host}:{port} (database {_safe(url)})"
    try:
        if reload:
            # uvicorn imports the app afresh after each change: check what it needs now.
            check_redis(redis_url)
            check_database(url)
        else:
            app = build_app(url, redis_url)  # connected and migrated, or one line why not
    except StartFailed as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    if reload:
        typer.echo(announce)
        uvicorn.run(
            "parley.server.app:create_app_from_env",
            factory=True,
            host=host,
            port=port,
            reload=True,
            log_level=log_level,
            log_config=log_config(log_level, log_format),
            **uvicorn_options(),
        )
        return
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        log_config=log_config(log_level, log_format),
        **uvicorn_options(),  # uvloop, httptools, WebSocket limits (shared with benchmarks)
    )
    server = AnnouncingServer(config, lambda: typer.echo(announce))  # once it serves
    server.run()
    if server.failed or not server.started:
        raise typer.Exit(2)  # uvicorn said why, in one line (a port in use, say)


def _serve_routed(host: str, port: int, url: str, workers: int, log_level: str) -> None:
    """Worker processes behind one acceptor that routes each game's connections to one."""

    from .startup import StartFailed, check_database, check_redis
    from .workers import WorkersFailed, bind, serve_routed

    try:
        check_redis(os.environ.get("PARLEY_REDIS_URL"))
        check_database(url)
    except StartFailed as err:
        typer.echo(f"error: {err}", err=True)
        raise typer.Exit(2) from None
    configure_logs(log_level)
    os.environ["PARLEY_WORKER_LOG_LEVEL"] = log_level
    metrics.share_between_processes()
    try:
        listener = bind(host, port)
    except OSError as err:
        typer.echo(f"cannot listen on {host}:{port}: {err}", err=True)
        raise typer.Exit(1) from None
    announce = (
        f"Parley on http://{host}:{port} ({workers} processes, each game's connections "
        f"routed to one; database {_safe(url)})"
    )
    try:
        serve_routed(listener, workers, on_open=lambda: typer.echo(announce))  # once all serve
    except WorkersFailed as err:
        typer.echo(f"Parley stopped: {err}", err=True)
        raise typer.Exit(1) from None


def _safe(url: str) -> str:
    """The URL without a password, for the log."""
    head, sep, tail = url.partition("@")
    if not sep or ":" not in head.split("//", 1)[-1]:
        return url
    scheme, _, creds = head.partition("//")
    user = creds.split(":", 1)[0]
    return f"{scheme}//{user}:***@{tail}"


def _database(url: str | None) -> str:
    return url or os.environ.get("PARLEY_DATABASE_URL") or default_database_url()


def backup_command(
    destination: Annotated[Path, typer.Argument(help="The backup file to write.")],
    database_url: Annotated[
        str | None,
        typer.Option(help="The database to back up (default: as `parley serve` would use)."),
    ] = None,
    overwrite: Annotated[bool, typer.Option(help="Replace an existing backup file.")] = False,
) -> None:
    """Back up the database while the server runs (SQLite's online backup, or pg_dump)."""
    from .backup import BackupError, backup

    try:
        typer.echo(backup(_database(database_url), destination, overwrite=overwrite))
    except (BackupError, OSError) as err:
        typer.echo(f"parley backup: {err}", err=True)
        raise typer.Exit(2) from None


def restore_command(
    source: Annotated[Path, typer.Argument(help="A file written by `parley backup`.")],
    database_url: Annotated[
        str | None,
        typer.Option(help="The database to restore into (default: as `parley serve` would use)."),
    ] = None,
    overwrite: Annotated[
        bool, typer.Option(help="Replace a database that exists (stop its server first).")
    ] = False,
) -> None:
    """Restore a backup into a database whose server is stopped (or a new one)."""
    from .backup import BackupError, restore

    try:
        typer.echo(restore(source, _database(database_url), overwrite=overwrite))
    except (BackupError, OSError) as err:
        typer.echo(f"parley restore: {err}", err=True)
        raise typer.Exit(2) from None
