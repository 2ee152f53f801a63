"""Every registered game as PettingZoo environments: the official checks, tables, masks."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from parley import games
from parley.agents.rl import ParleyAEC, ParleyParallel, codec_for
from parley.kernel import Match, Rng, Structure, Viewer
from parley.kernel.conformance import random_step, seat_counts

ALL = games.all_rules()


@pytest.fixture(autouse=True)
def quiet_advice() -> Any:
    # PettingZoo advises Box observations; ours are dicts with an action mask, as in its
    # own classic games. The advice is not a failure.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        yield


@pytest.mark.parametrize("rules", ALL, ids=lambda r: r.spec.name)
def test_aec_env_passes_api_and_seed_tests_at_every_seat_count(rules: Any) -> None:
    for seats in seat_counts(rules):
        api_test(ParleyAEC(rules, seats), num_cycles=60)
        seed_test(lambda seats=seats: ParleyAEC(rules, seats), num_cycles=60)


@pytest.mark.parametrize(
    "rules",
    [r for r in ALL if r.spec.structure is Structure.SIMULTANEOUS],
    ids=lambda r: r.spec.name,
)
def test_parallel_env_passes_parallel_api_and_seed_tests(rules: Any) -> None:
    parallel_api_test(ParleyParallel(rules), num_cycles=80)
    parallel_seed_test(lambda: ParleyParallel(rules), num_cycles=80)


def _parts(rules: Any, action: Any) -> set[str]:
    return set(rules.format(action).split("; "))


@pytest.mark.parametrize("rules", ALL, ids=lambda r: r.spec.name)
def test_every_legal_action_met_in_random_games_has_an_index(rules: Any) -> None:
    checked = 0
    for seed in range(3):
        seats = seat_counts(rules)[seed % len(seat_counts(rules))]
        match: Match[Any, Any] = Match(rules, seats, seed=seed)
        codec = codec_for(rules, seats, match.options)
        rng = Rng(seed)
        while not match.is_over and match.ply < 600:
            for seat in sorted(match.turn().owing):
                choices = codec.choices(match, seat)
                codec.mask(choices)  # raises CodecError on a legal action without an index
                action = rules.random_action(match.state, seat, rng)
                if rules.spec.composite_actions:
                    # One part per slot, in slot order; a repeated WAIVE is one waive.
                    back = codec.decode(match, choices, codec.encode(match, seat, action))
                    assert _parts(rules, back) == _parts(rules, action)
                elif action in choices.legal.values():
                    assert codec.decode(match, choices, codec.encode(match, seat, action)) == action
                checked += 1
            if not random_step(match, rng):
                break
    assert checked > 50


@pytest.mark.parametrize("rules", ALL, ids=lambda r: r.spec.name)
def test_masked_random_agents_play_games_to_the_end_without_illegal_actions(rules: Any) -> None:
    env = ParleyAEC(rules)
    env.reset(seed=5)
    for agent in env.possible_agents:
        env.action_space(agent).seed(5)
    illegal = 0
    for agent in env.agent_iter():
        obs, _, terminated, truncated, info = env.last()
        illegal += bool(info.get("illegal"))
        env.step(
            None if terminated or truncated else env.action_space(agent).sample(obs["action_mask"])
        )
    illegal += sum(bool(i.get("illegal")) for i in env.infos.values())
    assert illegal == 0
    assert env.match.outcome() is not None or env.plies == env.max_plies


@pytest.mark.parametrize("rules", ALL, ids=lambda r: r.spec.name)
def test_observations_come_from_the_seats_own_view(rules: Any) -> None:
    env = ParleyAEC(rules)
    env.reset(seed=2)
    match = env.match
    for agent, seat in env.game.seat_of.items():
        expected = env.game.encoder.encode(match.observe(Viewer.of(seat)), seat)
        assert np.array_equal(env.observe(agent)["observation"], expected)
        assert env.observation_space(agent).contains(env.observe(agent))
