"""Server errors and the mapping of every error to an HTTP status and a JSON body."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

from parley.kernel import ParleyError


class ServerError(Exception):
    """An error the server raises on purpose; `status` and `code` reach the client."""

    status = 400
    code = "bad_request"

    def __init__(self, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.message = message
        self.extra = extra

    def to_json(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.extra}


class BadRequest(ServerError):
    status, code = 400, "bad_request"


class Unauthorized(ServerError):
    status, code = 401, "unauthorized"


class Forbidden(ServerError):
    status, code = 403, "forbidden"


class NotFound(ServerError):
    status, code = 404, "not_found"


class Conflict(ServerError):
    status, code = 409, "conflict"


class StaleRevision(Conflict):
    """The seat's submission changed since the revision the client acted on."""

    code = "stale"


class UsernameTaken(Conflict):
    code = "username_taken"


class WrongStatus(Conflict):
    """The game's lifecycle does not allow this now (not started, over, closed...)."""

    code = "wrong_status"


class PressDisabled(Forbidden):
    code = "press_disabled"


class Busy(Conflict):
    """Another server process changed the game at the same moment, several times running."""

    code = "busy"


class TooManySockets(ServerError):
    status, code = 429, "too_many_sockets"


class ServerFull(ServerError):
    status, code = 503, "server_full"


class PayloadTooLarge(ServerError):
    status, code = 413, "too_large"


class RateLimited(ServerError):
    status, code = 429, "rate_limited"


# How each kernel error reads over HTTP: not understood → 400, understood but not allowed
# → 422, not now → 409.
KERNEL_STATUS: dict[str, int] = {
    "invalid": 400,
    "ambiguous": 422,
    "illegal": 422,
    "out_of_turn": 409,
    "stale": 409,
    "bad_options": 400,
    "unknown_game": 400,
    "bad_record": 400,
}


def status_and_body(err: Exception) -> tuple[int, dict[str, Any]]:
    """The HTTP status and JSON body for an error raised on purpose."""
    if isinstance(err, ServerError):
        return err.status, err.to_json()
    if isinstance(err, ParleyError):
        return KERNEL_STATUS.get(err.code, 400), err.to_json()
    raise TypeError(f"{type(err).__name__} is not an error the server raises on purpose")


# --- what a request has committed ---------------------------------------------------------
#
# A failure after a commit must not be answered "nothing changed". Each request gets a list
# (shared with the worker threads it runs store work in, which copy the context) that every
# committed change to a game appends to; the answer to an unexpected error reads it.
_COMMITS: ContextVar[list[str] | None] = ContextVar("parley_commits", default=None)


def track_commits() -> list[str]:
    """Start recording the games this request (this task) changes."""
    holder: list[str] = []
    _COMMITS.set(holder)
    return holder


def note_commit(game_id: str) -> None:
    holder = _COMMITS.get()
    if holder is not None:
        holder.append(game_id)


def committed() -> list[str]:
    """The games changed so far by the current request (empty outside a request)."""
    return list(_COMMITS.get() or ())


def failure_body() -> dict[str, Any]:
    """The answer to an unexpected error: honest about whether something was saved."""
    changed = committed()
    if changed:
        return {
            "error": "internal",
            "message": "the server failed after saving a change to this game; read its state "
            "again before retrying",
            "committed": True,
        }
    return {
        "error": "internal",
        "message": "the server failed; the request changed nothing",
        "committed": False,
    }
