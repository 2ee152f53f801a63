"""The PettingZoo adapters on the toy games: PettingZoo's own checks plus behaviour."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test
from tests.agents.toys import Marching, bids_codec, countdown_codec, marching_codec
from tests.kernel.toygames import Countdown, SealedBids

from parley.agents.rl import (
    CodecError,
    EncoderError,
    FlatCodec,
    JsonEncoder,
    ParleyAEC,
    ParleyParallel,
    register_codec,
    unregister,
)
from parley.kernel import IllegalAction, Match, Rng, Viewer, replay


@pytest.fixture(autouse=True)
def toy_codecs() -> Iterator[None]:
    register_codec("countdown", countdown_codec)
    register_codec("sealed-bids", bids_codec)
    register_codec("marching", marching_codec)
    yield
    unregister("countdown")
    unregister("sealed-bids")
    unregister("marching")


@pytest.mark.parametrize("rules", [Countdown(), SealedBids()], ids=lambda r: r.spec.name)
@pytest.mark.parametrize("seats", [2, 4])
def test_aec_passes_pettingzoo_api_and_seed_tests(rules: object, seats: int) -> None:
    api_test(ParleyAEC(rules, seats), num_cycles=300)  # type: ignore[arg-type]
    seed_test(lambda: ParleyAEC(rules, seats), num_cycles=300)  # type: ignore[arg-type]


@pytest.mark.parametrize("seats", [2, 5])
def test_parallel_passes_pettingzoo_api_and_seed_tests(seats: int) -> None:
    parallel_api_test(ParleyParallel(SealedBids(), seats, {"rounds": 6}), num_cycles=200)
    parallel_seed_test(lambda: ParleyParallel(SealedBids(), seats), num_cycles=200)


def test_aec_masks_only_legal_takes_and_pays_the_winner() -> None:
    env = ParleyAEC(Countdown(), 2, {"start": 5})
    env.reset(seed=3)
    moves = 0
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        left = env.match.state.left
        expected = [1 if n <= left else 0 for n in (1, 2, 3)]
        assert obs["action_mask"].tolist() == expected
        env.step(int(np.flatnonzero(obs["action_mask"])[-1]))  # always take the most
        moves += 1
    record = env.match.to_json()
    assert record["outcome"] is not None
    winner = record["outcome"]["winners"][0]
    assert sum(int(e["notation"].split()[1]) for e in record["entries"]) == 5
    assert moves == 2  # 3 then 2
    assert env.match.outcome() is not None and winner == env.match.entries[-1].seat


def test_aec_rewards_accumulate_to_one_for_the_winner() -> None:
    env = ParleyAEC(Countdown(), 3)
    env.reset(seed=11)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        env.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    outcome = env.match.outcome()
    assert outcome is not None
    assert totals == {f"player_{s}": (1.0 if s in outcome.winners else 0.0) for s in range(3)}


def test_illegal_index_plays_the_default_or_raises() -> None:
    env = ParleyAEC(Countdown(), 2, {"start": 1})
    env.reset(seed=0)
    env.step(2)  # "take 3" with one left: not legal, the default "take 1" is played
    entry = env.match.entries[-1]
    assert entry.auto and env.match.rules.format(entry.action) == "take 1"
    strict = ParleyAEC(Countdown(), 2, {"start": 1}, on_illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalAction):
        strict.step(2)
    assert strict.match.seq == 0


def test_aec_truncates_at_the_ply_cap() -> None:
    env = ParleyAEC(Countdown(), 2, {"start": 99}, max_plies=5)
    env.reset(seed=1)
    steps = 0
    for _ in env.agent_iter():
        _, _, _terminated, truncated, _ = env.last()
        if truncated:
            env.step(None)
            continue
        env.step(0)
        steps += 1
    assert steps == 5 and env.match.outcome() is None


def test_same_seed_same_game_different_seed_different_game() -> None:
    def record(seed: int) -> object:
        env = ParleyParallel(SealedBids(), 3, {"rounds": 5})
        env.reset(seed=seed)
        for agent in env.possible_agents:
            env.action_space(agent).seed(seed)
        while env.agents:
            env.step({a: env.action_space(a).sample() for a in env.agents})
        return env.match.to_json()

    assert record(5) == record(5)
    assert {str(record(s)) for s in range(4)}.__len__() > 1


def test_parallel_fills_missing_and_bad_actions_with_defaults_and_replays() -> None:
    env = ParleyParallel(SealedBids(), 3, {"rounds": 2})
    _, infos = env.reset(seed=9)
    assert all(info["acting"] for info in infos.values())
    _, rewards, terminations, _, infos = env.step(
        {"player_0": 5, "player_1": 1, "player_2": 9}  # 9 is no bid: seat 2 bids its default 0
    )
    history = env.match.state.history
    assert history == [[5, 1, 0]]
    assert env.match.entries[2].auto and infos["player_2"]["illegal"]
    assert not rewards["player_0"] and not any(terminations.values())
    _, rewards, terminations, _, _ = env.step({"player_0": 0, "player_1": 4})
    assert all(terminations.values()) and env.agents == []
    outcome = env.match.outcome()
    assert outcome is not None and env.match.entries[-1].auto  # player_2 sent nothing
    assert sum(rewards.values()) == pytest.approx(1.0)
    again = replay(env.match.rules, env.match.to_json())
    assert again.to_json() == env.match.to_json()


def test_codec_round_trips_and_reports_gaps() -> None:
    rules = Countdown()
    match = Match(rules, 2, seed=0)
    codec = FlatCodec(["take 1", "take 2", "take 3"])
    seat = min(match.turn().owing)
    choices = codec.choices(match, seat)
    for action in match.legal_actions(seat):
        assert codec.decode(match, choices, codec.encode(match, seat, action)) == action
    narrow = FlatCodec(["take 1"])
    with pytest.raises(CodecError, match="take 2"):
        narrow.mask(narrow.choices(match, seat))
    with pytest.raises(ValueError):
        FlatCodec(["take 1", "take 1"])


def test_json_encoder_is_fixed_size_and_says_when_too_small() -> None:
    match = Match(SealedBids(), 2, seed=0)
    observation = match.observe(Viewer.of(0))
    big = JsonEncoder(512).encode(observation, 0)
    assert big.shape == (512,) and big.dtype == np.uint8 and big.any()
    with pytest.raises(EncoderError, match="bytes"):
        JsonEncoder(8).encode(observation, 0)


@pytest.mark.parametrize("seats", [2, 4])
def test_composite_actions_pass_every_pettingzoo_check(seats: int) -> None:
    api_test(ParleyAEC(Marching(), seats), num_cycles=300)
    seed_test(lambda: ParleyAEC(Marching(), seats), num_cycles=300)
    parallel_api_test(ParleyParallel(Marching(), seats), num_cycles=300)
    parallel_seed_test(lambda: ParleyParallel(Marching(), seats), num_cycles=300)


def test_slot_masks_follow_the_options_tree_and_vectors_round_trip() -> None:
    env = ParleyParallel(Marching(), 2, {"rounds": 3})
    observations, _ = env.reset(seed=1)
    masks = observations["player_0"]["action_mask"]
    # Tokens start at 0: "no part" and "-1" are not legal, "0" and "+1" are.
    assert [m.tolist() for m in masks] == [[0, 0, 1, 1], [0, 0, 1, 1]]
    codec = env.game.codec
    match = env.match
    for seat in (0, 1):
        orders = match.rules.random_action(match.state, seat, Rng(seat))
        vector = codec.encode(match, seat, orders)
        assert codec.decode(match, codec.choices(match, seat), vector) == orders
    env.step({"player_0": np.array([3, 2]), "player_1": np.array([0, 3])})  # p1: token 0 unordered
    assert env.match.state.pos == [[1, 0], [0, 0]]  # p1 fell back to its default (stay)
    assert env.match.entries[-1].auto
