"""The store: sessions and the queries the server runs, returning plain records."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import (
    Connection,
    Engine,
    Table,
    and_,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from .db.engine import WRITE_OPTION
from .db.models import Deadline, Entry, Event, Game, Member, Snapshot, Token, User
from .db.syncer import note_ticket, syncer_of
from .errors import UsernameTaken
from .vocab import (
    Controller,
    DeadlineRecord,
    GameRecord,
    GameStatus,
    MemberRecord,
    PressMode,
    Replacements,
    Role,
    SeedSource,
    UserRecord,
)


class Prepared:
    """A Core statement compiled once per dialect and run as the driver's own SQL.

    On the hot path (every action) SQLAlchemy's per-execution work (cache keys, parameter
    processing) cost more than the statements themselves. Only for statements whose
    parameters need no type processing (plain numbers, strings, None).
    """

    def __init__(self, statement: Any) -> None:
        self.statement = statement
        self._compiled: dict[str, tuple[str, tuple[str, ...] | None]] = {}

    def _sql(self, conn: Connection) -> tuple[str, tuple[str, ...] | None]:
        dialect = conn.dialect
        found = self._compiled.get(dialect.name)
        if found is None:
            compiled = self.statement.compile(dialect=dialect)
            order = tuple(compiled.positiontup or ()) if compiled.positional else None
            found = self._compiled[dialect.name] = (str(compiled), order)
        return found

    def run(self, conn: Connection, params: dict[str, Any]) -> Any:
        sql, order = self._sql(conn)
        return conn.exec_driver_sql(sql, tuple(params[k] for k in order) if order else params)

    def run_many(self, conn: Connection, rows: Sequence[dict[str, Any]]) -> None:
        sql, order = self._sql(conn)
        if order:
            conn.exec_driver_sql(sql, [tuple(r[k] for k in order) for r in rows])
        else:
            conn.exec_driver_sql(sql, list(rows))


class StaleWrite(Exception):
    """Another writer changed the game first; reload and try again."""


@dataclass(frozen=True, slots=True)
class EntryRow:
    seq: int
    kind: str
    data: str
    actor: str
    state_id: int
    created_at: float


class Store:
    """Read and write sessions over one engine.

    With a syncer (SQLite at `FULL`, see `db/syncer.py`) each commit takes a ticket and
    what a request reads or writes makes its answer wait until the disk holds it.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.syncer = syncer_of(engine)
        self._reader = sessionmaker(engine, expire_on_commit=False)
        self._writer = sessionmaker(
            engine.execution_options(**{WRITE_OPTION: True}), expire_on_commit=False
        )
        self._last = threading.local()

    @contextmanager
    def read(self) -> Iterator[Session]:
        with self._reader() as session, session.begin():
            yield session
        if self.syncer is not None:
            # What was read may be a commit not yet on disk: the answer waits for every
            # commit begun before the read ended (over-waiting by a flush at most).
            note_ticket(self.syncer.reserved)

    @contextmanager
    def write(self) -> Iterator[Session]:
        """A transaction that commits when the block ends and rolls back on any error."""
        syncer = self.syncer
        if syncer is None:
            with self._writer() as session, session.begin():
                yield session
            return
        syncer.check()  # after a failed flush nothing more is accepted
        ticket = 0
        try:
            with self._writer() as session, session.begin():
                yield session
                ticket = syncer.reserve()  # before COMMIT: the flush waits for it to end
        finally:
            if ticket:
                syncer.complete(ticket)
        self._last.ticket = ticket
        note_ticket(ticket)

    def last_ticket(self) -> int:
        """The ticket of this thread's last commit (0 without a syncer)."""
        ticket: int = getattr(self._last, "ticket", 0)
        return ticket

    def ping(self) -> None:
        with self.read() as s:
            s.connection().exec_driver_sql("SELECT 1")

    def dispose(self) -> None:
        self.engine.dispose()


# --- users ----------------------------------------------------------------------------


def _user(row: User) -> UserRecord:
    return UserRecord(row.id, row.username, row.password_hash is not None, row.created_at)


