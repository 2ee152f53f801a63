"""E-mail notifications against a real local SMTP server (aiosmtpd): an address is one
mailbox or refused, nothing but a confirmation goes to it until its owner confirms it, every
message goes to that one recipient and carries a link that unsubscribes it, and no stored
text (a legacy game name with a line separator) can make a message unsendable."""

from __future__ import annotations

import re
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiosmtpd.controller import Controller
from sqlalchemy import select, update
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

from parley.server import mailer
from parley.server.db.models import Game, Outbox
from parley.server.notify import EVENTS, Notifier, NotifySettings, Prefs, write_prefs

PUBLIC_URL = "http://parley.test"  # links in messages name it; the test calls the live server


class Mailbox:
    def __init__(self) -> None:
        self.messages: list[tuple[list[str], EmailMessage]] = []
        self.senders: list[str] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        mail = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(mail, EmailMessage)
        self.messages.append((list(envelope.rcpt_tos), mail))
        self.senders.append(envelope.mail_from)
        return "250 OK"

    def take(self) -> list[tuple[list[str], EmailMessage]]:
        out, self.messages = self.messages, []
        return out


@pytest.fixture
def smtp() -> Iterator[tuple[Mailbox, int]]:
    box = Mailbox()
    port = free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    yield box, port
    controller.stop()


