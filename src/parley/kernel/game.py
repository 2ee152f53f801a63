"""The rules protocol every game implements, and the vocabulary around it."""

from __future__ import annotations

import copy
import json
from abc import ABC, abstractmethod
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar, Generic, TypeVar

from .errors import BadOptions, BadPosition, IllegalAction, InvalidAction
from .options import OptionSpec, OptionValue, resolve_options
from .rng import Rng

S = TypeVar("S")
A = TypeVar("A")

JSON = Any
"""A value made of dicts, lists, str, int, float, bool and None."""


class Structure(Enum):
    """How decisions are taken."""

    SEQUENTIAL = "sequential"  # one seat (or a few, in turn) decides at a time
    SIMULTANEOUS = "simultaneous"  # every owed seat decides at once, hidden from the others


@dataclass(frozen=True, slots=True)
class GameSpec:
    """What a game declares up front, before any state exists."""

    name: str
    title: str
    summary: str
    min_seats: int
    max_seats: int
    structure: Structure
    chance: bool
    hidden_information: bool
    aliases: tuple[str, ...] = ()
    options: tuple[OptionSpec, ...] = ()
    default_seats: int | None = None
    composite_actions: bool = False  # a seat's action may combine several elementary parts
    anytime_actions: bool = False  # seats may act out of turn (e.g. transfer a prisoner)
    max_plies: int = 10_000  # a bound on actions in one game, for random playouts and tests
    # Option sets the conformance suite plays besides the defaults (e.g. private channels on).
    test_options: tuple[Mapping[str, OptionValue], ...] = ()

    def resolve_options(self, given: Mapping[str, Any] | None) -> dict[str, OptionValue]:
        return resolve_options(self.options, given)

    def check_seats(self, seats: int) -> None:
        if not self.min_seats <= seats <= self.max_seats:
            raise BadOptions(
                f"{self.title} takes {self.min_seats}–{self.max_seats} seats, not {seats}"
            )

    def to_json(self) -> dict[str, JSON]:
        return {
            "name": self.name,
            "title": self.title,
            "summary": self.summary,
            "aliases": list(self.aliases),
            "min_seats": self.min_seats,
            "max_seats": self.max_seats,
            "default_seats": self.default_seats or self.min_seats,
            "structure": self.structure.value,
            "chance": self.chance,
            "hidden_information": self.hidden_information,
            "composite_actions": self.composite_actions,
            "anytime_actions": self.anytime_actions,
            "options": [o.to_json() for o in self.options],
        }


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who looks: one seat, a spectator (seat None), or the omniscient archive."""

    seat: int | None = None
    omniscient: bool = False

    @staticmethod
    def of(seat: int) -> Viewer:
        return Viewer(seat=seat)

    def sees_seat(self, seat: int | None) -> bool:
        """True when this viewer may see what is private to `seat`."""
        return self.omniscient or (seat is not None and self.seat == seat)

    def to_json(self) -> JSON:
        if self.omniscient:
            return "archive"
        return "spectator" if self.seat is None else self.seat


SPECTATOR = Viewer()
ARCHIVE = Viewer(omniscient=True)


@dataclass(frozen=True, slots=True)
class Owed:
    """A decision a seat owes now; `kind` is game-defined (e.g. "orders", "kill", "rescue")."""

    seat: int
    kind: str
    prompt: str = ""


@dataclass(frozen=True, slots=True)
class Turn:
    """Who may act now.

    `owed` seats must decide before the game can go on; with `simultaneous`, they decide
    independently and their choices stay hidden until the step resolves. `anytime` seats
    may act although they owe nothing (revising a submitted order set, transferring a
    prisoner). An ended game has an empty turn.
    """

    owed: tuple[Owed, ...] = ()
    simultaneous: bool = False
    anytime: frozenset[int] = frozenset()

    @property
    def owing(self) -> frozenset[int]:
        return frozenset(o.seat for o in self.owed)

    def can_act(self, seat: int) -> bool:
        return seat in self.anytime or any(o.seat == seat for o in self.owed)

    def to_json(self) -> dict[str, JSON]:
        return {
            "owed": [{"seat": o.seat, "kind": o.kind, "prompt": o.prompt} for o in self.owed],
            "simultaneous": self.simultaneous,
            "anytime": sorted(self.anytime),
        }


@dataclass(frozen=True, slots=True)
class Window:
    """A step where seats are asked one after another (a reaction window).

    `answered`: seats that have had their say in it, in order; `later`: seats it will still
    ask after the one asked now, in order. Only who, never what anyone answered or holds.
    """

    answered: tuple[int, ...] = ()
    later: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended. `ranks[i]` is seat i's place (1 is best; ties share a place)."""

    ranks: tuple[int, ...]
    scores: tuple[float, ...]
    winners: frozenset[int]
    draw: bool
    reason: str

    @staticmethod
    def win(seat: int, seats: int, reason: str) -> Outcome:
        """One winner; everyone else shares second place."""
        return Outcome(
            ranks=tuple(1 if s == seat else 2 for s in range(seats)),
            scores=tuple(1.0 if s == seat else 0.0 for s in range(seats)),
            winners=frozenset({seat}),
            draw=False,
            reason=reason,
        )

    @staticmethod
    def shared(seats_in: Collection[int], seats: int, reason: str) -> Outcome:
        """A draw among `seats_in`; the rest share the next place."""
        inside = frozenset(seats_in)
        share = 1.0 / len(inside) if inside else 0.0
        return Outcome(
            ranks=tuple(1 if s in inside else 2 for s in range(seats)),
            scores=tuple(share if s in inside else 0.0 for s in range(seats)),
            winners=inside,
            draw=len(inside) != 1,
            reason=reason,
        )

    @staticmethod
    def by_scores(scores: Sequence[float], reason: str) -> Outcome:
        """Places from scores, higher is better; the top score wins (shared top = draw)."""
        ranks = tuple(1 + sum(1 for other in scores if other > mine) for mine in scores)
        winners = frozenset(i for i, r in enumerate(ranks) if r == 1)
        return Outcome(
            ranks=ranks,
            scores=tuple(float(s) for s in scores),
            winners=winners,
            draw=len(winners) > 1,
            reason=reason,
        )

    def to_json(self) -> dict[str, JSON]:
        return {
            "ranks": list(self.ranks),
            "scores": list(self.scores),
            "winners": sorted(self.winners),
            "draw": self.draw,
            "reason": self.reason,
        }

    @staticmethod
    def from_json(obj: Mapping[str, Any]) -> Outcome:
        return Outcome(
            ranks=tuple(int(r) for r in obj["ranks"]),
            scores=tuple(float(s) for s in obj["scores"]),
            winners=frozenset(int(w) for w in obj["winners"]),
            draw=bool(obj["draw"]),
            reason=str(obj["reason"]),
        )


