"""The parts of one server process, wired together once and handed to the routes."""

from __future__ import annotations

from dataclasses import dataclass

from .auth import Accounts
from .bus import Bus
from .deadlines import Scheduler
from .hub import Hub
from .live import Tables
from .llm_seats import LLMSeats
from .lobby import Lobby
from .play import Play
from .ratelimit import Limiter
from .runner import Runner
from .settings import Settings
from .sockets import SocketCount


@dataclass(frozen=True, slots=True)
class Services:
    settings: Settings
    process_id: str
    accounts: Accounts
    tables: Tables
    lobby: Lobby
    play: Play
    hub: Hub
    bus: Bus
    scheduler: Scheduler
    limiter: Limiter
    run: Runner  # `await svc.run(fn, *args)`: store-bound work, inline or in a thread
    sockets: SocketCount  # open WebSockets, in all and per user
    models: LLMSeats | None = None  # the seats chat models play (`llm:` bots)
