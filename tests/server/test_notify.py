"""Notifications outside the browser: a webhook on a loopback HTTP server and e-mail through
a real local SMTP server (aiosmtpd), each event delivered once, failures retried, nothing
blocking a game; webhooks to private addresses refused unless the host allows them."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import delete, select, update
from tests.server.conftest import (
    WAIT,
    Client,
    LiveServer,
    free_port,
    make_settings,
    sign_up,
    start_live_server,
)
from tests.server.test_play import start_game

from parley.server.db.models import EmailAddress, Outbox
from parley.server.notify import Notifier, NotifySettings


class Hook:
    """A webhook receiver on loopback: answers `fail_first` requests with 500."""

    def __init__(self, fail_first: int = 0) -> None:
        self.bodies: list[dict[str, Any]] = []
        self.fail_first = fail_first
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                size = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(size))
                failing = hook.fail_first > 0
                hook.fail_first -= 1
                if not failing:
                    hook.bodies.append(body)
                self.send_response(500 if failing else 204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                return None

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class Mailbox:
    def __init__(self) -> None:
        self.messages: list[tuple[str, list[str], str]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        mail = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(mail, EmailMessage)
        text = f"{mail['Subject']}\n{mail.get_content()}"
        self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), text))
        return "250 OK"


@pytest.fixture
def smtp() -> Iterator[tuple[Mailbox, int]]:
    box = Mailbox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    yield box, port
    controller.stop()


TOKEN = re.compile(r"token=([A-Za-z0-9_-]+)")


def confirm(live: LiveServer, box: Mailbox, address: str) -> None:
    """Follow the link in the confirmation message last sent to `address`."""
    text = next(m[2] for m in reversed(box.messages) if m[1] == [address])
    assert "Confirm your address" in text, text
    found = TOKEN.search(text)
    assert found is not None, text
    answer = httpx.post(f"{live.url}/api/notifications/confirm?token={found[1]}", timeout=WAIT)
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"address": address, "done": "confirmed"}


def _server(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, url: str | None = None, **env: str
) -> LiveServer:
    monkeypatch.setenv("PARLEY_NOTIFY_POLL", "0")  # the test delivers by hand
    for key, value in env.items():
        monkeypatch.setenv(f"PARLEY_{key}", value)
    return start_live_server(make_settings(url or f"sqlite:///{tmp_path / 'n.sqlite3'}"))


def _notifier(live: LiveServer) -> Notifier:
    tables = live.services.tables
    return Notifier(tables.db, tables, live.clock, "test", NotifySettings.from_env())


def _outbox(live: LiveServer) -> list[Outbox]:
    with live.services.tables.db.read() as s:
        return list(s.execute(select(Outbox).order_by(Outbox.id)).scalars())


Users = Callable[[str], Client]


def test_webhook_turn_and_press_each_delivered_once_after_a_retry(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, database_url: str
) -> None:
    hook = Hook(fail_first=1)
    live = _server(monkeypatch, tmp_path, database_url, WEBHOOK_ALLOW_PRIVATE="1")
    try:
        amy, bob = sign_up(live.url, "amy"), sign_up(live.url, "bob")
        out = amy.call("PUT", "/api/me/notifications", json={"webhook_url": hook.url})
        assert out["source"] == "default" and out["events"] == ["turn", "press", "deadline"]
        gid, seats = start_game(amy, [bob], "sealed-bids", period_seconds=600)
        bob.post(f"/api/games/{gid}/press", {"text": "psst, bid low", "to": [seats["amy"]]})
        notifier = _notifier(live)
        assert notifier.run_once() == 1  # one of two failed (500) and waits to be retried
        assert notifier.run_once() == 0  # not due yet
        live.clock.advance(31)
        assert notifier.run_once() == 1
        live.clock.advance(3600)
        assert notifier.run_once() == 0  # each event once
        texts = [b["content"] for b in hook.bodies]
        assert len(texts) == 2
        assert any("psst, bid low" in t and "bob" in t.lower() for t in texts)
        assert any("to decide" in t for t in texts)
        for body in hook.bodies:  # Discord reads `content`, Slack reads `text`
            assert body["text"] and body["content"] and body["username"] == "Parley"
        rows = _outbox(live)
        assert {r.status for r in rows} == {"sent"} and sorted(r.attempts for r in rows) == [0, 1]
        assert all(r.user_id == rows[0].user_id for r in rows)  # bob chose nothing
    finally:
        live.stop()
        hook.close()


def test_email_through_smtp_press_and_a_deadline_warning(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, smtp: tuple[Mailbox, int]
) -> None:
    box, port = smtp
    live = _server(
        monkeypatch, tmp_path, SMTP_HOST="127.0.0.1", SMTP_PORT=str(port), MAIL_FROM="p@test"
    )
    try:
        amy, bob = sign_up(live.url, "amy"), sign_up(live.url, "bob")
        gid, seats = start_game(amy, [bob], "sealed-bids", period_seconds=600)
        only = {"email": "amy@example.org", "events": ["press", "deadline"]}
        out = amy.call("PUT", f"/api/games/{gid}/notifications", json=only)
        assert out["source"] == "game"
        bob.call("PUT", "/api/me/notifications", json={"email": "bob@example.org"})
        notifier = _notifier(live)
        assert notifier.run_once() == 2  # the two confirmations
        confirm(live, box, "amy@example.org")
        box.messages.clear()
        bob.post(f"/api/games/{gid}/press", {"text": "meet at dawn", "to": [seats["amy"]]})
        assert notifier.run_once() == 1
        sender, to, text = box.messages[0]
        assert (sender, to) == ("p@test", ["amy@example.org"])
        assert "meet at dawn" in text and "a message from" in text
        # Bob says he is ready; amy is not. A quarter period before the deadline: warned.
        bob.post(f"/api/games/{gid}/draft", {"ready": True})
        live.clock.advance(449)
        assert notifier.run_once() == 0
        live.clock.advance(2)
        assert notifier.run_once() == 1
        assert notifier.run_once() == 0
        assert [m[1] for m in box.messages] == [["amy@example.org"]] * 2
        assert "due in 2 min" in box.messages[1][2]
    finally:
        live.stop()


def test_a_failing_mail_server_never_blocks_the_game(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    live = _server(monkeypatch, tmp_path, SMTP_HOST="127.0.0.1", SMTP_PORT=str(free_port()))
    try:
        amy, bob = sign_up(live.url, "amy"), sign_up(live.url, "bob")
        amy.call("PUT", "/api/me/notifications", json={"email": "amy@example.org"})
        with live.services.tables.db.write() as s:  # as if confirmed when the server was up
            s.execute(update(EmailAddress).values(confirmed_at=1.0, confirm_token=None))
            s.execute(delete(Outbox))
        gid, _ = start_game(amy, [bob], "sealed-bids", period_seconds=600, options={"rounds": 2})
        notifier = _notifier(live)
        assert notifier.run_once() == 0
        amy.post(f"/api/games/{gid}/actions", {"action": "bid 1"})
        bob.post(f"/api/games/{gid}/actions", {"action": "bid 2"})  # the game goes on
        rows = _outbox(live)
        assert len(rows) == 2 and rows[0].attempts == 1 and rows[0].status == "pending"
        assert "Refused" in (rows[0].last_error or "") or rows[0].last_error
        for _ in range(10):
            live.clock.advance(3600)
            notifier.run_once()
        assert {r.status for r in _outbox(live)} == {"failed"}  # gave up after 8 tries
    finally:
        live.stop()


def test_webhooks_to_private_addresses_are_refused(live: LiveServer) -> None:
    amy = sign_up(live.url, "amy")
    for url in (
        "http://127.0.0.1:9/x",
        "http://10.1.2.3/hook",
        "http://[::1]/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://localhost/hook",
        "ftp://example.org/x",
        "http://user:pw@example.org/x",
    ):
        out = amy.call("PUT", "/api/me/notifications", 400, json={"webhook_url": url})
        assert out["error"] == "bad_request", url
    assert amy.call("PUT", "/api/me/notifications", 400, json={"email": "nope"})
    assert amy.get("/api/me/notifications")["source"] == "none"


def test_a_game_silenced_on_its_own_queues_nothing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    live = _server(monkeypatch, tmp_path, WEBHOOK_ALLOW_PRIVATE="1")
    try:
        amy, bob = sign_up(live.url, "amy"), sign_up(live.url, "bob")
        amy.call("PUT", "/api/me/notifications", json={"webhook_url": "http://127.0.0.1:9/x"})
        body = {"game": "sealed-bids", "seats": 2, "period_seconds": 600}
        gid = amy.post("/api/games", body, expect=201)["id"]
        amy.call("PUT", f"/api/games/{gid}/notifications", json={"enabled": False})
        bob.post(f"/api/games/{gid}/join", {"role": "player"})
        amy.post(f"/api/games/{gid}/start")
        assert _outbox(live) == []
        amy.call("DELETE", f"/api/games/{gid}/notifications")
        assert amy.get(f"/api/games/{gid}/notifications")["source"] == "default"
        outsider = sign_up(live.url, "cat")
        outsider.call("PUT", f"/api/games/{gid}/notifications", 404, json={})
    finally:
        live.stop()
