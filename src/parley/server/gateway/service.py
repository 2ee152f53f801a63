"""The agent gateway: decisions with a time budget, answers with retries, private reasoning.

An external agent is a user of the server (it signs up through `register`, joins games
through the lobby like anyone) that plays its seat through decisions:

* `pending` offers the decision its seat owes now — text rendering, JSON observation,
  legal options with ids, notation help — and starts the decision's time budget (the
  first time it is offered).
* `answer` takes an action in notation or by option ids. An invalid or illegal answer
  gets the error back and another try, up to `max_attempts`; the last failure plays the
  seat's default action. An answer after the budget, or none at all (`expire_due`, run on
  every gateway call and by the server's ticker), also plays the default.
* Press sent with an answer goes into the game record like any player's. Reasoning sent
  with an answer is private: only its author reads it while the game runs, and it joins
  the archive record in the research export once the game is over.

Everything the gateway does to a game goes through the server's own services, so seats,
turns, stale states, press rules and persistence are checked exactly as for a person.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from pydantic import JsonValue

from parley import briefing
from parley.kernel import (
    ActionEntry,
    AmbiguousAction,
    IllegalAction,
    InvalidAction,
    OptionNode,
    OutOfTurn,
    StaleState,
)
from parley.server import memory, talk
from parley.server.errors import BadRequest, Conflict, Forbidden, NotFound, ServerError
from parley.server.live import LiveGame, Txn
from parley.server.play import seat_member
from parley.server.schemas import ActionIn
from parley.server.services import Services
from parley.server.settings import Limits
from parley.server.views import history_for, seat_since, viewer_of
from parley.server.vocab import Controller, GameStatus, UserRecord

from .schemas import (
    AgentOut,
    AnswerIn,
    AnswerOut,
    DecisionOut,
    DiaryIn,
    DiaryOut,
    NoteOut,
    NotesOut,
    OptionOut,
    PendingOut,
    RegisterAgent,
    RegisteredOut,
    ResearchOut,
)
from .store import (
    AgentProfile,
    DecisionRecord,
    DecisionStatus,
    GatewayStore,
    MemoryStore,
    Note,
)

log = logging.getLogger(__name__)

# Answers that count against the decision's tries: the agent's input was at fault.
_INVALID = (InvalidAction, IllegalAction, AmbiguousAction, BadRequest)


class BudgetTooLarge(ServerError):
    """An agent asked for more time per decision than the server allows."""

    status, code = 422, "budget_too_large"


@dataclass(frozen=True, slots=True)
class GatewayConfig:
    # Per decision; an agent may ask for less, never more. None: the server's
    # `agent_budget_seconds` limit (PARLEY_AGENT_BUDGET_SECONDS, 60 s by default).
    budget_seconds: float | None = None
    max_attempts: int = 3  # answers per decision; the last invalid one plays the default


@dataclass(frozen=True, slots=True)
class _Seen:
    """One consistent look at a game for one user, taken under the game's lock."""

    game: str
    status: GameStatus
    seat: int | None
    seat_name: str
    state_id: int
    owes: bool
    kind: str
    prompt: str
    observation: dict[str, Any]
    text: str
    tree: OptionNode | None
    composite: bool
    outcome: dict[str, Any] | None
    player: str = ""
    messages: tuple[dict[str, Any], ...] = ()
    last_step: tuple[dict[str, Any], ...] = ()
    draw: dict[str, Any] | None = None
    game_deadline: float | None = None
    negotiation: dict[str, Any] | None = None
    context: dict[str, str] | None = None  # what a model is told besides the board
    recall: memory.Recall | None = None  # what the record says the seat sent and agreed to


