"""Health and the catalogue of games and bots."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

import parley
from parley import games
from parley.agents import bots

from .. import llm_seats
from ..db.engine import is_sqlite
from ..schemas import CatalogOut, GameTypeOut, HealthOut
from ..vocab import PressMode
from .deps import ServicesDep

router = APIRouter(prefix="/api", tags=["meta"])


@router.get("/health", response_model=HealthOut)
async def health(svc: ServicesDep) -> HealthOut:
    """Liveness and this process's counters."""
    await svc.run(svc.tables.db.ping)
    return HealthOut(
        status="ok",
        version=parley.__version__,
        process=svc.process_id,
        database="sqlite" if is_sqlite(str(svc.tables.db.engine.url)) else "postgresql",
        redis=svc.settings.redis_url is not None,
        games_cached=svc.tables.cached,
        connections=svc.hub.connections,
        deadlines_fired=svc.scheduler.fired,
        deadline_claims_lost=svc.scheduler.lost,
        write_conflicts=svc.tables.conflicts,
    )


@router.get("/game-types", response_model=CatalogOut)
async def game_types() -> CatalogOut:
    """Every game this server runs, with its seats and options, and the bots it offers."""
    return CatalogOut(
        games=[GameTypeOut.model_validate(_game_type(r)) for r in games.all_rules()],
        bots=bots.bot_names() + llm_seats.installed(),  # models: installed profiles only
        press_modes=list(PressMode),
        default_period_seconds=900,
    )


def _game_type(rules: Any) -> dict[str, Any]:
    """The game's spec, the bots that can play it, and the one offered first.

    The first offer is the game's heuristic player when it has one (it plays to win);
    `random` otherwise, never `default` (which only holds).
    """
    offered = bots.bot_names(rules) + llm_seats.installed()
    first = "heuristic" if "heuristic" in offered else "random"
    return {**rules.spec.to_json(), "bots": offered, "default_bot": first}
