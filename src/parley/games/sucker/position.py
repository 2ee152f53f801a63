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

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from parley.kernel import BadOptions, BadPosition
from parley.kernel.positions import Codec

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


# --- the whole state as JSON ------------------------------------------------------------

_OPTION_FIELDS = frozenset({"chips", "capture_rule", "private_channels"})
CODEC = Codec({SuckerState: _OPTION_FIELDS})


def write_json(state: SuckerState) -> dict[str, Any]:
    """The complete position (the table, bargains, phase and whose move), for `read_json`."""
    return {
        "game": "sucker",
        "options": {
            "chips": state.chips,
            "defeated_capture": state.capture_rule.value,
            "private_channels": state.private_channels,
        },
        **CODEC.write(state),
    }


def read_json(
    data: Mapping[str, Any], resolve: Callable[[Mapping[str, Any]], dict[str, Any]]
) -> SuckerState:
    """A state from `write_json`'s form, every field checked; BadPosition names the field."""
    if not isinstance(data, Mapping):
        raise BadPosition("a position is a JSON object")
    body = dict(data)
    if body.pop("game", "sucker") != "sucker":
        raise BadPosition("game: this is not a So Long Sucker position")
    raw = body.pop("options", {})
    if not isinstance(raw, Mapping):
        raise BadPosition("options: expected an object")
    try:
        o = resolve(raw)
    except BadOptions as err:
        raise BadPosition(f"options: {err.message}") from None
    state: SuckerState = CODEC.read(
        body,
        SuckerState,
        "",
        given={
            "chips": int(o["chips"]),
            "capture_rule": CaptureRule(str(o["defeated_capture"])),
            "private_channels": bool(o["private_channels"]),
        },
    )
    _check(state)
    return state


def _check_seat(value: Any, seats: int, where: str) -> None:
    if not 0 <= value < seats:
        raise BadPosition(f"{where}: {value!r} is not a seat (0–{seats - 1})")


def _check(state: SuckerState) -> None:
    seats = state.seats
    if not 3 <= seats <= 6:
        raise BadPosition(f"seats: So Long Sucker takes 3–6 players, not {seats}")
    for name in ("hands", "dead", "alive", "given_by"):
        if len(getattr(state, name)) != seats:
            raise BadPosition(f"{name}: expected one entry per seat ({seats})")
    for s, row in enumerate(state.hands):
        if len(row) != seats or any(n < 0 for n in row):
            raise BadPosition(f"hands[{s}]: {seats} counts of chips, one per colour, none negative")
    for number, pile in state.piles.items():
        if number < 1 or number >= state.next_pile:
            raise BadPosition(f"piles[{number}]: piles are numbered 1 to next_pile - 1")
        if not pile:
            raise BadPosition(f"piles[{number}]: a pile has at least one chip")
        for chip in pile:
            if not 0 <= chip < seats:
                raise BadPosition(f"piles[{number}]: no colour {chip} with {seats} players")
    for i, chip in enumerate(state.captured):
        if not 0 <= chip < seats:
            raise BadPosition(f"captured[{i}]: no colour {chip} with {seats} players")
    # Every chip is somewhere: in a hand, a pile, the dead box or a capture being settled.
    for c in range(seats):
        total = (
            sum(row[c] for row in state.hands)
            + sum(p.count(c) for p in state.piles.values())
            + state.dead[c]
            + state.captured.count(c)
        )
        if total != state.chips:
            raise BadPosition(
                f"hands/piles/dead: {total} {Colour(c).label} chips are placed, not {state.chips}"
            )
    for s, giver in enumerate(state.given_by):
        if giver is not None:
            _check_seat(giver, seats, f"given_by[{s}]")
    if not state.over:
        _check_seat(state.holder, seats, "holder")
    for i, s in enumerate(state.defeated):
        _check_seat(s, seats, f"defeated[{i}]")
        if state.alive[s]:
            raise BadPosition(f"defeated[{i}]: seat {s} is defeated but alive")
    if state.winner is not None:
        _check_seat(state.winner, seats, "winner")
    for number, bargain in state.bargains.items():
        if bargain.id != number:
            raise BadPosition(f"bargains[{number}].id: expected {number}, got {bargain.id}")
        _check_seat(bargain.proposer, seats, f"bargains[{number}].proposer")
        for s in (*bargain.to, *bargain.accepted):
            _check_seat(s, seats, f"bargains[{number}]")
