"""Server settings: one frozen value built from arguments or the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from .clock import Clock, SystemClock

ENV_PREFIX = "PARLEY_"


def default_database_url() -> str:
    """A SQLite file in the user's data directory (or ./parley.sqlite3 when there is none)."""
    base = os.environ.get("XDG_DATA_HOME") or (
        str(Path.home() / ".local" / "share") if Path.home().exists() else ""
    )
    if not base:
        return "sqlite:///parley.sqlite3"
    folder = Path(base) / "parley"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return "sqlite:///parley.sqlite3"
    return f"sqlite:///{folder / 'parley.sqlite3'}"


@dataclass(frozen=True, slots=True)
class Limits:
    """Sizes and rates the server enforces on every user."""

    max_body_bytes: int = 64 * 1024
    max_ws_message_bytes: int = 64 * 1024
    max_press_chars: int = 2000
    rate_per_second: float = 20.0  # sustained requests per user
    rate_burst: float = 60.0  # requests a user may send at once
    signup_rate_per_second: float = 5.0  # per client address
    signup_burst: float = 50.0
    max_games_per_user: int = 200  # lobby and running games hosted at once
    ws_queue: int = 512  # messages buffered for one slow client before it is dropped
    ws_per_user: int = 16  # WebSockets one user may hold open in one process
    ws_per_process: int = 10_000  # WebSockets one process holds open (signed in or not)
    ws_open_rate_per_second: float = 1.0  # sockets a user (or an address) may open, sustained
    ws_open_burst: float = 20.0
    ws_auth_seconds: float = 10.0  # time a new socket has to send its token
    read_rate_per_second: float = 50.0  # reads (GET) per user, sustained
    read_burst: float = 200.0
    past_read_cost: float = 5.0  # tokens a read of an earlier point (`state?at=`) takes
    agent_budget_seconds: float = 60.0  # the most time an agent may have per decision


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything a server process needs to know at start."""

    database_url: str = field(default_factory=default_database_url)
    redis_url: str | None = None
    redis_prefix: str = "parley:"  # keys and channels in Redis start with this
    clock: Clock = field(default_factory=SystemClock)
    limits: Limits = field(default_factory=Limits)
    scheduler_poll_seconds: float | None = 1.0  # None: deadlines fire only when asked (tests)
    deadline_lease_seconds: float = 30.0
    snapshot_every: int = 64  # entries between snapshots of a running game
    cache_games: int = 2000  # games kept in memory per process
    cache_past: int = 64  # earlier points of games (`state?at=`) kept in memory per process
    cache_freshness_seconds: float = 1.0  # reads trust the cache this long without a notice
    automation_batch: int = 200  # bot/disorder actions in one go before yielding
    # WAL + FULL: a committed change survives a power cut too (an fsync per commit); NORMAL
    # survives a crash of the process but may lose the last commits to a power cut.
    sqlite_synchronous: str = "FULL"
    trusted_proxies: tuple[str, ...] = ()  # addresses/networks whose X-Forwarded-For is believed
    static_dir: Path | None = None  # the web client; None: the packaged one if present
    migrate: bool = True
    inline_store: bool | None = None  # store work in the event loop; None: on SQLite (see app.py)
    # A host's seed used as given, not mixed with a secret (tests, demonstrations): the host
    # can then know every hidden draw, and each such game says so to everyone.
    fixed_seeds: bool = False
    metrics_token: str | None = None  # /metrics for a request bearing this token
    metrics_loopback: bool = False  # /metrics for unforwarded requests from this machine

    @staticmethod
    def from_env() -> Settings:
        """Settings from PARLEY_* variables (see docs/server.md), defaults for the rest."""
        env = os.environ
        values: dict[str, object] = {}
        if url := env.get(ENV_PREFIX + "DATABASE_URL"):
            values["database_url"] = url
        if url := env.get(ENV_PREFIX + "REDIS_URL"):
            values["redis_url"] = url
        if prefix := env.get(ENV_PREFIX + "REDIS_PREFIX"):
            values["redis_prefix"] = prefix
        if poll := env.get(ENV_PREFIX + "SCHEDULER_POLL"):
            values["scheduler_poll_seconds"] = float(poll) if float(poll) > 0 else None
        if sync := env.get(ENV_PREFIX + "SQLITE_SYNCHRONOUS"):
            values["sqlite_synchronous"] = sync.upper()
        if fixed := env.get(ENV_PREFIX + "FIXED_SEEDS"):
            values["fixed_seeds"] = fixed.strip().lower() in ("1", "true", "yes", "on")
        if proxies := env.get(ENV_PREFIX + "TRUSTED_PROXIES"):
            values["trusted_proxies"] = tuple(p.strip() for p in proxies.split(",") if p.strip())
        if token := env.get(ENV_PREFIX + "METRICS_TOKEN"):
            values["metrics_token"] = token
        if (access := env.get(ENV_PREFIX + "METRICS", "").strip().lower()) not in ("", "off"):
            if access != "loopback":
                raise ValueError("PARLEY_METRICS is off or loopback (or set PARLEY_METRICS_TOKEN)")
            values["metrics_loopback"] = True
        limits = Limits()
        if rate := env.get(ENV_PREFIX + "RATE"):
            per_second = float(rate)
            limits = replace(limits, rate_per_second=per_second, rate_burst=max(per_second * 3, 1))
        if rate := env.get(ENV_PREFIX + "SIGNUP_RATE"):
            per_second = float(rate)
            limits = replace(
                limits, signup_rate_per_second=per_second, signup_burst=max(per_second * 3, 1)
            )
        # Every limit also reads PARLEY_<NAME>, e.g. PARLEY_WS_PER_USER=4.
        for name in Limits.__dataclass_fields__:
            if (raw := env.get(ENV_PREFIX + name.upper())) is not None:
                kind = type(getattr(limits, name))
                limits = replace(limits, **{name: kind(float(raw)) if kind is int else kind(raw)})
        values["limits"] = limits
        return Settings(**values)  # type: ignore[arg-type]  # the keys are fields above
