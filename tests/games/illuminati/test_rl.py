"""Illuminati for RL: PettingZoo's checks in the parallel form too, the table and features."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test, parallel_seed_test

from parley.agents.rl import ParleyAEC, ParleyParallel, codec_for
from parley.agents.rl.games.illuminati import action_table, bucket, feature_names
from parley.games.illuminati import RULES
from parley.kernel import Match, Rng, Viewer


@pytest.fixture(autouse=True)
def quiet_advice() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


def test_parallel_env_passes_parallel_api_and_seed_tests() -> None:
    parallel_api_test(ParleyParallel(RULES, 3), num_cycles=60)
    parallel_seed_test(lambda: ParleyParallel(RULES, 3), num_cycles=60)


def test_buckets_and_table() -> None:
    assert [bucket(n) for n in (1, 2, 3, 4, 5, 8, 9, 16, 17, 400)] == [
        "1",
        "2",
        "3-4",
        "3-4",
        "5-8",
        "5-8",
        "9-16",
        "9-16",
        "17+",
        "17+",
    ]
    table = action_table(4)
    assert len(table) == len(set(table))
    assert "attack Big Media to control with illuminati" in table


def test_features_are_named_and_read_the_seats_own_view() -> None:
    match: Match[Any, Any] = Match(RULES, 4, {"illuminati": "random"}, seed=3)
    codec = codec_for(RULES, 4, match.options)
    env = ParleyAEC(RULES, 4)
    encoder = env.game.encoder
    assert len(feature_names()) == encoder.space.shape[0]
    rng = Rng(3)
    for _ in range(60):
        seat = next(iter(match.turn().owing))
        choices = codec.choices(match, seat)
        assert codec.mask(choices).sum() >= 1
        features = encoder.encode(match.observe(Viewer.of(seat)), seat)
        assert features.dtype == np.float32 and encoder.space.contains(features)
        assert features[feature_names().index(f"me={seat}")] == 1.0
        match.act(seat, RULES.random_action(match.state, seat, rng))
