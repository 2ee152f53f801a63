"""Notifications outside the browser: e-mail and webhooks, through an outbox.

A game change that concerns a player (their turn in a new step, press addressed to them)
writes one outbox row per channel inside the change's own transaction, keyed by the
event, so an event is queued once and only if the change is committed. A deadline that
draws near for a seat still owing (and not ready) is queued by the sender's periodic scan,
under the same kind of key. A background sender claims due rows (a lease, as deadlines
are claimed), delivers them off the game's path, and retries failures with growing pauses;
nothing a mail server or a webhook does can block or fail a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import os
import re
import smtplib
import socket
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from email.message import EmailMessage
from functools import partial
from typing import Any, Literal, cast
from urllib.parse import urlsplit

import anyio.to_thread
import httpx
from sqlalchemy import Table, bindparam, or_, select, update
from sqlalchemy.orm import Session

from parley.kernel import PressEntry

from .clock import Clock
from .db.models import Deadline, Game, NotifyPref, Outbox, ReadyFlag
from .errors import BadRequest
from .live import LiveGame, Tables, Txn
from .store import Prepared, Store
from .vocab import Controller, GameStatus

log = logging.getLogger(__name__)

EVENTS = ("turn", "press", "deadline")  # what a player may choose to be told about
EMAIL = re.compile(r"^[^@\s]{1,64}@[A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,63}$")
MAX_ATTEMPTS = 8


@dataclass(frozen=True, slots=True)
class NotifySettings:
    """Delivery settings, from `PARLEY_*` variables (see docs/server.md)."""

    smtp_host: str | None = None
    smtp_port: int = 25
    smtp_user: str | None = None
    smtp_password: str | None = None
    smtp_starttls: bool = False
    mail_from: str = "parley@localhost"
    public_url: str = ""  # the web client's address, for links in messages
    webhook_allow_private: bool = False  # let webhooks call loopback/private addresses
    webhook_allowed_hosts: frozenset[str] = frozenset()  # private hosts allowed by name
    warn_seconds: float = 3600.0  # warn this long before a deadline (at most a quarter period)
    poll_seconds: float = 5.0  # 0: no background sender (tests call `run_once`)
    retry_seconds: float = 30.0  # the first pause after a failure; doubles up to an hour
    timeout_seconds: float = 10.0

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> NotifySettings:
        e = dict(os.environ if env is None else env)
        p = "PARLEY_"
        yes = {"1", "true", "yes", "on"}
        hosts = e.get(p + "WEBHOOK_ALLOWED_HOSTS", "")
        return cls(
            smtp_host=e.get(p + "SMTP_HOST") or None,
            smtp_port=int(e.get(p + "SMTP_PORT", "25")),
            smtp_user=e.get(p + "SMTP_USER") or None,
            smtp_password=e.get(p + "SMTP_PASSWORD") or None,
            smtp_starttls=e.get(p + "SMTP_STARTTLS", "").lower() in yes,
            mail_from=e.get(p + "MAIL_FROM", "parley@localhost"),
            public_url=e.get(p + "PUBLIC_URL", "").rstrip("/"),
            webhook_allow_private=e.get(p + "WEBHOOK_ALLOW_PRIVATE", "").lower() in yes,
            webhook_allowed_hosts=frozenset(h.strip().lower() for h in hosts.split(",") if h),
            warn_seconds=float(e.get(p + "NOTIFY_WARN_SECONDS", "3600")),
            poll_seconds=float(e.get(p + "NOTIFY_POLL", "5")),
            retry_seconds=float(e.get(p + "NOTIFY_RETRY_SECONDS", "30")),
        )


# --- checking what a player gives -----------------------------------------------------------


def check_email(address: str) -> str:
    if len(address) > 254 or not EMAIL.fullmatch(address):
        raise BadRequest(f"{address!r} is not an e-mail address", field="email")
    return address


def check_webhook(url: str, settings: NotifySettings, resolve: bool = True) -> str:
    """Refuse URLs that would make the server call itself or its private network.

    Only http(s) on a host whose every address is public is accepted, unless the host
    allows private addresses (`PARLEY_WEBHOOK_ALLOW_PRIVATE`) or names the host
    (`PARLEY_WEBHOOK_ALLOWED_HOSTS`). Checked again before each delivery, since a name may
    point elsewhere later.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise BadRequest(f"{url!r} is not an http(s) address", field="webhook_url")
    if parts.username or parts.password:
        raise BadRequest("a webhook address may not carry a user name or password")
    host = parts.hostname.lower()
    if settings.webhook_allow_private or host in settings.webhook_allowed_hosts:
        return url
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as err:
        raise BadRequest(f"{url!r} has a bad port", field="webhook_url") from err
    try:
        literal = ipaddress.ip_address(host.strip("[]"))
        addresses = [literal]
    except ValueError:
        if not resolve:
            return url
        try:
            found = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
        except OSError as err:
            raise BadRequest(
                f"the webhook host {host!r} does not resolve", field="webhook_url"
            ) from err
        addresses = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in found]
    for address in addresses:
        if not address.is_global:
            raise BadRequest(
                f"the webhook host {host!r} is a private or local address ({address}); this "
                "server does not call those",
                field="webhook_url",
            )
    return url


