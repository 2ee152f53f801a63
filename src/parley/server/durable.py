"""HTTP answers wait until what they say is on disk (SQLite with group-synced commits).

The outermost layer of the application: every route, the hot move path and the framework's
own error answers go through it. A request collects the tickets of what it committed or
read (`db/syncer.py`); its response starts only once the syncer has flushed them. If the
flush failed, the client is told so instead of being told its change was recorded.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .db.syncer import Syncer, SyncFailed, Tickets, track_tickets


class DurableAnswers:
    def __init__(self, app: ASGIApp, syncer: Syncer) -> None:
        self.app = app
        self.syncer = syncer

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        holder = track_tickets()
        failed = False

        async def send_when_durable(message: Message) -> None:
            nonlocal failed
            if failed:
                return  # the answer was replaced: what the app sends after goes nowhere
            if message["type"] == "http.response.start" and holder.ticket:
                try:
                    await self.syncer.wait_async(holder.ticket)
                except SyncFailed as err:
                    failed = True
                    await _refuse(send, err)
                    return
            await send(message)

        await self.app(scope, receive, send_when_durable)


async def _refuse(send: Send, err: SyncFailed) -> None:
    body = json.dumps(err.to_json()).encode()
    await send(
        {
            "type": "http.response.start",
            "status": err.status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


async def settled(syncer: Syncer | None, holder: Tickets) -> SyncFailed | None:
    """Wait until what `holder` collected is on disk; the failure if it cannot be."""
    if syncer is None or not holder.ticket:
        return None
    try:
        await syncer.wait_async(holder.ticket)
    except SyncFailed as err:
        return err
    return None
