"""Build a position directly, for scenario tests, puzzles and analysis.

    pos = position(
        hands={"red": "3 red, blue", "blue": "2 blue"},
        piles=["red blue green", "yellow"],
        mover="red",
        defeated=["green"],
    )

Chips are written as for a rescue (`2 red, green`); piles bottom first. A surviving player
left out of `hands` holds every chip of their own colour placed nowhere else; any other chip
placed nowhere is in the dead box, so every position accounts for all chips.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from parley.kernel import BadOptions

from . import engine
from .colours import Colour
from .notation import parse_chips, parse_player
from .state import CaptureRule, Phase, SuckerState

Player = str | int


def _seat(player: Player, seats: int) -> int:
    seat = player if isinstance(player, int) else parse_player(player)
    if not 0 <= seat < seats:
        raise BadOptions(f"no player {player!r} among {seats}")
    return seat


def position(
    seats: int = 4,
    *,
    hands: Mapping[Player, str] | None = None,
    piles: Sequence[str] | Mapping[int, str] = (),
    mover: Player = "red",
    defeated: Sequence[Player] = (),
    given_by: Mapping[Player, Player] | None = None,
    chips: int = 7,
    capture_rule: CaptureRule | str = CaptureRule.DEAD_BOX,
    private_channels: bool = False,
) -> SuckerState:
    """A state with `mover` to play (or, if `mover` holds nothing, its rescue round begun).

    Integer players are seat indices (0 is red); strings are colours or 1-based numbers.
    """
    if not 3 <= seats <= 6:
        raise BadOptions(f"So Long Sucker takes 3–6 players, not {seats}")
    hand_rows = [[0] * seats for _ in range(seats)]
    for player, text in (hands or {}).items():
        for chip in parse_chips(text):
            hand_rows[_seat(player, seats)][_index(chip, seats)] += 1
    pile_texts = dict(enumerate(piles, 1)) if not isinstance(piles, Mapping) else dict(piles)
    pile_map: dict[int, tuple[int, ...]] = {}
    for number, text in pile_texts.items():
        stack = tuple(_index(c, seats) for c in parse_chips(text))
        if not stack:
            raise BadOptions(f"pile {number} is empty")
        pile_map[number] = stack
    placed = [0] * seats
    for row in hand_rows:
        for c, n in enumerate(row):
            placed[c] += n
    for stack in pile_map.values():
        for c in stack:
            placed[c] += 1
    if any(n > chips for n in placed):
        raise BadOptions(f"more than {chips} chips of a colour are placed: {placed}")
    alive = [True] * seats
    out = {_seat(p, seats) for p in defeated}
    listed = {_seat(p, seats) for p in (hands or {})}
    for seat in range(seats):
        if seat in out:
            if sum(hand_rows[seat]):
                raise BadOptions(f"defeated {Colour(seat).label} cannot hold chips")
            alive[seat] = False
        elif seat not in listed:
            hand_rows[seat][seat] = chips - placed[seat]  # the rest of their own colour
            placed[seat] = chips
    dead = [chips - n for n in placed]
    holder = _seat(mover, seats)
    if not alive[holder]:
        raise BadOptions("the mover must be in the game")
    givers: list[int | None] = [None] * seats
    for player, giver in (given_by or {}).items():
        givers[_seat(player, seats)] = _seat(giver, seats)
    state = SuckerState(
        seats=seats,
        chips=chips,
        capture_rule=CaptureRule(capture_rule),
        private_channels=private_channels,
        hands=hand_rows,
        piles=pile_map,
        dead=dead,
        alive=alive,
        given_by=givers,
        phase=Phase.MOVE,
        holder=holder,
        next_pile=max(pile_map, default=0) + 1,
        defeated=[_seat(p, seats) for p in defeated],
    )
    engine.settle(state)
    return state


def _index(chip: Colour, seats: int) -> int:
    if int(chip) >= seats:
        raise BadOptions(f"no {chip.label} chips with {seats} players")
    return int(chip)