# --- preferences ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Prefs:
    enabled: bool = False
    email: str | None = None
    webhook_url: str | None = None
    events: tuple[str, ...] = EVENTS

    def to_json(self) -> dict[str, Any]:
        return {
            "enabled": self.enabled,
            "email": self.email,
            "webhook_url": self.webhook_url,
            "events": list(self.events),
        }


Source = Literal["game", "default", "none"]


_PREFS = cast(Table, NotifyPref.__table__)
# Asked whenever a change concerns a player (every new step): compiled once.
_PREFS_OF = Prepared(
    select(
        _PREFS.c.game_id, _PREFS.c.enabled, _PREFS.c.email, _PREFS.c.webhook_url, _PREFS.c.events
    ).where(
        _PREFS.c.user_id == bindparam("user_id"),
        _PREFS.c.game_id.in_([bindparam("game_id"), bindparam("default")]),
    )
)


def read_prefs(s: Session, user_id: int, game_id: str) -> tuple[Prefs, Source]:
    """The prefs that apply to the user in the game, and where they come from."""
    found = _PREFS_OF.run(s.connection(), {"user_id": user_id, "game_id": game_id, "default": ""})
    rows = {r[0]: r for r in found}
    row = rows.get(game_id) or rows.get("")
    if row is None:
        return Prefs(), "none"
    source: Source = "game" if row[0] and row[0] == game_id else "default"
    events = json.loads(row[4]) if isinstance(row[4], str | bytes) else row[4]
    return Prefs(bool(row[1]), row[2], row[3], tuple(events)), source


def write_prefs(s: Session, user_id: int, game_id: str, prefs: Prefs | None, now: float) -> None:
    row = s.get(NotifyPref, (user_id, game_id))
    if prefs is None:
        if row is not None:
            s.delete(row)
        return
    if row is None:
        row = NotifyPref(user_id=user_id, game_id=game_id)
        s.add(row)
    row.enabled, row.email, row.webhook_url = prefs.enabled, prefs.email, prefs.webhook_url
    row.events, row.updated_at = list(prefs.events), now


# --- queueing ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Message:
    key: str  # the event, for one user: queued once
    user_id: int
    kind: str
    subject: str
    body: str


def queue(s: Session, game_id: str, messages: Iterable[Message], now: float) -> int:
    """Outbox rows for each message on each channel its user chose; returns how many."""
    added = 0
    for m in messages:
        prefs, _ = read_prefs(s, m.user_id, game_id)
        if not prefs.enabled or m.kind not in prefs.events:
            continue
        for channel, target in (("email", prefs.email), ("webhook", prefs.webhook_url)):
            if not target:
                continue
            seen = s.execute(
                select(Outbox.id).where(Outbox.event_key == m.key, Outbox.channel == channel)
            ).first()
            if seen is not None:
                continue  # queued already: at most once per event
            s.add(
                Outbox(
                    event_key=m.key,
                    channel=channel,
                    user_id=m.user_id,
                    game_id=game_id,
                    target=target,
                    subject=m.subject[:300],
                    body=m.body,
                    status="pending",
                    attempts=0,
                    next_at=now,
                    created_at=now,
                )
            )
            added += 1
    if added:
        s.flush()
    return added


def _link(settings: NotifySettings, game_id: str) -> str:
    return f"\n{settings.public_url}/#/game/{game_id}" if settings.public_url else ""


def _when(seconds: float) -> str:
    if seconds >= 5400:
        return f"{round(seconds / 3600)} h"
    if seconds >= 90:
        return f"{round(seconds / 60)} min"
    return f"{max(0, round(seconds))} s"


