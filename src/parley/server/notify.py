"""Notifications outside the browser: e-mail and webhooks, through an outbox.

A game change that concerns a player (their turn in a new step, press addressed to them)
writes one outbox row per channel inside the change's own transaction, keyed by the
event, so an event is queued once and only if the change is committed. A deadline that
draws near for a seat still owing (and not ready) is queued by the sender's periodic scan,
under the same kind of key. A background sender claims due rows (a lease, as deadlines
are claimed), delivers them off the game's path, and retries failures with growing pauses;
nothing a mail server or a webhook does can block or fail a game.

Deliveries run side by side, at most `workers` at once and at most `per_destination` to
one webhook host (or to the mail server), so a slow or dead endpoint delays only its own
messages. An e-mail address receives nothing but a confirmation until its owner confirms
it (see `EmailAddress`); every later message carries a link that unsubscribes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal, cast
from urllib.parse import quote, urlsplit

import anyio.to_thread
import httpx
from sqlalchemy import Table, bindparam, or_, select, update
from sqlalchemy.orm import Session

from parley.kernel import PressEntry

from . import mailer, metrics, webhooks
from .clock import Clock
from .db.models import Deadline, EmailAddress, Game, NotifyPref, Outbox, ReadyFlag
from .errors import BadRequest, NotFound
from .live import LiveGame, Tables, Txn
from .store import Prepared, Store
from .vocab import Controller, GameStatus

log = logging.getLogger(__name__)

EVENTS = ("turn", "press", "deadline")  # what a player may choose to be told about
MAX_ATTEMPTS = 8
CONFIRM = "confirm"  # the event key's first part for a confirmation message
CONFIRM_AGAIN_SECONDS = 600.0  # a new confirmation to one address at most this often


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
    workers: int = 8  # deliveries under way at once, in all
    per_destination: int = 2  # ... and to one webhook host, or to the mail server

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
            workers=max(1, int(e.get(p + "NOTIFY_WORKERS", "8"))),
            per_destination=max(1, int(e.get(p + "NOTIFY_PER_DESTINATION", "2"))),
        )


# --- checking what a player gives -----------------------------------------------------------


def check_email(address: str) -> str:
    """One mailbox, as it will be used; BadRequest otherwise (see `mailer.check_email`)."""
    return mailer.check_email(address)


def check_webhook(
    url: str,
    settings: NotifySettings,
    resolver: webhooks.Resolver = webhooks.system_resolver,
) -> str:
    """Refuse URLs that would make the server call itself or its private network.

    Only http(s) on a host whose every address is public is accepted, unless the host
    allows private addresses (`PARLEY_WEBHOOK_ALLOW_PRIVATE`) or names the host
    (`PARLEY_WEBHOOK_ALLOWED_HOSTS`). Checked again before each delivery, which calls the
    very addresses it checked (see `webhooks`).
    """
    webhooks.resolve(_target(url, settings), resolver)
    return url


def _target(url: str, settings: NotifySettings) -> webhooks.Target:
    return webhooks.check_url(
        url,
        allow_private=settings.webhook_allow_private,
        allowed_hosts=settings.webhook_allowed_hosts,
    )


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


# --- e-mail addresses: confirmation and unsubscribing ----------------------------------------


def _address(s: Session, user_id: int, address: str) -> EmailAddress | None:
    return s.get(EmailAddress, (user_id, address))


def _is_mailbox(address: str) -> bool:
    try:
        return mailer.check_email(address) == address
    except BadRequest:
        return False


def email_confirmed(s: Session, user_id: int, address: str) -> bool:
    row = _address(s, user_id, address)
    return row is not None and row.confirmed_at is not None


def request_confirmation(
    s: Session, user_id: int, address: str, now: float, settings: NotifySettings
) -> bool:
    """Queue a confirmation for an address not yet confirmed; True if one was queued.

    At most one per address every `CONFIRM_AGAIN_SECONDS`, so saving settings again and
    again cannot turn the server into a mail cannon aimed at someone else's address.
    """
    row = _address(s, user_id, address)
    if row is not None and row.confirmed_at is not None:
        return False
    if row is None:
        row = EmailAddress(
            user_id=user_id,
            address=address,
            confirm_token=secrets.token_urlsafe(32),
            unsubscribe_token=secrets.token_urlsafe(32),
            requested_at=now,
            created_at=now,
        )
        s.add(row)
    elif now - row.requested_at < CONFIRM_AGAIN_SECONDS:
        return False
    row.requested_at = now
    link = f"{settings.public_url}/api/notifications/confirm?token={row.confirm_token}"
    s.add(
        Outbox(
            event_key=f"{CONFIRM}:{user_id}:{secrets.token_hex(12)}",
            channel="email",
            user_id=user_id,
            game_id="",
            target=address,
            subject="Confirm your address for Parley notifications",
            body=(
                "Someone, most likely you, asked this Parley server to send game "
                f"notifications to {address}.\n\nTo confirm, open this link and press the "
                f"button on its page:\n{link}\n\nIf it was not you, ignore this message: "
                "nothing else is sent to this address unless it is confirmed."
            ),
            status="pending",
            attempts=0,
            next_at=now,
            created_at=now,
        )
    )
    s.flush()
    return True


def confirm_address(s: Session, token: str, now: float) -> str:
    """Mark the address with this confirmation token confirmed; returns the address."""
    row = s.execute(select(EmailAddress).where(EmailAddress.confirm_token == token)).scalar()
    if row is None:
        raise NotFound("this confirmation link is unknown, or was used already")
    row.confirm_token, row.confirmed_at = None, now
    return row.address


def unsubscribe(s: Session, token: str) -> str:
    """Stop every message to the address with this token; returns the address.

    The address leaves the owner's settings and its pending messages are dropped; giving it
    again asks for a new confirmation.
    """
    row = s.execute(select(EmailAddress).where(EmailAddress.unsubscribe_token == token)).scalar()
    if row is None:
        raise NotFound("this unsubscribe link is unknown, or was used already")
    user_id, address = row.user_id, row.address
    s.execute(
        update(NotifyPref)
        .where(NotifyPref.user_id == user_id, NotifyPref.email == address)
        .values(email=None)
    )
    s.execute(
        update(Outbox)
        .where(
            Outbox.user_id == user_id,
            Outbox.channel == "email",
            Outbox.target == address,
            Outbox.status == "pending",
        )
        .values(status="dropped", last_error="the address was unsubscribed")
    )
    s.delete(row)
    return address


def unsubscribe_url(settings: NotifySettings, token: str) -> str:
    return f"{settings.public_url}/api/notifications/unsubscribe?token={quote(token)}"


# --- queueing ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Message:
    key: str  # the event, for one user: queued once
    user_id: int
    kind: str
    subject: str
    body: str


def queue(
    s: Session,
    game_id: str,
    messages: Iterable[Message],
    now: float,
    settings: NotifySettings | None = None,
) -> int:
    """Outbox rows for each message on each channel its user chose; returns how many."""
    added = 0
    for m in messages:
        prefs, _ = read_prefs(s, m.user_id, game_id)
        if not prefs.enabled or m.kind not in prefs.events:
            continue
        for channel, target in (("email", prefs.email), ("webhook", prefs.webhook_url)):
            if not target:
                continue
            if channel == "email" and not email_confirmed(s, m.user_id, target):
                # An address from before confirmations existed gets one now, if it is one
                # mailbox as written (older checks let lists through: such an address
                # gets nothing until its owner saves a good one); otherwise nothing is sent
                # to an address its owner has not confirmed.
                legacy = settings is not None and _address(s, m.user_id, target) is None
                if legacy and settings is not None and _is_mailbox(target):
                    request_confirmation(s, m.user_id, target, now, settings)
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
            queue(txn.session, txn.row.id, messages, txn.now, self.settings)

    def messages(self, txn: Txn) -> list[Message]:
        live, match, row = txn.live, txn.match, txn.row
        out: list[Message] = []
        names = match.seat_labels()
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
    resolver: webhooks.Resolver = webhooks.system_resolver
    transport: httpx.BaseTransport | None = None  # tests only: a stand-in for the network
    sent: int = 0
    failed: int = 0
    _task: asyncio.Task[None] | None = field(default=None, repr=False)
    _executor: ThreadPoolExecutor | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _running: int = field(default=0, repr=False)
    # destination -> the targets of the deliveries under way there
    _targets: dict[str, list[str]] = field(default_factory=dict, repr=False)

    def start(self) -> None:
        if self.settings.poll_seconds > 0:
            self._task = asyncio.create_task(self._loop(), name="parley-notify")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self.close()

    def close(self) -> None:
        """Start no more deliveries; those under way end by their own timeouts, and a row
        whose delivery is cut short is claimed again when its lease runs out."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    async def _loop(self) -> None:
        while True:
            try:
                await anyio.to_thread.run_sync(partial(self.run_once, wait=False))
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("sending notifications failed")
            await asyncio.sleep(self.settings.poll_seconds)

    def run_once(self, wait: bool = True) -> int:
        """Queue due deadline warnings, then deliver what is due; returns how many were sent
        (with `wait`: after every delivery it started has ended)."""
        self.warn_deadlines()
        return self.deliver(wait=wait)

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
                queued += queue(s, game_id, messages, now, self.settings)
        return queued

    @staticmethod
    def _owing(live: LiveGame, state_id: int) -> list[tuple[int, int, str, str]]:
        """(seat, user, seat name, game title) of the humans still owing in step `state_id`."""
        match = live.match
        if match is None or match.state_id != state_id or live.row.status is not GameStatus.ACTIVE:
            return []
        if live.rules.step_seconds(match.state) is not None:
            return []  # a short window: silence is an answer, not worth a message
        names = match.seat_labels()
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

    def deliver(self, limit: int = 200, wait: bool = True) -> int:
        """Start delivering what is due, within the bounds; returns how many were sent.

        With `wait` false (the background sender) the deliveries go on after it returns
        and it counts nothing; a row is claimed only when a place is free for it, so a
        row waiting for its destination stays unclaimed for any process to take.
        """
        now = self.clock.now()
        with self._lock:
            if self._running >= self.settings.workers:
                return 0
            # Rows for a destination with no place free are not even read, so a backlog
            # for one endpoint never hides the rows of others behind the limit.
            bound = self.settings.per_destination
            full = [t for ts in self._targets.values() if len(ts) >= bound for t in ts]
        query = (
            select(Outbox.id, Outbox.channel, Outbox.target)
            .where(Outbox.status == "pending", Outbox.next_at <= now)
            .where(or_(Outbox.claim_until.is_(None), Outbox.claim_until < now))
        )
        if full:
            query = query.where(Outbox.target.not_in(full))
        with self.db.read() as s:
            due = s.execute(query.order_by(Outbox.next_at, Outbox.id).limit(limit)).all()
        started: list[Future[int]] = []
        for row_id, channel, target in due:
            place = _destination(channel, target)
            if not self._take(place, target):
                continue
            try:
                job = self._claim(row_id, now)
            except BaseException:
                self._release(place, target)
                raise
            if job is None:
                self._release(place, target)
                continue
            started.append(self._pool().submit(self._finish, row_id, job, place))
        if not wait:
            return 0
        sent = sum(f.result() for f in started)
        return sent

    def _take(self, place: str, target: str) -> bool:
        """A place for one delivery to `target`, if one is free overall and at `place`."""
        with self._lock:
            running = self._targets.setdefault(place, [])
            if (
                self._running >= self.settings.workers
                or len(running) >= self.settings.per_destination
            ):
                if not running:
                    del self._targets[place]
                return False
            self._running += 1
            running.append(target)
            return True

    def _release(self, place: str, target: str) -> None:
        with self._lock:
            self._running -= 1
            running = self._targets[place]
            running.remove(target)
            if not running:
                del self._targets[place]

    def _pool(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._executor is None:
                self._executor = ThreadPoolExecutor(
                    self.settings.workers, thread_name_prefix="parley-notify"
                )
            return self._executor

    def _claim(self, row_id: int, now: float) -> _Job | None:
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
                return None  # another process has it
            row = s.get(Outbox, row_id)
            assert row is not None
            job = _Job(
                row.channel,
                row.target,
                row.subject,
                row.body,
                row.attempts,
                row.game_id,
                row.user_id,
                row.event_key,
            )
        # What the message tells of was committed before this claim: the delivery waits
        # for it to be on disk (in its own thread, so waiting there holds up nobody).
        job.ticket = self.db.last_ticket()
        return job

    def _finish(self, row_id: int, job: _Job, place: str) -> int:
        """Deliver one claimed row and record how it went; 1 if it was sent."""
        try:
            if self.db.syncer is not None:
                self.db.syncer.wait(job.ticket)
            error = self._send(job)
            later = self.clock.now()
            values: dict[str, Any]
            if error is None:
                values = {"status": "sent", "sent_at": later}
            elif error.startswith(_DROP):
                values = {"status": "dropped", "last_error": error[len(_DROP) :][:500]}
            else:
                attempts = job.attempts + 1
                pause = min(3600.0, self.settings.retry_seconds * 2 ** (attempts - 1))
                values = {
                    "attempts": attempts,
                    "last_error": error[:500],
                    "next_at": later + pause,
                    "status": "failed" if attempts >= MAX_ATTEMPTS else "pending",
                }
                log.warning("notification %s failed (%s): %s", row_id, attempts, error)
            with self.db.write() as s:
                s.execute(
                    update(Outbox)
                    .where(Outbox.id == row_id)
                    .values(claimed_by=None, claim_until=None, **values)
                )
            with self._lock:
                if error is None:
                    self.sent += 1
                elif not error.startswith(_DROP):
                    self.failed += 1
            result = "sent" if error is None else "dropped" if error.startswith(_DROP) else "failed"
            metrics.NOTIFICATIONS.labels(job.channel, result).inc()
            return 1 if error is None else 0
        except Exception:  # the row's lease runs out and it is tried again
            log.exception("delivering notification %s failed", row_id)
            return 0
        finally:
            self._release(place, job.target)

    def _send(self, job: _Job) -> str | None:
        """Deliver one message; the error as text, or None when it went out."""
        try:
            if job.channel == "email":
                return self._email(job)
            self._webhook(job.target, job.subject, job.body, job.game_id)
        except Exception as err:  # any failure is retried later; it never reaches a game
            return f"{type(err).__name__}: {err}"
        return None

    def _email(self, job: _Job) -> str | None:
        st = self.settings
        if not st.smtp_host:
            raise RuntimeError("no SMTP server is configured (PARLEY_SMTP_HOST)")
        unsubscribe: str | None = None
        if not job.event_key.startswith(CONFIRM + ":"):
            with self.db.read() as s:
                row = _address(s, job.user_id, job.target)
                if row is None or row.confirmed_at is None:
                    return _DROP + "the address is not confirmed (or was unsubscribed)"
                unsubscribe = unsubscribe_url(st, row.unsubscribe_token)
        try:
            mailer.check_email(job.target)
        except BadRequest as err:  # no retry can mend it
            return _DROP + err.message
        body = job.body
        if unsubscribe is not None:
            body += f"\n\n--\nTo stop these messages to {job.target}: {unsubscribe}"
        mailer.send(
            # The one-click header needs an absolute link: only with PARLEY_PUBLIC_URL set.
            mailer.Mail(job.target, job.subject, body, unsubscribe if st.public_url else None),
            mailer.SmtpSettings(
                st.smtp_host,
                st.smtp_port,
                st.smtp_user,
                st.smtp_password,
                st.smtp_starttls,
                st.mail_from,
                st.timeout_seconds,
            ),
        )
        return None

    def _webhook(self, url: str, subject: str, body: str, game_id: str) -> None:
        # Resolved and checked again now, and called at the addresses just checked.
        target = webhooks.resolve(_target(url, self.settings), self.resolver)
        text = f"**{subject}**\n{body}"
        # `content` is what Discord shows, `text` what Slack shows; each ignores the other.
        payload = {"content": text[:2000], "text": text, "username": "Parley", "game": game_id}
        res = webhooks.post(
            target,
            json.dumps(payload).encode(),
            timeout=self.settings.timeout_seconds,
            transport=self.transport,
        )
        if not 200 <= res.status_code < 300:
            raise RuntimeError(f"the webhook answered {res.status_code}")


_DROP = "drop: "  # an error that no retry can mend: the row is dropped, not retried


@dataclass(slots=True)
class _Job:
    channel: str
    target: str
    subject: str
    body: str
    attempts: int
    game_id: str
    user_id: int
    event_key: str
    ticket: int = 0


def _destination(channel: str, target: str) -> str:
    """What deliveries share a bound: one webhook host (and port), or the mail server."""
    if channel == "email":
        return "email"
    try:
        parts = urlsplit(target)
        return f"webhook:{(parts.hostname or '').lower()}:{parts.port}"
    except ValueError:  # refused when it is delivered
        return "webhook:"
