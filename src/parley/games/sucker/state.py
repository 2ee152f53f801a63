"""The state of a game: small lists of ints, cheap to clone."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .actions import Promise


class Phase(Enum):
    """Which decision is owed now."""

    MOVE = "move"  # `holder` plays a chip
    NEXT = "next"  # `holder` (who just played) chooses the next player among `choices`
    KILL = "kill"  # `capturer` kills one chip of `captured`
    RESCUE = "rescue"  # `asked` rescues the chipless `holder` or declines
    OVER = "over"


class CaptureRule(Enum):
    """What a capture with a defeated player's colour does (the mover moves again in both)."""

    DEAD_BOX = "dead-box"  # the whole pile goes to the dead box
    LEAVE = "leave"  # the pile stays on the table


@dataclass(frozen=True, slots=True)
class Bargain:
    """A proposal on the table; `accepted` lists the addressees who said yes so far."""

    id: int
    proposer: int
    to: tuple[int, ...]
    terms: tuple[Promise, ...]
    note: str
    private: bool
    accepted: frozenset[int] = frozenset()

    @property
    def parties(self) -> frozenset[int]:
        return frozenset((self.proposer, *self.to))


@dataclass(slots=True)
class SuckerState:
    """Everything on the table, the owed decision and the bargains.

    `hands[s][c]` counts seat s's chips of colour c; `piles` maps a pile's number to its
    chips, bottom first; `given_by[s]` is who last gave s the move (the rebound target).
    """

    seats: int
    chips: int
    capture_rule: CaptureRule
    private_channels: bool
    hands: list[list[int]]
    piles: dict[int, tuple[int, ...]]
    dead: list[int]
    alive: list[bool]
    given_by: list[int | None]
    phase: Phase
    holder: int
    next_pile: int = 1
    choices: tuple[int, ...] = ()
    capturer: int = -1
    captured: tuple[int, ...] = ()
    anchor: int = -1  # a rescue round asks the seats after `anchor`, ending with it
    asked: int = -1
    moves: int = 0  # chips played so far
    stall: int = 0  # turn changes since a chip was last played or killed or a player fell
    defeated: list[int] = field(default_factory=list)
    winner: int | None = None
    drawn: bool = False
    bargains: dict[int, Bargain] = field(default_factory=dict)  # open, by id
    agreed: list[Bargain] = field(default_factory=list)  # the most recent agreements
    next_bargain: int = 1
    recent: tuple[str, ...] = ()  # the latest public table events, oldest first
    recent_actions: tuple[int, ...] = ()  # for each recent event, the action that caused it
    applied: int = 0  # actions applied so far
    noted: int = 0  # public table events so far (recent holds the last few)
    latest_from: int = 0  # where the events of the latest action that caused any begin
    # The last capture: who played onto which pile, who captured it, which chip was killed
    # and what the capturer took; kept until the next capture, replaced whole.
    last_capture: dict[str, Any] | None = None

    def clone(self) -> SuckerState:
        return SuckerState(
            seats=self.seats,
            chips=self.chips,
            capture_rule=self.capture_rule,
            private_channels=self.private_channels,
            hands=[hand[:] for hand in self.hands],
            piles=dict(self.piles),
            dead=self.dead[:],
            alive=self.alive[:],
            given_by=self.given_by[:],
            phase=self.phase,
            holder=self.holder,
            next_pile=self.next_pile,
            choices=self.choices,
            capturer=self.capturer,
            captured=self.captured,
            anchor=self.anchor,
            asked=self.asked,
            moves=self.moves,
            stall=self.stall,
            defeated=self.defeated[:],
            winner=self.winner,
            drawn=self.drawn,
            bargains=dict(self.bargains),
            agreed=self.agreed[:],
            next_bargain=self.next_bargain,
            recent=self.recent,
            recent_actions=self.recent_actions,
            applied=self.applied,
            noted=self.noted,
            latest_from=self.latest_from,
            last_capture=last_capture(self),
        )

    # --- small questions the rules ask often ---------------------------------------

    def held(self, seat: int) -> int:
        """How many chips `seat` holds."""
        return sum(self.hands[seat])

    def prisoners(self, seat: int) -> int:
        """How many chips of other colours `seat` holds."""
        hand = self.hands[seat]
        return sum(hand) - hand[seat]

    def survivors(self) -> list[int]:
        return [s for s in range(self.seats) if self.alive[s]]

    @property
    def over(self) -> bool:
        return self.phase is Phase.OVER

    def actor(self) -> int | None:
        """The seat that owes the decision now, or None once the game is over."""
        phase = self.phase
        if phase is Phase.MOVE or phase is Phase.NEXT:
            return self.holder
        if phase is Phase.KILL:
            return self.capturer
        if phase is Phase.RESCUE:
            return self.asked
        return None


def last_capture(state: SuckerState) -> dict[str, Any] | None:
    """The last capture, or None (also for a state pickled before captures were kept)."""
    try:
        return state.last_capture
    except AttributeError:
        return None