def insert_user(s: Session, username: str, password_hash: str | None, now: float) -> UserRecord:
    row = User(
        username=username,
        username_key=username.lower(),
        password_hash=password_hash,
        created_at=now,
    )
    s.add(row)
    try:
        s.flush()  # the unique key on the lower-cased name decides between racing sign-ups
    except IntegrityError:
        raise UsernameTaken(
            f"the username {username!r} is taken. If it is yours, sign in with its password "
            "or a recovery code; a name used without either can only be reclaimed from the "
            "browser that first used it (where you can give it a password or a recovery "
            "code). Otherwise choose another name"
        ) from None
    return _user(row)


def user_with_password(s: Session, username: str) -> tuple[UserRecord, str | None] | None:
    row = s.scalar(select(User).where(User.username_key == username.lower()))
    return None if row is None else (_user(row), row.password_hash)


_USERS = cast(Table, User.__table__)
_TOKENS = cast(Table, Token.__table__)
_USER_BY_TOKEN = Prepared(
    select(_USERS.c.id, _USERS.c.username, _USERS.c.password_hash, _USERS.c.created_at)
    .join(_TOKENS, _TOKENS.c.user_id == _USERS.c.id)
    .where(_TOKENS.c.token_hash == bindparam("token_hash"))
)


def user_by_token(s: Session, token_hash: str) -> UserRecord | None:
    row = _USER_BY_TOKEN.run(s.connection(), {"token_hash": token_hash}).first()
    if row is None:
        return None
    return UserRecord(int(row[0]), str(row[1]), row[2] is not None, float(row[3]))


def insert_token(s: Session, token_hash: str, user_id: int, now: float) -> None:
    s.add(Token(token_hash=token_hash, user_id=user_id, created_at=now))


def delete_token(s: Session, token_hash: str) -> None:
    s.execute(delete(Token).where(Token.token_hash == token_hash))


# --- games ----------------------------------------------------------------------------


def _game(row: Game) -> GameRecord:
    return GameRecord(
        id=row.id,
        game=row.game,
        name=row.name,
        description=row.description,
        options=dict(row.options),
        seats=row.seats,
        period_seconds=row.period_seconds,
        press=PressMode(row.press),
        private=row.private,
        invite_code=row.invite_code,
        host_id=row.host_id,
        status=GameStatus(row.status),
        seed=row.seed,
        players=tuple(row.players),
        seq=row.seq,
        version=row.version,
        outcome=row.outcome,
        disorder_after=row.disorder_after,
        bot_after=row.bot_after,
        takeover_bot=row.takeover_bot,
        created_at=row.created_at,
        started_at=row.started_at,
        ended_at=row.ended_at,
        replacements=Replacements(row.replacements),
        talk_rounds=row.talk_rounds,
        talk_messages=row.talk_messages,
        talk_seconds=row.talk_seconds,
        talk_state=row.talk_state,
        talk_round=row.talk_round,
        seed_source=SeedSource(row.seed_source) if row.seed_source is not None else None,
        position=row.position,
        sandbox=bool(row.sandbox),
    )


GAME_FIELDS = frozenset(
    {
        "status",
        "players",
        "seq",
        "outcome",
        "started_at",
        "ended_at",
        "name",
        "description",
        "talk_state",
        "talk_round",
    }
)


def insert_game(s: Session, game: GameRecord) -> None:
    s.add(
        Game(
            id=game.id,
            game=game.game,
            name=game.name,
            description=game.description,
            options=game.options,
            seats=game.seats,
            period_seconds=game.period_seconds,
            press=game.press.value,
            private=game.private,
            invite_code=game.invite_code,
            host_id=game.host_id,
            status=game.status.value,
            seed=game.seed,
            players=list(game.players),
            seq=game.seq,
            version=game.version,
            outcome=game.outcome,
            disorder_after=game.disorder_after,
            bot_after=game.bot_after,
            takeover_bot=game.takeover_bot,
            created_at=game.created_at,
            started_at=game.started_at,
            ended_at=game.ended_at,
            replacements=game.replacements.value,
            talk_rounds=game.talk_rounds,
            talk_messages=game.talk_messages,
            talk_seconds=game.talk_seconds,
            talk_state=game.talk_state,
            talk_round=game.talk_round,
            seed_source=game.seed_source.value if game.seed_source is not None else None,
            position=game.position,
            sandbox=game.sandbox,
        )
    )
    s.flush()


def game(s: Session, game_id: str) -> GameRecord | None:
    row = s.get(Game, game_id)
    return None if row is None else _game(row)


