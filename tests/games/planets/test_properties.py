"""Invariants of random play: control, limits, cards, capacity."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from parley.games.planets import RULES, PlanetsState, Stage
from parley.games.planets.cards import CARDS, DECKS, Effect
from parley.games.planets.engine import capacity_of, in_play
from parley.games.planets.units import GROUND, UNITS
from parley.kernel import Match, Rng
from parley.kernel.conformance import random_step


def _check(state: PlanetsState) -> None:
    for name, planet in state.planets.items():
        if planet.controller is None:
            assert not planet.exhausted, f"{name}: an unheld card is never exhausted"
        if state.stage is Stage.ACTION:
            # between tactical actions, only the controller has units on a planet (25.5)
            assert set(planet.area.units) <= {planet.controller}, name
    for seat in range(state.seats):
        for kind, stats in UNITS.items():
            assert in_play(state, seat, kind) <= stats.limit, (seat, kind)
    if state.stage is Stage.ACTION:
        for sid, area in state.space.items():
            for seat in area.units:
                ground = sum(area.count(seat, k) for k in GROUND)
                assert ground <= capacity_of(area, seat), f"{sid}: ground forces beyond capacity"
            assert (
                len(
                    [s for s in area.units if any(area.count(s, k) for k in UNITS if UNITS[k].ship)]
                )
                <= 1
            )
    for trait, cards in DECKS.items():
        attached = sum(
            1 for p in state.planets.values() for c in p.attachments if CARDS[c].deck == trait
        )
        fragments = sum(f.count(trait) for f in state.fragments)
        # every card is in its deck, its discards, attached to a planet, or a kept fragment
        held = len(state.decks[trait]) + len(state.discards[trait]) + attached + fragments
        assert held == len(cards), trait
        assert fragments <= sum(1 for c in cards if c.effect is Effect.FRAGMENT), trait


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([3, 4]))
def test_invariants_hold_through_random_games(seed: int, seats: int) -> None:
    match: Match[Any, Any] = Match(RULES, seats, seed=seed)
    rng = Rng(seed)
    while not match.is_over and random_step(match, rng):
        _check(match.state)
