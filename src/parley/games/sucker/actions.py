"""Action values. Players are seat indices (0-based inside, 1-based in notation)."""

from __future__ import annotations

from dataclasses import dataclass

from .colours import Colour


@dataclass(frozen=True, slots=True)
class Play:
    """Play a chip from the hand onto pile `pile` (its number), or to a new pile (None)."""

    chip: Colour
    pile: int | None


@dataclass(frozen=True, slots=True)
class ChooseNext:
    """Give the move to `player`, where the rules leave the mover a choice."""

    player: int


@dataclass(frozen=True, slots=True)
class KillFromPile:
    """The capturer's one kill out of the captured pile."""

    chip: Colour


@dataclass(frozen=True, slots=True)
class KillPrisoner:
    """Send a prisoner from one's hand to the dead box (any time)."""

    chip: Colour


@dataclass(frozen=True, slots=True)
class GivePrisoner:
    """Transfer one prisoner to another surviving player (any time)."""

    chip: Colour
    to: int


@dataclass(frozen=True, slots=True)
class Rescue:
    """Answer a rescue request by giving the chipless `target` one or more prisoners."""

    target: int
    chips: tuple[Colour, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "chips", tuple(sorted(self.chips)))


@dataclass(frozen=True, slots=True)
class Decline:
    """Answer a rescue request with no."""


# --- bargains: promises are data, so an analysis can check them against what happened ---


@dataclass(frozen=True, slots=True)
class ChipPromise:
    """`giver` will give `count` chips of colour `chip` to `to`."""

    giver: int
    chip: Colour
    count: int
    to: int


@dataclass(frozen=True, slots=True)
class PassPromise:
    """`chooser` will give the move to `to` at their next choice where `to` is allowed."""

    chooser: int
    to: int


Promise = ChipPromise | PassPromise


@dataclass(frozen=True, slots=True)
class Propose:
    """A non-binding bargain put to `to` by the acting seat; `private` needs the option."""

    to: tuple[int, ...]
    terms: tuple[Promise, ...] = ()
    note: str = ""
    private: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "to", tuple(sorted(set(self.to))))
        object.__setattr__(self, "note", self.note.strip())


@dataclass(frozen=True, slots=True)
class Accept:
    bargain: int


@dataclass(frozen=True, slots=True)
class Reject:
    bargain: int


@dataclass(frozen=True, slots=True)
class Withdraw:
    """The proposer takes back a bargain nobody has finished answering."""

    bargain: int


Action = (
    Play
    | ChooseNext
    | KillFromPile
    | KillPrisoner
    | GivePrisoner
    | Rescue
    | Decline
    | Propose
    | Accept
    | Reject
    | Withdraw
)

TABLE_ACTIONS = (Play, ChooseNext, KillFromPile, Rescue, Decline)
"""Actions that answer an owed decision; the rest may be taken any time."""

BARGAIN_ACTIONS = (Propose, Accept, Reject, Withdraw)