@dataclass(frozen=True, slots=True)
class Audience:
    """Who may see a logged action: everyone (`seats` None) or only `seats`.

    A restricted action becomes public once the game's epoch reaches `reveal_epoch`
    (e.g. Diplomacy orders become public when their phase is adjudicated).
    """

    seats: frozenset[int] | None = None
    reveal_epoch: int | None = None

    def admits(self, viewer: Viewer, epoch_now: int | None) -> bool:
        if self.seats is None or viewer.omniscient:
            return True
        if viewer.seat is not None and viewer.seat in self.seats:
            return True
        return (
            self.reveal_epoch is not None
            and epoch_now is not None
            and epoch_now >= self.reveal_epoch
        )


PUBLIC = Audience()


@dataclass(frozen=True, slots=True)
class OptionNode:
    """A node of the legal-options tree a client renders.

    A leaf carries the action in canonical notation. An inner node offers its children as
    alternatives, or, with `each`, asks for one leaf under every child (a composite action
    such as one order per unit).
    """

    key: str
    label: str
    action: str | None = None
    children: tuple[OptionNode, ...] = ()
    each: bool = False
    # A leaf that spends something for good: the question a client asks before sending it.
    confirm: str | None = None

    def leaves(self) -> list[str]:
        if self.action is not None:
            return [self.action]
        return [leaf for child in self.children for leaf in child.leaves()]

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {"key": self.key, "label": self.label}
        if self.action is not None:
            out["action"] = self.action
        if self.children:
            out["children"] = [c.to_json() for c in self.children]
        if self.each:
            out["each"] = True
        if self.confirm is not None:
            out["confirm"] = self.confirm
        return out


@dataclass(slots=True)
class Setup:
    """What `Rules.setup` receives: seat count, resolved options and the game's generator."""

    seats: int
    options: dict[str, OptionValue]
    rng: Rng
    extra: dict[str, Any] = field(default_factory=dict)


