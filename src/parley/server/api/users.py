"""Sign-up, log-in, log-out, and who am I."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, status
from fastapi.security import HTTPAuthorizationCredentials

from ..schemas import GameListOut, LogIn, OkOut, SessionOut, SignUp, UserOut
from ..vocab import GameStatus, UserRecord
from .deps import ReadingUser, ServicesDep, User, bearer, errors, limited_address

router = APIRouter(prefix="/api", tags=["users"])


def _user_out(user: UserRecord) -> UserOut:
    return UserOut(id=user.id, username=user.username, has_password=user.has_password)


@router.post(
    "/users",
    status_code=status.HTTP_201_CREATED,
    response_model=SessionOut,
    responses=errors(400, 409, 413, 429),
    dependencies=[Depends(limited_address)],
)
async def sign_up(req: SignUp, svc: ServicesDep) -> SessionOut:
    """Take a unique username (case-insensitive), optionally with a password; get a token."""
    user, token = await svc.run.thread(svc.accounts.register, req.username, req.password)
    return SessionOut(user=_user_out(user), token=token)


@router.post(
    "/sessions",
    response_model=SessionOut,
    responses=errors(401, 413, 429),
    dependencies=[Depends(limited_address)],
)
async def log_in(req: LogIn, svc: ServicesDep) -> SessionOut:
    """A new token for an account that has a password."""
    user, token = await svc.run.thread(svc.accounts.login, req.username, req.password)
    return SessionOut(user=_user_out(user), token=token)


@router.delete("/sessions/current", response_model=OkOut, responses=errors(401))
async def log_out(
    svc: ServicesDep,
    user: User,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> OkOut:
    """Revoke the token this request carries."""
    assert credentials is not None  # `user` was found from it
    await svc.run(svc.accounts.logout, credentials.credentials)
    return OkOut()


@router.get("/me", response_model=UserOut, responses=errors(401))
async def me(user: ReadingUser) -> UserOut:
    return _user_out(user)


@router.get("/me/games", response_model=GameListOut, responses=errors(401))
async def my_games(svc: ServicesDep, user: ReadingUser) -> GameListOut:
    """The games you host, play or watch, newest first."""
    games = await svc.run(svc.lobby.find, user, list(GameStatus), True, 500, 0)
    return GameListOut(games=games)
