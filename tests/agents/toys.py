"""Toy-game helpers for the agents tests: action tables and simple strong bots."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tests.kernel.toygames import Take

from parley.agents.bots import Decision
from parley.agents.rl import FlatCodec, SlotCodec
from parley.kernel import (
    Audience,
    GameSpec,
    IllegalAction,
    InvalidAction,
    OptionNode,
    OptionSpec,
    Outcome,
    Owed,
    Rng,
    Rules,
    Setup,
    Structure,
    Turn,
    Viewer,
)


def countdown_codec(rules: Rules[Any, Any], seats: int, options: Mapping[str, Any]) -> FlatCodec:
    return FlatCodec([f"take {n}" for n in (1, 2, 3)])


def bids_codec(rules: Rules[Any, Any], seats: int, options: Mapping[str, Any]) -> FlatCodec:
    return FlatCodec([f"bid {n}" for n in range(6)])


class CountdownBot:
    """Leaves the counter at a multiple of four whenever it can (perfect play for two)."""

    name = "countdown-heuristic"

    def choose(self, decision: Decision) -> Any:
        left = int(decision.view["left"])
        return Take(left % 4 or 1)


# --- Marching: a simultaneous game with composite actions (one step per token) ------------

TOKENS = 2
TOP = 3


@dataclass(frozen=True)
class Step:
    token: int
    delta: int


@dataclass(frozen=True)
class Orders:
    steps: tuple[Step, ...]


@dataclass
class MarchState:
    seats: int
    rounds: int
    round: int = 0
    pos: list[list[int]] = field(default_factory=list)
    orders: dict[int, Orders] = field(default_factory=dict)


class Marching(Rules[MarchState, Step | Orders]):
    """Each round every seat moves each of its two tokens down, nowhere or up, in secret;
    tokens that land on a shared square are knocked back to 0. Highest total wins."""

    spec = GameSpec(
        name="marching",
        title="Marching",
        summary="Move two tokens a step each round, in secret; collisions knock back.",
        min_seats=2,
        max_seats=4,
        structure=Structure.SIMULTANEOUS,
        chance=False,
        hidden_information=True,
        options=(OptionSpec("rounds", 6, "rounds to play", minimum=1, maximum=50),),
        composite_actions=True,
        max_plies=400,
    )

    def setup(self, setup: Setup) -> MarchState:
        return MarchState(
            setup.seats,
            int(setup.options["rounds"]),
            pos=[[0] * TOKENS for _ in range(setup.seats)],
        )

    def seat_count(self, state: MarchState) -> int:
        return state.seats

    def turn(self, state: MarchState) -> Turn:
        if state.round >= state.rounds:
            return Turn()
        owed = tuple(Owed(s, "orders") for s in range(state.seats) if s not in state.orders)
        return Turn(owed=owed, simultaneous=True)

    def legal_actions(self, state: MarchState, seat: int) -> Sequence[Step]:
        if state.round >= state.rounds or seat in state.orders:
            return []
        return [
            Step(t, d)
            for t in range(TOKENS)
            for d in (-1, 0, 1)
            if 0 <= state.pos[seat][t] + d <= TOP
        ]

    def combine(self, state: MarchState, seat: int, parts: Sequence[Step | Orders]) -> Orders:
        steps = sorted((p for p in parts if isinstance(p, Step)), key=lambda s: s.token)
        if len(steps) != len(parts) or [s.token for s in steps] != list(range(TOKENS)):
            raise IllegalAction("orders give exactly one step to each token")
        legal = set(self.legal_actions(state, seat))
        for step in steps:
            if step not in legal:
                raise IllegalAction(f"{self.format(step)} is not legal now")
        return Orders(tuple(steps))

    def random_action(self, state: MarchState, seat: int, rng: Rng) -> Orders:
        legal = self.legal_actions(state, seat)
        return self.combine(
            state, seat, [rng.choice([s for s in legal if s.token == t]) for t in range(TOKENS)]
        )

    def options_tree(self, state: MarchState, seat: int) -> OptionNode:
        legal = self.legal_actions(state, seat)
        children = tuple(
            OptionNode(
                key=f"t{t}",
                label=f"token {t}",
                children=tuple(
                    OptionNode(self.format(s), self.format(s), action=self.format(s))
                    for s in legal
                    if s.token == t
                ),
            )
            for t in range(TOKENS)
        )
        return OptionNode("root", "orders", children=children, each=True)

    def apply(self, state: MarchState, seat: int, action: Step | Orders) -> None:
        if not isinstance(action, Orders):
            raise IllegalAction("send one step for every token at once")
        self.combine(state, seat, list(action.steps))
        state.orders[seat] = action
        if len(state.orders) == state.seats:
            for s, orders in state.orders.items():
                for step in orders.steps:
                    state.pos[s][step.token] += step.delta
            spots: dict[int, int] = {}
            for s in range(state.seats):
                for p in state.pos[s]:
                    if p:
                        spots[p] = spots.get(p, 0) + 1
            for s in range(state.seats):
                state.pos[s] = [0 if p and spots[p] > 1 else p for p in state.pos[s]]
            state.orders = {}
            state.round += 1

    def outcome(self, state: MarchState) -> Outcome | None:
        if state.round < state.rounds:
            return None
        return Outcome.by_scores([sum(p) for p in state.pos], "all rounds marched")

    def observe(self, state: MarchState, viewer: Viewer) -> dict[str, object]:
        return {"round": state.round, "pos": [list(p) for p in state.pos]}

    def epoch(self, state: MarchState) -> int:
        return state.round

    def audience(self, state: MarchState, seat: int, action: Step | Orders) -> Audience:
        return Audience(frozenset({seat}), reveal_epoch=state.round + 1)

    def parse(
        self, text: str, state: MarchState | None = None, seat: int | None = None
    ) -> Step | Orders:
        parts = [p.strip() for p in text.split(";")]
        steps = []
        for part in parts:
            found = re.fullmatch(r"t(\d)\s+([+-]?\d)", part)
            if not found:
                raise InvalidAction(f"{text!r} is not understood; write e.g. 't0 +1; t1 0'")
            steps.append(Step(int(found.group(1)), int(found.group(2))))
        return steps[0] if len(steps) == 1 and ";" not in text else Orders(tuple(steps))

    def format(self, action: Step | Orders) -> str:
        if isinstance(action, Orders):
            return "; ".join(self.format(s) for s in action.steps)
        return f"t{action.token} {action.delta:+d}" if action.delta else f"t{action.token} 0"

    def default_action(self, state: MarchState, seat: int) -> Orders:
        return Orders(tuple(Step(t, 0) for t in range(TOKENS)))


def marching_codec(rules: Rules[Any, Any], seats: int, options: Mapping[str, Any]) -> SlotCodec:
    slots = [f"t{t}" for t in range(TOKENS)]
    tables = {slot: [f"{slot} -1", f"{slot} 0", f"{slot} +1"] for slot in slots}
    return SlotCodec(slots, tables, lambda text: text.split()[0], split=lambda orders: orders.steps)
