"""The actions of the game, one frozen dataclass each; notation lives in notation.py."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Activate:
    """Start a tactical action: place a command token in a system."""

    system: str


@dataclass(frozen=True, slots=True)
class Pass:
    """Take no more actions this round."""


@dataclass(frozen=True, slots=True)
class Move:
    """Move ships (and the ground forces they carry) from one system into the active one."""

    source: str
    units: tuple[tuple[str, int], ...]  # (unit type, count), in the units table's order
    dest: str
    # Full rules: what boards the ships, (system or planet, unit type, count), sorted; the
    # compact game names its ground forces in `units` instead.
    cargo: tuple[tuple[str, str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class Done:
    """End the current step (movement, committing ground forces, production)."""


@dataclass(frozen=True, slots=True)
class Assign:
    """Take one hit: destroy a unit, or let a SUSTAIN DAMAGE unit absorb it."""

    kind: str
    sustain: bool


@dataclass(frozen=True, slots=True)
class Bombard:
    """Fire every BOMBARDMENT unit at one planet of the active system, or at none."""

    planet: str | None


@dataclass(frozen=True, slots=True)
class Commit:
    """Land ground forces from the active system's space area on one of its planets."""

    planet: str
    infantry: int
    mech: int


@dataclass(frozen=True, slots=True)
class Explore:
    """Resolve one pending exploration: which planet, and from which trait's deck."""

    trait: str
    planet: str


@dataclass(frozen=True, slots=True)
class Exhaust:
    """Exhaust a readied planet for its resources, to pay for production."""

    planet: str


@dataclass(frozen=True, slots=True)
class SpendGood:
    """Spend one trade good as one resource, to pay for production."""


@dataclass(frozen=True, slots=True)
class Produce:
    """Produce units at a space dock of the active system."""

    kind: str
    count: int
    planet: str


@dataclass(frozen=True, slots=True)
class Aim:
    """Space cannon offense: the active player's target when several players have ships."""

    seat: int


@dataclass(frozen=True, slots=True)
class Retreat:
    """Announce a retreat from space combat to an adjacent system."""

    system: str


@dataclass(frozen=True, slots=True)
class Stay:
    """Announce no retreat this combat round."""


Action = (
    Activate
    | Pass
    | Move
    | Done
    | Assign
    | Bombard
    | Commit
    | Explore
    | Exhaust
    | SpendGood
    | Produce
    | Aim
    | Retreat
    | Stay
)
