"""The move route's hot path: `POST /api/games/{id}/actions` without the framework's overhead.

A move is the request a server answers most, and resolving the route's dependencies,
parsing its body and serialising its answer through FastAPI cost more CPU than the move's
own checks and commit. This middleware answers the ordinary case itself, doing what the
route does in the same order (the caller from the token cache, the request budget, the
move, the answer serialised by the response model) and giving the same answers, errors
included. Anything out of the ordinary (another content type, a body that is not a valid
action, an odd header) goes on to the route untouched, with its body, so every refusal of
a request's form keeps the route's exact wording.
"""

from __future__ import annotations

import json
import re
from typing import Any

from pydantic import TypeAdapter, ValidationError
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from parley.kernel import ParleyError

from ..errors import ServerError
from ..schemas import ActionIn, ActionOut
from ..services import Services
from .deps import GAME_ID_PATTERN, spend_request, user_for_token

_PATH = re.compile(rf"/api/games/({GAME_ID_PATTERN})/actions")
_ANSWER = TypeAdapter(ActionOut)


class HotActions:
    """Answers ordinary moves submitted over HTTP; passes everything else on."""

    def __init__(self, app: ASGIApp, error_response: Any) -> None:
        self.app = app
        self.error_response = error_response  # the app's answer to a known error

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope.get("root_path"):
            await self.app(scope, receive, send)
            return
        found = _PATH.fullmatch(scope["path"])
        token = _bearer(scope["headers"]) if found is not None else None
        if found is None or token is None:
            await self.app(scope, receive, send)
            return
        svc: Services = scope["app"].state.services
        body, replay = await _read(receive)
        if body is None:
            return  # the client went away
        req = _action(body)
        if req is None:
            await self.app(scope, replay, send)
            return
        # From here on as the route: the caller (a refused token is refused before the
        # body is looked at, and the body is valid), the request budget, then the move.
        try:
            user = await user_for_token(svc, token)
            await spend_request(svc, user)
            out = await svc.run(svc.play.act, user, found.group(1), req)
        except (ServerError, ParleyError) as err:
            response: Response = self.error_response(err)
        else:
            content = _ANSWER.dump_json(_ANSWER.validate_python(out), by_alias=True)
            response = Response(content, media_type="application/json")
        await response(scope, receive, send)


def _bearer(headers: list[tuple[bytes, bytes]]) -> str | None:
    """The token of a plain `Authorization: Bearer <token>` and a JSON body, else None."""
    auth = kind = None
    for name, value in headers:
        if name == b"authorization" and auth is None:
            auth = value
        elif name == b"content-type" and kind is None:
            kind = value
    if kind != b"application/json" or auth is None or not auth.startswith(b"Bearer "):
        return None
    token = auth[7:]
    return token.decode() if _TOKEN.fullmatch(token) else None


_TOKEN = re.compile(rb"[A-Za-z0-9_-]{1,200}")  # what sign-up issues (URL-safe base64)


async def _read(receive: Receive) -> tuple[bytes | None, Receive]:
    """The whole body, and a `receive` that hands it on again."""
    chunks: list[bytes] = []
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None, receive
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            break
    body = b"".join(chunks)
    pending: list[Message] = [{"type": "http.request", "body": body, "more_body": False}]

    async def replay() -> Message:
        if pending:
            return pending.pop()
        return await receive()

    return body, replay


def _action(body: bytes) -> ActionIn | None:
    """The body as the route would read it, or None when it would refuse it."""
    try:
        data = json.loads(body)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    try:
        return ActionIn.model_validate(data)
    except ValidationError:
        return None
