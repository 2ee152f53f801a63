"""Planet Control for RL: the PettingZoo checks in both forms, the table and the features."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test, parallel_seed_test

from parley.agents.rl import ParleyParallel, codec_for
from parley.agents.rl.games.planets import PlanetsEncoder, action_key
from parley.games.planets import RULES, builtin
from parley.kernel import Match, Rng, Viewer
from parley.kernel.conformance import random_step


@pytest.fixture(autouse=True)
def quiet_advice() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def test_the_parallel_form_passes_the_parallel_checks() -> None:
    # One seat is owed at a time: the parallel form hands each step to that seat alone.
    parallel_api_test(ParleyParallel(RULES, 3), num_cycles=60)
    parallel_seed_test(lambda: ParleyParallel(RULES, 3), num_cycles=60)


def test_moves_are_keyed_by_where_they_come_from() -> None:
    match: Match[Any, Any] = Match(RULES, 3, {"rules": "compact"}, seed=1)
    codec = codec_for(RULES, 3, match.options)
    home = match.state.homes[0]
    match.state.current = 0
    match.act(0, "activate 0302")
    moves = [a for a in match.legal_actions(0) if type(a).__name__ == "Move"]
    assert moves
    keys = {action_key(match, m) for m in moves}
    assert all(k.startswith("move ") and k.split()[-1][0] in "+-" for k in keys)
    choices = codec.choices(match, 0)
    assert codec.mask(choices).sum() == len(match.legal_actions(0))
    assert home == "0301"


def test_features_are_named_and_follow_the_board() -> None:
    encoder = PlanetsEncoder(3, builtin("trine"))
    assert len(encoder.names) == len(set(encoder.names)) == encoder.space.shape[0]
    match: Match[Any, Any] = Match(RULES, 3, seed=4)
    rng = Rng(4)
    for _ in range(60):
        random_step(match, rng)
    features = encoder.encode(match.observe(Viewer.of(1)), 1)
    assert encoder.space.contains(features)
    at = encoder.index
    assert features[at["me.1"]] == 1 and features[at["me.0"]] == 0
    for name, planet in match.state.planets.items():
        if planet.controller is not None:
            assert features[at[f"planet.{name}.controller.{planet.controller}"]] == 1
    home = match.state.homes[0]
    carriers = match.state.space[home].count(0, "carrier")
    assert np.isclose(features[at[f"system.{home}.0.carrier"]], carriers / 4)


def _covers(match: Match[Any, Any], seat: int) -> None:
    codec = codec_for(RULES, match.state.seats, match.options)
    legal = match.legal_actions(seat)
    keys = [action_key(match, a) for a in legal]
    assert len(set(keys)) == len(keys), "two legal actions share a key"
    assert codec.mask(codec.choices(match, seat)).sum() == len(legal)


def test_full_rules_moves_with_cargo_are_in_the_table() -> None:
    from .helpers import empty_match, lay_out

    units = [
        "0301 red carrier 4",
        "0301 red warsun 2",
        "0301 red fighter 6",
        "0301 red infantry 2",
        "Aurel red infantry 6",
        "Aurel red mech 2",
        "Aurel Minor red infantry 2",
        "0302 red infantry 1",
        "Mirren red infantry 2",
    ]
    board = {"units": units, "control": {"Aurel": "red", "Aurel Minor": "red", "Mirren": "red"}}
    match = lay_out(empty_match(options={"rules": "full"}), board)
    match.act(0, "activate 0202")  # war suns pass through 0302 or 0201 on the way
    assert any("0302" in RULES.format(a) for a in match.legal_actions(0))
    _covers(match, 0)


@pytest.mark.parametrize("rules", ["full", "compact"])
def test_every_legal_action_of_random_games_is_in_the_table(rules: str) -> None:
    for seed in range(2):
        match: Match[Any, Any] = Match(RULES, 3 + seed, {"rules": rules}, seed=seed)
        rng = Rng(seed)
        for _ in range(150):
            if match.outcome() is not None:
                break
            _covers(match, match.turn().owed[0].seat)
            random_step(match, rng)
