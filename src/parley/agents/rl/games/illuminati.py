"""Illuminati for RL: a fixed table of action keys, and named numeric features.

Action keys (`action_key`) are the notation where it is finite, and otherwise coarser:
amounts of money fall in buckets (`1`, `2`, `3-4`, `5-8`, `9-16`, `17+`; a bucket plays
its largest legal amount), a transfer is keyed by its source and whether it goes to the
source's master, a puppet or elsewhere, a move by the group moved, Whispering Campaign by
its target, a placement by host and direction (the group is the one waiting). Several
legal actions may share a key; the key then plays the last of them in the rules' order.

Observation features (`feature_names` gives every name, in order; values in [0, 1]):

* `me=<seat>` (8), `phase=<phase>` (15), `round`, `deck`, `groups_needed`;
* per seat `p<seat>.`: `alive`, `active`, `illuminati=<name>` (8), `treasury`, `money`,
  `groups`, `power`, `transferable`, `hand`, `destroyed`;
* per group `g<i>.` (the 83 groups in card-data order): `owner=<none|0..7>` (9), `dead`,
  `depth`, `treasury`, `target`, `attacking`, `aiding`;
* `hand=<special>` (14): how many of each special card the seat holds;
* `attack.`: `on`, `kind=<kind>` (3), `attacker=<seat>` (8), `defender=<seat>` (8),
  `illuminati_attacks`, `need`, `roll`, `privileged`, `abolished`, `interference`,
  `attacker_money`, `defender_money`.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

import numpy as np
from gymnasium import spaces

from parley.games.illuminati import (
    Ask,
    Attack,
    IlluminatiState,
    Interfere,
    Move,
    PayMoney,
    Place,
    Play,
    Release,
    Spend,
    Transfer,
    load,
)
from parley.games.illuminati.cards import Alignment
from parley.games.illuminati.geometry import DIRECTIONS
from parley.kernel import JSON, Match, Rules

from ..codecs import FlatCodec
from ..encoders import Features

BUCKETS = ((1, 1), (2, 2), (3, 4), (5, 8), (9, 16), (17, 10**9))
PHASES = (
    "choose",
    "goal",
    "start",
    "keep",
    "main",
    "attack",
    "react",
    "after_roll",
    "secrets",
    "place",
    "price",
    "answer",
    "reorganize",
    "confirm",
    "over",
)
KINDS = ("control", "neutralize", "destroy")
MAX_SEATS = 8


def bucket(amount: int) -> str:
    for low, high in BUCKETS:
        if low <= amount <= high:
            return f"{low}" if low == high else (f"{low}-{high}" if high < 10**9 else f"{low}+")
    raise ValueError(f"no bucket for {amount}")


def _bucket_names() -> list[str]:
    return [bucket(low) for low, _ in BUCKETS]


def _seat(seat: int) -> str:
    return f"Player {seat + 1}"


def action_key(match: Match[Any, Any], action: Any) -> str:
    """The table key of a legal action."""
    state: IlluminatiState = match.state
    rules = match.rules
    if isinstance(action, Attack):
        who = "illuminati" if load().card(action.attacker).illuminati else action.attacker
        return f"attack {action.target} to {action.kind} with {who}"
    if isinstance(action, Spend):
        source = "illuminati" if action.source is None else "card"
        return f"spend {bucket(action.amount)} from {source}"
    if isinstance(action, Interfere):
        return f"interfere {bucket(action.amount)} {'against' if action.against else 'for'}"
    if isinstance(action, Transfer):
        player = next(p for p in state.players if action.source in p.links)
        if player.links[action.dest].parent == action.source:
            rel = "puppet"
        elif player.links[action.source].parent == action.dest:
            rel = "master"
        else:
            rel = "elsewhere"
        return f"give {bucket(action.amount)} from {_card_slot(action.source)} to {rel}"
    if isinstance(action, Move):
        return f"move {action.group}"
    if isinstance(action, Place):
        return f"place on {_card_slot(action.host)} {action.direction}"
    if isinstance(action, Release):
        return "release"
    if isinstance(action, Play):
        if action.card == "Whispering Campaign":
            return f"play Whispering Campaign on {action.target}"
        if action.card == "White Collar Crime":
            return f"play White Collar Crime on {_card_slot(action.target or '')}"
        return str(rules.format(action))
    if isinstance(action, Ask) and action.money:
        return f"ask for {bucket(action.money)} MB"
    if isinstance(action, PayMoney):
        return f"pay {bucket(action.amount)} to {_seat(action.to)}"
    return str(rules.format(action))


def _card_slot(name: str) -> str:
    return "illuminati" if load().card(name).illuminati else name


@cache
def action_table(seats: int) -> tuple[str, ...]:
    cards = load()
    groups = [g.name for g in cards.groups]
    attackers = ["illuminati"] + [g.name for g in cards.groups if g.power > 0]
    slots = ["illuminati", *groups]
    specials = sorted({s.name for s in cards.specials})
    others = [_seat(s) for s in range(seats)]
    table: list[str] = []
    table += [f"take {c.name}" for c in cards.illuminati]
    table += [f"goal {c.name}" for c in cards.illuminati if c.hook != "two_attacks"]
    table += [
        "keep face up",
        "keep face down",
        "pass",
        "done",
        "roll",
        "call off",
        "attack again",
        "accept",
        "decline",
        "recycle",
        "privilege",
        "release",
        "ask nothing",
    ]
    table += [f"attack {t} to {k} with {a}" for a in attackers for t in groups for k in KINDS]
    table += [
        f"aid with {c.name}" for c in (*cards.illuminati, *cards.groups) if c.transferable > 0
    ]
    table += [f"spend {b} from {s}" for b in _bucket_names() for s in ("illuminati", "card")]
    table += [f"interfere {b} {side}" for b in _bucket_names() for side in ("for", "against")]
    table += [f"privilege by discarding {s}" for s in specials]
    table += [
        f"abolish privilege by discarding {a} and {b}"
        for i, a in enumerate(specials)
        for b in specials[i:]
    ]
    plain = (
        "Assassination",
        "Deep Agent",
        "Interference",
        "Market Manipulation",
        "Murphy's Law",
        "Secrets Man Was Not Meant to Know",
        "Senate Investigating Committee",
        "Slush Fund",
        "Swiss Bank Account",
    )
    table += [f"play {s}" for s in plain]
    table += [f"play Bribery on {g}" for g in groups]
    table += [f"play Computer Espionage on {g}" for g in groups]
    table += [f"play Computer Espionage on {p}" for p in others]
    table += [f"play Media Campaign on {g}" for g in groups]
    table += [f"play White Collar Crime on {s}" for s in slots]
    table += [f"play Whispering Campaign on {g.name}" for g in cards.groups if g.power == 0]
    table += [
        f"give {b} from {s} to {rel}"
        for s in slots
        for b in _bucket_names()
        for rel in ("puppet", "master", "elsewhere")
    ]
    table += [f"move {g}" for g in groups]
    table += [f"place on {s} {d}" for s in slots for d in DIRECTIONS]
    table += [f"drop {g}" for g in groups]
    table += [f"give {item} to {p}" for item in (*groups, *specials) for p in others]
    table += [f"ask for {g}" for g in groups]
    table += [f"ask for {b} MB" for b in _bucket_names()]
    table += [f"pay {b} to {p}" for b in _bucket_names() for p in others]
    table += [
        f"lasers {g} {op} {a.value}" for g in groups for op in ("add", "remove") for a in Alignment
    ]
    table += [
        f"lasers {g} from {a.value} to {b.value}"
        for g in groups
        for a in Alignment
        for b in Alignment
        if a is not b
    ]
    return tuple(table)


def codec(rules: Rules[Any, Any], seats: int, options: Mapping[str, Any]) -> FlatCodec:
    return FlatCodec(action_table(seats), key=action_key)


@cache
def feature_names() -> tuple[str, ...]:
    cards = load()
    names: list[str] = [f"me={s}" for s in range(MAX_SEATS)]
    names += [f"phase={p}" for p in PHASES]
    names += ["round", "deck", "groups_needed"]
    for s in range(MAX_SEATS):
        names += [f"p{s}.alive", f"p{s}.active"]
        names += [f"p{s}.illuminati={c.name}" for c in cards.illuminati]
        names += [
            f"p{s}.{k}"
            for k in ("treasury", "money", "groups", "power", "transferable", "hand", "destroyed")
        ]
    for i, _g in enumerate(cards.groups):
        names += [f"g{i}.owner=none"] + [f"g{i}.owner={s}" for s in range(MAX_SEATS)]
        names += [
            f"g{i}.{k}" for k in ("dead", "depth", "treasury", "target", "attacking", "aiding")
        ]
    names += [f"hand={s.name}" for s in cards.specials]
    names += ["attack.on"] + [f"attack.kind={k}" for k in KINDS]
    names += [f"attack.attacker={s}" for s in range(MAX_SEATS)]
    names += [f"attack.defender={s}" for s in range(MAX_SEATS)]
    names += [
        "attack.illuminati_attacks",
        "attack.need",
        "attack.roll",
        "attack.privileged",
        "attack.abolished",
        "attack.interference",
        "attack.attacker_money",
        "attack.defender_money",
    ]
    return tuple(names)


def _clip(x: float) -> float:
    return min(1.0, max(0.0, x))


class IlluminatiEncoder:
    """Named features in [0, 1] from the seat's own observation."""

    def __init__(self) -> None:
        self.names = feature_names()
        self.at = {n: i for i, n in enumerate(self.names)}
        cards = load()
        self.groups = {g.name: i for i, g in enumerate(cards.groups)}
        self._space = spaces.Box(0.0, 1.0, (len(self.names),), np.float32)

    @property
    def space(self) -> spaces.Box:
        return self._space

    def encode(self, observation: Mapping[str, JSON], seat: int) -> Features:
        view = observation.get("view", {})
        assert isinstance(view, dict)
        out = np.zeros(len(self.names), np.float32)
        at = self.at

        def put(name: str, value: float = 1.0) -> None:
            i = at.get(name)
            if i is not None:
                out[i] = _clip(value)

        put(f"me={seat}")
        put(f"phase={view.get('phase')}")
        limit = view.get("round_limit") or 50
        put("round", float(view.get("round", 0)) / float(limit))
        put("deck", float(view.get("deck", 0)) / 98)
        put("groups_needed", float(view.get("groups_needed", 0)) / 13)
        for p in view.get("players", []):
            s = p["seat"]
            put(f"p{s}.alive", 0.0 if p["eliminated"] or not p["illuminati"] else 1.0)
            put(f"p{s}.active", 1.0 if view.get("active") == s else 0.0)
            if p["illuminati"]:
                put(f"p{s}.illuminati={p['illuminati']}")
            put(f"p{s}.treasury", p["treasury"] / 100)
            put(f"p{s}.money", p["total_money"] / 200)
            put(f"p{s}.groups", p["groups"] / 13)
            put(f"p{s}.power", p["power"] / 50)
            put(f"p{s}.transferable", p["transferable"] / 30)
            put(f"p{s}.hand", p["hand_size"] / 8)
            put(f"p{s}.destroyed", p["destroyed"] / 8)
            if s == seat:
                for h in p["hand"]:
                    if h["card"]:
                        put(f"hand={h['card']}", out[at[f"hand={h['card']}"]] + 0.5)
        owned: set[str] = set()
        for structure in view.get("structures", []):
            s = structure["seat"]
            for c in structure["cards"]:
                i = self.groups.get(c["name"])
                if i is None:
                    continue
                owned.add(c["name"])
                put(f"g{i}.owner={s}")
                put(f"g{i}.depth", c["depth"] / 4)
                put(f"g{i}.treasury", c["treasury"] / 50)
        for name, i in self.groups.items():
            if name not in owned:
                put(f"g{i}.owner=none")
        for name in view.get("dead", []):
            if name in self.groups:
                put(f"g{self.groups[name]}.dead")
        a = view.get("attack")
        if a:
            put("attack.on")
            put(f"attack.kind={a['kind']}")
            put(f"attack.attacker={a['attacker_seat']}")
            if a["defender"] is not None:
                put(f"attack.defender={a['defender']}")
            if a["target"] in self.groups:
                put(f"g{self.groups[a['target']]}.target")
            if a["attacker"] in self.groups:
                put(f"g{self.groups[a['attacker']]}.attacking")
            else:
                put("attack.illuminati_attacks")
            for aid in a["aids"]:
                if aid in self.groups:
                    put(f"g{self.groups[aid]}.aiding")
            put("attack.need", (a["need"] + 10) / 25)
            put("attack.roll", (a["roll"] or 0) / 12)
            put("attack.privileged", float(a["privileged"]))
            put("attack.abolished", float(a["privilege_abolished"]))
            put("attack.interference", (a["interference"] + 20) / 40)
            put("attack.attacker_money", a["attacker_money"] / 30)
            put(
                "attack.defender_money",
                (a["defender_group_money"] + a["defender_illuminati_money"]) / 30,
            )
        return out


def encoder(rules: Rules[Any, Any], seats: int, options: Mapping[str, Any]) -> IlluminatiEncoder:
    return IlluminatiEncoder()
