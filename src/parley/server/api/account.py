"""Keeping a name: a password attached later, a recovery code, signing in with that code."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends
from pydantic import BaseModel, Field

from ..reclaim import Reclaim
from ..schemas import SessionOut, Strict, Username, UserOut
from ..services import Services
from .deps import LimitedUser, ServicesDep, errors, limited_address

router = APIRouter(prefix="/api", tags=["users"])


class PasswordIn(Strict):
    password: Annotated[str, Field(min_length=8, max_length=256)]
    current_password: Annotated[str, Field(min_length=1, max_length=256)] | None = None


class RecoveryCodeOut(BaseModel):
    code: str = Field(description="write it down: it is shown once, and works once")


class RecoverIn(Strict):
    username: Username
    code: Annotated[str, Field(min_length=1, max_length=64)]


def _reclaim(svc: Services) -> Reclaim:
    return Reclaim(svc.tables.db, svc.settings.clock, svc.accounts)


@router.put("/me/password", response_model=UserOut, responses=errors(401, 403, 429))
async def set_password(req: PasswordIn, svc: ServicesDep, user: LimitedUser) -> UserOut:
    """Give your name a password (or change it): then it signs in from any browser."""
    done = await svc.run.thread(
        _reclaim(svc).set_password, user, req.password, req.current_password
    )
    return UserOut(id=done.id, username=done.username, has_password=done.has_password)


@router.post("/me/recovery-code", response_model=RecoveryCodeOut, responses=errors(401, 429))
async def make_recovery_code(svc: ServicesDep, user: LimitedUser) -> RecoveryCodeOut:
    """A one-time code that signs your name in from another browser (replaces any earlier)."""
    return RecoveryCodeOut(code=await svc.run(_reclaim(svc).make_code, user))


@router.post(
    "/sessions/recover",
    response_model=SessionOut,
    responses=errors(401, 413, 429),
    dependencies=[Depends(limited_address)],
)
async def recover(req: RecoverIn, svc: ServicesDep) -> SessionOut:
    """Sign in with a recovery code (it is then spent: make a new one)."""
    user, token = await svc.run.thread(_reclaim(svc).recover, req.username, req.code)
    return SessionOut(
        user=UserOut(id=user.id, username=user.username, has_password=user.has_password),
        token=token,
    )
