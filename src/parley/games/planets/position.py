"""A Planet Control position as JSON: the whole galaxy at one moment, decks included.

The galaxy and the game's limits are options (`galaxy`, `target`, `rounds`, `tactics`);
the home systems follow from the galaxy and the seat count and are recomputed on reading.
Every other field of the state is written under its own name (see docs/planets.md):
areas as `{"units": {seat: {kind: n}}, "damaged": {...}}`, seats as numbers from 0 (Red).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from parley.kernel import BadOptions, BadPosition
from parley.kernel.positions import Codec

from . import forces
from .cards import CARDS, DECKS, OBJECTIVES
from .galaxy import GalaxyError, galaxy_for
from .state import Area, PlanetsState, Stage
from .units import UNITS

_OPTION_FIELDS = frozenset({"galaxy", "homes", "target", "rounds", "tactics_per_round", "compact"})
CODEC = Codec({PlanetsState: _OPTION_FIELDS})


def write(state: PlanetsState, galaxy_option: str) -> dict[str, Any]:
    return {
        "game": "planets",
        "options": {
            "rules": "compact" if state.compact else "full",
            "galaxy": galaxy_option,
            "target": state.target,
            "rounds": state.rounds,
            "tactics": state.tactics_per_round,
        },
        **_trim(CODEC.write(state)),
    }


def _trim(body: dict[str, Any]) -> dict[str, Any]:
    """Leave out what is empty: a system with no units, a planet nobody holds or stands on."""
    space = {}
    for sid, area in body["space"].items():
        if area["units"]:
            space[sid] = area if area["damaged"] else {"units": area["units"]}
    planets = {}
    for name, planet in body["planets"].items():
        area = planet["area"]
        if not area["damaged"]:
            planet["area"] = {"units": area["units"]}
        if planet != {
            "controller": None,
            "exhausted": False,
            "attachments": [],
            "area": {"units": {}},
        }:
            planets[name] = planet
    return {**body, "space": space, "planets": planets}


def read(
    data: Mapping[str, Any], resolve: Callable[[Mapping[str, Any]], dict[str, Any]]
) -> PlanetsState:
    if not isinstance(data, Mapping):
        raise BadPosition("a position is a JSON object")
    body = dict(data)
    if body.pop("game", "planets") != "planets":
        raise BadPosition("game: this is not a Planet Control position")
    raw = body.pop("options", {})
    if not isinstance(raw, Mapping):
        raise BadPosition("options: expected an object")
    if "rules" not in raw:  # written before the fuller round existed: the compact game
        raw = {**raw, "rules": "compact"}
    try:
        o = resolve(raw)
    except BadOptions as err:
        raise BadPosition(f"options: {err.message}") from None
    seats = body.get("seats")
    if isinstance(seats, bool) or not isinstance(seats, int) or not 3 <= seats <= 8:
        raise BadPosition(f"seats: Planet Control takes 3–8 seats, not {seats!r}")
    option = str(o["galaxy"])
    name = ("trine" if seats == 3 else "sextant") if option == "auto" else option
    try:
        galaxy = galaxy_for(name)
        slots = galaxy.homes(seats)
    except (GalaxyError, OSError) as err:
        raise BadPosition(f"options.galaxy: {err}") from None
    for key, known in (("space", galaxy.systems), ("planets", galaxy.planets)):
        given = body.get(key, {})
        if not isinstance(given, Mapping):
            raise BadPosition(f"{key}: expected an object")
        odd = sorted(set(given) - set(known))
        if odd:
            raise BadPosition(f"{key}[{odd[0]!r}]: not in the {galaxy.name} galaxy")
    # Systems and planets left out are empty.
    body["space"] = {sid: body.get("space", {}).get(sid, {"units": {}}) for sid in galaxy.systems}
    body["planets"] = {n: body.get("planets", {}).get(n, {}) for n in galaxy.planets}
    state: PlanetsState = CODEC.read(
        body,
        PlanetsState,
        "",
        given={
            "galaxy": galaxy,
            "homes": [galaxy.home_system(slot).id for slot in slots],
            "target": int(o["target"]),
            "rounds": int(o["rounds"]),
            "tactics_per_round": int(o["tactics"]),
            "compact": str(o["rules"]) == "compact",
        },
    )
    _check(state)
    return state


def _seat(value: Any, seats: int, where: str) -> None:
    if not 0 <= value < seats:
        raise BadPosition(f"{where}: {value!r} is not a seat (0–{seats - 1})")


def _check_area(area: Area, seats: int, where: str) -> None:
    for key in ("units", "damaged"):
        for seat, kinds in getattr(area, key).items():
            _seat(seat, seats, f"{where}.{key}")
            for kind, n in kinds.items():
                if kind not in UNITS:
                    raise BadPosition(f"{where}.{key}[{seat}]: no unit kind {kind!r}")
                if n <= 0:
                    raise BadPosition(f"{where}.{key}[{seat}][{kind!r}]: a count is at least 1")
    for seat, kinds in area.damaged.items():
        for kind, n in kinds.items():
            if n > area.count(seat, kind):
                raise BadPosition(f"{where}.damaged[{seat}][{kind!r}]: more damaged than there are")


def _check_round(state: PlanetsState) -> None:
    """The fuller round's fields: none under compact, consistent under full."""
    from .strategy import CARDS, ROUND_STAGES, TOKENS_PER_SEAT, on_board

    seats, n = state.seats, len(CARDS)
    lists = ("holders", "used", "card_goods")
    if state.compact:
        for name in (*lists, "followers", "granted", "trims"):
            if getattr(state, name):
                raise BadPosition(f"{name}: the compact rules have no fuller round")
        if state.stage in ROUND_STAGES or state.custodians or state.strategic is not None:
            raise BadPosition("stage: the compact rules have no strategy or status steps")
        return
    for name in lists:
        if len(getattr(state, name)) != n:
            raise BadPosition(f"{name}: expected one entry per strategy card ({n})")
    for i, holder in enumerate(state.holders):
        if holder is not None:
            _seat(holder, seats, f"holders[{i}]")
        if state.card_goods[i] < 0:
            raise BadPosition(f"card_goods[{i}]: trade goods are never negative")
    for s in range(seats):
        pools = (state.tactics[s], state.fleet[s], state.strategy_pool[s])
        if min(pools) < 0 or sum(pools) + on_board(state, s) > TOKENS_PER_SEAT:
            raise BadPosition(f"command sheet of seat {s}: more than {TOKENS_PER_SEAT} tokens")
    _seat(state.speaker, seats, "speaker")
    if not 0 <= state.picks <= n:
        raise BadPosition(f"picks: 0–{n}, not {state.picks}")
    if state.strategic is not None and not 1 <= state.strategic <= n:
        raise BadPosition(f"strategic: no strategy card {state.strategic}")
    for name in ("followers", "granted"):
        for s in getattr(state, name):
            _seat(s, seats, name)
    for i, (s, sid) in enumerate(state.trims):
        _seat(s, seats, f"trims[{i}]")
        if sid not in state.galaxy.systems:
            raise BadPosition(f"trims[{i}]: no system {sid!r}")
    if state.custodians_by is not None:
        _seat(state.custodians_by, seats, "custodians_by")
    if min(state.gain, state.influence) < 0:
        raise BadPosition("gain, influence: never negative")