class Notices:
    """Runs after the seats' automation inside a change: queues what the change tells."""

    def __init__(self, inner: Callable[[Txn], None], settings: NotifySettings) -> None:
        self.inner = inner
        self.settings = settings

    def __call__(self, txn: Txn) -> None:
        self.inner(txn)
        try:
            messages = self.messages(txn)
        except Exception:  # a bug in wording a message never costs the game its change
            log.exception("wording notifications of game %s failed", txn.row.id)
            return
        if messages:
            queue(txn.session, txn.row.id, messages, txn.now)

    def messages(self, txn: Txn) -> list[Message]:
        live, match, row = txn.live, txn.match, txn.row
        out: list[Message] = []
        names = match.seat_names()
        title = f"{live.rules.spec.title} “{row.name}”"
        link = _link(self.settings, row.id)
        before = live.deadline.state_id if live.deadline is not None else None
        if txn.status is GameStatus.ACTIVE and not match.is_over and before != match.state_id:
            for owed in match.turn().owed:
                member = live.at_seat(owed.seat)
                if member is None or member.user_id is None:
                    continue
                if member.controller is not Controller.HUMAN:
                    continue
                what = owed.prompt or owed.kind
                due = _when(row.period_seconds)
                out.append(
                    Message(
                        f"{row.id}:turn:{match.state_id}:{owed.seat}:{member.user_id}",
                        member.user_id,
                        "turn",
                        f"{title}: {what} — {names[owed.seat]} to decide",
                        f"{title}: {what}. {names[owed.seat]} has a decision to make "
                        f"({owed.kind}), due in {due}.{link}",
                    )
                )
        for entry in match.entries[txn.start_seq :]:
            if not isinstance(entry, PressEntry) or entry.to is None:
                continue
            sender = "the game"
            if entry.seat is not None:
                who = live.at_seat(entry.seat)
                holder = who.username if who is not None else None
                sender = f"{names[entry.seat]} ({holder})" if holder else names[entry.seat]
            for seat in sorted(entry.to):
                member = live.at_seat(seat)
                if seat == entry.seat or member is None or member.user_id is None:
                    continue
                out.append(
                    Message(
                        f"{row.id}:press:{entry.seq}:{member.user_id}",
                        member.user_id,
                        "press",
                        f"{title}: a message from {sender}",
                        f"{sender} wrote to {names[seat]} in {title}:\n\n{entry.text}{link}",
                    )
                )
        return out


# --- delivering -------------------------------------------------------------------------------


