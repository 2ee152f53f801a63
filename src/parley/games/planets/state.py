"""The mutable state of one game; the rules own it and nothing else writes it."""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from parley.kernel import Rng

from .galaxy import Galaxy

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "black", "white")


def who(seat: int) -> str:
    """A seat's name in event texts."""
    return COLOURS[seat].title()


class Stage(Enum):
    """Where the round stands; each owed stage is a decision of one player."""

    ACTION = "action"  # the current player activates a system or passes
    MOVE = "move"  # the active player moves ships into the active system
    SPACE = "space"  # space combat (automatic rolls; hits are owed decisions)
    BOMBARD = "bombard"  # invasion 1: bombardment
    COMMIT = "commit"  # invasion 2: commit ground forces
    CANNON = "cannon"  # invasion 3: space cannon defence (automatic)
    GROUND = "ground"  # invasion 4: ground combat
    CONTROL = "control"  # invasion 5: establish control (automatic)
    EXPLORE = "explore"  # explorations the active player orders
    PRODUCE = "produce"  # production
    OFFENSE = "offense"  # full rules: space cannon offense (the active player picks a target)
    RETREAT = "retreat"  # full rules: a side of a space combat announces a retreat or stays
    STRATEGY = "strategy"  # full rules: the strategy phase, one pick at a time
    PRIMARY = "primary"  # full rules: the holder resolves a strategy card's primary ability
    SECONDARY = "secondary"  # full rules: the next other player follows the card or declines
    FOLLOW = "follow"  # full rules: a follower resolves the card's secondary ability
    STATUS = "status"  # full rules: the status phase's owed steps (redistributing tokens)
    OVER = "over"


OWED_STAGES = (
    Stage.ACTION,
    Stage.MOVE,
    Stage.BOMBARD,
    Stage.COMMIT,
    Stage.EXPLORE,
    Stage.PRODUCE,
    Stage.OFFENSE,
    Stage.RETREAT,
    Stage.STRATEGY,
    Stage.PRIMARY,
    Stage.SECONDARY,
    Stage.FOLLOW,
    Stage.STATUS,
)


@dataclass
class Area:
    """Units of any number of players in one place: a space area or a planet."""

    units: dict[int, dict[str, int]] = field(default_factory=dict)
    damaged: dict[int, dict[str, int]] = field(default_factory=dict)

    def count(self, seat: int, kind: str) -> int:
        return self.units.get(seat, {}).get(kind, 0)

    def hurt(self, seat: int, kind: str) -> int:
        return self.damaged.get(seat, {}).get(kind, 0)

    def add(self, seat: int, kind: str, n: int) -> None:
        if n:
            mine = self.units.setdefault(seat, {})
            mine[kind] = mine.get(kind, 0) + n

    def remove(self, seat: int, kind: str, n: int, damaged: int = 0) -> None:
        """Take `n` units away, `damaged` of them damaged ones."""
        mine = self.units[seat]
        mine[kind] -= n
        if not mine[kind]:
            del mine[kind]
        if not mine:
            del self.units[seat]
        if damaged:
            self.set_hurt(seat, kind, self.hurt(seat, kind) - damaged)
        extra = self.hurt(seat, kind) - self.count(seat, kind)
        if extra > 0:
            self.set_hurt(seat, kind, self.hurt(seat, kind) - extra)

    def set_hurt(self, seat: int, kind: str, n: int) -> None:
        mine = self.damaged.setdefault(seat, {})
        if n > 0:
            mine[kind] = n
        else:
            mine.pop(kind, None)
        if not mine:
            del self.damaged[seat]

    def clone(self) -> Area:
        return Area(
            {s: dict(k) for s, k in self.units.items()},
            {s: dict(k) for s, k in self.damaged.items()},
        )

    def seats(self) -> list[int]:
        return sorted(self.units)

    def has(self, seat: int, kinds: tuple[str, ...]) -> bool:
        return any(self.count(seat, k) for k in kinds)


@dataclass
class PlanetState:
    """A planet on the board and its card: who holds it, readied or exhausted, attachments."""

    controller: int | None = None
    exhausted: bool = False
    attachments: list[str] = field(default_factory=list)
    area: Area = field(default_factory=Area)

    def clone(self) -> PlanetState:
        return PlanetState(
            self.controller, self.exhausted, list(self.attachments), self.area.clone()
        )


@dataclass(frozen=True, slots=True)
class Hit:
    """Hits a player still has to assign to their own units in one place."""

    seat: int
    where: str  # a system id (its space area) or a planet name
    count: int


