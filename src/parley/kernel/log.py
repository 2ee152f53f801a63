"""The event log: a game is a fold over (game, options, players, seed) and its entries.

`Match` is one running game: it checks turn and staleness, applies actions through the
rules, keeps press and draw votes in the same ordered record, redacts everything per
viewer, and replays or forks from any point.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic

from .errors import (
    BadPosition,
    IllegalAction,
    InvalidAction,
    OutOfTurn,
    ParleyError,
    RecordError,
    StaleState,
)
from .game import JSON, PUBLIC, A, Audience, Outcome, Rules, S, Setup, Turn, Viewer
from .options import OptionValue
from .rng import Draw, Rng, Script, as_draws

RECORD_FORMAT = "parley.record"
RECORD_VERSION = 1
MAX_PRESS_CHARS = 4000


@dataclass(frozen=True, slots=True)
class ActionEntry(Generic[A]):
    """An action a seat took; `auto` when the system took it for the seat (deadline, disorder)."""

    seq: int
    seat: int
    action: A
    audience: Audience = PUBLIC
    auto: bool = False


@dataclass(frozen=True, slots=True)
class PressEntry:
    """A message. `to` None is the public channel; otherwise the seats it was sent to."""

    seq: int
    seat: int | None
    text: str
    to: frozenset[int] | None = None
    channel: str = ""

    def admits(self, viewer: Viewer) -> bool:
        if self.to is None or viewer.omniscient:
            return True
        return viewer.seat is not None and (viewer.seat == self.seat or viewer.seat in self.to)


@dataclass(frozen=True, slots=True)
class VoteEntry:
    """A draw vote; private to the voter until the proposal is decided."""

    seq: int
    seat: int
    accept: bool


@dataclass(frozen=True, slots=True)
class DrawEntry:
    """The decision on a draw proposal, public, with every vote."""

    seq: int
    agreed: bool
    votes: tuple[tuple[int, bool], ...]


@dataclass(frozen=True, slots=True)
class TakebackEntry:
    """`seat` took back its action at `undone` (the record keeps both: replay honours this)."""

    seq: int
    seat: int
    undone: int


Entry = ActionEntry[Any] | PressEntry | VoteEntry | DrawEntry | TakebackEntry


@dataclass(slots=True)
class _DrawTally:
    votes: dict[int, bool] = field(default_factory=dict)


class Match(Generic[S, A]):
    """One game in progress or finished, with its complete record."""

    def __init__(
        self,
        rules: Rules[S, A],
        players: int | Sequence[str],
        options: Mapping[str, Any] | None = None,
        seed: int = 0,
        *,
        chance: Iterable[Any] | None = None,
    ) -> None:
        names = [f"seat{i}" for i in range(players)] if isinstance(players, int) else list(players)
        rules.spec.check_seats(len(names))
        self.rules = rules
        self.players = names
        self.options: dict[str, OptionValue] = rules.spec.resolve_options(options)
        self.seed = seed
        # A scripted match draws every random result, set-up included, from its script.
        self.chance: list[Draw] | None = None if chance is None else as_draws(chance)
        self.position: dict[str, JSON] | None = None
        rng = Rng(seed) if self.chance is None else Script(self.chance, seed)
        self.state: S = rules.setup(Setup(len(names), dict(self.options), rng))
        self.entries: list[Entry] = []
        self.ply = 0
        self._draw = _DrawTally()
        self._agreed_draw: Outcome | None = None
        self._turn_cache: Turn | None = None
        self._undo: tuple[int, S] | None = None  # (seq, state before) of an undoable action

    @classmethod
    def from_position(
        cls,
        rules: Rules[S, A],
        position: Mapping[str, Any],
        players: Sequence[str] | None = None,
        *,
        chance: Iterable[Any] | None = None,
    ) -> Match[S, A]:
        """A match that starts from `position` (the game's position format) and plays on
        under the same checks as any match; its record starts with the position.

        With `chance`, the random results from here on come from that script (see
        `rng.Script`); otherwise from the generator the position carries.
        """
        if not isinstance(position, Mapping):
            raise BadPosition("a position is a JSON object")
        game = position.get("game", rules.spec.name)
        if game != rules.spec.name:
            raise BadPosition(f"game: the position is of {game!r}, not {rules.spec.name!r}")
        state = rules.read_position(position)
        seats = rules.seat_count(state)
        rules.spec.check_seats(seats)
        names = [f"seat{i}" for i in range(seats)] if players is None else list(players)
        if len(names) != seats:
            raise BadPosition(
                f"the position has {seats} seats, but {len(names)} players were named"
            )
        raw_options = position.get("options", {})
        if not isinstance(raw_options, Mapping):
            raise BadPosition("options: expected an object of option values")
        match: Match[S, A] = cls.__new__(cls)
        match.rules = rules
        match.players = names
        match.options = rules.spec.resolve_options(raw_options)
        match.seed = 0
        match.chance = None if chance is None else as_draws(chance)
        # The record keeps the position as the game writes it: the same facts, tidied.
        match.position = rules.write_position(state)
        match.state = match.start_state()
        match.entries = []
        match.ply = 0
        match._draw = _DrawTally()
        match._agreed_draw = None
        match._turn_cache = None
        match._undo = None
        return match

    # --- reading --------------------------------------------------------------------

    def start_state(self) -> S:
        """A fresh copy of the state this match started from: its position, or its set-up
        (scripted as the match was), for tools that replay the actions on their own."""
        if self.position is not None:
            state = self.rules.read_position(self.position)
            if self.chance is not None:
                base = self.rules.state_rng(state)
                self.rules.set_state_rng(state, Script(self.chance, base.state if base else 0))
            return state
        rng = Rng(self.seed) if self.chance is None else Script(self.chance, self.seed)
        return self.rules.setup(Setup(self.seats, dict(self.options), rng))

    def script(self) -> Script | None:
        """The script the rules draw from, when this match was given one."""
        rng = self.rules.state_rng(self.state)
        return rng if isinstance(rng, Script) else None

    def finish_chance(self) -> None:
        """Raise ChanceError unless every scripted random result has been used."""
        script = self.script()
        if script is not None:
            script.finish()

    @property
    def seats(self) -> int:
        return len(self.players)

    @property
    def seq(self) -> int:
        """How many entries the record holds (the next entry's sequence number)."""
        return len(self.entries)

    @property
    def state_id(self) -> int:
        """What an action must be aimed at: the rules' epoch, or the count of actions."""
        epoch = self.rules.epoch(self.state)
        return self.ply if epoch is None else epoch

    def turn(self) -> Turn:
        if self._turn_cache is None:
            self._turn_cache = Turn() if self.outcome() is not None else self.rules.turn(self.state)
        return self._turn_cache

    def outcome(self) -> Outcome | None:
        return self._agreed_draw or self.rules.outcome(self.state)

    @property
    def is_over(self) -> bool:
        return self.outcome() is not None

    def seat_names(self) -> list[str]:
        return self.rules.seat_names(self.seats, self.options)

    def seat_labels(self) -> list[str]:
        """The seats' names as people read them (`Rules.seat_labels`)."""
        return self.rules.seat_labels(self.seats, self.options)

    def legal_actions(self, seat: int) -> Sequence[A]:
        self._check_seat(seat)
        if not self.turn().can_act(seat):
            return ()
        return self.rules.legal_actions(self.state, seat)

    # --- acting ---------------------------------------------------------------------

    def parse(self, text: str, seat: int | None = None) -> A:
        return self.rules.parse(text, self.state, seat)

    def act(
        self,
        seat: int,
        action: A | str,
        *,
        state_id: int | None = None,
        auto: bool = False,
    ) -> ActionEntry[A]:
        """Apply one action for `seat`; raises before any change when it can't be applied."""
        self._check_seat(seat)
        if self.is_over:
            raise OutOfTurn("the game is over", state_id=self.state_id, reason="game_over")
        turn = self.turn()
        if not turn.can_act(seat):
            raise OutOfTurn(
                self.out_of_turn_message(seat, action),
                state_id=self.state_id,
                reason="not_your_turn",
            )
        if state_id is not None and state_id != self.state_id:
            raise StaleState(
                f"the action was aimed at state {state_id}, but the game is at {self.state_id}",
                state_id=self.state_id,
                reason="stale",
            )
        if isinstance(action, str):
            action = self.rules.parse(action, self.state, seat)
        audience = self.rules.audience(self.state, seat, action)
        # The state before, kept while the action may still be taken back (games opt in).
        keep = self.rules.takes_back and not auto
        keep = keep and self.rules.may_take_back(self.state, seat, action)
        before = self.rules.clone(self.state) if keep else None
        self.rules.apply(self.state, seat, action)
        entry = ActionEntry(self.seq, seat, action, audience, auto)
        self.entries.append(entry)
        self._undo = (
            (entry.seq, before)
            if before is not None
            and not auto
            and self.rules.undoable(before, seat, action, self.state)
            else None
        )
        self.ply += 1
        self._turn_cache = None
        if self._draw.votes:
            self._draw = _DrawTally()  # a pending proposal lapses once the game moves on
        return entry

    def can_take_back(self, seat: int) -> bool:
        """Whether `seat` may take back its last action now: the rules allow it, and no
        other action (nor draw vote) has been recorded since."""
        undo = getattr(self, "_undo", None)  # matches pickled before takebacks lack it
        if undo is None or self.is_over:
            return False
        last = next((e for e in reversed(self.entries) if not isinstance(e, PressEntry)), None)
        return isinstance(last, ActionEntry) and last.seq == undo[0] and last.seat == seat

    def take_back(self, seat: int) -> TakebackEntry:
        """Take back `seat`'s last action: the state returns to what it was before it, and a
        takeback entry records it (the action stays in the record)."""
        self._check_seat(seat)
        if not self.can_take_back(seat):
            raise IllegalAction(
                f"{self._seat_label(seat)} has no action to take back now: only one's own "
                "last action, before anyone else acts and before it revealed anything",
                state_id=self.state_id,
                reason="no_takeback",
            )
        undone, before = self._undo  # type: ignore[misc]
        self.state = before
        self._undo = None
        entry = TakebackEntry(self.seq, seat, undone)
        self.entries.append(entry)
        self.ply += 1  # a new state id: clients and deadlines see the change
        self._turn_cache = None
        return entry

    def act_default(self, seat: int) -> ActionEntry[A]:
        """The seat's default action, taken for it (deadline passed, civil disorder)."""
        return self.act(seat, self.rules.default_action(self.state, seat), auto=True)

    def say(
        self,
        seat: int | None,
        text: str,
        to: Sequence[int] | None = None,
        channel: str = "",
    ) -> PressEntry:
        """Record a message; `seat` None is the system or game master."""
        if seat is not None:
            self._check_seat(seat)
        if not text.strip():
            raise InvalidAction("a message needs some text", text=text)
        if len(text) > MAX_PRESS_CHARS:
            raise InvalidAction(
                f"a message may be at most {MAX_PRESS_CHARS} characters, this one has {len(text)}"
            )
        recipients: frozenset[int] | None = None
        if to is not None:
            for s in to:
                self._check_seat(s)
            recipients = frozenset(to) - ({seat} if seat is not None else set())
            if not recipients:
                raise InvalidAction("a private message needs at least one other recipient")
        entry = PressEntry(self.seq, seat, text, recipients, channel)
        self.entries.append(entry)
        return entry

    def vote_draw(self, seat: int, accept: bool) -> DrawEntry | None:
        """Vote on a draw among the surviving seats; unanimity ends the game, one no rejects.

        A first yes vote is the proposal. Returns the decision once there is one.
        """
        self._check_seat(seat)
        if self.is_over:
            raise OutOfTurn("the game is over", state_id=self.state_id)
        alive = self.rules.alive(self.state)
        if seat not in alive:
            raise IllegalAction(f"{self._seat_label(seat)} is out of the game and cannot vote")
        if not accept and not self._draw.votes:
            raise IllegalAction("there is no draw proposal to reject")
        self.entries.append(VoteEntry(self.seq, seat, accept))
        self._draw.votes[seat] = accept
        if not accept or alive <= set(self._draw.votes):
            agreed = accept and all(self._draw.votes.get(s, False) for s in alive)
            decision = DrawEntry(self.seq, agreed, tuple(sorted(self._draw.votes.items())))
            self.entries.append(decision)
            self._draw = _DrawTally()
            if agreed:
                self._agreed_draw = Outcome.shared(
                    alive, self.seats, "draw agreed by all survivors"
                )
                self._turn_cache = None
            return decision
        return None

    def pending_draw_votes(self) -> frozenset[int]:
        """Seats that have voted on the open proposal (not how they voted)."""
        return frozenset(self._draw.votes)

    # --- views ----------------------------------------------------------------------

    def observe(self, viewer: Viewer) -> dict[str, JSON]:
        """The viewer's whole picture: kernel envelope plus the game's own observation."""
        outcome = self.outcome()
        return {
            "game": self.rules.spec.name,
            "state_id": self.state_id,
            "seq": self.seq,
            "viewer": viewer.to_json(),
            "seats": self.seat_names(),
            "players": list(self.players),
            "turn": self.turn().to_json(),
            "outcome": outcome.to_json() if outcome else None,
            "draw_votes": sorted(self._draw.votes) if self._draw.votes else [],
            "view": self.rules.observe(self.state, viewer),
        }

    def history(self, viewer: Viewer, since: int = 0) -> list[dict[str, JSON]]:
        """The record from `since` on, as `viewer` may see it."""
        epoch_now = self.rules.epoch(self.state)
        return [
            _entry_json(self.rules, e, viewer, epoch_now)
            for e in self.entries[since:]
            if not (isinstance(e, PressEntry) and not e.admits(viewer))
        ]

    # --- record, replay, fork -------------------------------------------------------

    def to_json(self) -> dict[str, JSON]:
        """The complete (omniscient) record, versioned."""
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.rules.spec.name,
            "options": dict(self.options),
            "players": list(self.players),
            "seed": self.seed,
            **({"position": self.position} if self.position is not None else {}),
            **({"chance": [list(d) for d in self.chance]} if self.chance is not None else {}),
            "entries": [
                _entry_json(self.rules, e, Viewer(omniscient=True), None) for e in self.entries
            ],
            "outcome": (o.to_json() if (o := self.outcome()) else None),
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps(), encoding="utf-8")

    def fork(self, at: int) -> Match[S, A]:
        """A new match replaying the first `at` entries of this record."""
        if not 0 <= at <= self.seq:
            raise RecordError(f"cannot fork at entry {at}: the record has {self.seq} entries")
        record = self.to_json()
        record["entries"] = record["entries"][:at]
        return replay(self.rules, record)

    def copy(self) -> Match[S, A]:
        """An independent match at the same point (fast: clones state, shares entries)."""
        twin: Match[S, A] = Match.__new__(Match)
        twin.rules = self.rules
        twin.players = list(self.players)
        twin.options = dict(self.options)
        twin.seed = self.seed
        twin.chance = self.chance
        twin.position = self.position
        twin.state = self.rules.clone(self.state)
        twin.entries = list(self.entries)
        twin.ply = self.ply
        twin._draw = _DrawTally(dict(self._draw.votes))
        twin._agreed_draw = self._agreed_draw
        twin._turn_cache = None
        undo = getattr(self, "_undo", None)
        twin._undo = None if undo is None else (undo[0], self.rules.clone(undo[1]))
        return twin

    # --- helpers --------------------------------------------------------------------

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.seats:
            raise InvalidAction(f"there is no seat {seat!r}; seats are 0–{self.seats - 1}")

    def out_of_turn_message(self, seat: int, action: A | str | None = None) -> str:
        """Why `seat` may not act now: whose decision it is, and what the game adds."""
        turn = self.turn()
        plain = f"{self._seat_label(seat)} has nothing to decide now"
        owing = sorted(turn.owing)
        if owing and not turn.simultaneous:
            plain += f"; {', '.join(self._seat_label(s) for s in owing)} to act"
        if action is None:
            return plain
        try:
            parsed = (
                self.rules.parse(action, self.state, seat) if isinstance(action, str) else action
            )
            detail = self.rules.out_of_turn(self.state, seat, parsed)
        except ParleyError:
            detail = None  # text that is no action at all: whose turn it is says enough
        return f"{plain}: {detail}" if detail else plain

    def _seat_label(self, seat: int) -> str:
        names = self.seat_labels()
        return names[seat] if seat < len(names) else f"seat {seat}"


def _entry_json(
    rules: Rules[Any, Any], entry: Entry, viewer: Viewer, epoch_now: int | None
) -> dict[str, JSON]:
    if isinstance(entry, ActionEntry):
        out: dict[str, JSON] = {"seq": entry.seq, "type": "action", "seat": entry.seat}
        if entry.auto:
            out["auto"] = True
        if entry.audience.admits(viewer, epoch_now):
            out["action"] = rules.action_to_json(entry.action)
            out["notation"] = rules.format(entry.action)
            if entry.audience.seats is not None:
                out["audience"] = sorted(entry.audience.seats)
                if entry.audience.reveal_epoch is not None:
                    out["reveal_epoch"] = entry.audience.reveal_epoch
        else:
            out["hidden"] = True
        return out
    if isinstance(entry, PressEntry):
        press: dict[str, JSON] = {
            "seq": entry.seq,
            "type": "press",
            "seat": entry.seat,
            "text": entry.text,
            "to": None if entry.to is None else sorted(entry.to),
        }
        if entry.channel:
            press["channel"] = entry.channel
        return press
    if isinstance(entry, TakebackEntry):
        return {"seq": entry.seq, "type": "takeback", "seat": entry.seat, "of": entry.undone}
    if isinstance(entry, VoteEntry):
        vote: dict[str, JSON] = {"seq": entry.seq, "type": "vote", "seat": entry.seat}
        if viewer.sees_seat(entry.seat):
            vote["accept"] = entry.accept
        return vote
    return {
        "seq": entry.seq,
        "type": "draw",
        "agreed": entry.agreed,
        "votes": {str(s): v for s, v in entry.votes},
    }


def replay(
    rules: Rules[S, A],
    record: Mapping[str, Any],
    on_step: Callable[[Match[S, A], Entry], None] | None = None,
) -> Match[S, A]:
    """Rebuild a match from its record, entry by entry; `on_step` sees every state."""
    check_record(record)
    if record.get("game") != rules.spec.name:
        raise RecordError(f"the record is of {record.get('game')!r}, not {rules.spec.name!r}")
    chance = record.get("chance")
    if chance is not None and not isinstance(chance, list):
        raise RecordError("the record's chance is not a list of draws")
    try:
        if record.get("position") is not None:
            match = Match.from_position(
                rules, record["position"], list(record["players"]), chance=chance
            )
        else:
            options = record.get("options")
            if isinstance(options, Mapping):  # written before an option existed: its old value
                options = {**rules.legacy_options, **options}
            match = Match(
                rules,
                list(record["players"]),
                options,
                int(record["seed"]),
                chance=chance,
            )
    except KeyError as missing:
        raise RecordError(f"the record lacks {missing}") from None
    except BadPosition as err:
        raise RecordError(f"the record's position does not read: {err.message}") from err
    for i, raw in enumerate(record.get("entries", [])):
        try:
            apply_entry(match, raw)
        except RecordError:
            raise
        except ParleyError as err:
            raise RecordError(f"entry {i} does not replay: {err.message}") from err
        if on_step is not None:
            on_step(match, match.entries[-1])
    return match


def apply_entry(match: Match[S, A], raw: Mapping[str, Any]) -> None:
    """Apply one entry of a JSON record to `match` (replay does this for every entry)."""
    try:
        kind = raw["type"]
        if kind == "action":
            seat = int(raw["seat"])
            action = match.rules.action_from_json(raw["action"], match.state, seat)
            match.act(seat, action, auto=bool(raw.get("auto", False)))
        elif kind == "press":
            to = raw.get("to")
            match.say(
                raw.get("seat"),
                str(raw["text"]),
                None if to is None else [int(t) for t in to],
                str(raw.get("channel", "")),
            )
        elif kind == "vote":
            match.vote_draw(int(raw["seat"]), bool(raw["accept"]))
        elif kind == "takeback":
            entry = match.take_back(int(raw["seat"]))
            if entry.undone != int(raw["of"]):
                raise RecordError(
                    f"entry {raw.get('seq')} takes back {raw['of']}, not {entry.undone}"
                )
        elif kind != "draw":  # a draw decision is derived from the votes before it
            raise RecordError(f"unknown entry type {kind!r}")
    except (KeyError, TypeError, ValueError) as err:
        raise RecordError(f"entry {raw.get('seq', match.seq)} is malformed: {err!r}") from err


def check_record(record: Mapping[str, Any]) -> None:
    """Raise RecordError unless `record` is a Parley record of a version we read."""
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a Parley game record (format {record.get('format')!r})")
    if record.get("version") != RECORD_VERSION:
        raise RecordError(f"record version {record.get('version')!r} is not supported")


def load_record(text: str) -> dict[str, Any]:
    """Parse and check a record's JSON text (not yet replayed)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise RecordError(f"the record is not valid JSON: {err}") from None
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    check_record(data)
    return data


def states(rules: Rules[S, A], record: Mapping[str, Any]) -> Iterator[Match[S, A]]:
    """Every intermediate match of a record, from the start, each an independent copy."""
    base = dict(record)
    entries = list(record.get("entries", []))
    base["entries"] = []
    match = replay(rules, base)
    yield match.copy()
    for raw in entries:
        apply_entry(match, raw)
        yield match.copy()