@dataclass
class Notifier:
    """Queues deadline warnings and delivers the outbox, in one process or several."""

    db: Store
    tables: Tables
    clock: Clock
    owner: str
    settings: NotifySettings
    lease_seconds: float = 60.0
    sent: int = 0
    failed: int = 0
    _task: asyncio.Task[None] | None = field(default=None, repr=False)

    def start(self) -> None:
        if self.settings.poll_seconds > 0:
            self._task = asyncio.create_task(self._loop(), name="parley-notify")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _loop(self) -> None:
        while True:
            try:
                await anyio.to_thread.run_sync(self.run_once)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("sending notifications failed")
            await asyncio.sleep(self.settings.poll_seconds)

    def run_once(self) -> int:
        """Queue due deadline warnings, then deliver what is due; returns how many were sent."""
        self.warn_deadlines()
        return self.deliver()

    # --- deadline warnings --------------------------------------------------------------

    def warn_deadlines(self) -> int:
        now = self.clock.now()
        window = self.settings.warn_seconds
        with self.db.read() as s:
            rows = s.execute(
                select(Deadline.game_id, Deadline.state_id, Deadline.due_at, Game.period_seconds)
                .join(Game, Game.id == Deadline.game_id)
                .where(Deadline.due_at > now, Deadline.due_at <= now + window)
            ).all()
        queued = 0
        for game_id, state_id, due_at, period in rows:
            if due_at - now > min(window, period / 4):
                continue
            try:
                found = self.tables.view(game_id, partial(self._owing, state_id=state_id))
            except Exception:
                log.exception("reading game %s for deadline warnings failed", game_id)
                continue
            if not found:
                continue
            with self.db.write() as s:
                ready = {
                    (seat, user)
                    for seat, user in s.execute(
                        select(ReadyFlag.seat, ReadyFlag.user_id).where(
                            ReadyFlag.game_id == game_id, ReadyFlag.state_id == state_id
                        )
                    )
                }
                messages = [
                    self._warning(game_id, state_id, due_at - now, *item)
                    for item in found
                    if (item[0], item[1]) not in ready
                ]
                queued += queue(s, game_id, messages, now)
        return queued

    @staticmethod
    def _owing(live: LiveGame, state_id: int) -> list[tuple[int, int, str, str]]:
        """(seat, user, seat name, game title) of the humans still owing in step `state_id`."""
        match = live.match
        if match is None or match.state_id != state_id or live.row.status is not GameStatus.ACTIVE:
            return []
        names = match.seat_names()
        title = f"{live.rules.spec.title} “{live.row.name}”"
        out = []
        for seat in sorted(match.turn().owing):
            member = live.at_seat(seat)
            if member is None or member.user_id is None:
                continue
            if member.controller is Controller.HUMAN:
                out.append((seat, member.user_id, names[seat], title))
        return out

    def _warning(
        self, game_id: str, state_id: int, left: float, seat: int, user: int, name: str, title: str
    ) -> Message:
        return Message(
            f"{game_id}:deadline:{state_id}:{seat}:{user}",
            user,
            "deadline",
            f"{title}: {name}'s decision is due in {_when(left)}",
            f"The deadline in {title} is in {_when(left)}, and {name} has not said it is "
            f"ready. Saved orders count at the deadline; anything not entered takes the "
            f"game's default.{_link(self.settings, game_id)}",
        )

    # --- the outbox ---------------------------------------------------------------------

    def deliver(self, limit: int = 50) -> int:
        now = self.clock.now()
        with self.db.read() as s:
            due = (
                s.execute(
                    select(Outbox.id)
                    .where(Outbox.status == "pending", Outbox.next_at <= now)
                    .where(or_(Outbox.claim_until.is_(None), Outbox.claim_until < now))
                    .order_by(Outbox.next_at)
                    .limit(limit)
                )
                .scalars()
                .all()
            )
        sent = 0
        for row_id in due:
            with self.db.write() as s:
                claimed = s.execute(
                    update(Outbox)
                    .where(
                        Outbox.id == row_id,
                        Outbox.status == "pending",
                        or_(Outbox.claim_until.is_(None), Outbox.claim_until < now),
                    )
                    .values(claimed_by=self.owner, claim_until=now + self.lease_seconds)
                )
                if claimed.rowcount != 1:  # type: ignore[attr-defined]
                    continue  # another process has it
                row = s.get(Outbox, row_id)
                assert row is not None
                job = (row.channel, row.target, row.subject, row.body, row.attempts, row.game_id)
            if self.db.syncer is not None:
                # What the message tells of was committed before this claim: on disk first
                # (this runs in a worker thread, so waiting here holds up nobody).
                self.db.syncer.wait(self.db.last_ticket())
            error = self._send(*job[:4], game_id=job[5])
            later = self.clock.now()
            with self.db.write() as s:
                if error is None:
                    values: dict[str, Any] = {"status": "sent", "sent_at": later}
                    sent += 1
                else:
                    attempts = job[4] + 1
                    pause = min(3600.0, self.settings.retry_seconds * 2 ** (attempts - 1))
                    values = {
                        "attempts": attempts,
                        "last_error": error[:500],
                        "next_at": later + pause,
                        "status": "failed" if attempts >= MAX_ATTEMPTS else "pending",
                    }
                    self.failed += 1
                    log.warning("notification %s failed (%s): %s", row_id, attempts, error)
                s.execute(
                    update(Outbox)
                    .where(Outbox.id == row_id)
                    .values(claimed_by=None, claim_until=None, **values)
                )
        self.sent += sent
        return sent

    def _send(
        self, channel: str, target: str, subject: str, body: str, *, game_id: str
    ) -> str | None:
        """Deliver one message; the error as text, or None when it went out."""
        try:
            if channel == "email":
                self._email(target, subject, body)
            else:
                self._webhook(target, subject, body, game_id)
        except Exception as err:  # any failure is retried later; it never reaches a game
            return f"{type(err).__name__}: {err}"
        return None

    def _email(self, to: str, subject: str, body: str) -> None:
        st = self.settings
        if not st.smtp_host:
            raise RuntimeError("no SMTP server is configured (PARLEY_SMTP_HOST)")
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = st.mail_from, to, subject
        msg.set_content(body)
        with smtplib.SMTP(st.smtp_host, st.smtp_port, timeout=st.timeout_seconds) as smtp:
            if st.smtp_starttls:
                smtp.starttls()
            if st.smtp_user:
                smtp.login(st.smtp_user, st.smtp_password or "")
            smtp.send_message(msg)

    def _webhook(self, url: str, subject: str, body: str, game_id: str) -> None:
        check_webhook(url, self.settings)  # again: the name may point elsewhere by now
        text = f"**{subject}**\n{body}"
        # `content` is what Discord shows, `text` what Slack shows; each ignores the other.
        payload = {"content": text[:2000], "text": text, "username": "Parley", "game": game_id}
        res = httpx.post(
            url,
            content=json.dumps(payload),
            headers={"Content-Type": "application/json"},
            timeout=self.settings.timeout_seconds,
            follow_redirects=False,
        )
        if not 200 <= res.status_code < 300:
            raise RuntimeError(f"the webhook answered {res.status_code}")
