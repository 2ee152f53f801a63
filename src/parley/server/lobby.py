"""The lobby and the seats: create, list, join, leave, bots, start, close, take over, return."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from parley import games
from parley.agents import bots
from parley.kernel import ActionEntry, BadOptions, Match, UnknownGame

from . import llm_seats, store
from .clock import Clock
from .errors import BadRequest, Conflict, Forbidden, NotFound, WrongStatus
from .live import LiveGame, Tables, Txn
from .record import game_seed, new_match, seat_draw
from .schemas import CreateGame, GameOut
from .settings import Limits
from .views import game_out, owed_by, seat_open
from .vocab import Controller, EventKind, GameRecord, GameStatus, MemberRecord, Role, UserRecord


def check_bot(name: str) -> str:
    if llm_seats.is_llm(name):
        llm_seats.check(name)  # only a profile the operator installed, never a path
        return name
    if name not in bots.bot_names():
        raise BadOptions(f"no bot called {name!r}; bots: {', '.join(bots.bot_names())}", text=name)
    return name


def pending_draft(match: Match[Any, Any], seat: int) -> bool:
    """Whether `seat` has an action in the record that is still hidden from outsiders.

    Such an action waits for its step to resolve (e.g. Diplomacy orders); the scan stops at
    the first action already shown to everyone after having been hidden.
    """
    epoch = match.rules.epoch(match.state)
    for entry in reversed(match.entries):
        if not isinstance(entry, ActionEntry) or entry.audience.seats is None:
            continue
        reveal = entry.audience.reveal_epoch
        if reveal is None:
            continue  # the seat's own secret for good, not a decision waiting for its step
        if epoch is not None and epoch >= reveal:
            return False  # an earlier step, resolved: everything before it is too
        if entry.seat == seat:
            return True
    return False


def _actor(user: UserRecord) -> str:
    return f"user:{user.id}"


def _host_only(txn: Txn, user: UserRecord, what: str) -> None:
    if txn.row.host_id != user.id:
        raise Forbidden(f"only the host may {what}")


def check_no_files(options: Mapping[str, Any]) -> None:
    """Refuse option values that name files: the server plays its built-in maps only.

    Games read a map or galaxy from a path given in their options when played locally; on
    the server such a path would let a player make it read its own files (and learn of
    them from the errors), so only names are taken here.
    """
    for name, value in options.items():
        if isinstance(value, str) and ("/" in value or "\\" in value or "." in value):
            raise BadRequest(
                f"option {name!r}: the server plays its built-in maps and galaxies by name; "
                "a file is for local play (parley play, the arena)"
            )


class Lobby:
    """Commands on games as a whole and on their seats."""

    def __init__(
        self, tables: Tables, clock: Clock, limits: Limits, *, fixed_seeds: bool = False
    ) -> None:
        self.tables = tables
        self.clock = clock
        self.limits = limits
        self.fixed_seeds = fixed_seeds  # a host's seed used as given (see record.game_seed)

    # --- creating and finding -------------------------------------------------------

    def create(self, user: UserRecord, req: CreateGame, *, sandbox: bool = False) -> GameOut:
        rules = games.find(req.game)
        spec = rules.spec
        position: dict[str, Any] | None = None
        if req.position is not None:
            # The position gives the seats and the options; it is kept as the game writes it.
            # Its options are checked before it is read: reading loads the map it names.
            given = req.position.get("options", {})
            check_no_files(given if isinstance(given, Mapping) else {})
            start = Match.from_position(rules, req.position)
            if req.seats is not None and req.seats != start.seats:
                raise BadOptions(f"the position has {start.seats} seats, not {req.seats}")
            if req.options:
                raise BadOptions("a position carries its options: leave out 'options'")
            seats, options, position = start.seats, dict(start.options), start.position
        else:
            seats = req.seats or spec.default_seats or spec.min_seats
            options = spec.resolve_options(req.options)
        spec.check_seats(seats)
        check_no_files(options)
        check_bot(req.takeover_bot)
        if position is None:
            Match(rules, seats, options, seed=0)  # refuse option sets the game cannot start with
        seed, seed_source = game_seed(req.seed, as_given=self.fixed_seeds)
        now = self.clock.now()
        record = GameRecord(
            id=secrets.token_urlsafe(8),
            game=spec.name,
            name=req.name,
            description=req.description,
            options=dict(options),
            seats=seats,
            period_seconds=req.period_seconds,
            press=req.press,
            private=req.private,
            invite_code=secrets.token_urlsafe(12) if req.private else None,
            host_id=user.id,
            status=GameStatus.LOBBY,
            seed=seed,
            seed_source=seed_source,
            position=position,
            sandbox=sandbox,
            players=(),
            seq=0,
            version=1,
            outcome=None,
            disorder_after=req.disorder_after,
            bot_after=req.bot_after,
            takeover_bot=req.takeover_bot,
            replacements=req.replacements,
            talk_rounds=req.negotiation.rounds if req.negotiation else 0,
            talk_messages=req.negotiation.messages if req.negotiation else 3,
            talk_seconds=req.negotiation.seconds if req.negotiation else 300,
            created_at=now,
            started_at=None,
            ended_at=None,
        )

        def insert(s: Any) -> LiveGame:
            if store.hosted_open_games(s, user.id) >= self.limits.max_games_per_user:
                raise Conflict(
                    f"you host {self.limits.max_games_per_user} open games already; "
                    "finish or close some first"
                )
            store.insert_game(s, record)
            store.insert_member(
                s,
                record.id,
                user_id=user.id,
                role=req.host_role,
                bot=None,
                controller=Controller.HUMAN,
                now=now,
            )
            store.insert_event(s, record.id, EventKind.CREATED.value, {"by": user.username}, now)
            return LiveGame(record, store.members(s, record.id), None, rules)

        live = self.tables.create(insert)
        return game_out(live, now, user)

    def get(self, user: UserRecord | None, game_id: str) -> GameOut:
        def render(live: LiveGame) -> GameOut:
            if live.row.private and (user is None or live.member(user.id) is None):
                raise NotFound(f"there is no game {game_id!r}")  # private games stay unseen
            return game_out(live, self.clock.now(), user)

        return self.tables.view(game_id, render)

    def find(
        self, user: UserRecord, statuses: list[GameStatus], mine: bool, limit: int, offset: int
    ) -> list[GameOut]:
        now = self.clock.now()
        with self.tables.db.read() as s:
            rows = store.list_games(
                s, user_id=user.id, statuses=statuses, mine_only=mine, limit=limit, offset=offset
            )
            members = store.members_of_games(s, [r.id for r in rows])
            deadlines = store.deadlines_of(s, [r.id for r in rows])
        out = []
        for row in rows:
            try:
                rules = games.find(row.game)
            except UnknownGame:
                continue  # a game type no longer installed is left out of the list
            live = LiveGame(row, members.get(row.id, []), deadlines.get(row.id), rules)
            game = game_out(live, now, user)
            you = game.you
            if you is not None and you.seat is not None and row.status is GameStatus.ACTIVE:
                # Your games mark those waiting for you: that needs the game's turn.
                you.owed = self.tables.view(row.id, partial(owed_by, user=user))
            out.append(game)
        return out

    def events(self, user: UserRecord, game_id: str) -> list[dict[str, Any]]:
        self.get(user, game_id)  # the same visibility as the game itself
        with self.tables.db.read() as s:
            # The waiting room's messages are the members' (read at .../waiting-room).
            return [e for e in store.events(s, game_id) if e["kind"] != EventKind.CHAT.value]

    # --- membership -----------------------------------------------------------------

    def join(
        self,
        user: UserRecord,
        game_id: str,
        role: Role,
        invite_code: str | None,
        seat: int | None = None,
    ) -> GameOut:
        def fn(txn: Txn) -> None:
            live, row = txn.live, txn.row
            member = live.member(user.id)
            if row.private and member is None:
                code = row.invite_code or ""
                if not hmac.compare_digest((invite_code or "").encode(), code.encode()):
                    # Without its code, a private game is one the caller may not know of.
                    raise NotFound(f"there is no game {game_id!r}")
            if member is not None:
                self._rejoin(txn, member, role)
                return
            if role is Role.SPECTATOR:
                txn.add_member(user_id=user.id, role=role, bot=None, controller=Controller.HUMAN)
                txn.event(EventKind.JOINED, user=user.username, role=role.value)
                return
            if row.status is GameStatus.LOBBY:
                if len(live.players) >= row.seats:
                    raise Conflict(f"all {row.seats} seats are taken; join as a spectator instead")
                txn.add_member(user_id=user.id, role=role, bot=None, controller=Controller.HUMAN)
                txn.event(EventKind.JOINED, user=user.username, role=role.value)
            elif row.status is GameStatus.ACTIVE:
                self._take_seat(txn, user, seat)
            else:
                raise WrongStatus(f"the game is {row.status.value}; join as a spectator to read it")

        return self._change(user, game_id, fn)

    @staticmethod
    def _take_seat(txn: Txn, user: UserRecord, wanted: int | None) -> None:
        """A newcomer takes a seat that nobody plays and that is open to replacement."""
        live = txn.live
        open_seats = sorted(
            (m for m in live.players if seat_open(live, m)), key=lambda m: m.seat or 0
        )
        if wanted is not None:
            open_seats = [m for m in open_seats if m.seat == wanted]
        if not open_seats:
            which = "that seat is not" if wanted is not None else "no seat is"
            raise Conflict(
                f"{which} open to a newcomer: a seat held by a bot or in civil disorder is "
                "taken over once the host opens it; join as a spectator instead"
            )
        taken = open_seats[0]
        seat = taken.seat
        assert seat is not None
        match = txn.match
        # Orders drafted for the open step by a bot or an earlier player stay theirs: the
        # newcomer starts from the game's default, or waits for the step when it is final.
        drafted = pending_draft(match, seat)
        if drafted and not match.turn().can_act(seat):
            raise Conflict(
                f"{match.seat_labels()[seat]} has decided this step already; "
                "its seat can be taken once the step resolves"
            )
        before = taken.username or ("civil disorder" if taken.bot is None else taken.label)
        previous = taken.user_id
        txn.update_member(
            taken,
            user_id=user.id,
            controller=Controller.HUMAN,
            missed=0,
            bot=None,
            open=False,
            seat_since=match.seq,
        )
        if drafted:
            txn.act_default(seat, actor="takeover")
        if previous is not None:  # the absent player stays on as a reader of the game
            txn.add_member(
                user_id=previous, role=Role.SPECTATOR, bot=None, controller=Controller.HUMAN
            )
        txn.event(EventKind.SEAT_TAKEN, seat=seat, user=user.username, **{"from": before})

    def open_seat(self, user: UserRecord, game_id: str, seat: int, is_open: bool) -> GameOut:
        """The host opens a seat nobody plays to a newcomer (or closes it again)."""

        def fn(txn: Txn) -> None:
            _host_only(txn, user, "open seats to newcomers")
            if txn.row.status is not GameStatus.ACTIVE:
                raise WrongStatus("seats are opened to newcomers while the game runs")
            member = txn.live.at_seat(seat)
            if member is None:
                raise NotFound(f"there is no seat {seat}")
            if member.controller is Controller.HUMAN and member.user_id is not None:
                raise Conflict(
                    "that seat's player is at the table; a seat is opened once it is held by "
                    "a bot or in civil disorder"
                )
            if member.open != is_open:
                txn.update_member(member, open=is_open)
                txn.event(EventKind.SEAT_OPENED, seat=seat, open=is_open, by=user.username)

        return self._change(user, game_id, fn)

    def _rejoin(self, txn: Txn, member: MemberRecord, role: Role) -> None:
        if member.role is role:
            return  # joining twice is harmless
        if txn.row.status is not GameStatus.LOBBY:
            raise Conflict(f"you are in this game as a {member.role.value} already")
        if role is Role.PLAYER and len(txn.live.players) >= txn.row.seats:
            raise Conflict(f"all {txn.row.seats} seats are taken")
        txn.update_member(member, role=role)
        txn.event(EventKind.JOINED, user=member.username, role=role.value)

    def leave(self, user: UserRecord, game_id: str) -> GameOut:
        def fn(txn: Txn) -> None:
            row = txn.row
            member = txn.live.member(user.id)
            if member is None:
                raise NotFound("you are not in this game")
            if row.status.over:
                raise WrongStatus(f"the game is {row.status.value} already")
            if user.id == row.host_id:
                self._close(txn, user, reason="the host left")  # UC 60B: it ends for everyone
                return
            if row.status is GameStatus.LOBBY or member.role is Role.SPECTATOR:
                txn.remove_member(member)
            else:
                controller = (
                    Controller.DISORDER
                    if member.controller is Controller.HUMAN
                    else member.controller
                )
                txn.update_member(member, user_id=None, controller=controller)
            txn.event(EventKind.LEFT, user=user.username, seat=member.seat)

        return self._change(user, game_id, fn)

    def add_bots(self, user: UserRecord, game_id: str, bot: str, count: int) -> GameOut:
        check_bot(bot)

        def fn(txn: Txn) -> None:
            _host_only(txn, user, "add bots")
            if txn.row.status is not GameStatus.LOBBY:
                raise WrongStatus("bots are added in the lobby, before the start")
            room = txn.row.seats - len(txn.live.players)
            if count > room:
                raise Conflict(f"only {room} seat(s) are free")
            for _ in range(count):
                txn.add_member(user_id=None, role=Role.PLAYER, bot=bot, controller=Controller.BOT)
            txn.event(EventKind.BOT_ADDED, bot=bot, count=count)

        return self._change(user, game_id, fn)

    # --- the game's lifecycle -------------------------------------------------------

    def start(self, user: UserRecord, game_id: str, fill_with: str | None) -> GameOut:
        if fill_with is not None:
            check_bot(fill_with)

        def fn(txn: Txn) -> None:
            _host_only(txn, user, "start the game")
            row = txn.row
            if row.status is not GameStatus.LOBBY:
                raise WrongStatus(f"the game is {row.status.value}, not in its lobby")
            if fill_with is not None:
                for _ in range(row.seats - len(txn.live.players)):
                    txn.add_member(
                        user_id=None, role=Role.PLAYER, bot=fill_with, controller=Controller.BOT
                    )
            players = txn.live.players
            if len(players) != row.seats:
                raise Conflict(
                    f"{len(players)} of {row.seats} seats are taken; wait for players "
                    "or fill the rest with bots"
                )
            draw = seat_draw(row.seed, row.seats)
            names = [""] * row.seats
            bot_count = 0
            for member, seat in zip(players, draw, strict=True):
                if member.username is None:
                    bot_count += 1
                    names[seat] = f"{member.bot}-bot-{bot_count}"
                else:
                    names[seat] = member.username
                txn.update_member(member, seat=seat)
            txn.live.match = new_match(txn.live.rules, names, row.options, row.seed, row.position)
            txn.set_game(status=GameStatus.ACTIVE, players=names, started_at=txn.now)
            txn.restart_clock = True
            # The seed stays in the game's row (and the archive after the end): shown now,
            # it would let anyone rerun the game's hidden chance.
            txn.event(EventKind.STARTED, seats=names)

        return self._change(user, game_id, fn)

    def close(self, user: UserRecord, game_id: str) -> GameOut:
        def fn(txn: Txn) -> None:
            _host_only(txn, user, "close the game")
            if txn.row.status.over:
                raise WrongStatus(f"the game is {txn.row.status.value} already")
            self._close(txn, user, reason="closed by the host")

        return self._change(user, game_id, fn)

    @staticmethod
    def _close(txn: Txn, user: UserRecord, reason: str) -> None:
        txn.set_game(status=GameStatus.CLOSED, ended_at=txn.now)
        txn.event(EventKind.CLOSED, by=user.username, reason=reason)

    def takeover(self, user: UserRecord, game_id: str, seat: int, bot: str) -> GameOut:
        check_bot(bot)

        def fn(txn: Txn) -> None:
            _host_only(txn, user, "hand a seat to a bot")
            if txn.row.status is not GameStatus.ACTIVE:
                raise WrongStatus("seats are handed over while the game runs")
            member = txn.live.at_seat(seat)
            if member is None:
                raise NotFound(f"there is no seat {seat}")
            if member.controller is Controller.HUMAN and member.user_id is not None:
                raise Conflict(
                    "that seat's player is active; a seat goes to a bot once it is in "
                    "civil disorder or its player has left"
                )
            txn.update_member(member, controller=Controller.BOT, bot=bot)
            txn.event(EventKind.TAKEOVER, seat=seat, bot=bot, by=user.username)

        return self._change(user, game_id, fn)

    def back(self, user: UserRecord, game_id: str) -> GameOut:
        """ "I'm back": the player takes their seat over from civil disorder or a bot."""

        def fn(txn: Txn) -> None:
            member = txn.live.member(user.id)
            if member is None or member.seat is None:
                raise Forbidden("you hold no seat in this game")
            if txn.row.status is not GameStatus.ACTIVE:
                raise WrongStatus(f"the game is {txn.row.status.value}")
            if member.controller is not Controller.HUMAN or member.missed or member.open:
                txn.update_member(member, controller=Controller.HUMAN, missed=0, open=False)
                txn.event(EventKind.BACK, seat=member.seat, user=user.username)

        return self._change(user, game_id, fn)

    def _change(self, user: UserRecord, game_id: str, fn: Callable[[Txn], None]) -> GameOut:
        _, out = self.tables.change_and_view(
            game_id, fn, _actor(user), lambda live: game_out(live, self.clock.now(), user)
        )
        return out
