"""The three kinds of action: a step of a unit, passing, and a minigame pick."""

from __future__ import annotations

from dataclasses import dataclass

PICK_MAX = 100  # minigame picks are whole numbers 0..PICK_MAX


@dataclass(frozen=True, slots=True)
class Move:
    """One step of the unit on sector `src` into the adjacent sector `dst` (grid codes)."""

    src: str
    dst: str


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn now (outline I.D)."""


@dataclass(frozen=True, slots=True)
class Pick:
    """A secret minigame pick; `value` None is no pick (what a missed deadline gives)."""

    value: int | None


Action = Move | Pass | Pick

PASS = Pass()
NO_PICK = Pick(None)
PICKS: tuple[Pick, ...] = (*(Pick(v) for v in range(PICK_MAX + 1)), NO_PICK)