@dataclass
class PlanetsState:
    """Everything about one game; `galaxy` is shared, read-only data."""

    galaxy: Galaxy
    seats: int
    homes: list[str]  # home system id per seat
    target: int
    rounds: int
    tactics_per_round: int
    compact: bool  # the `rules=compact` preset: the game of control alone, no fuller round
    rng: Rng
    space: dict[str, Area]
    planets: dict[str, PlanetState]
    tokens: dict[str, list[int]]  # system -> seats with a command token there
    tactics: list[int]
    passed: list[bool]
    points: list[int]
    scored: list[list[str]]
    goods: list[int]
    fragments: list[list[str]]
    decks: dict[str, list[str]]  # undrawn exploration cards, top last
    discards: dict[str, list[str]]
    objective_deck: list[str]  # unrevealed objectives, next last
    revealed: list[str]
    round: int = 1
    first: int = 0
    current: int = 0
    stage: Stage = Stage.ACTION
    active: str | None = None
    hits: list[Hit] = field(default_factory=list)
    committed: list[str] = field(default_factory=list)  # planets, in the order committed to
    cursor: int = 0
    explore_queue: list[str] = field(default_factory=list)
    pool: int = 0  # resources gathered for production this action
    produced: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    event_count: int = 0
    winner: int | None = None
    reason: str = ""
    # (seat, system) when the seat's last decision ended its tactical action with nothing
    # left to decide (no move, combat or production open); a late step is told why.
    ended: tuple[int, str] | None = None
    # The last combat (space or ground, round by round; a bombardment or space cannon fire),
    # kept until the next one; replaced whole, never changed in place.
    last_combat: dict[str, Any] | None = None
    # The fuller round's command sheet (empty lists under `rules=compact`): tokens in each
    # seat's fleet pool (the fleet supply: non-fighter ships per system) and strategy pool;
    # `tactics` above is the tactic pool.
    fleet: list[int] = field(default_factory=list)
    strategy_pool: list[int] = field(default_factory=list)
    # The fuller round's strategy cards, indexed by initiative - 1 (empty under compact):
    # who holds each this round, whether its strategic action is done, the trade goods
    # lying on it; `picks` counts this strategy phase's picks so far.
    speaker: int = 0
    holders: list[int | None] = field(default_factory=list)
    used: list[bool] = field(default_factory=list)
    card_goods: list[int] = field(default_factory=list)
    picks: int = 0
    # A strategic action in progress: its card, the step of the ability being resolved,
    # the seats still to decide on the secondary (the first is deciding now), the players
    # Commerce lets follow for free, tokens gained and not yet placed in pools (`regroup`:
    # the whole sheet may be rearranged), and influence gathered for a purchase.
    strategic: int | None = None
    step: str = ""
    followers: list[int] = field(default_factory=list)
    granted: list[int] = field(default_factory=list)
    gain: int = 0
    regroup: bool = False
    influence: int = 0
    # Ships over the fleet supply that their owner must remove: (seat, system), first owed.
    trims: list[tuple[int, str]] = field(default_factory=list)
    # The custodians token on the central planet (full rules) and who paid to remove it.
    custodians: bool = False
    custodians_by: int | None = None
    toll_paid: bool = False  # the active player removed them and must land there
    # Full rules, this tactical action: units produced so far by type (costs are combined
    # across the whole production, 67.1c); where space combat's round stands ("" at a
    # round's start, "defender"/"attacker" while a retreat may be announced, "rolled" once
    # the dice are cast); the retreat announced this round (seat, destination system).
    made: dict[str, int] = field(default_factory=dict)
    combat_step: str = ""
    retreat: tuple[int, str] | None = None

    def clone(self) -> PlanetsState:
        """An independent copy; the galaxy is frozen data that every copy shares."""
        other = copy.copy(self)
        other.rng = self.rng.copy()
        other.space = {k: a.clone() for k, a in self.space.items()}
        other.planets = {k: p.clone() for k, p in self.planets.items()}
        other.tokens = {k: list(v) for k, v in self.tokens.items()}
        for name in ("tactics", "passed", "points", "goods", "objective_deck", "revealed"):
            setattr(other, name, list(getattr(self, name)))
        for name in ("fleet", "strategy_pool", "holders", "used", "card_goods"):
            setattr(other, name, list(getattr(self, name)))
        for name in ("followers", "granted", "trims"):
            setattr(other, name, list(getattr(self, name)))
        for name in ("homes", "hits", "committed", "explore_queue"):
            setattr(other, name, list(getattr(self, name)))
        other.made = dict(self.made)
        other.scored = [list(x) for x in self.scored]
        other.fragments = [list(x) for x in self.fragments]
        other.decks = {k: list(v) for k, v in self.decks.items()}
        other.discards = {k: list(v) for k, v in self.discards.items()}
        other.events = [dict(e) for e in self.events]  # values are never changed in place
        return other

    def where(self, name: str) -> Area:
        """The area called `name`: a system's space area or a planet."""
        if name in self.space:
            return self.space[name]
        return self.planets[name].area
