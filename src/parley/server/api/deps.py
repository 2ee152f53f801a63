"""Dependencies shared by the routes: the services, the caller, rate limits, error docs."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Depends, Path, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from ..logs import note_user
from ..net import client_address
from ..schemas import ErrorOut
from ..services import Services
from ..vocab import UserRecord

bearer = HTTPBearer(auto_error=False, description="the token from sign-up or log-in")


async def services(request: Request) -> Services:
    svc: Services = request.app.state.services
    return svc


ServicesDep = Annotated[Services, Depends(services)]


async def user_for_token(svc: Services, token: str | None) -> UserRecord:
    """The token's user, from the cache when it was checked lately (also the hot move path)."""
    user = svc.accounts.cached_user(token)
    if user is None:
        user = await svc.run(svc.accounts.user_for, token)
    note_user(user.id)
    return user


async def spend_request(svc: Services, user: UserRecord) -> None:
    """One request of the user's budget for changes; refused when it is spent."""
    limits = svc.settings.limits
    await svc.limiter.hit(f"user:{user.id}", limits.rate_per_second, limits.rate_burst)


async def current_user(
    svc: ServicesDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)],
) -> UserRecord:
    return await user_for_token(svc, credentials.credentials if credentials else None)


async def limited_user(
    svc: ServicesDep, user: Annotated[UserRecord, Depends(current_user)]
) -> UserRecord:
    """The caller, once their rate limit allows one more request."""
    await spend_request(svc, user)
    return user


async def reading_user(
    svc: ServicesDep, user: Annotated[UserRecord, Depends(current_user)]
) -> UserRecord:
    """The caller, once their read budget allows one more read."""
    limits = svc.settings.limits
    await svc.limiter.hit(f"read:{user.id}", limits.read_rate_per_second, limits.read_burst)
    return user


async def limited_address(svc: ServicesDep, request: Request) -> None:
    """Sign-ups and log-ins, limited per client address (see `net.client_address`)."""
    limits = svc.settings.limits
    host = client_address(request.scope, svc.settings.trusted_proxies)
    await svc.limiter.hit(f"addr:{host}", limits.signup_rate_per_second, limits.signup_burst)


User = Annotated[UserRecord, Depends(current_user)]
LimitedUser = Annotated[UserRecord, Depends(limited_user)]  # changes: the request budget
ReadingUser = Annotated[UserRecord, Depends(reading_user)]  # reads: the read budget
GAME_ID_PATTERN = r"[A-Za-z0-9_-]{1,32}"
GameId = Annotated[str, Path(pattern=f"^{GAME_ID_PATTERN}$", description="the game's id")]


def errors(*statuses: int) -> dict[int | str, dict[str, Any]]:
    """OpenAPI documentation of the error answers a route may give.

    Every route may answer 400 (a body that is not JSON, or text that is not valid Unicode),
    413 (a body over the size limit), 422 (a request that does not fit its schema) and 429
    (over a rate or read budget), besides the ones it names.
    """
    return {status: {"model": ErrorOut} for status in sorted({*statuses, 400, 413, 422, 429})}
