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


# --- the fuller round: strategy cards, the command sheet, fleet supply, custodians ------


@dataclass(frozen=True, slots=True)
class Pick:
    """Strategy phase: take a strategy card (by initiative number) and the goods on it."""

    card: int


@dataclass(frozen=True, slots=True)
class Strategic:
    """A strategic action: resolve the primary ability of one's strategy card."""

    card: int


@dataclass(frozen=True, slots=True)
class Follow:
    """Use the secondary ability of the card being resolved (usually for a strategy token)."""

    card: int


@dataclass(frozen=True, slots=True)
class Decline:
    """Let the secondary ability of the card being resolved pass by."""


@dataclass(frozen=True, slots=True)
class Tokens:
    """Place command tokens: how many end up in the tactic, fleet and strategy pools."""

    tactic: int
    fleet: int
    strategy: int


@dataclass(frozen=True, slots=True)
class BuyToken:
    """Spend 3 gathered influence on one command token."""


@dataclass(frozen=True, slots=True)
class Seal:
    """Accord: name the system every other player puts a command token in."""

    system: str


@dataclass(frozen=True, slots=True)
class Ready:
    """Ready one of one's exhausted planets."""

    planet: str


@dataclass(frozen=True, slots=True)
class Appoint:
    """Mandate: give the speaker token to a player."""

    seat: int


@dataclass(frozen=True, slots=True)
class Place:
    """Foundations: place a PDS or a space dock on a planet one controls."""

    kind: str
    planet: str


@dataclass(frozen=True, slots=True)
class Grant:
    """Commerce: let one other player follow the card without a strategy token."""

    seat: int


@dataclass(frozen=True, slots=True)
class Lift:
    """Mobilisation: take one's command token off a system."""

    system: str


@dataclass(frozen=True, slots=True)
class Score:
    """Dominion: score a revealed public objective one meets now."""

    objective: str


@dataclass(frozen=True, slots=True)
class Scrap:
    """Remove one ship of a type beyond the fleet supply."""

    kind: str


@dataclass(frozen=True, slots=True)
class PayToll:
    """Spend 6 gathered influence to remove the custodians from the central planet."""


RoundAction = (
    Pick
    | Strategic
    | Follow
    | Decline
    | Tokens
    | BuyToken
    | Seal
    | Ready
    | Appoint
    | Place
    | Grant
    | Lift
    | Score
    | Scrap
    | PayToll
)


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
    | RoundAction
)
