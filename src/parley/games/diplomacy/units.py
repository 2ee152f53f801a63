"""The unit vocabulary: armies and fleets, and a unit on the board."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class UnitKind(Enum):
    """Army or fleet, by its conventional letter."""

    ARMY = "A"
    FLEET = "F"

    @property
    def word(self) -> str:
        return "army" if self is UnitKind.ARMY else "fleet"


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit on the board: its power, kind and location code (`STP/SC` for a coast)."""

    power: str
    kind: UnitKind
    location: str

    @property
    def province(self) -> str:
        return self.location.split("/", 1)[0]

    def __str__(self) -> str:
        return f"{self.kind.value} {self.location}"
