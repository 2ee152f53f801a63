"""Build concrete campus positions for scenarios, and read them back by sector code."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parley.games.campus import COLLEGES, NOBODY, RULES, CampusState
from parley.games.campus.engine import begin_turn
from parley.kernel import Rng, Setup


def seat_of(who: str | int) -> int:
    return who if isinstance(who, int) else COLLEGES.index(who.capitalize())


def position(
    seats: int = 2,
    owners: Mapping[str, str | int] | None = None,
    units: Mapping[str, Sequence[Any]] | None = None,
    pvc: str | None = None,
    revealed: bool = False,
    current: str | int = 0,
    steps: int = 2,
    seed: int = 1,
    begin: bool = False,
    options: Mapping[str, Any] | None = None,
    **extra: Any,
) -> CampusState:
    """A position from owners {code: seat}, units {code: [seat, level]}, the PVC's sector.

    A unit's sector is owned by its player unless `owners` says otherwise. The state's
    generator is reset to `seed` last, so the dice of the scenario follow from it alone.
    """
    state = RULES.setup(Setup(seats, RULES.spec.resolve_options(options or {}), Rng(seed)))
    board = state.board
    size = board.size
    state.owner, state.unit, state.level = [NOBODY] * size, [NOBODY] * size, [0] * size
    for code, who in (owners or {}).items():
        state.owner[board.index[code]] = seat_of(who)
    for code, (who, level) in (units or {}).items():
        s = board.index[code]
        state.unit[s], state.level[s] = seat_of(who), int(level)
        state.owner[s] = seat_of(who)
    state.held = [state.owner.count(p) for p in range(seats)]
    state.alive = [n > 0 for n in state.held]
    state.pvc = NOBODY if pvc is None else board.index[pvc]
    state.pvc_revealed = revealed
    state.events.clear()
    for key, value in extra.items():
        setattr(state, key, list(value) if isinstance(value, list) else value)
    state.rng = Rng(seed)
    if begin:
        state.turns = 0
        begin_turn(state, seat_of(current))
    else:
        state.turns = 1
        state.current, state.steps = seat_of(current), steps
    return state


def act(state: CampusState, who: str | int, text: str) -> None:
    seat = seat_of(who)
    RULES.apply(state, seat, RULES.parse(text, state, seat))


def units(state: CampusState) -> dict[str, list[Any]]:
    codes = state.board.codes
    return {
        codes[s]: [COLLEGES[u], state.level[s]] for s, u in enumerate(state.unit) if u != NOBODY
    }


def owners(state: CampusState) -> dict[str, str]:
    codes = state.board.codes
    return {codes[s]: COLLEGES[o] for s, o in enumerate(state.owner) if o != NOBODY}
