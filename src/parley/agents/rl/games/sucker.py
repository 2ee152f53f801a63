"""So Long Sucker for RL: a flat table of actions keyed by place, and table features.

Pile and bargain numbers grow without bound during a game, so the action table names a
pile by its place among the piles on the table (oldest first) and a bargain by its place
among the open ones: `play red pile0`, `play red new`, `accept #1`. Everything else keys
as in the notation: `next blue`, `kill green`, `rescue with yellow` (a rescue of the one
player being rescued, with one prisoner), `decline`, `kill prisoner red`,
`give red to blue`. Proposals are free text and are not in the table.

Observation: the seat, every player's hand and status, the piles (each pile's size, top
two chips and colour counts), the dead box, the owed decision and who owes it, the
choices, capture or rescue under way, and how close the game is to a stalled draw.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from parley.games.sucker import (
    MAX_OPEN_BARGAINS,
    Accept,
    ChooseNext,
    Colour,
    Decline,
    GivePrisoner,
    KillFromPile,
    KillPrisoner,
    Play,
    Reject,
    Rescue,
    SuckerState,
    Withdraw,
)
from parley.kernel import JSON, Match, Rules

from ..codecs import CodecError, FlatCodec
from ..encoders import Features


def _colour(index: int) -> str:
    return Colour(index).label


def action_key(match: Match[Any, Any], action: Any) -> str:
    """The table key of a legal action: piles and bargains by their place on the table."""
    state: SuckerState = match.state
    if isinstance(action, Play):
        if action.pile is None:
            return f"play {_colour(action.chip)} new"
        return f"play {_colour(action.chip)} pile{sorted(state.piles).index(action.pile)}"
    if isinstance(action, ChooseNext):
        return f"next {_colour(action.player)}"
    if isinstance(action, KillFromPile):
        return f"kill {_colour(action.chip)}"
    if isinstance(action, Rescue) and len(action.chips) == 1:
        return f"rescue with {_colour(action.chips[0])}"
    if isinstance(action, Decline):
        return "decline"
    if isinstance(action, KillPrisoner):
        return f"kill prisoner {_colour(action.chip)}"
    if isinstance(action, GivePrisoner):
        return f"give {_colour(action.chip)} to {_colour(action.to)}"
    if isinstance(action, Accept | Reject | Withdraw):
        word = type(action).__name__.lower()
        return f"{word} #{sorted(state.bargains).index(action.bargain)}"
    raise CodecError(f"{match.rules.format(action)!r} has no place in the action table")


def action_table(seats: int, chips: int) -> list[str]:
    colours = [_colour(c) for c in range(seats)]
    piles = seats * chips  # at most one pile per chip
    bargains = MAX_OPEN_BARGAINS * seats
    table: list[str] = []
    for c in colours:
        table.append(f"play {c} new")
        table.extend(f"play {c} pile{k}" for k in range(piles))
    table.extend(f"next {c}" for c in colours)
    table.extend(f"kill {c}" for c in colours)
    table.extend(f"rescue with {c}" for c in colours)
    table.append("decline")
    table.extend(f"kill prisoner {c}" for c in colours)
    table.extend(f"give {c} to {to}" for c in colours for to in colours)
    for word in ("accept", "reject", "withdraw"):
        table.extend(f"{word} #{k}" for k in range(bargains))
    return table


def codec(rules: Rules[Any, Any], seats: int, options: Mapping[str, Any]) -> FlatCodec:
    return FlatCodec(action_table(seats, int(options.get("chips", 7))), key=action_key)


_PHASES = ("move", "next", "kill", "rescue", "over")


class SuckerEncoder:
    """Table features in [0, 1] from the seat's observation."""

    def __init__(self, seats: int, chips: int) -> None:
        self.seats = seats
        self.total = seats * chips
        self.piles = self.total
        s = seats
        self.pile_width = 2 + 3 * s
        self.size = (
            s  # me
            + s * (s + 2)  # players: alive, held, hand by colour
            + self.piles * self.pile_width
            + s  # dead box
            + len(_PHASES)
            + 3 * s  # to act, holder, choices
            + 2 * s  # capture: capturer, chips by colour
            + s  # rescue target
            + 2  # stall, open bargains to me
        )
        self._space = spaces.Box(0.0, 1.0, (self.size,), np.float32)

    @property
    def space(self) -> spaces.Box:
        return self._space

    def feature_names(self) -> list[str]:
        """Names in encoding order, e.g. `red.hand.blue`, `pile3.top.green`, `stall`."""
        colours = [_colour(c) for c in range(self.seats)]
        names = [f"me.{c}" for c in colours]
        for player in colours:
            names += [f"{player}.alive", f"{player}.held"]
            names += [f"{player}.hand.{c}" for c in colours]
        for k in range(self.piles):
            names += [f"pile{k}.present", f"pile{k}.size"]
            names += [f"pile{k}.top.{c}" for c in colours]
            names += [f"pile{k}.second.{c}" for c in colours]
            names += [f"pile{k}.chips.{c}" for c in colours]
        names += [f"dead.{c}" for c in colours]
        names += [f"phase.{phase}" for phase in _PHASES]
        for group in ("to_act", "holder", "choice", "capturer", "captured", "rescue_target"):
            names += [f"{group}.{c}" for c in colours]
        names += ["stall", "open_bargains_to_me"]
        return names

    def _index(self, label: Any) -> int | None:
        if not isinstance(label, str):
            return None
        index = int(Colour[label.upper()])
        return index if index < self.seats else None

    def encode(self, observation: Mapping[str, JSON], seat: int) -> Features:
        view = observation.get("view", {})
        assert isinstance(view, dict)
        s, total = self.seats, float(self.total)
        out = np.zeros(self.size, np.float32)
        at = 0

        def one_hot(label: Any) -> None:
            index = self._index(label)
            if index is not None:
                out[at + index] = 1.0

        if 0 <= seat < s:
            out[seat] = 1.0
        at += s
        for player in view.get("players", [])[:s]:
            out[at] = 1.0 if player.get("alive") else 0.0
            out[at + 1] = player.get("held", 0) / total
            for colour, n in player.get("hand", {}).items():
                index = self._index(colour)
                if index is not None:
                    out[at + 2 + index] = n / total
            at += s + 2
        for k, pile in enumerate(view.get("piles", [])[: self.piles]):
            base = at + k * self.pile_width
            chips = [self._index(c) for c in pile.get("chips", [])]
            out[base] = 1.0
            out[base + 1] = len(chips) / total
            if chips and chips[-1] is not None:
                out[base + 2 + chips[-1]] = 1.0
            if len(chips) > 1 and chips[-2] is not None:
                out[base + 2 + s + chips[-2]] = 1.0
            for c in chips:
                if c is not None:
                    out[base + 2 + 2 * s + c] += 1.0 / total
        at += self.piles * self.pile_width
        for colour, n in (view.get("dead") or {}).items():
            index = self._index(colour)
            if index is not None:
                out[at + index] = n / total
        at += s
        phase = view.get("phase")
        if phase in _PHASES:
            out[at + _PHASES.index(phase)] = 1.0
        at += len(_PHASES)
        one_hot(view.get("to_act"))
        at += s
        one_hot(view.get("holder"))
        at += s
        for colour in view.get("choices", []) or []:
            one_hot(colour)
        at += s
        capture = view.get("capture") or {}
        one_hot(capture.get("capturer"))
        at += s
        for colour in capture.get("chips", []):
            index = self._index(colour)
            if index is not None:
                out[at + index] += 1.0 / total
        at += s
        one_hot((view.get("rescue") or {}).get("target"))
        at += s
        limit = float(view.get("stall_limit") or 1)
        out[at] = min(1.0, float(view.get("stall", 0)) / limit)
        me = view.get("you")
        open_bargains = (view.get("bargains") or {}).get("open", [])
        mine = sum(1 for b in open_bargains if me in b.get("to", []))
        out[at + 1] = min(1.0, mine / (MAX_OPEN_BARGAINS * s))
        return out


def encoder(rules: Rules[Any, Any], seats: int, options: Mapping[str, Any]) -> SuckerEncoder:
    return SuckerEncoder(seats, int(options.get("chips", 7)))
