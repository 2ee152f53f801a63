"""How bots, and seats nobody plays, answer a proposed draw.

A draw ends the game for everyone still in it, so a seat that agrees to one too readily
hands whoever proposes it a result they did not play for. Each answer here reads only what
the whole table can see: how far the game has gone (`Standing.progress`, in the game's own
measure: the game-year, the round, chips played) and each surviving seat's public strength
(centres, sectors, groups, victory points, chips in hand).

* `heuristic_accepts`: the heuristic bots (and the negotiators built on them) accept once the
  game has reached its `earliest` point, and only when they are not ahead: some other
  surviving seat is at least as strong.
* `unplayed_accepts`: a seat in civil disorder (nobody plays it, no bot) accepts once the
  game has reached its `earliest` point, whatever its strength: it cannot play on for a
  win, and must not block a draw the players want for ever; before that point it refuses.
* `random_accepts`: the random bot refuses before the earliest point, then accepts by a coin
  from its seeded stream.

A game without a measure of its own is measured by the actions in its record, per seat.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parley.kernel import ActionEntry, Match, Rules

if TYPE_CHECKING:
    from .protocol import Decision


@dataclass(frozen=True, slots=True)
class Standing:
    """How far a game has gone and how strong each surviving seat is, as all can see."""

    progress: int  # in the game's measure: the game-year, the round, chips played...
    earliest: int  # the first `progress` at which a bot may accept a draw
    measure: str  # what `progress` counts, in words
    strength: Mapping[int, float]  # surviving seat -> public strength (higher is better)

    @property
    def late_enough(self) -> bool:
        return self.progress >= self.earliest

    def ahead(self, seat: int) -> bool:
        """Whether `seat` is stronger than every other surviving seat."""
        others = [v for s, v in self.strength.items() if s != seat]
        return bool(others) and self.strength.get(seat, 0.0) > max(others)


Measure = Callable[[Any, frozenset[int]], Standing]
_MEASURES: dict[str, Measure] = {}

FALLBACK_EARLIEST = 20  # actions per seat, for games without a measure of their own


def register_measure(game: str, measure: Measure) -> None:
    """Give the game called `game` its own draw measure: `measure(state, alive)`."""
    _MEASURES[game] = measure


def _diplomacy(state: Any, alive: frozenset[int]) -> Standing:
    position = state.position
    counts = position.centre_counts()
    return Standing(
        progress=position.phase.year,
        earliest=1905,
        measure="game-year",
        strength={s: float(counts[s]) for s in alive},
    )


def _campus(state: Any, alive: frozenset[int]) -> Standing:
    turns, seats = int(state.turns), int(state.seats)
    return Standing(
        progress=(turns - 1) // seats + 1 if turns else 0,  # the round the view shows
        earliest=10,
        measure="round",
        strength={s: float(state.held[s]) for s in alive},
    )


def _illuminati(state: Any, alive: frozenset[int]) -> Standing:
    return Standing(
        progress=int(state.round),
        earliest=4,
        measure="round",
        strength={s: float(len(state.players[s].groups())) for s in alive},
    )


def _planets(state: Any, alive: frozenset[int]) -> Standing:
    return Standing(
        progress=int(state.round),
        earliest=3,
        measure="round",
        strength={s: float(state.points[s]) for s in alive},
    )


def _sucker(state: Any, alive: frozenset[int]) -> Standing:
    return Standing(
        progress=int(state.moves),
        earliest=20,
        measure="chips played",
        strength={s: float(state.held(s)) for s in alive},
    )


for _game, _measure in (
    ("diplomacy", _diplomacy),
    ("campus", _campus),
    ("illuminati", _illuminati),
    ("planets", _planets),
    ("sucker", _sucker),
):
    register_measure(_game, _measure)


def standing(rules: Rules[Any, Any], state: Any, match: Match[Any, Any] | None = None) -> Standing:
    """Where the game stands for a draw vote.

    A game without a measure counts the actions in `match`'s record per seat (none without
    a match, so nobody accepts), and gives every seat the same strength.
    """
    alive = rules.alive(state)
    measure = _MEASURES.get(rules.spec.name)
    if measure is not None:
        return measure(state, alive)
    acted = 0
    if match is not None:
        acted = sum(1 for e in match.entries if isinstance(e, ActionEntry))
        acted //= max(1, match.seats)
    return Standing(acted, FALLBACK_EARLIEST, "actions per seat", {s: 0.0 for s in alive})


def _of(decision: Decision) -> Standing:
    return standing(decision.rules, decision.state, decision.match)


def heuristic_accepts(decision: Decision) -> bool:
    """Late enough, and not ahead: some other surviving seat is at least as strong."""
    st = _of(decision)
    return st.late_enough and not st.ahead(decision.seat)


def unplayed_accepts(rules: Rules[Any, Any], match: Match[Any, Any]) -> bool:
    """A seat in civil disorder: accepts once the game is late enough, whatever it holds."""
    return standing(rules, match.state, match).late_enough


def random_accepts(decision: Decision) -> bool:
    """Refuses before the earliest point, then a coin from the bot's seeded stream."""
    return _of(decision).late_enough and decision.rng.random() < 0.5
