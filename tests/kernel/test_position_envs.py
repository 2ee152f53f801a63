"""The RL environments reset to a position (options={"position": ...}), chance scripted too."""

from __future__ import annotations

import pytest

from parley.agents.rl.env import aec_env, parallel_env
from parley.games.campus import RULES
from parley.kernel import BadPosition, Match


def test_parallel_env_resets_to_a_position_and_plays_on() -> None:
    start = Match(RULES, 3, seed=11)
    for _ in range(5):
        seat = next(iter(start.turn().owing))
        start.act(seat, start.legal_actions(seat)[0])
    position = RULES.write_position(start.state)
    env = parallel_env("campus", seats=3)
    observations, infos = env.reset(seed=1, options={"position": position})
    assert RULES.write_position(env.game.match.state) == position
    acting = [a for a, info in infos.items() if info["acting"]]
    assert acting == [f"player_{start.state.current}"]
    mask = observations[acting[0]]["action_mask"]
    env.step({acting[0]: int(mask.nonzero()[0][0])})
    assert env.game.match.seq == 1
    env.reset(seed=1)  # without a position: a new game again
    assert env.game.match.position is None


def test_aec_env_resets_to_a_position_with_scripted_chance() -> None:
    position = RULES.write_position(Match(RULES, 2, seed=4).state)
    env = aec_env("campus", seats=2)
    env.reset(options={"position": position, "chance": []})
    assert env.game.match.script() is not None and env.game.match.script().left == 0


def test_a_position_that_does_not_fit_the_environment_is_refused() -> None:
    env = parallel_env("campus", seats=2)
    with pytest.raises(BadPosition, match="3 seats; this environment plays 2"):
        env.reset(options={"position": RULES.write_position(Match(RULES, 3).state)})
    other = RULES.write_position(Match(RULES, 2, {"max_level": 3}).state)
    with pytest.raises(BadPosition, match="max_level 3"):
        env.reset(options={"position": other})
