"""Phase names: season, year and kind, written `S1901M`, `F1901R`, `W1901A`."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Season(Enum):
    SPRING = "S"
    FALL = "F"
    WINTER = "W"


class PhaseKind(Enum):
    MOVEMENT = "M"
    RETREAT = "R"
    ADJUSTMENT = "A"


_VALID = {
    (Season.SPRING, PhaseKind.MOVEMENT),
    (Season.SPRING, PhaseKind.RETREAT),
    (Season.FALL, PhaseKind.MOVEMENT),
    (Season.FALL, PhaseKind.RETREAT),
    (Season.WINTER, PhaseKind.ADJUSTMENT),
}


class PhaseError(ValueError):
    """A phase name that does not follow the `S1901M` convention."""


@dataclass(frozen=True, slots=True)
class Phase:
    """One phase of a game."""

    season: Season
    year: int
    kind: PhaseKind

    @property
    def name(self) -> str:
        return f"{self.season.value}{self.year}{self.kind.value}"

    def __str__(self) -> str:
        return self.name

    @property
    def long_name(self) -> str:
        season = {"S": "Spring", "F": "Fall", "W": "Winter"}[self.season.value]
        kind = {"M": "movement", "R": "retreats", "A": "adjustments"}[self.kind.value]
        return f"{season} {self.year} {kind}"

    @staticmethod
    def parse(text: str) -> Phase:
        """`S1901M` → Phase; PhaseError naming the text when it is not a phase."""
        raw = text.strip().upper()
        if len(raw) < 3 or not raw[1:-1].isdigit():
            raise PhaseError(f"{text!r} is not a phase name like S1901M, F1901R or W1901A")
        try:
            season = Season(raw[0])
            kind = PhaseKind(raw[-1])
        except ValueError:
            raise PhaseError(
                f"{text!r} is not a phase name like S1901M, F1901R or W1901A"
            ) from None
        if (season, kind) not in _VALID:
            raise PhaseError(f"{text!r}: {season.name.lower()} has no {kind.name.lower()} phase")
        return Phase(season, int(raw[1:-1]), kind)
