"""PettingZoo environments built from any Parley game.

`ParleyAEC` steps one owed seat at a time and serves every game: in a simultaneous turn
the owed seats are stepped in seat order, each seeing only its own redacted observation,
so nobody learns the others' choices before the turn resolves. `ParleyParallel` takes
every owed seat's action at once (Diplomacy's orders); seats that owe nothing in a step
(another power's retreat) have their action ignored and an all-zero mask.

Observations are dicts with "observation" (the encoder's array) and "action_mask".
Every seat stays an agent until the game ends (eliminated seats are simply never asked to
act), then all get their reward at once: by default 1 shared among the winners, 0 for
everyone else ("win"), or the outcome's raw scores ("score"). A game that reaches
`max_plies` actions (AEC) or `max_cycles` steps (Parallel) is truncated with no reward.

An index that is not legal now is replaced by the seat's default action (the info says
`illegal: True`), as a server would do for a player whose order could not be used; with
`on_illegal="raise"` it raises IllegalAction instead.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Mapping
from typing import Any, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from parley import games
from parley.kernel import (
    SPECTATOR,
    IllegalAction,
    Match,
    Outcome,
    ParleyError,
    Rng,
    Rules,
    Viewer,
)

from .codecs import ActionCodec, Choices
from .encoders import ObsEncoder
from .registry import codec_for, encoder_for

Reward = Literal["win", "score"]
OnIllegal = Literal["default", "raise"]
Obs = dict[str, Any]


class _Game:
    """What both environments share: the match, the seat/agent mapping, spaces, rewards."""

    def __init__(
        self,
        game: str | Rules[Any, Any],
        seats: int | None,
        options: Mapping[str, Any] | None,
        codec: ActionCodec | None,
        encoder: ObsEncoder | None,
        reward: Reward,
        on_illegal: OnIllegal,
    ) -> None:
        self.rules: Rules[Any, Any] = games.find(game) if isinstance(game, str) else game
        spec = self.rules.spec
        self.seats = seats or spec.default_seats or spec.min_seats
        spec.check_seats(self.seats)
        self.options = spec.resolve_options(options)
        self.codec = codec or codec_for(self.rules, self.seats, self.options)
        self.encoder = encoder or encoder_for(self.rules, self.seats, self.options)
        self.reward_kind = reward
        self.on_illegal = on_illegal
        self.agent_names = [f"player_{i}" for i in range(self.seats)]
        self.seat_of = {a: i for i, a in enumerate(self.agent_names)}
        self.obs_space = spaces.Dict(
            {"observation": self.encoder.space, "action_mask": self.codec.mask_space}
        )
        self.seeder = Rng(0)
        self.seeded = False
        self.match: Match[Any, Any] = Match(self.rules, self.seats, self.options, 0)

    def new_match(self, seed: int | None) -> None:
        if seed is not None:
            self.seeder = Rng(seed)
            self.seeded = True
        elif not self.seeded:
            self.seeder = Rng(secrets.randbits(64))  # unseeded: fresh games, as Gymnasium does
            self.seeded = True
        self.match = Match(self.rules, self.seats, self.options, self.seeder.next64() >> 1)

    def observe(self, seat: int, choices: Choices | None) -> Obs:
        observation = self.match.observe(Viewer.of(seat))
        mask = self.codec.mask(choices) if choices is not None else self.codec.empty_mask()
        return {"observation": self.encoder.encode(observation, seat), "action_mask": mask}

    def play(self, seat: int, choices: Choices, action: Any) -> bool:
        """Apply the seat's action (or its default when not legal); True if it was legal."""
        chosen = self.codec.decode(self.match, choices, action)
        if chosen is not None:
            try:
                self.match.act(seat, chosen)
                return True
            except ParleyError:
                pass  # legal parts that the rules refuse together
        if self.on_illegal == "raise":
            raise IllegalAction(
                f"action {action!r} is not legal for seat {seat} now",
                state_id=self.match.state_id,
            )
        self.match.act_default(seat)
        return False

    def rewards(self, outcome: Outcome) -> list[float]:
        if self.reward_kind == "score":
            return [float(s) for s in outcome.scores]
        share = 1.0 / len(outcome.winners) if outcome.winners else 0.0
        return [share if s in outcome.winners else 0.0 for s in range(self.seats)]

    def render(self) -> str:
        return self.rules.render(self.match.observe(SPECTATOR)["view"])


