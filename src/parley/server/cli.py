"""`parley serve`: run the server with uvicorn."""

from __future__ import annotations

import os
from typing import Annotated

import typer

from .db.engine import is_sqlite
from .settings import default_database_url


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    database_url: Annotated[
        str | None,
        typer.Option(
            help="SQLAlchemy URL: sqlite:///path or postgresql://user@host/db "
            "(default: a SQLite file in your data directory)."
        ),
    ] = None,
    redis_url: Annotated[
        str | None,
        typer.Option(help="Redis URL for live updates and rate limits across processes."),
    ] = None,
    reload: Annotated[bool, typer.Option(help="Restart on code changes (development).")] = False,
    workers: Annotated[int, typer.Option(help="Server processes (more than 1 needs Redis).")] = 1,
) -> None:
    """Run the Parley server: lobby, games, deadlines and live updates over HTTP/WebSocket."""
    import uvicorn

    if workers > 1 and not redis_url:
        raise typer.BadParameter("several workers share live updates through --redis-url")
    url = database_url or os.environ.get("PARLEY_DATABASE_URL") or default_database_url()
    if workers > 1 and is_sqlite(url):
        # Each worker would cache games and write the one file on its own: writes would
        # queue on SQLite's single lock and gain nothing, and deadlines, caches and rate
        # limits would only be as consistent as Redis notices make them.
        raise typer.BadParameter(
            "several workers need PostgreSQL (--database-url postgresql://...): with SQLite "
            "one process serves everything, its writes are serialised by the file's lock"
        )
    os.environ["PARLEY_DATABASE_URL"] = url
    if redis_url:
        os.environ["PARLEY_REDIS_URL"] = redis_url
    typer.echo(f"Parley on http://{host}:{port} (database {_safe(url)})")
    uvicorn.run(
        "parley.server.app:create_app_from_env",
        factory=True,
        host=host,
        port=port,
        reload=reload,
        workers=None if reload else workers,
        ws="websockets-sansio",
        ws_max_size=64 * 1024,
        # Forwarded headers are believed only from the proxies named in
        # PARLEY_TRUSTED_PROXIES (see `parley.server.net`), not from any local process.
        proxy_headers=False,
        log_level="info",
    )


def _safe(url: str) -> str:
    """The URL without a password, for the log."""
    head, sep, tail = url.partition("@")
    if not sep or ":" not in head.split("//", 1)[-1]:
        return url
    scheme, _, creds = head.partition("//")
    user = creds.split(":", 1)[0]
    return f"{scheme}//{user}:***@{tail}"