class Rules(ABC, Generic[S, A]):
    """A game's rules: pure functions over a state the rules own.

    `apply` validates fully before changing anything, so an action either applies whole
    or raises with the state untouched. States hold their own `Rng`; nothing else is
    random, and nothing here reads the clock or does I/O.
    """

    spec: ClassVar[GameSpec]

    # --- required -------------------------------------------------------------------

    @abstractmethod
    def setup(self, setup: Setup) -> S:
        """The starting state."""

    @abstractmethod
    def turn(self, state: S) -> Turn:
        """Who owes a decision now, and who may act out of turn."""

    @abstractmethod
    def legal_actions(self, state: S, seat: int) -> Sequence[A]:
        """Every elementary legal action of `seat` now (parts, for composite games)."""

    @abstractmethod
    def apply(self, state: S, seat: int, action: A) -> None:
        """Check the action fully, then change `state`; raise IllegalAction before any change."""

    @abstractmethod
    def outcome(self, state: S) -> Outcome | None:
        """How the game ended, or None while it goes on."""

    @abstractmethod
    def observe(self, state: S, viewer: Viewer) -> dict[str, JSON]:
        """What `viewer` may see; the one place visibility is decided."""

    @abstractmethod
    def parse(self, text: str, state: S | None = None, seat: int | None = None) -> A:
        """An action from lenient human text; InvalidAction/AmbiguousAction if it can't be."""

    @abstractmethod
    def format(self, action: A) -> str:
        """The canonical notation; `parse(format(a)) == a`."""

    @abstractmethod
    def default_action(self, state: S, seat: int) -> A:
        """What an owed seat does when its deadline passes or it is in civil disorder."""

    # --- optional, with defaults ----------------------------------------------------

    def seat_names(self, seats: int, options: Mapping[str, OptionValue]) -> list[str]:
        """Names of the seats as the game calls them (powers, colours...)."""
        return [f"Player {i + 1}" for i in range(seats)]

    def seat_labels(self, seats: int, options: Mapping[str, OptionValue]) -> list[str]:
        """The seats' names as every text people read spells them; `seat_names` unless the
        game's own names are written otherwise (Diplomacy's "FRANCE" is "France")."""
        return self.seat_names(seats, options)

    def combine(self, state: S, seat: int, parts: Sequence[A]) -> A:
        """One action from elementary parts (composite games override this)."""
        if len(parts) != 1:
            raise IllegalAction(f"{self.spec.title} takes one action at a time, not {len(parts)}")
        return parts[0]

    def random_action(self, state: S, seat: int, rng: Rng) -> A:
        """A uniformly drawn legal action (composite games draw every part)."""
        actions = self.legal_actions(state, seat)
        if not actions:
            raise IllegalAction(f"seat {seat} has no legal action")
        return rng.choice(actions)

    def options_tree(self, state: S, seat: int) -> OptionNode:
        """The legal actions as a tree; the default is one flat list."""
        leaves = tuple(
            OptionNode(key=str(i), label=text, action=text)
            for i, text in enumerate(self.format(a) for a in self.legal_actions(state, seat))
        )
        return OptionNode(key="root", label="Choose an action", children=leaves)

    def clone(self, state: S) -> S:
        """An independent copy of `state` (override for speed)."""
        return copy.deepcopy(state)

    def epoch(self, state: S) -> int | None:
        """A counter of public steps (phases, turns); stale actions and reveals use it.

        None means every applied action is its own step.
        """
        return None

    def audience(self, state: S, seat: int, action: A) -> Audience:
        """Who may see this action in the log; decided before it is applied."""
        return PUBLIC

    def secrets(self, state: S, seat: int) -> Collection[str]:
        """Text that only `seat` (and the archive) may see now; the conformance suite checks it."""
        return ()

    def shared_secrets(self, state: S) -> Mapping[frozenset[int], Collection[str]]:
        """Text that only a group of seats may see (a private bargain), keyed by the group."""
        return {}

    def hidden_variant(self, state: S, viewer: Viewer, rng: Rng) -> S | None:
        """`state` with everything `viewer` cannot see drawn anew, or None if nothing is hidden.

        A hidden piece moved elsewhere, unseen cards reshuffled: the conformance suite
        checks that the viewer cannot tell the variant from the original by its
        observation, its options, its legal actions or the errors it gets. Must not
        change `state`.
        """
        return None

    def out_of_turn(self, state: S, seat: int, action: A) -> str | None:
        """Why `seat` may not take `action` now although it owes nothing, when the game can say
        more than whose turn it is (a step that ended by itself); None for the plain answer.
        Must tell nothing the seat cannot see."""
        return None

    # --- pacing and standing answers (optional; read by servers, never by `apply`) ---------

    def step_seconds(self, state: S) -> float | None:
        """How long a server gives the current step when it is a short window (seconds), or
        None for the game's whole deadline. A timed-out window takes the default answer and
        counts as no missed decision. Must depend only on what every seat sees."""
        return None

    def window(self, state: S) -> Window | None:
        """The seats a one-at-a-time window has asked and will ask, or None when the
        current step is no such window. Must depend only on what every seat sees."""
        return None

    # Games whose seats may take an action back set this (Match then keeps the state
    # before each action for as long as `undoable` says it may be taken back).
    takes_back: ClassVar[bool] = False

    # Option values a game was played by before the option existed: a record whose
    # options lack one of these keys replays with the old value, not today's default (the
    # server's stored games get the same values by a migration).
    legacy_options: ClassVar[Mapping[str, OptionValue]] = {}

    def may_take_back(self, state: S, seat: int, action: A) -> bool:
        """A cheap first look before `action` is applied: False spares `Match` the copy of
        the state it would keep for `undoable` (most actions can never be taken back)."""
        return self.takes_back

    def undoable(self, before: S, seat: int, action: A, after: S) -> bool:
        """Whether `seat` may take `action` back (until anyone else acts): only when it
        drew nothing by chance and revealed nothing hidden (a roll, a draw, a hidden card)
        and nobody else owes anything because of it."""
        return False

    def confirm(self, state: S, seat: int, action: str) -> str | None:
        """The question a client asks before sending `action` (a leaf of the seat's options,
        in notation) when it spends something that cannot be taken back (an attack, a token);
        None for no question. Servers put it on the leaf as `confirm`."""
        return None

    def standing_settings(self) -> Mapping[str, str]:
        """Standing answers a player may keep for its seat: name → what it does, in words."""
        return {}

    def standing_answer(self, state: S, seat: int, name: str) -> A | None:
        """The action the standing answer `name` gives for `seat` now, or None when it does
        not apply. It must not depend on anything `seat`'s opponents cannot see, so that an
        answer given at once tells nobody more than the question did."""
        return None

    def alive(self, state: S) -> frozenset[int]:
        """Seats still in the game (they vote on draws)."""
        return frozenset(range(self.seat_count(state)))

    @abstractmethod
    def seat_count(self, state: S) -> int:
        """How many seats the game was set up with."""

    def render(self, observation: Mapping[str, JSON]) -> str:
        """A plain-text picture of an observation, for terminals and language models."""
        return json.dumps(observation, indent=2, sort_keys=True)

    def notation_help(self) -> str:
        """How actions are typed, with examples, for forms an options tree cannot list
        (free text, actions open at any time); "" when the options say it all."""
        return ""

    # --- positions and chance (optional) ----------------------------------------------

    def write_position(self, state: S) -> dict[str, JSON]:
        """The whole truth of `state` as a JSON object people can read and edit.

        Hidden parts included (a position is not a view); it carries the resolved options
        under "options". `read_position(write_position(s))` plays on exactly as `s` does.
        """
        raise BadPosition(f"{self.spec.title} has no position format")

    def read_position(self, data: Mapping[str, JSON]) -> S:
        """A state from a position; BadPosition, naming the field, when anything is wrong.

        Derived fields are recomputed, never taken from the data.
        """
        raise BadPosition(f"{self.spec.title} has no position format")

    def state_rng(self, state: S) -> Rng | None:
        """The generator the rules draw from (the default: the state's `rng` attribute)."""
        rng = getattr(state, "rng", None)
        return rng if isinstance(rng, Rng) else None

    def set_state_rng(self, state: S, rng: Rng) -> None:
        """Give the state another generator (a scripted one); games without chance ignore it."""
        if isinstance(getattr(state, "rng", None), Rng):
            state.rng = rng  # type: ignore[attr-defined]

    def action_to_json(self, action: A) -> JSON:
        """A JSON form of the action; the default is its notation."""
        return self.format(action)

    def action_from_json(self, obj: JSON, state: S | None = None, seat: int | None = None) -> A:
        if isinstance(obj, str):
            return self.parse(obj, state, seat)
        raise InvalidAction(f"expected an action in notation (a string), got {obj!r}")
