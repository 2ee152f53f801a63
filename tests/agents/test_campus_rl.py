"""Campus Conquest as PettingZoo environments: AEC and Parallel checks, table and features."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from parley.agents.rl import ParleyAEC, ParleyParallel, codec_for
from parley.agents.rl.games.campus import CampusEncoder, action_table, encoder
from parley.games.campus import RULES, load_map
from parley.kernel import SPECTATOR, Match, Rng, Viewer
from parley.kernel.conformance import play_random


@pytest.fixture(autouse=True)
def quiet_advice() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("seats", [2, 4])
def test_aec_api_and_seed(seats: int) -> None:
    api_test(ParleyAEC(RULES, seats), num_cycles=80)
    seed_test(lambda: ParleyAEC(RULES, seats), num_cycles=80)


def test_parallel_api_and_seed() -> None:
    parallel_api_test(ParleyParallel(RULES), num_cycles=80)
    parallel_seed_test(lambda: ParleyParallel(RULES), num_cycles=80)


def test_table_lists_every_step_once_and_the_picks() -> None:
    board = load_map()
    table = action_table(board)
    assert len(table) == 2 * board.edge_count + 1 + 102
    assert len(set(table)) == len(table)
    for text in table:
        assert RULES.format(RULES.parse(text)) == text


def test_the_minigame_mask_is_every_pick() -> None:
    match: Match[Any, Any] = Match(RULES, 3, seed=0)
    codec = codec_for(RULES, 3, match.options)
    rng = Rng(3)
    while match.state.phase.value != "minigame":
        seat = sorted(match.turn().owing)[0]
        match.act(seat, RULES.random_action(match.state, seat, rng))
    seat = sorted(match.turn().owing)[0]
    mask = codec.mask(codec.choices(match, seat))
    assert int(np.sum(mask)) == 102


def test_features_are_named_and_never_show_the_hidden_pvc() -> None:
    enc = encoder(RULES, 4, {})
    assert isinstance(enc, CampusEncoder)
    assert len(enc.names) == enc.size == len(set(enc.names))
    match: Match[Any, Any] = Match(RULES, 4, seed=9)
    play_random(match, Rng(9), 40)
    assert not match.state.pvc_revealed
    for seat in range(4):
        features = enc.encode(match.observe(Viewer.of(seat)), seat)
        assert enc.space.contains(features)
        assert features[enc.index[f"me.{seat}"]] == 1.0
        seen = [n for n in enc.names if n.endswith("pvc_seen") and features[enc.index[n]]]
        assert seen == []
    # a revealed PVC shows in every seat's features at its sector
    match.state.pvc_revealed = True
    code = match.state.board.codes[match.state.pvc]
    features = enc.encode(match.observe(SPECTATOR), 0)
    assert features[enc.index[f"sector.{code}.pvc_seen"]] == 1.0
