"""Planet Control for RL: a flat table of every canonical action, and named board features.

The action table lists, for the galaxy the options choose, every action in canonical
notation that can ever be legal: `activate <system>`, `pass`, `done`; moves of one ship
type from each system with every load it can carry (`move 2 carrier 5 infantry 1 mech
from 0102 to 0203`; the destination is the active system, so each source and destination
pair is listed); `destroy`/`sustain <unit>`; `bombard <planet>`/`bombard none`; `commit
<i> infantry <m> mech to <planet>`; `explore <trait> at <planet>`; `exhaust <planet>`;
`spend trade good`; `produce <n> <unit> at <home planet>` (space docks exist only on home
planets). Legal actions are keyed by their notation.

Observation: a vector in [0, 1]; `PlanetsEncoder.names` names every feature (see
docs/planets.md for the layout).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from parley.games.planets import Galaxy, galaxy_for
from parley.games.planets.actions import (
    Activate,
    Aim,
    Assign,
    Bombard,
    Commit,
    Done,
    Exhaust,
    Explore,
    Move,
    Pass,
    Produce,
    Retreat,
    SpendGood,
    Stay,
)
from parley.games.planets.cards import OBJECTIVES
from parley.games.planets.galaxy import TRAITS
from parley.games.planets.notation import format_action, units_text
from parley.games.planets.state import COLOURS
from parley.games.planets.units import CARGO, GROUND, SHIPS, STRUCTURES, UNITS
from parley.kernel import JSON, Match, Rules

from ..codecs import FlatCodec
from ..encoders import Features

STAGES = (
    "action",
    "move",
    "space",
    "bombard",
    "commit",
    "cannon",
    "ground",
    "control",
    "explore",
    "produce",
    "offense",
    "retreat",
    "strategy",
    "primary",
    "secondary",
    "follow",
    "status",
    "over",
)
COMPACT_SHIPS = tuple(k for k in SHIPS if not UNITS[k].full)
MAX_PRODUCTION = 14  # the richest home planet with attachments, plus 2


def galaxy_of(seats: int, options: Mapping[str, Any]) -> Galaxy:
    option = str(options.get("galaxy", "auto"))
    if option == "auto":
        option = "trine" if seats == 3 else "sextant"
    return galaxy_for(option)


def _offsets() -> list[tuple[int, int]]:
    """Axial steps within two systems: where a mover can come from (the most any ship moves)."""
    reach = max(UNITS[k].move for k in SHIPS)
    return [
        (dq, dr)
        for dq in range(-reach, reach + 1)
        for dr in range(-reach, reach + 1)
        if (dq, dr) != (0, 0) and max(abs(dq), abs(dr), abs(dq + dr)) <= reach
    ]


def _offset_text(dq: int, dr: int) -> str:
    return f"{dq:+d}{dr:+d}"


def _moves() -> list[str]:
    out: list[str] = []
    inf_max, mech_max = UNITS["infantry"].limit, UNITS["mech"].limit
    for dq, dr in _offsets():
        where = _offset_text(dq, dr)
        for kind in COMPACT_SHIPS:
            for n in range(1, UNITS[kind].limit + 1):
                room = UNITS[kind].capacity * n
                for inf in range(min(room, inf_max) + 1):
                    for mech in range(min(room - inf, mech_max) + 1):
                        units = [(kind, n)] + [
                            (k, c) for k, c in (("infantry", inf), ("mech", mech)) if c
                        ]
                        out.append(f"move {units_text(tuple(units))} from {where}")
    return out


def _full_moves() -> list[str]:
    """Full-rules moves as listed: one ship type, bare or with one cargo type from one place
    (the start system, a system passed through, or a planet of the active system)."""
    out: list[str] = []
    cargo_limit = {k: UNITS[k].limit for k in CARGO}
    for dq, dr in _offsets():
        where = _offset_text(dq, dr)
        far = max(abs(dq), abs(dr), abs(dq + dr))
        between = [
            (q, r)
            for q, r in _offsets()
            if max(abs(q), abs(r), abs(q + r)) == 1
            and max(abs(dq - q), abs(dr - r), abs(dq - q + dr - r)) == far - 1
        ]
        places = ["start.space", "start.p0", "start.p1", "active.p0", "active.p1"]
        places += [f"{_offset_text(q, r)}.{part}" for q, r in between for part in _PARTS]
        for kind in SHIPS:
            stats = UNITS[kind]
            if not stats.move or stats.move < far:
                continue
            for n in range(1, stats.limit + 1):
                ships = f"move {n} {kind} from {where} full"
                out.append(ships)
                room = stats.capacity * n
                for place in places:
                    for cargo, most in cargo_limit.items():
                        if cargo == "fighter" and not place.endswith(".space"):
                            continue
                        out += [
                            f"{ships} with {c} {cargo} {place}"
                            for c in range(1, min(room, most) + 1)
                        ]
    return out


_PARTS = ("space", "p0", "p1")


def _place_code(match: Match[Any, Any], move: Move, place: str) -> str:
    """Where cargo boards, relative to the move: `start.space`, `active.p1`, `+1-1.p0`."""
    galaxy = match.state.galaxy
    if place in galaxy.systems:
        sid, part = place, "space"
    else:
        sid = galaxy.planets[place].system
        part = f"p{galaxy.systems[sid].planets.index(place)}"
    if sid == move.source:
        return f"start.{part}"
    if sid == move.dest:
        return f"active.{part}"
    here, dest = galaxy.systems[sid], galaxy.systems[move.dest]
    return f"{_offset_text(here.q - dest.q, here.r - dest.r)}.{part}"


def action_key(match: Match[Any, Any], action: Any) -> str:
    """Notation, except that a move names where it comes from relative to the active system
    (and, under the full rules, where its cargo boards relative to the move)."""
    if isinstance(action, Move):
        galaxy = match.state.galaxy
        source, dest = galaxy.systems[action.source], galaxy.systems[action.dest]
        where = _offset_text(source.q - dest.q, source.r - dest.r)
        if match.state.compact:
            return f"move {units_text(action.units)} from {where}"
        key = f"move {units_text(action.units)} from {where} full"
        for place, kind, n in action.cargo:
            key += f" with {n} {kind} {_place_code(match, action, place)}"
        return key
    return format_action(action)


def action_table(galaxy: Galaxy) -> list[str]:
    actions: list[Any] = [Pass(), Done(), SpendGood(), Bombard(None)]
    actions += [Activate(s) for s in galaxy.systems]
    actions += [
        Assign(k, s) for k in SHIPS + GROUND for s in (False, True) if not s or UNITS[k].sustain
    ]
    for name, planet in galaxy.planets.items():
        actions.append(Bombard(name))
        actions.append(Exhaust(name))
        actions += [Explore(t, name) for t in planet.traits]
        actions += [
            Commit(name, i, m)
            for i in range(UNITS["infantry"].limit + 1)
            for m in range(UNITS["mech"].limit + 1)
            if i or m
        ]
        if planet.home is not None and galaxy.systems[planet.system].planets[0] == name:
            for kind in SHIPS + GROUND:
                for n in range(1, min(UNITS[kind].limit, MAX_PRODUCTION) + 1):
                    actions.append(Produce(kind, n, name))
    actions += [Aim(s) for s in range(len(COLOURS))] + [Stay()]
    actions += [Retreat(s) for s in galaxy.systems]
    return [format_action(a) for a in actions] + _moves() + _full_moves() + _round_table(galaxy)


def _round_table(galaxy: Galaxy) -> list[str]:
    """The fuller round's actions: strategy cards, command tokens, structures placed on any
    planet (so production at any planet), fleet supply and the custodians."""
    from parley.games.planets import actions as act
    from parley.games.planets.state import COLOURS
    from parley.games.planets.strategy import CARDS, TOKENS_PER_SEAT

    out: list[Any] = [act.Decline(), act.BuyToken(), act.PayToll()]
    for c in CARDS:
        out += [act.Pick(c.number), act.Strategic(c.number), act.Follow(c.number)]
    out += [
        act.Tokens(t, f, s)
        for t in range(TOKENS_PER_SEAT + 1)
        for f in range(TOKENS_PER_SEAT + 1 - t)
        for s in range(TOKENS_PER_SEAT + 1 - t - f)
    ]
    out += [act.Appoint(s) for s in range(len(COLOURS))]
    out += [act.Grant(s) for s in range(len(COLOURS))]
    out += [act.Seal(s) for s in galaxy.systems] + [act.Lift(s) for s in galaxy.systems]
    out += [act.Score(o) for o in OBJECTIVES]
    out += [act.Scrap(k) for k in SHIPS]
    for name, planet in galaxy.planets.items():
        out += [act.Ready(name), act.Place("pds", name), act.Place("dock", name)]
        if not (planet.home is not None and galaxy.systems[planet.system].planets[0] == name):
            for kind in SHIPS + GROUND:
                for n in range(1, min(UNITS[kind].limit, MAX_PRODUCTION) + 1):
                    out.append(Produce(kind, n, name))
    return [format_action(a) for a in out]


_TABLES: dict[str, list[str]] = {}


def codec(rules: Rules[Any, Any], seats: int, options: Mapping[str, Any]) -> FlatCodec:
    galaxy = galaxy_of(seats, options)
    if galaxy.name not in _TABLES:
        _TABLES[galaxy.name] = action_table(galaxy)
    return FlatCodec(_TABLES[galaxy.name], key=action_key)


class PlanetsEncoder:
    """Named features in [0, 1] from a seat's observation."""

    def __init__(self, seats: int, galaxy: Galaxy) -> None:
        self.seats = seats
        self.galaxy = galaxy
        names: list[str] = [f"me.{s}" for s in range(seats)]
        names += [f"to_act.{s}" for s in range(seats)]
        names += [f"stage.{s}" for s in STAGES]
        names += ["round", "hits.pending", "pool", "production", "explore.pending"]
        for s in range(seats):
            names += [
                f"player.{s}.{k}"
                for k in (
                    "points",
                    "tactics",
                    "passed",
                    "trade_goods",
                    "fragments",
                    "ready_resources",
                    "ready_influence",
                    "total_resources",
                    "total_influence",
                    "planets",
                )
            ]
        for sid in galaxy.systems:
            names.append(f"system.{sid}.active")
            for s in range(seats):
                names.append(f"system.{sid}.token.{s}")
                names += [f"system.{sid}.{s}.{k}" for k in SHIPS + GROUND]
        for name in galaxy.planets:
            names += [f"planet.{name}.controller.{s}" for s in range(seats)]
            names += [
                f"planet.{name}.{k}"
                for k in ("exhausted", "control_token", "resources", "influence", "committed")
            ]
            names += [f"planet.{name}.trait.{t}" for t in TRAITS]
            for s in range(seats):
                names += [f"planet.{name}.{s}.{k}" for k in GROUND + STRUCTURES]
        names += [f"objective.{o}.revealed" for o in OBJECTIVES]
        names += [f"objective.{o}.scored.{s}" for o in OBJECTIVES for s in range(seats)]
        names += [f"deck.{t}.left" for t in TRAITS]
        names += _round_names(seats)
        self.names = names
        self.index = {n: i for i, n in enumerate(names)}
        self._space = spaces.Box(0.0, 1.0, (len(names),), np.float32)

    @property
    def space(self) -> spaces.Box:
        return self._space

    def encode(self, observation: Mapping[str, JSON], seat: int) -> Features:
        view = observation.get("view", {})
        assert isinstance(view, dict)
        out = np.zeros(len(self.names), np.float32)
        index = self.index

        def put(name: str, value: float) -> None:
            i = index.get(name)
            if i is not None:
                out[i] = min(1.0, max(0.0, value))

        put(f"me.{seat}", 1)
        if view.get("to_act") is not None:
            put(f"to_act.{view['to_act']}", 1)
        put(f"stage.{view.get('stage')}", 1)
        put("round", view.get("round", 0) / max(1, view.get("rounds", 1)))
        put("hits.pending", sum(h["count"] for h in view.get("hits", [])) / 10)
        put("pool", view.get("pool", 0) / 20)
        put("production", view.get("production", 0) / MAX_PRODUCTION)
        put("explore.pending", len(view.get("explore_queue", [])) / 4)
        target = max(1, view.get("target", 1))
        for p in view.get("players", []):
            s = p["seat"]
            put(f"player.{s}.points", p["points"] / target)
            put(f"player.{s}.tactics", p["tactics"] / 8)
            put(f"player.{s}.passed", float(p["passed"]))
            put(f"player.{s}.trade_goods", p["trade_goods"] / 10)
            put(f"player.{s}.fragments", len(p["fragments"]) / 6)
            for k in ("ready_resources", "ready_influence", "total_resources", "total_influence"):
                put(f"player.{s}.{k}", p[k] / 40)
            put(f"player.{s}.planets", len(p["planets"]) / len(self.galaxy.planets))
        active = view.get("active")
        if active:
            put(f"system.{active}.active", 1)
        for system in view.get("systems", []):
            sid = system["id"]
            for t in system.get("tokens", []):
                put(f"system.{sid}.token.{t}", 1)
            for entry in system.get("units", []):
                for k, n in entry["units"].items():
                    put(f"system.{sid}.{entry['seat']}.{k}", n / UNITS[k].limit)
        committed = set(view.get("committed", []))
        for planet in view.get("planets", []):
            name = planet["name"]
            if planet["controller"] is not None:
                put(f"planet.{name}.controller.{planet['controller']}", 1)
            put(f"planet.{name}.exhausted", float(planet["exhausted"]))
            put(f"planet.{name}.control_token", float(planet.get("control_token", False)))
            put(f"planet.{name}.resources", planet["resources"] / 8)
            put(f"planet.{name}.influence", planet["influence"] / 8)
            put(f"planet.{name}.committed", float(name in committed))
            for t in planet["traits"]:
                put(f"planet.{name}.trait.{t}", 1)
            for entry in planet.get("units", []):
                for k, n in entry["units"].items():
                    put(f"planet.{name}.{entry['seat']}.{k}", n / UNITS[k].limit)
        for o in view.get("objectives", []):
            put(f"objective.{o['id']}.revealed", 1)
            for s in o["scored_by"]:
                put(f"objective.{o['id']}.scored.{s}", 1)
        for t, deck in view.get("decks", {}).items():
            put(f"deck.{t}.left", deck["left"] / 10)
        _encode_round(view, put)
        return out


