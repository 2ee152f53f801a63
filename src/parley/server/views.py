"""What each viewer is shown: game summaries, observations, options, history, records.

Visibility itself is decided by the kernel (`Match.observe`, `Match.history`); this module
only picks the viewer and shapes the answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from parley.kernel import SPECTATOR, ActionEntry, Match, Viewer

from .confirm import tag_confirms
from .errors import Forbidden, NotFound, WrongStatus
from .live import LiveGame
from .schemas import (
    DeadlineOut,
    GameOut,
    LobbyPlayerOut,
    NegotiationOut,
    SeatOut,
    StateOut,
    ViewerOut,
    YouOut,
)
from .talk import messages_left, round_on
from .vocab import Controller, GameStatus, MemberRecord, Replacements, Role, UserRecord


def negotiation_out(live: LiveGame) -> NegotiationOut | None:
    """The game's negotiation rounds and the round on now; None for games without."""
    row = live.row
    if row.talk_rounds == 0:
        return None
    return NegotiationOut(
        rounds=row.talk_rounds,
        messages=row.talk_messages,
        seconds=row.talk_seconds,
        round=round_on(live),
    )


def _negotiation_for(live: LiveGame, seat: int | None) -> dict[str, Any] | None:
    """The game's rounds as a state shows them: with the seat's messages left in a round."""
    talk = negotiation_out(live)
    if talk is None:
        return None
    out = talk.model_dump(mode="json", exclude_none=True)
    if talk.round and seat is not None and live.match is not None:
        out["messages_left"] = messages_left(live.match, seat, live.row.talk_messages)
    return out


def acted_this_step(match: Match[Any, Any]) -> frozenset[int]:
    """Seats whose action in the current step is recorded but still hidden (a pick, orders).

    Only that they acted is told, never what: the record shows outsiders the same.
    """
    epoch = match.rules.epoch(match.state)
    if epoch is None:
        return frozenset()
    seats: set[int] = set()
    for entry in reversed(match.entries):
        if not isinstance(entry, ActionEntry):
            continue
        reveal = entry.audience.reveal_epoch
        if reveal is None or epoch >= reveal:
            break  # an action of an earlier step, or a public one: the step began after it
        seats.add(entry.seat)
    return frozenset(seats)


def table_dict(live: LiveGame, talking: bool) -> dict[str, Any]:
    """Who the table waits for in the current step, and who is done (never what they chose).

    `waiting`: seats owing a decision that have not said they are ready; `done`: seats that
    acted in this step or said they are ready, or have had their say in a window that asks
    seats one after another (`Rules.window`); `later`: seats such a window will still ask,
    in order.
    """
    match = live.match
    if match is None or talking or live.row.status is not GameStatus.ACTIVE:
        return {"waiting": [], "done": [], "later": [], "simultaneous": False}
    turn = match.turn()
    ready = live.ready_seats()
    waiting = turn.owing - ready
    window = live.rules.window(match.state)
    answered = frozenset(window.answered) if window is not None else frozenset()
    later = [s for s in window.later if s not in waiting] if window is not None else []
    done = (acted_this_step(match) | ready | answered) - waiting - set(later)
    return {
        "waiting": sorted(waiting),
        "done": sorted(done),
        "later": later,
        "simultaneous": turn.simultaneous,
    }


def owed_by(live: LiveGame, user: UserRecord) -> str | None:
    """What `user`'s seat owes now (its kind, e.g. "orders"); None if nothing or ready."""
    member = live.member(user.id)
    match = live.match
    if (
        member is None
        or member.seat is None
        or member.role is not Role.PLAYER
        or match is None
        or live.row.status is not GameStatus.ACTIVE
        or round_on(live) > 0  # a negotiation round: nobody acts
    ):
        return None
    if member.seat in live.ready_seats():
        return None
    return next((o.kind for o in match.turn().owed if o.seat == member.seat), None)


def viewer_of(live: LiveGame, user: UserRecord | None) -> Viewer:
    """The seat `user` holds, else a spectator; private games admit members only."""
    member = live.member(user.id) if user is not None else None
    if member is not None and member.seat is not None and member.role is Role.PLAYER:
        return Viewer.of(member.seat)
    if live.row.private and member is None:
        raise NotFound(f"there is no game {live.row.id!r}")  # private games stay unseen
    return SPECTATOR


def seat_open(live: LiveGame, member: MemberRecord) -> bool:
    """Whether a newcomer may take `member`'s seat: nobody plays it, and it was opened."""
    if member.seat is None or live.row.status is not GameStatus.ACTIVE:
        return False
    if member.controller is Controller.HUMAN and member.user_id is not None:
        return False  # its player is at the table
    return member.open or live.row.replacements is Replacements.OPEN