# The hot path (every action) speaks Core SQL on the session's connection: the ORM's
# per-statement machinery would cost more than the statements themselves.
GAMES = cast(Table, Game.__table__)
ENTRIES = cast(Table, Entry.__table__)
DEADLINES = cast(Table, Deadline.__table__)


_GAME_VERSION = Prepared(select(GAMES.c.version).where(GAMES.c.id == bindparam("game_id")))


def game_version(s: Session, game_id: str) -> int | None:
    version = _GAME_VERSION.run(s.connection(), {"game_id": game_id}).scalar()
    return None if version is None else int(version)


_PLAIN_GAME_FIELDS = frozenset({"status", "seq", "started_at", "ended_at", "name", "description"})
_BUMPS: dict[frozenset[str], Prepared] = {}


def _bump(fields: frozenset[str]) -> Prepared:
    """The conditional UPDATE setting `fields`, made once per set of fields."""
    found = _BUMPS.get(fields)
    if found is None:
        found = _BUMPS[fields] = Prepared(
            update(GAMES)
            .where(GAMES.c.id == bindparam("g_id"), GAMES.c.version == bindparam("g_expected"))
            .values(version=bindparam("g_version"), **{f: bindparam(f"v_{f}") for f in fields})
        )
    return found


def bump_game(s: Session, game_id: str, expected_version: int, **changes: Any) -> None:
    """Apply `changes` and bump the version, only if nobody else has changed the game."""
    unknown = set(changes) - GAME_FIELDS
    if unknown:
        raise ValueError(f"cannot change {sorted(unknown)} of a game")
    values = {k: (v.value if isinstance(v, GameStatus) else v) for k, v in changes.items()}
    if "players" in values:
        values["players"] = list(values["players"])
    if values.keys() <= _PLAIN_GAME_FIELDS:  # every action: plain values, the fast path
        params = {f"v_{k}": v for k, v in values.items()}
        params.update(g_id=game_id, g_expected=expected_version, g_version=expected_version + 1)
        result = _bump(frozenset(values)).run(s.connection(), params)
    else:  # JSON columns (players, outcome) need SQLAlchemy's type processing
        result = s.connection().execute(
            update(GAMES)
            .where(GAMES.c.id == game_id, GAMES.c.version == expected_version)
            .values(version=expected_version + 1, **values)
        )
    if result.rowcount != 1:
        raise StaleWrite(game_id)


def list_games(
    s: Session,
    *,
    user_id: int | None,
    statuses: Sequence[GameStatus],
    mine_only: bool,
    limit: int,
    offset: int,
) -> list[GameRecord]:
    query = select(Game)
    if statuses:
        query = query.where(Game.status.in_([st.value for st in statuses]))
    mine = Game.id.in_(select(Member.game_id).where(Member.user_id == user_id))
    if mine_only:
        query = query.where(mine)
    elif user_id is not None:
        query = query.where(or_(Game.private.is_(False), mine))
    else:
        query = query.where(Game.private.is_(False))
    query = query.order_by(Game.created_at.desc(), Game.id).limit(limit).offset(offset)
    return [_game(row) for row in s.scalars(query)]


def hosted_open_games(s: Session, user_id: int) -> int:
    return (
        s.scalar(
            select(func.count())
            .select_from(Game)
            .where(
                Game.host_id == user_id,
                Game.status.in_([GameStatus.LOBBY.value, GameStatus.ACTIVE.value]),
            )
        )
        or 0
    )


# --- members --------------------------------------------------------------------------


def members(s: Session, game_id: str) -> list[MemberRecord]:
    rows = s.execute(
        select(Member, User.username)
        .outerjoin(User, User.id == Member.user_id)
        .where(Member.game_id == game_id)
        .order_by(Member.id)
    )
    return [_member(m, name) for m, name in rows]


def _member(m: Member, name: str | None) -> MemberRecord:
    return MemberRecord(
        id=m.id,
        game_id=m.game_id,
        user_id=m.user_id,
        username=name,
        role=Role(m.role),
        bot=m.bot,
        seat=m.seat,
        controller=Controller(m.controller),
        missed=m.missed,
        joined_at=m.joined_at,
        open=m.open,
        seat_since=m.seat_since,
    )


