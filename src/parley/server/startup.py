"""Starting `parley serve`: the database and Redis checked first, each failure said in one
line, and the server's address announced only once it serves."""

from __future__ import annotations

import socket
from collections.abc import Callable
from typing import Any

import uvicorn


class StartFailed(Exception):
    """The server cannot start; the message is the whole story, one line."""


def safe_url(url: str) -> str:
    """The URL without a password, for messages and the log."""
    head, sep, tail = url.partition("@")
    if not sep or ":" not in head.split("//", 1)[-1]:
        return url
    scheme, _, creds = head.partition("//")
    user = creds.split(":", 1)[0]
    return f"{scheme}//{user}:***@{tail}"


def first_line(err: BaseException) -> str:
    """The first line of an error's own message (a driver's, when it wraps one)."""
    inner = getattr(err, "orig", None) or err
    text = str(inner).strip() or type(inner).__name__
    return text.splitlines()[0].strip()


def database_failure(url: str, err: BaseException) -> StartFailed | None:
    """One line for a database that cannot be opened, reached or parsed; None otherwise."""
    from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

    if isinstance(err, (DBAPIError, ArgumentError, NoSuchModuleError, OSError)):
        return StartFailed(f"cannot open the database {safe_url(url)}: {first_line(err)}")
    return None


def check_database(url: str) -> None:
    """Connect once, and say in one line why that fails (before migrations run)."""
    from .db.engine import make_engine

    try:
        engine = make_engine(url)
        try:
            with engine.connect():
                pass
        finally:
            engine.dispose()
    except Exception as err:
        failure = database_failure(url, err)
        if failure is None:
            raise
        raise failure from None


def check_redis(url: str | None, timeout: float = 5.0) -> None:
    """Ping Redis once, and say in one line why that fails."""
    if not url:
        return
    from redis import Redis
    from redis.exceptions import RedisError

    try:
        client = Redis.from_url(url, socket_connect_timeout=timeout, socket_timeout=timeout)
        try:
            client.ping()
        finally:
            client.close()
    except (RedisError, ValueError, OSError) as err:
        raise StartFailed(f"cannot reach Redis at {safe_url(url)}: {first_line(err)}") from None


def build_app(url: str, redis_url: str | None) -> Any:
    """The served application, connected and migrated; StartFailed in one line if not."""
    check_redis(redis_url)
    check_database(url)
    from .app import create_app_from_env

    try:
        return create_app_from_env()
    except Exception as err:
        failure = database_failure(url, err)
        if failure is None:
            raise
        raise failure from None


class AnnouncingServer(uvicorn.Server):
    """uvicorn's server, which says `line` once it listens and its start-up is done, and
    records a start that failed (`failed`) rather than exiting the process."""

    def __init__(self, config: uvicorn.Config, announce: Callable[[], None]) -> None:
        super().__init__(config)
        self.announce = announce
        self.failed = False

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        try:
            await super().startup(sockets=sockets)
        except SystemExit:
            # uvicorn has logged why (a port in use, say) in one line; the command exits.
            self.failed = True
            self.should_exit = True
            return
        if self.started:
            self.announce()
