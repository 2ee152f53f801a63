"""The lobby: create, list, read, join, leave, bots, start, close, seats."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query, status

from ..schemas import (
    AddBots,
    CreateGame,
    EventOut,
    EventsOut,
    GameListOut,
    GameOut,
    JoinGame,
    OpenSeatIn,
    StartGame,
    TakeoverIn,
)
from ..vocab import GameStatus
from .deps import GameId, LimitedUser, ReadingUser, ServicesDep, errors

router = APIRouter(prefix="/api/games", tags=["lobby"])


@router.get("", response_model=GameListOut, responses=errors(401))
async def list_games(
    svc: ServicesDep,
    user: ReadingUser,
    status_: Annotated[list[GameStatus] | None, Query(alias="status", max_length=4)] = None,
    mine: bool = False,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    offset: Annotated[int, Query(ge=0, le=100_000)] = 0,
) -> GameListOut:
    """Public games (and yours), newest first; filter by status."""
    statuses = status_ or [GameStatus.LOBBY, GameStatus.ACTIVE]
    return GameListOut(games=await svc.run(svc.lobby.find, user, statuses, mine, limit, offset))


@router.post(
    "",
    status_code=status.HTTP_201_CREATED,
    response_model=GameOut,
    responses=errors(400, 401, 409, 413, 429),
)
async def create_game(req: CreateGame, svc: ServicesDep, user: LimitedUser) -> GameOut:
    """Create a game (UC 06–09): you are its host and first member; the id is in the answer."""
    return await svc.run(svc.lobby.create, user, req)


@router.get("/{game_id}", response_model=GameOut, responses=errors(401, 404))
async def get_game(game_id: GameId, svc: ServicesDep, user: ReadingUser) -> GameOut:
    return await svc.run(svc.lobby.get, user, game_id)


@router.post("/{game_id}/join", response_model=GameOut, responses=errors(401, 403, 404, 409, 429))
async def join_game(
    game_id: GameId, svc: ServicesDep, user: LimitedUser, req: JoinGame | None = None
) -> GameOut:
    """Join as a player (UC 10) or a spectator (UC 11); private games need the invite code.

    A running game takes a new player only into a seat that is open to replacement: held by
    a bot or in civil disorder, and opened by the host (or by the game's `replacements`).
    """
    req = req or JoinGame()
    return await svc.run(svc.lobby.join, user, game_id, req.role, req.invite_code, req.seat)


@router.post("/{game_id}/leave", response_model=GameOut, responses=errors(401, 404, 409, 429))
async def leave_game(game_id: GameId, svc: ServicesDep, user: LimitedUser) -> GameOut:
    """Leave (UC 60A): a running seat goes into civil disorder. The host leaving closes it."""
    return await svc.run(svc.lobby.leave, user, game_id)


@router.post("/{game_id}/bots", response_model=GameOut, responses=errors(400, 401, 403, 404, 409))
async def add_bots(game_id: GameId, req: AddBots, svc: ServicesDep, user: LimitedUser) -> GameOut:
    """The host seats bots in the lobby."""
    return await svc.run(svc.lobby.add_bots, user, game_id, req.bot, req.count)


@router.post("/{game_id}/start", response_model=GameOut, responses=errors(400, 401, 403, 404, 409))
async def start_game(
    game_id: GameId, svc: ServicesDep, user: LimitedUser, req: StartGame | None = None
) -> GameOut:
    """The host starts the game (UC 13); seats are drawn at random from the game's seed (UC 15)."""
    req = req or StartGame()
    return await svc.run(svc.lobby.start, user, game_id, req.fill_with)


@router.post("/{game_id}/close", response_model=GameOut, responses=errors(401, 403, 404, 409))
async def close_game(game_id: GameId, svc: ServicesDep, user: LimitedUser) -> GameOut:
    """The host ends the game for everyone (UC 60B); its record is kept."""
    return await svc.run(svc.lobby.close, user, game_id)


@router.post("/{game_id}/back", response_model=GameOut, responses=errors(401, 403, 404, 409))
async def im_back(game_id: GameId, svc: ServicesDep, user: LimitedUser) -> GameOut:
    """Take your seat back from civil disorder or a bot."""
    return await svc.run(svc.lobby.back, user, game_id)


@router.post(
    "/{game_id}/seats/{seat}/bot",
    response_model=GameOut,
    responses=errors(400, 401, 403, 404, 409),
)
async def seat_to_bot(
    game_id: GameId,
    seat: Annotated[int, Path(ge=0, le=1000)],
    svc: ServicesDep,
    user: LimitedUser,
    req: TakeoverIn | None = None,
) -> GameOut:
    """The host hands a seat in civil disorder (or whose player left) to a bot."""
    req = req or TakeoverIn()
    return await svc.run(svc.lobby.takeover, user, game_id, seat, req.bot)


@router.post(
    "/{game_id}/seats/{seat}/open",
    response_model=GameOut,
    responses=errors(400, 401, 403, 404, 409, 429),
)
async def open_seat(
    game_id: GameId,
    seat: Annotated[int, Path(ge=0, le=1000)],
    svc: ServicesDep,
    user: LimitedUser,
    req: OpenSeatIn | None = None,
) -> GameOut:
    """The host opens a seat held by a bot or in civil disorder to a newcomer (or closes it)."""
    req = req or OpenSeatIn()
    return await svc.run(svc.lobby.open_seat, user, game_id, seat, req.open)


@router.get("/{game_id}/events", response_model=EventsOut, responses=errors(401, 404))
async def game_events(game_id: GameId, svc: ServicesDep, user: ReadingUser) -> EventsOut:
    """Server events beside the record: joins, starts, deadlines fired, seat changes."""
    events = await svc.run(svc.lobby.events, user, game_id)
    return EventsOut(events=[EventOut.model_validate(e) for e in events])