def _check(state: PlanetsState) -> None:
    seats, galaxy = state.seats, state.galaxy
    if set(state.space) != set(galaxy.systems):
        odd = sorted(set(state.space) ^ set(galaxy.systems))
        raise BadPosition(f"space: one area per system of the galaxy (check {odd[:5]})")
    if set(state.planets) != set(galaxy.planets):
        odd = sorted(set(state.planets) ^ set(galaxy.planets))
        raise BadPosition(f"planets: one entry per planet of the galaxy (check {odd[:5]})")
    for sid, area in state.space.items():
        _check_area(area, seats, f"space[{sid!r}]")
    for name, planet in state.planets.items():
        _check_area(planet.area, seats, f"planets[{name!r}].area")
        if planet.controller is not None:
            _seat(planet.controller, seats, f"planets[{name!r}].controller")
        for card in planet.attachments:
            if card not in CARDS:
                raise BadPosition(f"planets[{name!r}].attachments: no card {card!r}")
    for sid, owners in state.tokens.items():
        if sid not in galaxy.systems:
            raise BadPosition(f"tokens[{sid!r}]: no such system")
        for s in owners:
            _seat(s, seats, f"tokens[{sid!r}]")
    for name in ("tactics", "passed", "points", "scored", "goods", "fragments"):
        if len(getattr(state, name)) != seats:
            raise BadPosition(f"{name}: expected one entry per seat ({seats})")
    for name in ("fleet", "strategy_pool"):
        if len(getattr(state, name)) != (0 if state.compact else seats):
            raise BadPosition(
                f"{name}: expected one entry per seat ({seats})"
                if not state.compact
                else f"{name}: the compact rules have no {name.replace('_', ' ')}"
            )
    for name, where in (("decks", state.decks), ("discards", state.discards)):
        if set(where) != set(DECKS):
            raise BadPosition(f"{name}: one list per exploration deck ({', '.join(DECKS)})")
        for trait, cards in where.items():
            if trait not in DECKS:
                raise BadPosition(f"decks: no exploration deck {trait!r}")
            for card in cards:
                if card not in CARDS:
                    raise BadPosition(f"decks[{trait!r}]: no card {card!r}")
    for name in (*state.objective_deck, *state.revealed):
        if name not in OBJECTIVES:
            raise BadPosition(f"objectives: no objective {name!r}")
    _seat(state.current, seats, "current")
    _seat(state.first, seats, "first")
    if state.active is not None and state.active not in galaxy.systems:
        raise BadPosition(f"active: no system {state.active!r}")
    _check_round(state)
    free = (Stage.ACTION, Stage.OVER, Stage.STRATEGY, Stage.PRIMARY, Stage.SECONDARY)
    if state.stage not in (*free, Stage.FOLLOW, Stage.STATUS) and state.active is None:
        raise BadPosition(f"active: the {state.stage.value} stage needs an active system")
    for i, hit in enumerate(state.hits):
        _seat(hit.seat, seats, f"hits[{i}].seat")
        if hit.where not in galaxy.systems and hit.where not in galaxy.planets:
            raise BadPosition(f"hits[{i}].where: no system or planet {hit.where!r}")
    for i, name in enumerate(state.committed):
        if name not in galaxy.planets:
            raise BadPosition(f"committed[{i}]: no planet {name!r}")
    if state.winner is not None:
        _seat(state.winner, seats, "winner")
    problem = forces.position_problem(state)
    if problem is not None:
        raise BadPosition(problem)