def seat_since(live: LiveGame, user: UserRecord | None) -> int:
    """The record's length when `user` took their seat (0: they have held it from the start)."""
    member = live.member(user.id) if user is not None else None
    if member is None or member.seat is None or member.role is not Role.PLAYER:
        return 0
    return member.seat_since


def iso_utc(at: float) -> str:
    """Epoch seconds as ISO 8601 in UTC, to the millisecond ("2026-11-25T00:49:44.123Z")."""
    return datetime.fromtimestamp(at, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def stamp(entries: list[dict[str, Any]], said_at: Mapping[int, float]) -> list[dict[str, Any]]:
    """`entries` with each message's time (`at`, ISO 8601 UTC) where the store has it."""
    for e in entries:
        if e["type"] == "press" and (at := said_at.get(e["seq"])) is not None:
            e["at"] = iso_utc(at)
    return entries


def history_for(
    match: Match[Any, Any],
    viewer: Viewer,
    since: int = 0,
    hide_before: int = 0,
    said_at: Mapping[int, float] | None = None,
) -> list[dict[str, Any]]:
    """`viewer`'s history; actions before `hide_before` as an outsider sees them.

    A newcomer who took over a seat sees what was decided for it before then only once it
    is public: orders drafted by a bot or an earlier player stay theirs. Messages carry
    their time from `said_at` (the game's `LiveGame.said_at`).
    """
    entries = stamp(match.history(viewer, since=since), said_at or {})
    if hide_before <= since or viewer.seat is None:
        return entries
    outside = {
        e["seq"]: e
        for e in match.history(SPECTATOR, since=since)
        if e["type"] == "action" and e["seq"] < hide_before
    }
    return [outside.get(e["seq"], e) if e["type"] == "action" else e for e in entries]


def deadline_dict(live: LiveGame, now: float) -> dict[str, Any] | None:
    """The current deadline as `DeadlineOut` shapes it (a plain dict: it goes out often)."""
    dl = live.deadline
    if dl is None or live.row.status is not GameStatus.ACTIVE:
        return None
    return {
        "state_id": dl.state_id,
        "at": dl.due_at,
        "at_iso": datetime.fromtimestamp(dl.due_at, UTC).isoformat().replace("+00:00", "Z"),
        "remaining_seconds": max(0.0, dl.due_at - now),
    }


def deadline_out(live: LiveGame, now: float) -> DeadlineOut | None:
    found = deadline_dict(live, now)
    return None if found is None else DeadlineOut(**found)


def _seat_out(live: LiveGame, names: list[str], seat: int) -> SeatOut:
    member = live.at_seat(seat)
    if member is None:
        return SeatOut(
            seat=seat,
            name=names[seat],
            player=None,
            user=None,
            bot=None,
            controller=Controller.DISORDER,
            missed=0,
        )
    holder: str | None = member.username
    if holder is None and member.bot is not None:
        holder = member.label
    return SeatOut(
        seat=seat,
        name=names[seat],
        player=holder,
        user=member.username,
        bot=member.bot,
        controller=member.controller,
        missed=member.missed,
        open=seat_open(live, member),
    )


def game_out(live: LiveGame, now: float, user: UserRecord | None = None) -> GameOut:
    row, match = live.row, live.match
    host = next((m.username for m in live.members if m.user_id == row.host_id), None)
    seats: list[SeatOut] = []
    started = row.status is not GameStatus.LOBBY and bool(row.players)
    if started:
        names = live.rules.seat_labels(row.seats, row.options)
        seats = [_seat_out(live, names, s) for s in range(row.seats)]
    you: YouOut | None = None
    member = live.member(user.id) if user is not None else None
    if member is not None:
        you = YouOut(
            role=member.role,
            seat=member.seat,
            controller=member.controller if member.seat is not None else None,
            host=row.host_id == user.id if user is not None else False,
        )
    elif user is not None and user.id == row.host_id:
        you = YouOut(role=Role.SPECTATOR, seat=None, controller=None, host=True)
    return GameOut(
        id=row.id,
        game=row.game,
        title=live.rules.spec.title,
        name=row.name,
        description=row.description,
        status=row.status,
        host=host,
        press=row.press,
        period_seconds=row.period_seconds,
        private=row.private,
        seat_count=row.seats,
        options=row.options,
        players=[]
        if started
        else [LobbyPlayerOut(player=m.label, bot=m.bot) for m in live.players],
        seats=seats,
        spectators=sum(1 for m in live.members if m.role is Role.SPECTATOR),
        state_id=match.state_id if match is not None else None,
        seq=row.seq,
        deadline=deadline_out(live, now),
        outcome=row.outcome,
        disorder_after=row.disorder_after,
        bot_after=row.bot_after,
        replacements=row.replacements,
        seed_source=row.seed_source,
        from_position=row.position is not None,
        sandbox=row.sandbox,
        negotiation=negotiation_out(live),
        created_at=row.created_at,
        started_at=row.started_at,
        ended_at=row.ended_at,
        invite_code=row.invite_code if user is not None and user.id == row.host_id else None,
        you=you,
        waiting_chat=live.waiting_chat if row.status is GameStatus.LOBBY else 0,
    )


def state_dict(
    live: LiveGame,
    viewer: Viewer,
    now: float,
    *,
    with_options: bool,
    with_text: bool,
    deadline: dict[str, Any] | None,
) -> dict[str, Any]:
    """The viewer's state, shaped as `StateOut` (built directly: it is on the hot path).

    `deadline` is `deadline_dict(live, now)`, passed in as it is the same for every viewer.
    """
    match = live.match
    if match is None:
        raise WrongStatus("the game has not started yet")
    observation = match.observe(viewer)
    seat = viewer.seat
    turn = match.turn()
    talking = round_on(live) > 0  # a negotiation round: press only, nobody acts
    can_act = seat is not None and turn.can_act(seat) and not live.row.status.over and not talking
    options: dict[str, Any] | None = None
    if with_options and can_act and seat is not None:
        options = live.rules.options_tree(match.state, seat).to_json()
        tag_confirms(live.rules, match.state, seat, options)
    return {
        "game_id": live.row.id,
        "status": live.row.status.value,
        "viewer": {"role": "spectator" if seat is None else "player", "seat": seat},
        "state_id": match.state_id,
        "seq": match.seq,
        "observation": observation,
        "can_act": can_act,
        "owes": seat is not None and seat in turn.owing and not talking,
        "revision": None if seat is None else live.revision(seat),
        "options": options,
        "can_undo": seat is not None and not live.row.status.over and match.can_take_back(seat),
        "deadline": deadline,
        "text": live.rules.render(observation["view"]) if with_text else None,
        "negotiation": _negotiation_for(live, seat),
        "table": table_dict(live, talking),
    }


def state_out(
    live: LiveGame, viewer: Viewer, now: float, *, with_options: bool, with_text: bool
) -> StateOut:
    return StateOut.model_validate(
        state_dict(
            live,
            viewer,
            now,
            with_options=with_options,
            with_text=with_text,
            deadline=deadline_dict(live, now),
        )
    )


def past_state_out(
    live: LiveGame, past: Match[Any, Any], viewer: Viewer, with_text: bool
) -> StateOut:
    """The viewer's observation at an earlier point: nothing to act on, no clock."""
    observation = past.observe(viewer)
    return StateOut(
        game_id=live.row.id,
        status=live.row.status,
        viewer=ViewerOut(
            role=Role.SPECTATOR if viewer.seat is None else Role.PLAYER, seat=viewer.seat
        ),
        state_id=past.state_id,
        seq=past.seq,
        observation=observation,
        can_act=False,
        owes=False,
        options=None,
        deadline=None,
        text=live.rules.render(observation["view"]) if with_text else None,
        at=past.seq,
    )


def record_for(live: LiveGame, viewer: Viewer, hide_before: int = 0) -> dict[str, Any]:
    """The record as `viewer` may see it; the archive's only once the game is over."""
    match = live.match
    if match is None:
        raise WrongStatus("the game has not started: there is no record yet")
    meta = {
        "id": live.row.id,
        "name": live.row.name,
        "status": live.row.status.value,
        "seats": match.seat_names(),
        "seed_source": live.row.seed_source,  # a str enum, or None
    }
    if viewer.omniscient:
        if not live.row.status.over:
            raise Forbidden("the full record is published once the game has ended")
        archive = match.to_json()
        stamp(archive["entries"], live.said_at)
        return {**archive, "server": meta}
    record = match.to_json()
    record.pop("seed", None)  # the seed would let anyone rerun the game's hidden chance
    record.pop("position", None)  # a position is the whole truth, hidden parts included
    record.pop("chance", None)
    record["entries"] = history_for(match, viewer, 0, hide_before, live.said_at)
    record["viewer"] = viewer.to_json()
    record["server"] = meta
    return record
