"""Campus Conquest for RL: a flat table of every step, pass and pick, and named features.

The action table lists, in this order: `move X to Y` for every ordered pair of adjacent
sectors (map order of X, then of Y), `pass`, `pick 0` .. `pick 100` and `pick none`; its
keys are the canonical notation, so index i means the same action in every run.

The observation is a float vector in [0, 1] built from the seat's own view only (the hidden
PVC is never in it); `CampusEncoder.names` names every entry, and docs/campus.md gives the
layout.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces

from parley.games.campus import PICK_MAX, CampusMap, load_map
from parley.kernel import JSON, Rules

from ..codecs import FlatCodec
from ..encoders import Features

BONUS_SCALE = 20.0  # attack and defence bonuses are divided by this and capped at 1
LEVEL_SCALE = 5.0  # unit levels likewise (the default highest level)


def action_table(board: CampusMap) -> list[str]:
    table = [
        f"move {board.codes[a]} to {board.codes[b]}"
        for a in range(board.size)
        for b in board.adjacent[a]
    ]
    table.append("pass")
    table.extend(f"pick {v}" for v in range(PICK_MAX + 1))
    table.append("pick none")
    return table


def codec(rules: Rules[Any, Any], seats: int, options: Mapping[str, Any]) -> FlatCodec:
    return FlatCodec(action_table(load_map(str(options.get("map", "campus")))))


_PHASES = ("move", "minigame", "over")
_PVC = ("hidden", "revealed", "away")
_SECTOR_FIELDS = ("level", "attack_landmark", "defence_landmark", "pvc_seen")
_PLAYER_FIELDS = ("alive", "sectors", "units", "attack", "defence")


class CampusEncoder:
    """Named features: the seat, every sector, every player, the phase, the PVC, minigames."""

    def __init__(self, board: CampusMap, seats: int) -> None:
        self.board = board
        self.seats = seats
        s = seats
        names: list[str] = [f"me.{p}" for p in range(s)]
        for code in board.codes:
            names += [f"sector.{code}.owner.{p}" for p in range(s)]
            names += [f"sector.{code}.unit.{p}" for p in range(s)]
            names += [f"sector.{code}.{f}" for f in _SECTOR_FIELDS]
        for p in range(s):
            names += [f"player.{p}.{f}" for f in _PLAYER_FIELDS]
        names += [f"phase.{ph}" for ph in _PHASES]
        names += [f"current.{p}" for p in range(s)]
        names += ["steps_left", "round"]
        names += [f"pvc.{st}" for st in _PVC]
        names += ["pvc.cycles"]
        names += [f"minigame.capturer.{p}" for p in range(s)]
        names += [f"minigame.waiting.{p}" for p in range(s)]
        names += ["minigame.picked_by_me"]
        names += [f"last_minigame.pick.{p}" for p in range(s)]
        names += [f"last_minigame.picked.{p}" for p in range(s)]
        names += [f"last_minigame.winner.{p}" for p in range(s)]
        self.names = tuple(names)
        self.index = {n: i for i, n in enumerate(self.names)}
        self.size = len(names)
        self._space = spaces.Box(0.0, 1.0, (self.size,), np.float32)

    @property
    def space(self) -> spaces.Box:
        return self._space

    def encode(self, observation: Mapping[str, JSON], seat: int) -> Features:
        view = observation.get("view", {})
        assert isinstance(view, dict)
        out = np.zeros(self.size, np.float32)
        at = self.index
        s, board = self.seats, self.board
        if 0 <= seat < s:
            out[at[f"me.{seat}"]] = 1.0
        pvc = view.get("pvc") or {}
        seen = pvc.get("sector")
        for i, code in enumerate(board.codes):
            owner = view["owners"][i]
            if owner is not None and owner < s:
                out[at[f"sector.{code}.owner.{owner}"]] = 1.0
            unit = view["units"][i]
            if unit:
                out[at[f"sector.{code}.unit.{unit[0]}"]] = 1.0
                out[at[f"sector.{code}.level"]] = min(1.0, unit[1] / LEVEL_SCALE)
            out[at[f"sector.{code}.attack_landmark"]] = float(board.attack_landmark[i])
            out[at[f"sector.{code}.defence_landmark"]] = float(board.defence_landmark[i])
            out[at[f"sector.{code}.pvc_seen"]] = float(seen == code)
        size = float(board.size)
        for player in view.get("players", [])[:s]:
            p = player["seat"]
            out[at[f"player.{p}.alive"]] = float(player["alive"])
            out[at[f"player.{p}.sectors"]] = player["sectors"] / size
            out[at[f"player.{p}.units"]] = player["units"] / size
            out[at[f"player.{p}.attack"]] = min(1.0, player["attack"] / BONUS_SCALE)
            out[at[f"player.{p}.defence"]] = min(1.0, player["defence"] / BONUS_SCALE)
        phase = view.get("phase")
        if phase in _PHASES:
            out[at[f"phase.{phase}"]] = 1.0
        current = view.get("current")
        if isinstance(current, int) and 0 <= current < s and phase != "over":
            out[at[f"current.{current}"]] = 1.0
        out[at["steps_left"]] = min(1.0, view.get("steps_left", 0) / 2.0)
        out[at["round"]] = min(1.0, view.get("round", 0) / max(1, view.get("round_limit", 1)))
        status = pvc.get("status")
        if status in _PVC:
            out[at[f"pvc.{status}"]] = 1.0
        out[at["pvc.cycles"]] = min(1.0, pvc.get("cycles", 0) / (pvc.get("reveal_after", 5) + 1))
        game = view.get("minigame")
        if game:
            out[at[f"minigame.capturer.{game['capturer']}"]] = 1.0
            for p in game["waiting"]:
                out[at[f"minigame.waiting.{p}"]] = 1.0
            out[at["minigame.picked_by_me"]] = float(seat in game["picked"])
        last = view.get("last_minigame")
        if last:
            for p_text, value in last["picks"].items():
                p = int(p_text)
                if value is not None:
                    out[at[f"last_minigame.pick.{p}"]] = value / PICK_MAX
                    out[at[f"last_minigame.picked.{p}"]] = 1.0
            if last["winner"] is not None:
                out[at[f"last_minigame.winner.{last['winner']}"]] = 1.0
        return out


def encoder(rules: Rules[Any, Any], seats: int, options: Mapping[str, Any]) -> CampusEncoder:
    return CampusEncoder(load_map(str(options.get("map", "campus"))), seats)