class Gateway:
    def __init__(
        self,
        services: Services,
        config: GatewayConfig | None = None,
        store: GatewayStore | None = None,
    ) -> None:
        self.services = services
        config = config or GatewayConfig()
        if config.budget_seconds is None:
            limits: Limits = services.settings.limits
            config = replace(config, budget_seconds=limits.agent_budget_seconds)
        self.config = config
        self.cap: float = config.budget_seconds or 0.0
        self.store: GatewayStore = store or MemoryStore()
        self.clock = services.settings.clock
        self._ticker: asyncio.Task[None] | None = None

    # --- agents ---------------------------------------------------------------------

    def register(self, req: RegisterAgent) -> RegisteredOut:
        if req.budget_seconds is not None and req.budget_seconds > self.cap:
            raise BudgetTooLarge(
                f"a budget of {req.budget_seconds:g} s per decision is more than this "
                f"server allows ({self.cap:g} s): ask for {self.cap:g} s or less"
            )
        user, token = self.services.accounts.register(req.name, req.password)
        budget = req.budget_seconds or self.cap
        profile = AgentProfile(user.id, user.username, req.description, budget)
        self.store.save_agent(profile)
        return RegisteredOut(agent=_agent_out(profile), token=token)

    def profile(self, user: UserRecord) -> AgentOut:
        found = self.store.agent(user.id)
        if found is None:  # any user may play through the gateway, with its defaults
            found = AgentProfile(user.id, user.username, "", self.cap)
        return _agent_out(found)

    def _budget(self, user: UserRecord) -> float:
        found = self.store.agent(user.id)
        # A profile saved under a larger cap gets the current one.
        return min(found.budget_seconds, self.cap) if found is not None else self.cap

    # --- decisions ------------------------------------------------------------------

    def _look(self, user: UserRecord, game_id: str) -> _Seen:
        def look(live: LiveGame) -> _Seen:
            match = live.match
            if match is None:  # still in the lobby
                if live.member(user.id) is None:
                    raise Forbidden("you are not a player in this game")
                return _Seen(
                    game=live.row.game,
                    status=live.row.status,
                    seat=None,
                    seat_name="",
                    state_id=0,
                    owes=False,
                    kind="",
                    prompt="",
                    observation={},
                    text="",
                    tree=None,
                    composite=False,
                    outcome=None,
                )
            member = seat_member(live, user)
            seat = member.seat
            assert seat is not None
            viewer = viewer_of(live, user)
            observation = match.observe(viewer)
            turn = match.turn()
            owed = next((o for o in turn.owed if o.seat == seat), None)
            on = talk.round_on(live)
            negotiation = (
                {
                    "round": on,
                    "rounds": live.row.talk_rounds,
                    "messages_left": talk.messages_left(match, seat, live.row.talk_messages),
                    "ends_at": live.deadline.due_at if live.deadline is not None else None,
                    "how": "send press (POST /api/games/{id}/press); actions open after the "
                    "last round",
                }
                if on
                else None
            )
            owes = (
                owed is not None
                and live.row.status is GameStatus.ACTIVE
                and member.controller is Controller.HUMAN
                and not on
            )
            tree = live.rules.options_tree(match.state, seat) if owes else None
            names = match.seat_names()
            since = _last_decision(match, seat, seat_since(live, user))
            recent = history_for(match, viewer, since, seat_since(live, user), live.said_at)
            messages = tuple(
                {**_pick(e, ("seq", "seat", "text", "to", "channel", "at")), "from": _who(e, names)}
                for e in recent
                if e.get("type") == "press" and e.get("seat") != seat
            )
            last_step = tuple(
                {**_pick(e, ("seq", "seat", "notation", "auto", "hidden")), "by": _who(e, names)}
                for e in recent
                if e.get("type") == "action"
            )
            deadline = live.deadline
            return _Seen(
                game=live.rules.spec.name,
                status=live.row.status,
                seat=seat,
                seat_name=match.seat_names()[seat],
                state_id=match.state_id,
                owes=owes,
                kind=owed.kind if owed is not None else "",
                prompt=owed.prompt if owed is not None else "",
                observation=observation,
                text=live.rules.render(observation["view"]),
                tree=tree,
                composite=bool(tree is not None and tree.each),
                outcome=live.row.outcome,
                player=user.username,
                negotiation=negotiation,
                context=briefing.context(live.rules, match, seat),
                recall=memory.recall(match, seat) if owes or on else None,
                messages=messages,
                last_step=last_step,
                draw=_draw_status(match, seat, recent),
                game_deadline=(
                    deadline.due_at
                    if deadline is not None and deadline.state_id == match.state_id
                    else None
                ),
            )

        return self.services.tables.view(game_id, look)

    def pending(self, user: UserRecord, game_id: str) -> PendingOut:
        """The decision the user's seat owes now (its budget starts when first offered)."""
        self.expire_due()
        seen = self._look(user, game_id)
        if not seen.owes or seen.seat is None or seen.tree is None:
            status = seen.status.value if seen.status is not GameStatus.ACTIVE else "waiting"
            if seen.negotiation is not None:
                return self._negotiating(seen, game_id)
            return PendingOut(pending=False, status=status, outcome=seen.outcome)
        record = self.store.decision(game_id, seat := seen.seat, seen.state_id)
        now = self.clock.now()
        if record is None:
            budget = self._budget(user)
            record = DecisionRecord(game_id, seat, seen.state_id, user.id, now, now + budget)
            self.store.save_decision(record)
        if record.status is not DecisionStatus.OPEN:
            return PendingOut(pending=False, status="waiting")
        return PendingOut(
            pending=True, status=seen.status.value, decision=self._decision_out(seen, record, now)
        )

    def _negotiating(self, seen: _Seen, game_id: str) -> PendingOut:
        """A negotiation round: press only, with who the seat is and the board."""
        out = PendingOut(
            pending=False,
            status="negotiating",
            outcome=seen.outcome,
            negotiation=seen.negotiation,
            messages=list(seen.messages),
            you={
                "game": seen.game,
                "game_id": game_id,
                "seat": seen.seat,
                "seat_name": seen.seat_name,
                "player": seen.player,
                "seats": [str(s) for s in seen.observation.get("seats") or []],
                "text": seen.text,
                **(seen.context or {}),
                "memory": self._memory_text(game_id, seen),
            },
        )
        out.briefing = briefing.negotiation_text(out.model_dump(), self.clock.now())
        if out.you and out.you.get("memory"):
            out.briefing += "\n\n" + str(out.you["memory"])
        return out

    def _decision_out(self, seen: _Seen, record: DecisionRecord, now: float) -> DecisionOut:
        assert seen.tree is not None and seen.seat is not None
        options = [
            OptionOut(id=oid, notation=text, group=group, group_label=label)
            for oid, text, group, label in _flatten(seen.tree)
        ]
        if seen.composite:
            how = (
                "answer one option per group (their ids in 'options'), or the whole action in "
                "notation, the parts joined by '; '"
            )
        else:
            how = "answer one option id in 'options', or the action in notation in 'action'"
        out = DecisionOut(
            decision=record.id,
            game_id=record.game_id,
            game=seen.game,
            seat=seen.seat,
            seat_name=seen.seat_name,
            state_id=seen.state_id,
            kind=seen.kind,
            prompt=seen.prompt,
            text=seen.text,
            observation=seen.observation,
            options=options,
            composite=seen.composite,
            player=seen.player,
            messages=list(seen.messages),
            last_step=list(seen.last_step),
            draw=seen.draw,
            game_deadline=seen.game_deadline,
            budget_seconds=record.deadline - record.opened_at,
            deadline=record.deadline,
            remaining_seconds=max(0.0, record.deadline - now),
            attempts_left=self.config.max_attempts - record.attempts,
            notation_help=how,
            **(seen.context or {}),
        )
        out.memory = self._memory_text(record.game_id, seen)
        out.briefing = briefing.decision_text({"decision": out.model_dump()}, now)
        if out.memory:
            out.briefing += "\n\n" + out.memory
        return out

    # --- memory -----------------------------------------------------------------------

    def _memory_text(self, game_id: str, seen: _Seen) -> str:
        """The seat's memory within the budget: its diary, deals and sent messages."""
        if seen.seat is None:
            return ""
        with self.services.tables.db.read() as s:
            entries = memory.diary(s, game_id, seen.seat)
        return memory.memory_text(seen.recall or memory.Recall(), entries)

    def write_diary(self, user: UserRecord, game_id: str, req: DiaryIn) -> DiaryOut:
        """Add an entry to the diary of the user's seat (shown in its later decisions)."""

        def look(live: LiveGame) -> tuple[int, int]:
            if live.match is None:
                raise Conflict("the game has not started: a diary starts with the game")
            seat = seat_member(live, user).seat
            assert seat is not None
            return seat, live.match.state_id

        seat, state_id = self.services.tables.view(game_id, look)
        entry = self._keep_diary(game_id, seat, state_id, req.text)
        with self.services.tables.db.read() as s:
            count = len(memory.diary(s, game_id, seat))
        return DiaryOut(
            game_id=game_id,
            seat=seat,
            state_id=entry.state_id,
            at=entry.at,
            text=entry.text,
            entries=count,
        )

    def _keep_diary(self, game_id: str, seat: int, state_id: int, text: str) -> memory.DiaryEntry:
        try:
            with self.services.tables.db.write() as s:
                return memory.add_diary(s, game_id, seat, state_id, self.clock.now(), text)
        except memory.DiaryError as err:
            raise BadRequest(str(err)) from None

    def answer(self, user: UserRecord, game_id: str, req: AnswerIn) -> AnswerOut:
        """Play the agent's answer, or say why not; see the module docstring for the rules."""
        record = self._record(user, game_id, req.decision)
        now = self.clock.now()
        if record.status is DecisionStatus.OPEN and now > record.deadline:
            record = self._default(record, DecisionStatus.TIMED_OUT)
        if record.status is DecisionStatus.TIMED_OUT:
            return AnswerOut(
                status="timed_out",
                decision=record.id,
                played=record.played,
                error={"error": "timeout", "message": "the decision's time budget ran out"},
                attempts_left=0,
            )
        if record.status is not DecisionStatus.OPEN:
            raise Conflict(f"decision {record.id} is closed ({record.status.value})")
        # A refused answer changes nothing: its press goes out in the same change as its
        # action, and its reasoning is kept only once the action is in.
        try:
            action = self._action_in(user, game_id, record, req)
            out = self.services.play.act(user, game_id, action, req.press)
        except _INVALID as err:
            return self._refused(record, _error_json(err))
        except (StaleState, OutOfTurn) as err:
            self.store.save_decision(replace(record, status=DecisionStatus.GONE))
            raise Conflict(f"decision {record.id} is no longer current: {err.message}") from None
        if req.reasoning:
            self.store.add_note(
                Note(game_id, record.seat, record.state_id, user.id, now, req.reasoning)
            )
        if req.diary and req.diary.strip():
            self._keep_diary(game_id, record.seat, record.state_id, req.diary)
        played = out.entry.get("notation")
        self.store.save_decision(
            replace(
                record,
                status=DecisionStatus.ACCEPTED,
                played=played if isinstance(played, str) else None,
            )
        )
        return AnswerOut(
            status="accepted",
            decision=record.id,
            played=played if isinstance(played, str) else None,
            attempts_left=self.config.max_attempts - record.attempts - 1,
            state_id=out.state_id,
        )

    def _record(self, user: UserRecord, game_id: str, text: str) -> DecisionRecord:
        try:
            gid, seat, state_id = text.rsplit(".", 2)
            found = self.store.decision(gid, int(seat), int(state_id))
        except ValueError:
            found = None
        if found is None or found.game_id != game_id or found.user_id != user.id:
            raise NotFound(f"no decision {text!r} was offered to you in game {game_id}")
        return found

    def _action_in(
        self, user: UserRecord, game_id: str, record: DecisionRecord, req: AnswerIn
    ) -> ActionIn:
        if (req.action is None) == (req.options is None):
            raise BadRequest("answer with either 'action' (notation) or 'options' (ids)")
        if req.action is not None:
            return ActionIn(action=req.action, state_id=record.state_id)
        seen = self._look(user, game_id)
        if seen.tree is None or seen.state_id != record.state_id:
            raise StaleState("the game has moved on", state_id=seen.state_id)
        by_id = {oid: (text, group) for oid, text, group, _ in _flatten(seen.tree)}
        assert req.options is not None
        unknown = [o for o in req.options if o not in by_id]
        if unknown:
            raise BadRequest(f"no option {unknown[0]!r} in this decision")
        if not seen.composite:
            if len(req.options) != 1:
                raise BadRequest("this decision takes exactly one option")
            return ActionIn(action=by_id[req.options[0]][0], state_id=record.state_id)
        groups = [by_id[o][1] for o in req.options]
        if len(set(groups)) != len(groups):
            raise BadRequest("one option per group: two answers were given for one group")
        parts: list[JsonValue] = [by_id[o][0] for o in req.options]
        return ActionIn(parts=parts, state_id=record.state_id)

    def _refused(self, record: DecisionRecord, error: dict[str, JsonValue]) -> AnswerOut:
        record = replace(record, attempts=record.attempts + 1)
        self.store.save_decision(record)
        left = self.config.max_attempts - record.attempts
        if left > 0:
            return AnswerOut(status="rejected", decision=record.id, error=error, attempts_left=left)
        record = self._default(record, DecisionStatus.DEFAULTED)
        return AnswerOut(
            status="defaulted" if record.status is DecisionStatus.DEFAULTED else "rejected",
            decision=record.id,
            played=record.played,
            error=error,
            attempts_left=0,
        )

    def _default(self, record: DecisionRecord, why: DecisionStatus) -> DecisionRecord:
        """Play the seat's default action if the decision is still the game's; close it."""

        def fn(txn: Txn) -> str | None:
            match = txn.match
            member = txn.live.at_seat(record.seat)
            if (
                txn.status is not GameStatus.ACTIVE
                or match.state_id != record.state_id
                or record.seat not in match.turn().owing
                or member is None
                or member.user_id != record.user_id
                or member.controller is not Controller.HUMAN
            ):
                return None
            entry = txn.act_default(record.seat, actor=f"gateway:{why.value}")
            return match.rules.format(entry.action)

        try:
            played = self.services.tables.change(record.game_id, fn, f"gateway:{why.value}")
        except (ServerError, StaleState, OutOfTurn) as err:
            log.warning("default for decision %s not played: %s", record.id, err)
            played = None
        status = why if played is not None else DecisionStatus.GONE
        closed = replace(record, status=status, played=played)
        self.store.save_decision(closed)
        return closed

    def expire_due(self) -> int:
        """Play the default for every open decision whose budget has run out; how many."""
        now = self.clock.now()
        expired = 0
        for record in self.store.open_decisions():
            if now <= record.deadline:
                continue
            if self._default(record, DecisionStatus.TIMED_OUT).status is DecisionStatus.TIMED_OUT:
                expired += 1
        return expired

    # --- reasoning and the research export ------------------------------------------

    def my_notes(self, user: UserRecord, game_id: str) -> NotesOut:
        self.services.tables.view(game_id, lambda live: viewer_of(live, user))
        notes = [n for n in self.store.notes(game_id) if n.user_id == user.id]
        return NotesOut(game_id=game_id, notes=[_note_out(n) for n in notes])

    def research(self, user: UserRecord, game_id: str) -> ResearchOut:
        """The archive record with every agent's reasoning, once the game is over."""
        record = self.services.play.record(user, game_id, archive=True).record
        decisions: list[dict[str, JsonValue]] = [
            {
                "decision": d.id,
                "seat": d.seat,
                "state_id": d.state_id,
                "opened_at": d.opened_at,
                "deadline": d.deadline,
                "attempts": d.attempts,
                "status": d.status.value,
                "played": d.played,
            }
            for d in self.store.decisions_of(game_id)
        ]
        return ResearchOut(
            game_id=game_id,
            record=record,
            reasoning=[_note_out(n) for n in self.store.notes(game_id)],
            decisions=decisions,
        )

    # --- the ticker -----------------------------------------------------------------

    def start(self, every_seconds: float, sleep: Callable[[float], Any] = asyncio.sleep) -> None:
        """Expire overdue decisions every `every_seconds` (call from the app's lifespan)."""

        async def tick() -> None:
            import anyio.to_thread

            while True:
                await sleep(every_seconds)
                try:
                    await anyio.to_thread.run_sync(self.expire_due)
                except Exception:  # the ticker must outlive one bad game
                    log.exception("expiring agent decisions failed")

        self._ticker = asyncio.create_task(tick(), name="parley-agent-gateway")

    async def stop(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None


def _last_decision(match: Any, seat: int, floor: int) -> int:
    """Where the seat's previous decision sits in the record (`floor` if it made none)."""
    for entry in reversed(match.entries):
        if entry.seq < floor:
            break
        if isinstance(entry, ActionEntry) and entry.seat == seat:
            return int(entry.seq)
    return floor


def _pick(entry: dict[str, Any], keys: tuple[str, ...]) -> dict[str, Any]:
    return {k: entry[k] for k in keys if k in entry}


def _who(entry: dict[str, Any], names: list[str]) -> str:
    seat = entry.get("seat")
    return "the table" if seat is None else names[int(seat)]


def _draw_status(match: Any, seat: int, recent: list[dict[str, Any]]) -> dict[str, Any]:
    """The draw as the seat may see it: an open proposal and who has voted (not how)."""
    voted = sorted(match.pending_draw_votes())
    decided = [e for e in recent if e.get("type") == "draw"]
    status: dict[str, Any] = {
        "open": bool(voted),
        "voted": voted,
        "you_voted": seat in voted,
        "how": "vote with accept true (proposing one if none is open) or false (rejecting it)",
    }
    if decided:
        last = decided[-1]
        status["last_decision"] = {"agreed": last.get("agreed"), "votes": last.get("votes")}
    return status


def _agent_out(profile: AgentProfile) -> AgentOut:
    return AgentOut(
        user_id=profile.user_id,
        name=profile.name,
        description=profile.description,
        budget_seconds=profile.budget_seconds,
    )


def _note_out(note: Note) -> NoteOut:
    return NoteOut(seat=note.seat, state_id=note.state_id, at=note.at, text=note.text)


def _error_json(err: Exception) -> dict[str, JsonValue]:
    if isinstance(err, ServerError):
        return {"error": err.code, "message": err.message}
    body = err.to_json() if hasattr(err, "to_json") else {"error": "invalid", "message": str(err)}
    return {str(k): v for k, v in body.items()}


def _flatten(tree: OptionNode) -> list[tuple[str, str, str, str]]:
    """(option id, notation, group key, group label) for every leaf of an options tree."""
    out: list[tuple[str, str, str, str]] = []

    def walk(node: OptionNode, path: tuple[str, ...], group: OptionNode | None) -> None:
        if node.action is not None:
            top = group or node
            out.append(("/".join(path), node.action, top.key if group else "", top.label))
            return
        for child in node.children:
            walk(child, (*path, child.key), group or child if node is tree else group)

    walk(tree, (), None)
    return out
