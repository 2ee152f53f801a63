"""The OpenSpiel bridge: OpenSpiel's own consistency checks, observations, MCTS in the arena."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from tests.agents.toys import bids_codec
from tests.kernel.toygames import SealedBids

from parley import games
from parley.agents.rl import register_codec, unregister
from parley.kernel import ARCHIVE, Match, Rng, Viewer
from parley.kernel.conformance import random_step

try:
    import pyspiel
except ImportError:
    if os.environ.get("CI", "").lower() == "true":
        raise  # CI installs the test extra, which brings OpenSpiel: its absence is a failure
    pytest.skip(
        "OpenSpiel is not installed: pip install 'parley-games[openspiel]' to run these",
        allow_module_level=True,
    )

from parley.agents import openspiel as bridge
from parley.agents.arena import ArenaConfig, run_arena

SUCKER = games.find("sucker")


@pytest.fixture
def bids_registered() -> Iterator[None]:
    register_codec("sealed-bids", bids_codec)
    yield
    unregister("sealed-bids")


def tiny_mcts(rules: Any) -> bridge.MCTSArenaBot:
    """A 12-simulation MCTS bot: enough to test the plumbing quickly."""
    return bridge.MCTSArenaBot(rules, simulations=12)


def test_every_game_is_registered_or_refused_with_its_reason() -> None:
    skipped = bridge.register_all()
    assert "parley_sucker" in pyspiel.registered_names()
    assert set(skipped) == {"diplomacy"}
    assert "one integer per player" in skipped["diplomacy"]
    with pytest.raises(bridge.BridgeError, match="simultaneous form"):
        bridge.register("diplomacy")


@pytest.mark.parametrize("params", [{"players": 3, "chips": 3}, {"players": 4}])
def test_sucker_passes_openspiel_random_simulation_with_serialisation(
    params: dict[str, Any],
) -> None:
    game = bridge.load("sucker", **params)
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert game.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


@pytest.mark.parametrize(
    "rules",
    [r for r in games.all_rules() if bridge.bridge_reason(r) is None and r is not SUCKER],
    ids=lambda r: r.spec.name,
)
def test_every_bridged_game_passes_openspiel_random_simulation(rules: Any) -> None:
    # Capped at 100 actions (then a draw shared by the survivors) to keep it quick; the
    # bridge is generic, so each game's own table and encoder are what is under test.
    game = bridge.load(rules, max_game_length=100)
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_simultaneous_games_with_one_index_per_seat_use_the_simultaneous_form(
    bids_registered: None,
) -> None:
    game = bridge.load(SealedBids(), players=3, rounds=3)
    assert game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)
    state = game.new_initial_state()
    state.apply_action(0)  # the seed
    assert state.current_player() == pyspiel.PlayerId.SIMULTANEOUS
    state.apply_actions([5, 1, 0])
    assert state.match.state.history == [[5, 1, 0]]


def test_states_follow_the_match_legal_indices_observations_and_returns() -> None:
    game = bridge.load("sucker", players=3, chips=3, seed=7)
    state = game.new_initial_state()
    match: Match[Any, Any] = Match(SUCKER, 3, {"chips": 3}, 7)
    rng = Rng(1)
    codec = game.codec
    steps = 0
    while not state.is_terminal():
        seat = state.current_player()
        assert seat == min(match.turn().owing)
        mask = codec.mask(codec.choices(match, seat))
        assert state.legal_actions() == np.flatnonzero(mask).tolist()
        expected = game.encoder.encode(match.observe(Viewer.of(seat)), seat)
        assert np.array_equal(np.asarray(state.observation_tensor(seat)), expected)
        assert f'"viewer": {seat}' in state.observation_string(seat)
        legal = state.legal_actions()
        action = legal[int(rng.below(len(legal)))]
        choices = codec.choices(match, seat)
        match.act(seat, codec.decode(match, choices, action))
        state.apply_action(action)
        assert state.match.state_id == match.state_id
        steps += 1
    outcome = match.outcome()
    assert outcome is not None and steps > 10
    assert state.returns() == [1.0 if s in outcome.winners else 0.0 for s in range(3)]
    assert state.history()[: len(state.history())] == state.history()


def test_clones_are_independent() -> None:
    game = bridge.load("sucker", players=3, chips=3, seed=2)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    twin = state.clone()
    twin.apply_action(twin.legal_actions()[0])
    assert state.match.ply == 1 and twin.match.ply == 2
    assert twin.history()[:1] == state.history()


def test_mcts_plays_sucker_in_the_arena(tmp_path: Path) -> None:
    config = ArenaConfig(
        "sucker",
        ("tests.agents.test_openspiel:tiny_mcts", "heuristic", "heuristic"),
        games=2,
        seed=1,
        out=tmp_path,
        seats=3,
        options={"chips": 3},
    )
    report = run_arena(config)
    standings = report.summary["standings"]
    assert isinstance(standings, dict)
    mcts = standings["tests.agents.test_openspiel:tiny_mcts"]
    assert isinstance(mcts, dict) and mcts["seats"] == 2
    assert report.summary["bot_errors"] == {}


def test_mcts_refuses_games_it_cannot_search_fairly() -> None:
    with pytest.raises(bridge.BridgeError, match="vector of indices"):
        bridge.MCTSArenaBot(games.find("diplomacy"))

    class Secretive(SealedBids):  # hides bids, and has no hidden_variant
        pass

    register_codec("sealed-bids", bids_codec)
    try:
        with pytest.raises(bridge.BridgeError, match="no hidden_variant"):
            bridge.MCTSArenaBot(Secretive())
    finally:
        unregister("sealed-bids")


def test_mcts_searches_a_determinisation_of_what_its_seat_cannot_see() -> None:
    campus = games.find("campus")
    bot = bridge.MCTSArenaBot(campus, simulations=4)
    match: Match[Any, Any] = Match(campus, 3, seed=5)
    rng = Rng(5)
    differed = 0
    for _ in range(40):
        if match.is_over:
            break
        for seat in range(3):
            searched = bot.searched(match, seat, Rng(seat))
            # The seat's own view is the same in the copy; the hidden parts may not be.
            assert searched.observe(Viewer.of(seat)) == match.observe(Viewer.of(seat))
            differed += searched.observe(ARCHIVE) != match.observe(ARCHIVE)
            assert searched.state.rng.state != match.state.rng.state  # dice reseeded
        random_step(match, rng)
    assert differed > 0


def test_a_random_simulation_never_reaches_an_index_the_codec_cannot_decode() -> None:
    match: Match[Any, Any] = Match(SUCKER, 4, seed=3)
    game = bridge.load("sucker", players=4, seed=3)
    rng = Rng(3)
    while not match.is_over and match.ply < 30:
        state = game.state_from_match(match)
        if not state.is_terminal():
            for action in state.legal_actions():
                assert state.clone().apply_action(action) is None
        if not random_step(match, rng):
            break


HIDDEN = ("campus", "illuminati")


def tiny_ismcts(rules: Any) -> bridge.ISMCTSArenaBot:
    """A 6-simulation ISMCTS bot with short playouts: the plumbing, quickly."""
    return bridge.ISMCTSArenaBot(rules, simulations=6, rollout_depth=15)


@pytest.mark.parametrize("name", HIDDEN)
def test_ismcts_fails_without_resampling_and_runs_with_it(name: str) -> None:
    from open_spiel.python.algorithms import ismcts

    game = bridge.load(name, seed=3)
    state = game.new_initial_state()
    player = state.current_player()
    bot = ismcts.ISMCTSBot(
        game,
        bridge.RulesRolloutEvaluator(1, 0, 10),
        2.0,
        8,
        random_state=np.random.RandomState(0),
        allow_inconsistent_action_sets=True,
    )
    action = bot.step(state)  # raised "ResampleFromInfostate() not implemented" before
    assert action in state.legal_actions(player)
    # The search read only resampled copies: the true state is untouched.
    assert state.match.ply == 0


@pytest.mark.parametrize("name", HIDDEN)
def test_ismcts_plays_a_short_game_of_each_hidden_information_game(
    name: str, tmp_path: Path
) -> None:
    rules = games.find(name)
    seats = rules.spec.default_seats or rules.spec.min_seats
    bots = ("tests.agents.test_openspiel:tiny_ismcts",) + ("heuristic",) * (seats - 1)
    config = ArenaConfig(name, bots, games=1, seed=2, out=tmp_path, seats=seats, max_plies=24)
    report = run_arena(config)
    assert report.summary["bot_errors"] == {}
    [result] = report.results
    assert result.plies >= 12  # it moved, many times, through the adapter


@pytest.mark.parametrize("name", HIDDEN)
def test_resampled_states_match_the_players_information(name: str) -> None:
    rules = games.find(name)
    seats = rules.spec.default_seats or rules.spec.min_seats
    game = bridge.load(name, seed=7)
    match: Match[Any, Any] = Match(rules, seats, game.options, seed=7)
    sampler = np.random.RandomState(1)
    rng = Rng(7)
    differed = 0
    for _ in range(25):
        if match.is_over:
            break
        state = game.state_from_match(match)
        for seat in range(seats):
            sampled = state.resample_from_infostate(seat, sampler.uniform)
            assert sampled.observation_string(seat) == state.observation_string(seat)
            assert sampled.information_state_string(seat) == state.information_state_string(seat)
            assert sampled.legal_actions(seat) == state.legal_actions(seat)
            differed += sampled.match.observe(ARCHIVE) != match.observe(ARCHIVE)
        assert state.match.observe(ARCHIVE) == match.observe(ARCHIVE)  # the original kept
        random_step(match, rng)
    assert differed > 0  # hidden parts really were drawn anew


def test_plain_mcts_warns_on_hidden_information_and_not_elsewhere() -> None:
    import warnings

    from open_spiel.python.algorithms import mcts

    evaluator = bridge.RulesRolloutEvaluator(1, 0, 5)
    for name in HIDDEN:
        with pytest.warns(bridge.HiddenStateWarning, match="searches the true state"):
            mcts.MCTSBot(bridge.load(name, seed=1), 2.0, 4, evaluator)
    with warnings.catch_warnings():
        warnings.simplefilter("error", bridge.HiddenStateWarning)
        mcts.MCTSBot(bridge.load("sucker", players=3, seed=1), 2.0, 4, evaluator)
        bridge.MCTSArenaBot(games.find("campus"), simulations=2)  # determinises: no warning


def test_ismcts_bot_refuses_games_without_hidden_information() -> None:
    for name in ("sucker", "planets"):
        with pytest.raises(bridge.BridgeError, match="hides nothing"):
            bridge.ISMCTSArenaBot(games.find(name))
    with pytest.raises(bridge.BridgeError, match="vector of indices"):
        bridge.ISMCTSArenaBot(games.find("diplomacy"))
