"""A campus position as JSON: the whole game at one moment, hidden PVC included.

Sectors are written by their codes (`"E4"`), seats as numbers from 0 (Ash). The board
lists only sectors somebody owns; a unit is `[seat, level]`. The map comes from the
`map` option (the built-in "campus" or a map the rules were given), and each player's
count of held sectors is recomputed from the board, never read. See docs/campus.md.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from parley.kernel import BadOptions, BadPosition
from parley.kernel.positions import Codec

from .board import CampusMap, MapError, load_map
from .state import NOBODY, CampusState, Minigame, Phase, Settings

# Fields written in their own shape below, or not at all (the map, the held counts).
_BOARD_FIELDS = frozenset(
    {"board", "settings", "held", "owner", "unit", "level", "pvc", "pvc_taken_at", "capturers"}
)
CODEC = Codec({CampusState: _BOARD_FIELDS})


def write(state: CampusState, options: Mapping[str, Any]) -> dict[str, Any]:
    """The position of `state`; `options` are the resolved options it was set up with."""
    codes = state.board.codes
    board: dict[str, Any] = {}
    for s in range(state.board.size):
        if state.owner[s] == NOBODY and state.unit[s] == NOBODY:
            continue
        cell: dict[str, Any] = {"owner": state.owner[s]}
        if state.unit[s] != NOBODY:
            cell["unit"] = [state.unit[s], state.level[s]]
        board[codes[s]] = cell
    body = CODEC.write(state)
    if body.get("minigame") is not None:
        body["minigame"]["sector"] = codes[body["minigame"]["sector"]]
    return {
        "game": "campus",
        "options": dict(options),
        "board": board,
        "pvc": None if state.pvc == NOBODY else codes[state.pvc],
        "pvc_taken_at": None if state.pvc_taken_at == NOBODY else codes[state.pvc_taken_at],
        "capturers": [codes[s] for s in state.capturers],
        **body,
    }


def options_of(state: CampusState) -> dict[str, Any]:
    """The options a state was set up with, from its settings."""
    s = state.settings
    return {
        "map": s.map,
        "landmark_bonus": s.landmark_bonus,
        "pvc_bonus": s.pvc_bonus,
        "pvc_bonus_same": s.pvc_bonus_same,
        "reveal_cycles": s.reveal_cycles,
        "max_level": s.max_level,
        "round_limit": s.round_limit,
    }


def read(data: Mapping[str, Any], maps: Mapping[str, str], spec_options: Any) -> CampusState:
    """A state from a position, every field checked; `maps` are the maps the rules know."""
    if not isinstance(data, Mapping):
        raise BadPosition("a position is a JSON object")
    body = dict(data)
    if body.pop("game", "campus") != "campus":
        raise BadPosition("game: this is not a campus position")
    raw_options = body.pop("options", {})
    if not isinstance(raw_options, Mapping):
        raise BadPosition("options: expected an object")
    try:
        o = spec_options(raw_options)
    except BadOptions as err:
        raise BadPosition(f"options: {err.message}") from None
    settings = Settings(
        map=str(o["map"]),
        landmark_bonus=int(o["landmark_bonus"]),
        pvc_bonus=int(o["pvc_bonus"]),
        pvc_bonus_same=int(o["pvc_bonus_same"]),
        reveal_cycles=int(o["reveal_cycles"]),
        max_level=int(o["max_level"]),
        round_limit=int(o["round_limit"]),
    )
    board_map = _map(settings.map, maps)
    cells = body.pop("board", {})
    pvc = body.pop("pvc", None)
    taken = body.pop("pvc_taken_at", None)
    capturers = body.pop("capturers", [])
    if not isinstance(capturers, list):
        raise BadPosition("capturers: expected a list of sectors")
    game = body.get("minigame")
    if isinstance(game, Mapping) and "sector" in game:
        body["minigame"] = {**game, "sector": _sector(game["sector"], board_map, "minigame.sector")}
    size = board_map.size
    state: CampusState = CODEC.read(
        body,
        CampusState,
        "",
        given={
            "board": board_map,
            "settings": settings,
            "owner": [NOBODY] * size,
            "unit": [NOBODY] * size,
            "level": [0] * size,
            "held": [],
        },
    )
    seats = state.seats
    if not 2 <= seats <= 6:
        raise BadPosition(f"seats: campus takes 2–6 seats, not {seats}")
    if len(board_map.landmarks) < seats:
        raise BadPosition(f"seats: the map has {len(board_map.landmarks)} landmarks for {seats}")
    _read_board(state, cells, board_map)
    state.pvc = _sector(pvc, board_map, "pvc")
    state.pvc_taken_at = _sector(taken, board_map, "pvc_taken_at")
    state.capturers = [_sector(c, board_map, f"capturers[{i}]") for i, c in enumerate(capturers)]
    state.held = [state.owner.count(p) for p in range(seats)]
    _check(state)
    return state


def _map(name: str, maps: Mapping[str, str]) -> CampusMap:
    try:
        if name == "campus":
            return load_map("campus")
        if name in maps:
            return load_map(maps[name])
    except MapError as err:
        raise BadPosition(f"options.map: {err}") from None
    known = ", ".join(["campus", *sorted(maps)])
    raise BadPosition(f"options.map: no map called {name!r} here; maps: {known}")


def _sector(code: Any, board: CampusMap, where: str) -> int:
    if code is None:
        return NOBODY
    if not isinstance(code, str) or code not in board.index:
        raise BadPosition(f"{where}: {code!r} is not a sector of the {board.name} map")
    return board.index[code]


def _seat(value: Any, seats: int, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < seats:
        raise BadPosition(f"{where}: {value!r} is not a seat (0–{seats - 1})")
    return value


def _read_board(state: CampusState, cells: Any, board: CampusMap) -> None:
    if not isinstance(cells, Mapping):
        raise BadPosition("board: expected an object of sectors")
    for code, cell in cells.items():
        where = f"board[{code!r}]"
        s = _sector(code, board, where)
        if not isinstance(cell, Mapping) or set(cell) - {"owner", "unit"} or "owner" not in cell:
            raise BadPosition(f"{where}: expected {{'owner': seat, 'unit': [seat, level]}}")
        state.owner[s] = _seat(cell["owner"], state.seats, f"{where}.owner")
        if "unit" in cell:
            unit = cell["unit"]
            if not isinstance(unit, list) or len(unit) != 2:
                raise BadPosition(f"{where}.unit: expected [seat, level]")
            state.unit[s] = _seat(unit[0], state.seats, f"{where}.unit[0]")
            level = unit[1]
            top = state.settings.max_level
            if isinstance(level, bool) or not isinstance(level, int) or not 1 <= level <= top:
                raise BadPosition(f"{where}.unit[1]: a level is 1–{top}, not {level!r}")
            if state.unit[s] != state.owner[s]:
                raise BadPosition(f"{where}: a unit stands on a sector of its own player")
            state.level[s] = level


def _check(state: CampusState) -> None:
    """Cross-field checks the types alone cannot make."""
    seats = state.seats
    for name in ("pvc_attack", "pvc_defence", "alive"):
        if len(getattr(state, name)) != seats:
            raise BadPosition(f"{name}: expected one entry per seat ({seats})")
    if state.phase is not Phase.OVER:
        _seat(state.current, seats, "current")
        if not state.alive[state.current]:
            raise BadPosition(f"current: seat {state.current} is out of the game")
    for i, s in enumerate(state.capturers):
        if state.unit[s] == NOBODY:
            raise BadPosition(f"capturers[{i}]: no unit stands on {state.board.codes[s]}")
    for i, s in enumerate(state.eliminated):
        _seat(s, seats, f"eliminated[{i}]")
    for s in range(seats):
        if state.alive[s] and state.held[s] == 0 and state.phase is not Phase.OVER:
            raise BadPosition(f"alive[{s}]: a player still in holds at least one sector")
    if state.winner is not None:
        _seat(state.winner, seats, "winner")
    if state.pvc != NOBODY and state.unit[state.pvc] != NOBODY and not state.pvc_revealed:
        raise BadPosition("pvc: the hidden PVC never shares a sector with a unit")
    if not 0 <= state.steps <= state.settings.steps:
        raise BadPosition(f"steps: 0–{state.settings.steps}, not {state.steps}")
    if not 0 <= state.cycle_mask < 1 << seats:
        raise BadPosition(f"cycle_mask: a set of seats, 0–{(1 << seats) - 1}")
    _check_events(state)
    game = state.minigame
    if (state.phase is Phase.MINIGAME) != (game is not None):
        raise BadPosition("minigame: present exactly while the phase is 'minigame'")
    if game is not None:
        _check_minigame(state, game)


def _check_events(state: CampusState) -> None:
    """Each logged event has the shape the views tell (kind first, then its numbers)."""
    from .view import event_json

    for i, event in enumerate(state.events):
        try:
            if not event or not isinstance(event[0], str):
                raise ValueError("no kind")
            json.dumps(event_json(state, event))
        except (ArithmeticError, IndexError, KeyError, TypeError, ValueError):
            shown = json.dumps(event)[:60]
            raise BadPosition(f"events[{i}]: {shown} is not an event of this game") from None


def _check_minigame(state: CampusState, game: Minigame) -> None:
    seats = state.seats
    _seat(game.capturer, seats, "minigame.capturer")
    for i, s in enumerate(game.players):
        _seat(s, seats, f"minigame.players[{i}]")
    for s in game.picks:
        if s not in game.players:
            raise BadPosition(f"minigame.picks: seat {s} does not play this minigame")