def insert_member(
    s: Session,
    game_id: str,
    *,
    user_id: int | None,
    role: Role,
    bot: str | None,
    controller: Controller,
    now: float,
) -> None:
    s.add(
        Member(
            game_id=game_id,
            user_id=user_id,
            role=role.value,
            bot=bot,
            seat=None,
            controller=controller.value,
            missed=0,
            joined_at=now,
            open=False,
            seat_since=0,
        )
    )
    s.flush()


def members_of_games(s: Session, game_ids: Sequence[str]) -> dict[str, list[MemberRecord]]:
    out: dict[str, list[MemberRecord]] = {g: [] for g in game_ids}
    if not game_ids:
        return out
    rows = s.execute(
        select(Member, User.username)
        .outerjoin(User, User.id == Member.user_id)
        .where(Member.game_id.in_(list(game_ids)))
        .order_by(Member.id)
    )
    for m, name in rows:
        out[m.game_id].append(_member(m, name))
    return out


MEMBER_FIELDS = frozenset(
    {"user_id", "role", "bot", "seat", "controller", "missed", "open", "seat_since"}
)


def update_member(s: Session, member_id: int, **changes: Any) -> None:
    unknown = set(changes) - MEMBER_FIELDS
    if unknown:
        raise ValueError(f"cannot change {sorted(unknown)} of a member")
    values = {k: (v.value if isinstance(v, (Role, Controller)) else v) for k, v in changes.items()}
    s.execute(
        update(Member)
        .where(Member.id == member_id)
        .values(**values)
        .execution_options(synchronize_session=False)
    )


def delete_member(s: Session, member_id: int) -> None:
    s.execute(delete(Member).where(Member.id == member_id))


# --- the record -----------------------------------------------------------------------


def insert_entries(s: Session, game_id: str, rows: Iterable[EntryRow]) -> None:
    """Append entries; a seq already taken fails here, inside the transaction."""
    values = [
        {
            "game_id": game_id,
            "seq": r.seq,
            "kind": r.kind,
            "data": r.data,
            "actor": r.actor,
            "state_id": r.state_id,
            "created_at": r.created_at,
        }
        for r in rows
    ]
    if values:
        _INSERT_ENTRY.run_many(s.connection(), values)


_INSERT_ENTRY = Prepared(
    insert(ENTRIES).values(
        {c: bindparam(c) for c in ("game_id", "seq", "kind", "data", "actor", "state_id")}
        | {"created_at": bindparam("created_at")}
    )
)


def entries(s: Session, game_id: str, since: int = 0, until: int | None = None) -> list[EntryRow]:
    """Entries `since` <= seq < `until` in order."""
    query = select(Entry).where(Entry.game_id == game_id, Entry.seq >= since)
    if until is not None:
        query = query.where(Entry.seq < until)
    rows = s.scalars(query.order_by(Entry.seq))
    return [EntryRow(r.seq, r.kind, r.data, r.actor, r.state_id, r.created_at) for r in rows]


def press_times(s: Session, game_id: str, until: int | None = None) -> dict[int, float]:
    """When each message (press entry) before `until` was recorded, by its seq."""
    query = select(Entry.seq, Entry.created_at).where(
        Entry.game_id == game_id, Entry.kind == "press"
    )
    if until is not None:
        query = query.where(Entry.seq < until)
    return {int(seq): float(at) for seq, at in s.execute(query)}


def insert_snapshot(s: Session, game_id: str, seq: int, fmt: str, data: bytes, now: float) -> None:
    s.add(Snapshot(game_id=game_id, seq=seq, format=fmt, data=data, created_at=now))


def latest_snapshot(
    s: Session, game_id: str, fmt: str, at_most: int | None = None
) -> tuple[int, bytes] | None:
    """The newest snapshot in format `fmt` (taken after at most `at_most` entries)."""
    query = select(Snapshot.seq, Snapshot.data).where(
        Snapshot.game_id == game_id, Snapshot.format == fmt
    )
    if at_most is not None:
        query = query.where(Snapshot.seq <= at_most)
    row = s.execute(query.order_by(Snapshot.seq.desc()).limit(1)).first()
    return None if row is None else (int(row[0]), bytes(row[1]))


