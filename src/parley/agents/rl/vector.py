"""Many games of one kind stepped together in one process, with batched arrays.

`ParleyVectorEnv` holds `num_envs` Parallel environments and speaks in arrays whose first
axis is the game and second the seat: observations `(games, seats, features)`, masks
`(games, seats, mask)` (one flat mask per seat, so slot codecs use `mask_format="flat"`),
`acting` `(games, seats)`; actions come back the same way. A game that ends is reset at
once (its next seed drawn from the vector's seed), and the step that ended it reports the
final rewards and `done`, as Gymnasium's vector environments do with next-step autoreset
folded into the same step.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from parley.kernel import Rng, Rules

from .env import ParleyParallel


@dataclass(frozen=True, slots=True)
class VectorStep:
    """What one step of every game gives back."""

    observations: np.ndarray[Any, Any]  # (games, seats, features)
    masks: np.ndarray[Any, Any]  # (games, seats, mask size)
    acting: np.ndarray[Any, Any]  # (games, seats) bool: who decides in the next step
    rewards: np.ndarray[Any, Any]  # (games, seats)
    terminated: np.ndarray[Any, Any]  # (games,) bool: the game ended by its rules
    truncated: np.ndarray[Any, Any]  # (games,) bool: the game hit the turn cap
    infos: list[dict[str, Any]]


class ParleyVectorEnv:
    """`num_envs` games of one kind, stepped together with batched arrays."""

    def __init__(
        self,
        game: str | Rules[Any, Any],
        num_envs: int,
        seats: int | None = None,
        options: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs is at least 1, not {num_envs}")
        kwargs.setdefault("mask_format", "flat")
        self.envs = [ParleyParallel(game, seats, options, **kwargs) for _ in range(num_envs)]
        first = self.envs[0]
        self.num_envs = num_envs
        self.agents = list(first.possible_agents)
        self.seats = len(self.agents)
        self.observation_size = int(first.game.encoder.space.shape[0])
        mask_space = first.game.codec.mask_space
        if mask_space.shape is None or len(mask_space.shape) != 1:
            raise ValueError(
                "a vector environment needs one flat mask per seat (mask_format='flat')"
            )
        self.mask_size = int(mask_space.shape[0])
        self.action_space = first.action_space(self.agents[0])
        self.action_shape = tuple(self.action_space.shape or ())
        self._seeder = Rng(0)
        self._np_random = np.random.default_rng(0)
        self._fresh()

    def _fresh(self) -> None:
        """New arrays for the next step's results (each step hands out its own)."""
        n = self.num_envs
        self._obs = np.zeros((n, self.seats, self.observation_size), np.float32)
        self._masks = np.zeros((n, self.seats, self.mask_size), np.int8)
        self._acting = np.zeros((n, self.seats), np.bool_)

    def feature_names(self) -> list[str]:
        return self.envs[0].feature_names(self.agents[0])

    def _store(self, i: int, observations: Mapping[str, Any], infos: Mapping[str, Any]) -> None:
        for s, agent in enumerate(self.agents):
            self._obs[i, s] = observations[agent]["observation"]
            self._masks[i, s] = observations[agent]["action_mask"]
            self._acting[i, s] = bool(infos[agent].get("acting"))

    def reset(self, seed: int | None = None) -> VectorStep:
        """Start a new game everywhere; with a seed, the whole sequence of games repeats."""
        if seed is not None:
            self._seeder = Rng(seed)
            self._np_random = np.random.default_rng(seed)
        self._fresh()
        for i, env in enumerate(self.envs):
            observations, infos = env.reset(seed=self._seeder.next64() >> 1)
            self._store(i, observations, infos)
        zeros = np.zeros(self.num_envs, np.bool_)
        return VectorStep(
            self._obs,
            self._masks,
            self._acting.copy(),  # kept apart: the next step reads who acts from ours
            np.zeros((self.num_envs, self.seats), np.float32),
            zeros,
            zeros.copy(),
            [{} for _ in self.envs],
        )

    def step(self, actions: np.ndarray[Any, Any]) -> VectorStep:
        """Play `actions` (games, seats, *action shape) in every game; seats not acting are
        ignored. Finished games start again at once."""
        batch = np.asarray(actions)
        if batch.shape[:2] != (self.num_envs, self.seats):
            raise ValueError(
                f"actions have shape {batch.shape}; expected ({self.num_envs}, {self.seats}, ...)"
            )
        rewards = np.zeros((self.num_envs, self.seats), np.float32)
        terminated = np.zeros(self.num_envs, np.bool_)
        truncated = np.zeros(self.num_envs, np.bool_)
        infos: list[dict[str, Any]] = []
        acting = self._acting
        self._fresh()
        for i, env in enumerate(self.envs):
            chosen = {agent: batch[i, s] for s, agent in enumerate(self.agents) if acting[i, s]}
            observations, reward, terms, truncs, info = env.step(chosen)
            for s, agent in enumerate(self.agents):
                rewards[i, s] = reward.get(agent, 0.0)
            terminated[i] = any(terms.values())
            truncated[i] = any(truncs.values()) and not terminated[i]
            extra: dict[str, Any] = {"illegal": [a for a in self.agents if info[a].get("illegal")]}
            if terminated[i] or truncated[i]:
                outcome = env.match.outcome()
                extra["outcome"] = outcome.to_json() if outcome is not None else None
                extra["turns"] = env.turns
                observations, info = env.reset(seed=self._seeder.next64() >> 1)
            self._store(i, observations, info)
            infos.append(extra)
        return VectorStep(
            self._obs,
            self._masks,
            self._acting.copy(),  # kept apart: the next step reads who acts from ours
            rewards,
            terminated,
            truncated,
            infos,
        )

    def sample_legal(self, rng: np.random.Generator | None = None) -> np.ndarray[Any, Any]:
        """A uniformly random legal action for every acting seat of every game (0 elsewhere)."""
        generator = rng if rng is not None else self._np_random
        out = np.zeros((self.num_envs, self.seats, *self.action_shape), np.int64)
        for i, env in enumerate(self.envs):
            for s, agent in enumerate(self.agents):
                if self._acting[i, s]:
                    out[i, s] = env.sample_legal(agent, rng=generator)
        return out

    def close(self) -> None:
        for env in self.envs:
            env.close()


def vector_env(game: str | Rules[Any, Any], num_envs: int, **kwargs: Any) -> ParleyVectorEnv:
    """`num_envs` games of one kind in one process; see ParleyVectorEnv."""
    return ParleyVectorEnv(game, num_envs, **kwargs)
