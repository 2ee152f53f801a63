"""The mutable state of a campus game: plain lists of ints indexed by sector and seat."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from parley.kernel import Rng

from .board import CampusMap

NOBODY = -1
COLLEGES = ("Ash", "Beech", "Cedar", "Elm", "Hazel", "Oak")


class Phase(Enum):
    """What the game waits for."""

    MOVE = "move"  # the current player's steps
    MINIGAME = "minigame"  # every surviving player's secret pick
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Settings:
    """The game's options, resolved once at setup."""

    map: str = "campus"
    landmark_bonus: int = 2
    pvc_bonus: int = 2
    pvc_bonus_same: int = 4
    reveal_cycles: int = 5
    max_level: int = 5
    steps: int = 2
    round_limit: int = 60


@dataclass(slots=True)
class Minigame:
    """A minigame under way: who takes part and who has picked what (secret until all have)."""

    number: int
    capturer: int
    sector: int
    players: tuple[int, ...]
    ends_turn: bool
    picks: dict[int, int | None] = field(default_factory=dict)


@dataclass(slots=True)
class CampusState:
    """Everything about a game; `pvc` is the hidden sector (NOBODY while it is away)."""

    board: CampusMap
    settings: Settings
    seats: int
    owner: list[int]
    unit: list[int]
    level: list[int]
    held: list[int]
    pvc_attack: list[int]
    pvc_defence: list[int]
    alive: list[bool]
    rng: Rng
    current: int = 0
    steps: int = 2
    capturers: list[int] = field(default_factory=list)
    pvc: int = NOBODY
    pvc_revealed: bool = False
    pvc_taken_at: int = NOBODY  # where it was captured this turn; it reappears between turns
    cycles: int = 0  # full turn cycles since the PVC was last placed
    cycle_mask: int = 0  # seats that have had a turn in the cycle under way
    phase: Phase = Phase.MOVE
    minigame: Minigame | None = None
    last_minigame: dict[str, Any] | None = None
    # The last combat (units, dice, bonuses, result), kept until the next; never changed in
    # place, only replaced. States pickled before it existed lack the slot (`last_combat`).
    last_combat: dict[str, Any] | None = None
    minigames: int = 0
    epoch: int = 0
    turns: int = 0
    eliminated: list[int] = field(default_factory=list)
    winner: int | None = None
    end_reason: str = ""
    events: list[tuple[Any, ...]] = field(default_factory=list)
    events_dropped: int = 0  # events trimmed off the front of `events` so far

    def clone(self) -> CampusState:
        game = self.minigame
        return CampusState(
            board=self.board,
            settings=self.settings,
            seats=self.seats,
            owner=self.owner[:],
            unit=self.unit[:],
            level=self.level[:],
            held=self.held[:],
            pvc_attack=self.pvc_attack[:],
            pvc_defence=self.pvc_defence[:],
            alive=self.alive[:],
            rng=self.rng.copy(),
            current=self.current,
            steps=self.steps,
            capturers=self.capturers[:],
            pvc=self.pvc,
            pvc_revealed=self.pvc_revealed,
            pvc_taken_at=self.pvc_taken_at,
            cycles=self.cycles,
            cycle_mask=self.cycle_mask,
            phase=self.phase,
            minigame=None
            if game is None
            else Minigame(
                game.number,
                game.capturer,
                game.sector,
                game.players,
                game.ends_turn,
                dict(game.picks),
            ),
            last_minigame=self.last_minigame,  # never changed in place, only replaced
            last_combat=last_combat(self),
            minigames=self.minigames,
            epoch=self.epoch,
            turns=self.turns,
            eliminated=self.eliminated[:],
            winner=self.winner,
            end_reason=self.end_reason,
            events=self.events[:],
            events_dropped=self.events_dropped,
        )

    def survivors(self) -> list[int]:
        return [s for s in range(self.seats) if self.alive[s]]

    def attack(self, seat: int) -> int:
        """Attack bonus: attack landmarks held, plus PVC bonuses won."""
        board, owner = self.board, self.owner
        held = sum(1 for s in board.landmarks if owner[s] == seat and board.attack_landmark[s])
        return held * self.settings.landmark_bonus + self.pvc_attack[seat]

    def defence(self, seat: int) -> int:
        """Defence bonus: defence landmarks held, plus PVC bonuses won."""
        board, owner = self.board, self.owner
        held = sum(1 for s in board.landmarks if owner[s] == seat and board.defence_landmark[s])
        return held * self.settings.landmark_bonus + self.pvc_defence[seat]

    def pvc_candidates(self, exclude: int = NOBODY) -> list[int]:
        """Sectors the hidden PVC may stand on: not a landmark, no unit."""
        board, unit = self.board, self.unit
        return [
            s
            for s in range(board.size)
            if not board.is_landmark[s] and unit[s] == NOBODY and s != exclude
        ]


def last_combat(state: CampusState) -> dict[str, Any] | None:
    """The last combat, or None (also for a state pickled before combats were kept)."""
    try:
        return state.last_combat
    except AttributeError:
        return None