def steps(s: Session, game_id: str) -> list[tuple[int, int]]:
    """(state id, first seq recorded at it) for every step of the game's record."""
    rows = s.connection().execute(
        select(ENTRIES.c.state_id, func.min(ENTRIES.c.seq))
        .where(ENTRIES.c.game_id == game_id)
        .group_by(ENTRIES.c.state_id)
        .order_by(func.min(ENTRIES.c.seq))
    )
    return [(int(state_id), int(seq)) for state_id, seq in rows]


# --- deadlines ------------------------------------------------------------------------


def _deadline(row: Deadline) -> DeadlineRecord:
    return DeadlineRecord(
        row.game_id, row.state_id, row.due_at, row.wake_at, row.claimed_by, row.claim_until
    )


def deadline(s: Session, game_id: str) -> DeadlineRecord | None:
    row = s.get(Deadline, game_id)
    return None if row is None else _deadline(row)


def set_deadline(
    s: Session, game_id: str, state_id: int, due_at: float, wake_at: float
) -> DeadlineRecord:
    """Replace the game's deadline (any claim on the old one ends with it)."""
    values = {
        "state_id": state_id,
        "due_at": due_at,
        "wake_at": wake_at,
        "claimed_by": None,
        "claim_until": None,
    }
    conn = s.connection()
    result = _UPDATE_DEADLINE.run(conn, {"d_game_id": game_id, **values})
    if result.rowcount == 0:
        conn.execute(insert(DEADLINES).values(game_id=game_id, **values))
    return DeadlineRecord(game_id, state_id, due_at, wake_at, None, None)


_UPDATE_DEADLINE = Prepared(
    update(DEADLINES)
    .where(DEADLINES.c.game_id == bindparam("d_game_id"))
    .values(
        {c: bindparam(c) for c in ("state_id", "due_at", "wake_at", "claimed_by", "claim_until")}
    )
)


def deadlines_of(s: Session, game_ids: Sequence[str]) -> dict[str, DeadlineRecord]:
    if not game_ids:
        return {}
    rows = s.scalars(select(Deadline).where(Deadline.game_id.in_(list(game_ids))))
    return {r.game_id: _deadline(r) for r in rows}


def delete_deadline(s: Session, game_id: str) -> None:
    s.execute(delete(Deadline).where(Deadline.game_id == game_id))


def due_deadlines(s: Session, now: float, limit: int) -> list[DeadlineRecord]:
    rows = s.scalars(
        select(Deadline)
        .where(
            Deadline.wake_at <= now,
            or_(Deadline.claim_until.is_(None), Deadline.claim_until < now),
        )
        .order_by(Deadline.wake_at)
        .limit(limit)
    )
    return [_deadline(r) for r in rows]


def claim_deadline(s: Session, dl: DeadlineRecord, owner: str, now: float, lease: float) -> bool:
    """Take the deadline for `owner` if it is still the same one and nobody holds it.

    A conditional UPDATE: of several processes racing for one row, exactly one changes it.
    """
    result = s.execute(
        update(Deadline)
        .where(
            Deadline.game_id == dl.game_id,
            Deadline.state_id == dl.state_id,
            Deadline.wake_at == dl.wake_at,
            Deadline.wake_at <= now,
            or_(Deadline.claim_until.is_(None), Deadline.claim_until < now),
        )
        .values(claimed_by=owner, claim_until=now + lease)
        .execution_options(synchronize_session=False)
    )
    claimed: bool = result.rowcount == 1  # type: ignore[attr-defined]
    return claimed


def release_deadline(s: Session, game_id: str, owner: str) -> None:
    s.execute(
        update(Deadline)
        .where(and_(Deadline.game_id == game_id, Deadline.claimed_by == owner))
        .values(claimed_by=None, claim_until=None)
        .execution_options(synchronize_session=False)
    )


# --- events ---------------------------------------------------------------------------


def insert_event(s: Session, game_id: str, kind: str, data: dict[str, Any], now: float) -> None:
    s.add(Event(game_id=game_id, kind=kind, data=data, created_at=now))


def events(s: Session, game_id: str, kind: str | None = None) -> list[dict[str, Any]]:
    query = select(Event).where(Event.game_id == game_id)
    if kind is not None:
        query = query.where(Event.kind == kind)
    return [
        {"id": e.id, "kind": e.kind, "data": e.data, "at": e.created_at}
        for e in s.scalars(query.order_by(Event.id))
    ]
