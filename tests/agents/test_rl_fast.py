"""Fast sampling, flat masks, the shared turn cap, feature names, state and the vector form."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.agents.toys import bids_codec, countdown_codec
from tests.kernel.toygames import Countdown, SealedBids

from parley import games
from parley.agents.rl import (
    NO_ACTION,
    FlatMasks,
    ParleyAEC,
    ParleyParallel,
    SlotCodec,
    codec_for,
    feature_names,
    register_codec,
    sample_legal,
    unregister,
    vector_env,
)
from parley.agents.rl.codecs import sample_choices
from parley.games.diplomacy.map import standard_map
from parley.games.diplomacy.phase import PhaseKind
from parley.kernel import ARCHIVE, Match, Rng, Viewer
from parley.kernel.conformance import random_step

ALL = games.all_rules()
DIPLOMACY = games.find("diplomacy")


@pytest.fixture(autouse=True)
def quiet_advice() -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.fixture(autouse=True)
def toy_codecs() -> Any:
    register_codec("countdown", countdown_codec)
    register_codec("sealed-bids", bids_codec)
    yield
    unregister("countdown")
    unregister("sealed-bids")


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.lists(st.booleans(), min_size=1, max_size=6), min_size=1, max_size=8),
    st.integers(0, 99),
)
def test_sample_legal_picks_a_legal_index_in_every_slot(slots: list[list[bool]], seed: int) -> None:
    masks = tuple(np.array([1, *map(int, rest[1:])], np.int8) for rest in slots)
    rng = np.random.default_rng(seed)
    vector = sample_legal(masks, rng)
    assert vector.shape == (len(masks),)
    assert all(mask[i] == 1 for mask, i in zip(masks, vector.tolist(), strict=True))
    flat = np.concatenate(masks)
    offsets = np.concatenate([[0], np.cumsum([len(m) for m in masks])])
    again = sample_legal(flat, np.random.default_rng(seed), offsets=offsets)
    assert all(mask[i] == 1 for mask, i in zip(masks, again.tolist(), strict=True))
    single = np.array([0, *map(int, slots[0])], np.int8)
    if single.any():
        assert single[sample_legal(single, rng)] == 1
    else:
        with pytest.raises(ValueError, match="no action"):
            sample_legal(single, rng)


def test_sample_legal_is_uniform_within_a_slot() -> None:
    mask = (np.array([0, 1, 1, 0, 1], np.int8), np.array([1], np.int8))
    rng = np.random.default_rng(1)
    counts = np.bincount([sample_legal(mask, rng)[0] for _ in range(3000)], minlength=5)
    assert counts[0] == counts[3] == 0
    assert all(900 < c < 1100 for c in counts[[1, 2, 4]])


def test_flat_mask_is_the_tuple_laid_end_to_end_and_fast_samples_are_legal() -> None:
    codec = codec_for(DIPLOMACY, 7, DIPLOMACY.spec.resolve_options({}))
    assert isinstance(codec, SlotCodec)
    flat = FlatMasks(codec)
    match: Match[Any, Any] = Match(DIPLOMACY, 7, seed=2)
    rng, np_rng = Rng(2), np.random.default_rng(2)
    checked = 0
    while not match.is_over and match.ply < 250:
        for seat in sorted(match.turn().owing):
            choices = codec.choices(match, seat)
            tuple_mask = codec.mask(choices)
            whole = flat.mask(choices)
            assert np.array_equal(np.concatenate(tuple_mask), whole)
            for vector in (
                sample_choices(codec, choices, np_rng),
                sample_legal(tuple_mask, np_rng),
                sample_legal(whole, np_rng, offsets=flat.offsets),
            ):
                assert all(m[i] for m, i in zip(tuple_mask, vector.tolist(), strict=True))
                assert codec.decode(match, choices, vector) is not None
                checked += 1
        if not random_step(match, rng):
            break
    assert checked > 500


def _plain_observation(env: ParleyParallel, seat: int) -> tuple[Any, Any]:
    """A seat's features and mask the slow, obvious way: its own view, encoded alone, and
    a mask from `legal_actions` formatted one by one (the generic slot codec's choices)."""
    match = env.match
    features = env.game.encoder.encode(match.observe(Viewer.of(seat)), seat)
    codec = env.game.codec
    inner = codec.codec if isinstance(codec, FlatMasks) else codec
    assert isinstance(inner, SlotCodec)
    if seat not in match.turn().owing:
        return features, codec.empty_mask()
    choices = SlotCodec.choices(inner, match, seat)
    choices.extra["adjusting"] = match.state.position.phase.kind is PhaseKind.ADJUSTMENT
    return features, codec.mask(choices)


@pytest.mark.parametrize(("mask_format", "seats"), [("tuple", 7), ("flat", 7), ("flat", 3)])
def test_diplomacy_parallel_observations_and_masks_match_the_plain_path(
    mask_format: str, seats: int
) -> None:
    # The Parallel form encodes the board once for all seats and reuses each order's index
    # between phases; every seat must still get exactly what its own view would give.
    env = ParleyParallel(DIPLOMACY, seats, mask_format=mask_format)  # type: ignore[arg-type]
    kinds: set[str] = set()
    checked = 0
    for seed in (1, 2, 3):
        observations, infos = env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _ in range(45):
            kinds.add(env.match.state.position.phase.name[-1])
            for agent, seat in env.game.seat_of.items():
                features, mask = _plain_observation(env, seat)
                got = observations[agent]
                assert np.array_equal(got["observation"], features)
                if isinstance(mask, tuple):
                    assert len(got["action_mask"]) == len(mask)
                    assert all(map(np.array_equal, got["action_mask"], mask))
                else:
                    assert np.array_equal(got["action_mask"], mask)
                checked += 1
            actions = {a: env.sample_legal(a, rng=rng) for a in env.agents if infos[a]["acting"]}
            observations, _, _, _, infos = env.step(actions)
            assert not any(info.get("illegal") for info in infos.values())
            if not env.agents:
                break
    # Movement, retreats and adjustments all compared (three powers rarely retreat early).
    assert {"M", "A"} <= kinds and ("R" in kinds or seats < 7)
    assert checked >= 3 * 30 * seats


@pytest.mark.parametrize("seats", [2, 3])
def test_aec_and_parallel_truncate_after_the_same_number_of_turns(seats: int) -> None:
    # Sealed bids: a turn is one round of simultaneous bids (one epoch).
    aec = ParleyAEC(SealedBids(), seats, {"rounds": 20}, max_turns=4)
    par = ParleyParallel(SealedBids(), seats, {"rounds": 20}, max_turns=4)
    aec.reset(seed=3)
    par.reset(seed=3)
    for _agent in aec.agent_iter():
        _, _, terminated, truncated, _ = aec.last()
        aec.step(None if terminated or truncated else 1)
    while par.agents:
        par.step(dict.fromkeys(par.agents, 1))
    assert aec.turns == par.turns == 4
    assert aec.match.state_id == par.match.state_id
    assert len(aec.match.state.history) == len(par.match.state.history) == 4
    # The old names are the same cap, in the same unit.
    assert ParleyAEC(Countdown(), 2, max_plies=7).max_turns == 7
    assert ParleyParallel(SealedBids(), 2, max_cycles=9).max_turns == 9


def test_diplomacy_environments_default_to_a_year_limit_the_caller_can_change() -> None:
    env = ParleyParallel(DIPLOMACY)
    assert env.game.options["year_limit"] == 1930
    assert ParleyAEC(DIPLOMACY, options={"year_limit": 0}).game.options["year_limit"] == 0
    short = ParleyParallel(DIPLOMACY, options={"year_limit": 1902}, mask_format="flat")
    short.reset(seed=1)
    steps = 0
    while short.agents:
        owing = short.match.turn().owing
        short.step(
            {a: short.sample_legal(a) for a in short.agents if short.game.seat_of[a] in owing}
        )
        steps += 1
    outcome = short.match.outcome()
    assert outcome is not None and steps < 20


@pytest.mark.parametrize("rules", ALL, ids=lambda r: r.spec.name)
def test_every_observation_entry_has_a_unique_name(rules: Any) -> None:
    env = ParleyAEC(rules)
    names = env.feature_names("player_0")
    assert len(names) == env.observation_space("player_0")["observation"].shape[0]
    assert len(set(names)) == len(names)
    with pytest.raises(KeyError, match="no agent"):
        env.feature_names("nobody")


def test_unnamed_encoders_get_numbered_names() -> None:
    class Bare:
        from gymnasium import spaces

        space = spaces.Box(0, 1, (3,))

        def encode(self, observation: Any, seat: int) -> Any:
            return np.zeros(3)

    assert feature_names(Bare()) == ["feature_0", "feature_1", "feature_2"]


def test_diplomacy_features_name_the_board_and_the_last_orders() -> None:
    env = ParleyParallel(DIPLOMACY, mask_format="flat")
    obs, _ = env.reset(seed=4)
    names = env.feature_names("player_0")
    france = standard_map("standard").powers.index("FRANCE")
    codec = env.game.codec.codec
    orders = {}
    for agent in env.agents:
        seat = env.game.seat_of[agent]
        vector = np.zeros(len(codec.slots), np.int64)
        for text in env._choices[seat].legal:
            unit = " ".join(text.split()[:2])
            wanted = f"{unit} - BUR" if (seat, unit) == (france, "A PAR") else f"{unit} H"
            if text == wanted:
                i = codec.slot_index[text.split()[1].split("/")[0]]
                vector[i] = codec.index[i][text]
        orders[agent] = vector
    obs, *_ = env.step(orders)
    features = dict(zip(names, obs["player_0"]["observation"].tolist(), strict=True))
    assert features["PAR.last.move"] == 1.0 and features["PAR.last.succeeded"] == 1.0
    assert features["BUR.unit.FRANCE"] == 1.0 and features["PAR.unit.FRANCE"] == 0.0
    assert features["LON.last.hold"] == 1.0 and features["BUR.last.hold"] == 0.0
    assert features["season.F"] == 1.0


def test_previous_actions_show_what_the_viewer_may_see() -> None:
    env = ParleyAEC(SealedBids(), 3, {"rounds": 5}, previous_actions=True)
    env.reset(seed=1)
    first = env.observe("player_0")["previous_actions"]
    assert (first == NO_ACTION).all()
    env.step(4)  # player_0 bids 4, hidden from the others until the round ends
    assert env.observe("player_0")["previous_actions"][0] == 4
    assert env.observe("player_1")["previous_actions"][0] == NO_ACTION
    env.step(2)
    env.step(5)  # the round resolves: every bid is public
    seen = env.observe("player_1")["previous_actions"]
    assert seen.tolist() == [4, 2, 5]
    space = env.observation_space("player_1")["previous_actions"]
    assert space.contains(seen)


def test_new_options_keep_pettingzoo_api_checks_green() -> None:
    from pettingzoo.test import api_test, parallel_api_test

    parallel_api_test(
        ParleyParallel(SealedBids(), 3, previous_actions=True, mask_format="flat"), num_cycles=30
    )
    api_test(ParleyAEC(Countdown(), 3, previous_actions=True, max_turns=40), num_cycles=30)


def test_state_is_the_archive_view_for_centralised_training() -> None:
    env = ParleyParallel(DIPLOMACY)
    env.reset(seed=1)
    state = env.state()
    assert env.state_space.contains(state)
    assert np.array_equal(state, env.game.encoder.encode(env.match.observe(ARCHIVE), -1))
    seat_view = env.game.observe(0, None)["observation"]
    assert not np.array_equal(state, seat_view)  # no seat one-hot in the state


@pytest.mark.parametrize("game", ["sucker", "diplomacy"])
def test_vector_env_plays_many_games_and_restarts_finished_ones(game: str) -> None:
    venv = vector_env(game, 3, max_turns=12)
    first = venv.reset(seed=5)
    assert first.observations.shape == (3, venv.seats, venv.observation_size)
    assert first.masks.shape == (3, venv.seats, venv.mask_size)
    finished = 0
    for _ in range(30):
        actions = venv.sample_legal()
        step = venv.step(actions)
        assert not any(info["illegal"] for info in step.infos)
        finished += int(step.terminated.sum() + step.truncated.sum())
        for i in np.flatnonzero(step.terminated | step.truncated).tolist():
            assert step.infos[i]["turns"] <= 12
    assert finished >= 3
    again = vector_env(game, 3, max_turns=12)
    assert np.array_equal(again.reset(seed=5).observations, first.observations)
    with pytest.raises(ValueError, match="expected"):
        venv.step(np.zeros((2, venv.seats)))