class ParleyAEC(AECEnv[str, Obs, Any]):  # type: ignore[misc]
    """A Parley game as a PettingZoo AEC environment (every game, one seat at a time)."""

    def __init__(
        self,
        game: str | Rules[Any, Any],
        seats: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        codec: ActionCodec | None = None,
        encoder: ObsEncoder | None = None,
        max_plies: int | None = None,
        reward: Reward = "win",
        on_illegal: OnIllegal = "default",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game = _Game(game, seats, options, codec, encoder, reward, on_illegal)
        spec = self.game.rules.spec
        self.metadata = {
            "render_modes": ["ansi", "human"],
            "name": f"parley_{spec.name.replace('-', '_')}_v0",
            "is_parallelizable": False,
        }
        self.max_plies = max_plies or spec.max_plies
        self.render_mode = render_mode
        self.possible_agents = list(self.game.agent_names)
        self.agents: list[str] = []
        self._choices: Choices | None = None
        self.plies = 0

    @functools.cache  # noqa: B019 - one space object per agent, as PettingZoo requires
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.game.obs_space

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.game.codec.action_space

    @property
    def match(self) -> Match[Any, Any]:
        return self.game.match

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game.new_match(seed)
        self.plies = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._select()

    def _select(self) -> None:
        owing = sorted(self.match.turn().owing)
        seat = owing[0] if owing else 0
        self.agent_selection = self.game.agent_names[seat]
        self._choices = self.game.codec.choices(self.match, seat) if owing else None

    def observe(self, agent: str) -> Obs:
        seat = self.game.seat_of[agent]
        choices = self._choices
        if choices is not None and choices.seat != seat:
            choices = None
        if choices is None and not self.match.is_over and seat in self.match.turn().owing:
            choices = self.game.codec.choices(self.match, seat)
        return self.game.observe(seat, choices)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.game.seat_of[agent]
        choices = self._choices or self.game.codec.choices(self.match, seat)
        self._cumulative_rewards[agent] = 0.0
        legal = self.game.play(seat, choices, action)
        self.plies += 1
        self._clear_rewards()
        self.infos[agent] = {"illegal": not legal}
        outcome = self.match.outcome()
        if outcome is not None:
            for s, value in enumerate(self.game.rewards(outcome)):
                self.rewards[self.game.agent_names[s]] = value
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.plies >= self.max_plies:
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        if outcome is None and self.plies < self.max_plies:
            self._select()
        else:
            self._choices = None
            self._deads_step_first()
        if self.render_mode == "human":
            print(self.game.render())

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.game.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class ParleyParallel(ParallelEnv[str, Obs, Any]):  # type: ignore[misc]
    """A Parley game as a PettingZoo Parallel environment: every owed seat acts at once."""

    def __init__(
        self,
        game: str | Rules[Any, Any],
        seats: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        codec: ActionCodec | None = None,
        encoder: ObsEncoder | None = None,
        max_cycles: int | None = None,
        reward: Reward = "win",
        on_illegal: OnIllegal = "default",
        render_mode: str | None = None,
    ) -> None:
        self.game = _Game(game, seats, options, codec, encoder, reward, on_illegal)
        spec = self.game.rules.spec
        self.metadata = {
            "render_modes": ["ansi", "human"],
            "name": f"parley_{spec.name.replace('-', '_')}_v0",
            "is_parallelizable": True,
        }
        self.max_cycles = max_cycles or spec.max_plies
        self.render_mode = render_mode
        self.possible_agents = list(self.game.agent_names)
        self.agents: list[str] = []
        self.cycles = 0
        self._choices: dict[int, Choices] = {}

    @functools.cache  # noqa: B019 - one space object per agent, as PettingZoo requires
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.game.obs_space

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.game.codec.action_space

    @property
    def match(self) -> Match[Any, Any]:
        return self.game.match

    def _observe_all(self) -> dict[str, Obs]:
        turn = self.match.turn()
        self._choices = {s: self.game.codec.choices(self.match, s) for s in sorted(turn.owing)}
        return {
            self.game.agent_names[s]: self.game.observe(s, self._choices.get(s))
            for s in range(self.game.seats)
        }

    def _infos(self) -> dict[str, dict[str, Any]]:
        owing = self.match.turn().owing
        return {a: {"acting": s in owing} for a, s in self.game.seat_of.items()}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        self.game.new_match(seed)
        self.cycles = 0
        self.agents = list(self.possible_agents)
        return self._observe_all(), self._infos()

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, Obs],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        illegal: set[int] = set()
        for seat, choices in sorted(self._choices.items()):
            if self.match.is_over or seat not in self.match.turn().owing:
                continue  # the turn resolved without this seat (it cannot, but be safe)
            agent = self.game.agent_names[seat]
            if agent not in actions:
                self.match.act_default(seat)
                illegal.add(seat)
            elif not self.game.play(seat, choices, actions[agent]):
                illegal.add(seat)
        self.cycles += 1
        outcome = self.match.outcome()
        rewards = dict.fromkeys(self.agents, 0.0)
        done = outcome is not None
        if outcome is not None:
            for s, value in enumerate(self.game.rewards(outcome)):
                rewards[self.game.agent_names[s]] = value
        truncated = not done and self.cycles >= self.max_cycles
        observations = self._observe_all()
        infos = self._infos()
        for seat in illegal:
            infos[self.game.agent_names[seat]]["illegal"] = True
        terminations = dict.fromkeys(self.agents, done)
        truncations = dict.fromkeys(self.agents, truncated)
        if done or truncated:
            self.agents = []
        if self.render_mode == "human":
            print(self.game.render())
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self.game.render()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def state(self) -> np.ndarray[Any, Any]:
        raise NotImplementedError("a global state would leak hidden information; use observe")


def aec_env(game: str | Rules[Any, Any], **kwargs: Any) -> ParleyAEC:
    """The AEC environment of a game (by name or rules); see ParleyAEC for the arguments."""
    return ParleyAEC(game, **kwargs)


def parallel_env(game: str | Rules[Any, Any], **kwargs: Any) -> ParleyParallel:
    """The Parallel environment of a game; see ParleyParallel for the arguments."""
    return ParleyParallel(game, **kwargs)