CARD_COUNT = 8  # strategy cards of the fuller round


def _round_names(seats: int) -> list[str]:
    """The fuller round's features (all 0 under `rules=compact`)."""
    names = [f"speaker.{s}" for s in range(seats)]
    for s in range(seats):
        names += [f"player.{s}.{k}" for k in ("fleet", "strategy", "reinforcements")]
    for n in range(1, CARD_COUNT + 1):
        names += [f"card.{n}.holder.{s}" for s in range(seats)]
        names += [f"card.{n}.used", f"card.{n}.trade_goods", f"card.{n}.resolving"]
    names += ["custodians.on", *(f"custodians.by.{s}" for s in range(seats))]
    names += ["round.gain", "round.influence"]
    return names


def _encode_round(view: Mapping[str, Any], put: Any) -> None:
    if view.get("rules") != "full":
        return
    put(f"speaker.{view['speaker']}", 1)
    for sheet in view.get("command_sheets", []):
        s = sheet["seat"]
        put(f"player.{s}.fleet", sheet["fleet"] / 8)
        put(f"player.{s}.strategy", sheet["strategy"] / 8)
        put(f"player.{s}.reinforcements", sheet["reinforcements"] / 16)
    for card in view.get("strategy_cards", []):
        n = card["number"]
        if card["holder"] is not None:
            put(f"card.{n}.holder.{card['holder']}", 1)
        put(f"card.{n}.used", float(card["used"]))
        put(f"card.{n}.trade_goods", card["trade_goods"] / 4)
    resolving = view.get("strategic")
    if resolving:
        put(f"card.{resolving['card']}.resolving", 1)
    custodians = view.get("custodians") or {}
    put("custodians.on", float(bool(custodians.get("on"))))
    if custodians.get("removed_by") is not None:
        put(f"custodians.by.{custodians['removed_by']}", 1)
    put("round.gain", view.get("gain", 0) / 8)
    put("round.influence", view.get("influence", 0) / 12)


def encoder(rules: Rules[Any, Any], seats: int, options: Mapping[str, Any]) -> PlanetsEncoder:
    return PlanetsEncoder(seats, galaxy_of(seats, options))


__all__ = ["PlanetsEncoder", "action_table", "codec", "encoder"]