def _env(monkeypatch: pytest.MonkeyPatch, port: int) -> None:
    monkeypatch.setenv("PARLEY_NOTIFY_POLL", "0")  # the test delivers by hand
    monkeypatch.setenv("PARLEY_SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("PARLEY_SMTP_PORT", str(port))
    monkeypatch.setenv("PARLEY_MAIL_FROM", "Parley Games <parley@example.net>")
    monkeypatch.setenv("PARLEY_PUBLIC_URL", PUBLIC_URL)


def _server(monkeypatch: pytest.MonkeyPatch, port: int, url: str) -> LiveServer:
    _env(monkeypatch, port)
    return start_live_server(make_settings(url))


def _notifier(live: LiveServer) -> Notifier:
    tables = live.services.tables
    return Notifier(tables.db, tables, live.clock, "test", NotifySettings.from_env())


def _link(live: LiveServer, text: str, kind: str) -> str:
    found = re.search(rf"{re.escape(PUBLIC_URL)}(/api/notifications/{kind}\?token=[\w-]+)", text)
    assert found is not None, text
    return live.url + found[1]


def _confirm(live: LiveServer, mail: EmailMessage) -> None:
    link = _link(live, str(mail.get_content()), "confirm")
    page = httpx.get(link, timeout=WAIT)  # opening the link changes nothing by itself
    assert page.status_code == 200 and 'method="post"' in page.text, page.text
    assert page.headers["content-type"].startswith("text/html")
    answer = httpx.post(link, timeout=WAIT)
    assert answer.status_code == 200, answer.text
    assert answer.json()["done"] == "confirmed"


@pytest.mark.parametrize(
    "address",
    [
        "root,postmaster,victim@example.org",
        'a"b<evil>@example.org',
        "Amy <amy@example.org>",
        "amy@example.org, evil@example.org",
        "amy@example.org\r\nBcc: evil@example.org",
        "amy@example.org\u2028Bcc: evil@example.org",
        "amy@@example.org",
        "amy(comment)@example.org",
        '"quoted"@example.org',
        "amy@localhost",
        "nope",
    ],
)
def test_an_address_that_is_not_exactly_one_mailbox_is_refused(
    live: LiveServer, address: str
) -> None:
    amy = sign_up(live.url, "amy")
    out = amy.call("PUT", "/api/me/notifications", 400, json={"email": address})
    assert out["error"] == "bad_request" and out["field"] == "email", out
    assert amy.get("/api/me/notifications")["source"] == "none"


def test_nothing_but_a_confirmation_until_the_owner_confirms(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, smtp: tuple[Mailbox, int], database_url: str
) -> None:
    box, port = smtp
    live = _server(monkeypatch, port, database_url)
    try:
        amy, bob = sign_up(live.url, "amy"), sign_up(live.url, "bob")
        out = amy.call("PUT", "/api/me/notifications", json={"email": "Amy@Example.org"})
        assert out["email"] == "Amy@example.org" and out["email_confirmed"] is False
        gid, seats = start_game(amy, [bob], "sealed-bids", period_seconds=600)
        bob.post(f"/api/games/{gid}/press", {"text": "psst", "to": [seats["amy"]]})
        # Saving again soon after sends no second confirmation.
        amy.call("PUT", "/api/me/notifications", json={"email": "Amy@example.org"})
        notifier = _notifier(live)
        notifier.run_once()
        sent = box.take()
        assert len(sent) == 1  # the confirmation, and nothing else
        (to, mail) = sent[0]
        assert to == ["Amy@example.org"] and mail["To"] == "Amy@example.org"
        assert box.senders == ["parley@example.net"]  # the envelope: the bare address
        assert mail["From"] == "Parley Games <parley@example.net>"
        assert "Confirm your address" in mail["Subject"]
        assert "psst" not in str(mail.get_content())
        assert amy.get("/api/me/notifications")["email_confirmed"] is False
        _confirm(live, mail)
        assert amy.get("/api/me/notifications")["email_confirmed"] is True
        again = httpx.post(_link(live, str(mail.get_content()), "confirm"), timeout=WAIT)
        assert again.status_code == 404  # used
        bob.post(f"/api/games/{gid}/press", {"text": "now you hear me", "to": [seats["amy"]]})
        assert notifier.run_once() == 1
        (to, mail) = box.take()[0]
        assert to == ["Amy@example.org"] and mail["To"] == "Amy@example.org"
        assert "now you hear me" in str(mail.get_content())
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        assert mail["List-Unsubscribe"].startswith(f"<{PUBLIC_URL}/api/notifications/unsub")
    finally:
        live.stop()


def test_a_person_unsubscribes_from_a_message_link(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, smtp: tuple[Mailbox, int]
) -> None:
    box, port = smtp
    live = _server(monkeypatch, port, f"sqlite:///{tmp_path / 'e.sqlite3'}")
    try:
        amy, bob = sign_up(live.url, "amy"), sign_up(live.url, "bob")
        amy.call("PUT", "/api/me/notifications", json={"email": "amy@example.org"})
        notifier = _notifier(live)
        notifier.run_once()
        _confirm(live, box.take()[0][1])
        gid, seats = start_game(amy, [bob], "sealed-bids", period_seconds=600)
        notifier.run_once()
        (_, turn) = box.take()[0]
        bob.post(f"/api/games/{gid}/press", {"text": "one", "to": [seats["amy"]]})
        header = turn["List-Unsubscribe"].strip("<>")
        assert header == _link(live, str(turn.get_content()), "unsubscribe").replace(
            live.url, PUBLIC_URL
        )
        link = header.replace(PUBLIC_URL, live.url)
        page = httpx.get(link, timeout=WAIT)
        assert page.status_code == 200 and "Unsubscribe" in page.text
        assert amy.get("/api/me/notifications")["email"] == "amy@example.org"  # not yet
        # What a mail program's one-click unsubscribe sends (RFC 8058).
        answer = httpx.post(
            link,
            content=b"List-Unsubscribe=One-Click",
            headers={"Content-Type": "application/x-www-form-urlencoded"},
            timeout=WAIT,
        )
        assert answer.status_code == 200, answer.text
        assert answer.json() == {"address": "amy@example.org", "done": "unsubscribed"}
        assert amy.get("/api/me/notifications")["email"] is None
        notifier.run_once()
        bob.post(f"/api/games/{gid}/press", {"text": "two", "to": [seats["amy"]]})
        notifier.run_once()
        assert box.take() == []  # the press queued before, and the one after, never sent
        with live.services.tables.db.read() as s:
            statuses = [r.status for r in s.execute(select(Outbox)).scalars()]
        assert "dropped" in statuses and "pending" not in statuses
        assert httpx.post(link, timeout=WAIT).status_code == 404
        # Giving the address again asks for a new confirmation.
        out = amy.call("PUT", "/api/me/notifications", json={"email": "amy@example.org"})
        assert out["email_confirmed"] is False
        notifier.run_once()
        assert "Confirm your address" in box.take()[0][1]["Subject"]
    finally:
        live.stop()


def _game_name(live: LiveServer, gid: str) -> str:
    with live.services.tables.db.read() as s:
        return str(s.execute(select(Game.name).where(Game.id == gid)).scalar_one())


def test_a_stored_name_with_a_line_separator_still_gets_its_mail(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, smtp: tuple[Mailbox, int]
) -> None:
    """A game named before line separators were refused: its messages go out, the
    separator in the subject made a space."""
    box, port = smtp
    url = f"sqlite:///{tmp_path / 'legacy.sqlite3'}"
    live = _server(monkeypatch, port, url)
    try:
        amy, bob = sign_up(live.url, "amy"), sign_up(live.url, "bob")
        amy.call("PUT", "/api/me/notifications", json={"email": "amy@example.org"})
        _notifier(live).run_once()
        _confirm(live, box.take()[0][1])
        gid = amy.post("/api/games", {"game": "sealed-bids", "seats": 2}, expect=201)["id"]
    finally:
        live.stop()
    legacy = "Spring\u2028Bcc: evil@example.org\u2029\x851901"
    live = _server(monkeypatch, port, url)
    try:
        with live.services.tables.db.write() as s:  # as a server before this check stored it
            s.execute(update(Game).where(Game.id == gid).values(name=legacy))
        assert _game_name(live, gid) == legacy
        amy, bob = (
            Client(live.url, "amy", token=amy.token),
            Client(live.url, "bob", token=bob.token),
        )
        bob.post(f"/api/games/{gid}/join", {"role": "player"})
        amy.post(f"/api/games/{gid}/start")
        seats = {p["player"]: p["seat"] for p in amy.get(f"/api/games/{gid}")["seats"]}
        bob.post(f"/api/games/{gid}/press", {"text": "hello", "to": [seats["amy"]]})
        notifier = _notifier(live)
        assert notifier.run_once() == 2  # the turn and the press
        assert notifier.failed == 0
        sent = box.take()
        assert [to for to, _ in sent] == [["amy@example.org"]] * 2
        for _, mail in sent:
            assert "Spring Bcc: evil@example.org 1901" in mail["Subject"]
            assert mail["Bcc"] is None and mail["To"] == "amy@example.org"
    finally:
        live.stop()


def test_every_header_is_made_one_line_before_it_is_encoded() -> None:
    breaks = "\n\x0b\x0c\r\x1c\x1d\x1e\x85\u2028\u2029\x00\x7f"
    mail = mailer.Mail(
        "amy@example.org",
        "a" + breaks.join("bcd") + " \u00e9\u2603" * 40,
        "body\u2028with a separator",
        "http://parley.test/u?token=x\r\nBcc: evil@example.org",
    )
    raw = mailer.build(mail, "Parley\u2028 <parley@example.net>").as_bytes()
    parsed = message_from_bytes(raw, policy=policy.default)
    assert parsed["To"] == "amy@example.org" and parsed["Bcc"] is None
    assert parsed["Subject"].startswith("ab c d") and "\u2603" in parsed["Subject"]
    assert parsed["List-Unsubscribe"] == "<http://parley.test/u?token=x Bcc: evil@example.org>"
    head = raw.split(b"\n\n", 1)[0]
    assert not any(line.startswith(b"Bcc") for line in head.split(b"\n"))
    assert b"\r" not in head and b"\x85" not in head


def test_an_address_saved_before_confirmations_is_sent_a_confirmation_first(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, smtp: tuple[Mailbox, int]
) -> None:
    """Settings stored before addresses were confirmed (no address row): the first message
    due sends a confirmation instead, once, and the message itself is not sent."""
    box, port = smtp
    live = _server(monkeypatch, port, f"sqlite:///{tmp_path / 'old.sqlite3'}")
    try:
        amy, bob = sign_up(live.url, "amy"), sign_up(live.url, "bob")
        amy_id = amy.get("/api/me")["id"]
        with live.services.tables.db.write() as s:
            write_prefs(s, amy_id, "", Prefs(True, "amy@example.org", None, EVENTS), 0.0)
        gid, seats = start_game(amy, [bob], "sealed-bids", period_seconds=600)
        bob.post(f"/api/games/{gid}/press", {"text": "secret", "to": [seats["amy"]]})
        notifier = _notifier(live)
        notifier.run_once()
        sent = box.take()
        assert len(sent) == 1 and "Confirm your address" in sent[0][1]["Subject"]
        assert "secret" not in str(sent[0][1].get_content())
        _confirm(live, sent[0][1])
        bob.post(f"/api/games/{gid}/press", {"text": "after", "to": [seats["amy"]]})
        assert notifier.run_once() == 1
        assert "after" in str(box.take()[0][1].get_content())
        # A list stored by the older check gets nothing at all, not even a confirmation.
        bob_id = bob.get("/api/me")["id"]
        listed = "root,postmaster,victim@example.org"
        with live.services.tables.db.write() as s:
            write_prefs(s, bob_id, "", Prefs(True, listed, None, EVENTS), 0.0)
        amy.post(f"/api/games/{gid}/press", {"text": "to bob", "to": [seats["bob"]]})
        notifier.run_once()
        assert box.take() == []
        with live.services.tables.db.read() as s:
            assert s.execute(select(Outbox).where(Outbox.target == listed)).first() is None
    finally:
        live.stop()
