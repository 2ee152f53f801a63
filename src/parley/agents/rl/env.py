"""PettingZoo environments built from any Parley game.

`ParleyAEC` steps one owed seat at a time and serves every game: in a simultaneous turn
the owed seats are stepped in seat order, each seeing only its own redacted observation,
so nobody learns the others' choices before the turn resolves. `ParleyParallel` takes
every owed seat's action at once (Diplomacy's orders); seats that owe nothing in a step
(another power's retreat) have their action ignored and an all-zero mask.

Observations are dicts with "observation" (the encoder's array) and "action_mask".
Every seat stays an agent until the game ends (eliminated seats are simply never asked to
act), then all get their reward at once: by default 1 shared among the winners, 0 for
everyone else ("win"), or the outcome's raw scores ("score"). Both forms count *turns*, a
turn being a change of the match's `state_id` (a Diplomacy phase; one action in a game
without epochs), and truncate a game still going after `max_turns` of them with no reward,
so the AEC and Parallel forms of a game stop at the same point.

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
    ARCHIVE,
    SPECTATOR,
    BadPosition,
    IllegalAction,
    Match,
    Outcome,
    ParleyError,
    Rng,
    Rules,
    Viewer,
)

from .codecs import (
    ActionCodec,
    Choices,
    CodecError,
    FlatMasks,
    SlotCodec,
    sample_choices,
    sample_legal,
)
from .encoders import ObsEncoder, SharedEncoder, feature_names
from .registry import codec_for, encoder_for, env_options_for

Reward = Literal["win", "score"]
OnIllegal = Literal["default", "raise"]
MaskFormat = Literal["tuple", "flat"]
NO_ACTION = -1  # in "previous_actions": the seat has not acted yet, or the viewer cannot see it
Obs = dict[str, Any]


def _action_shape(space: spaces.Space[Any]) -> tuple[int, ...]:
    return tuple(space.shape) if isinstance(space, spaces.MultiDiscrete) else ()


def _action_high(space: spaces.Space[Any]) -> int:
    if isinstance(space, spaces.MultiDiscrete):
        return int(np.max(space.nvec)) - 1
    if isinstance(space, spaces.Discrete):
        return int(space.n) - 1
    raise ValueError(
        f"previous_actions needs a Discrete or MultiDiscrete action space, not {space}"
    )


def _turn_cap(max_turns: int | None, alias: int | None, default: int) -> int:
    cap = max_turns or alias or default
    if cap < 1:
        raise ValueError(f"the turn cap must be at least 1, not {cap}")
    return cap


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
        mask_format: MaskFormat = "tuple",
        previous_actions: bool = False,
    ) -> None:
        self.rules: Rules[Any, Any] = games.find(game) if isinstance(game, str) else game
        spec = self.rules.spec
        self.seats = seats or spec.default_seats or spec.min_seats
        spec.check_seats(self.seats)
        # The game's RL module may set options for learning (Diplomacy: a year limit);
        # the caller's options win.
        wanted = {**env_options_for(self.rules, self.seats), **dict(options or {})}
        self.options = spec.resolve_options(wanted)
        self.codec = codec or codec_for(self.rules, self.seats, self.options)
        if mask_format == "flat":
            if isinstance(self.codec, SlotCodec):
                self.codec = FlatMasks(self.codec)
            elif not isinstance(self.codec, FlatMasks):
                pass  # a Discrete codec's mask is already one array
        elif mask_format != "tuple":
            raise ValueError(f"mask_format is 'tuple' or 'flat', not {mask_format!r}")
        self.encoder = encoder or encoder_for(self.rules, self.seats, self.options)
        self.shared_encoder = self.encoder if isinstance(self.encoder, SharedEncoder) else None
        self.reward_kind = reward
        self.on_illegal = on_illegal
        self.agent_names = [f"player_{i}" for i in range(self.seats)]
        self.seat_of = {a: i for i, a in enumerate(self.agent_names)}
        self.previous_actions = previous_actions
        parts: dict[str, spaces.Space[Any]] = {
            "observation": self.encoder.space,
            "action_mask": self.codec.mask_space,
        }
        self.previous_shape = _action_shape(self.codec.action_space)
        if previous_actions:
            high = _action_high(self.codec.action_space)
            parts["previous_actions"] = spaces.Box(
                NO_ACTION, high, (self.seats, *self.previous_shape), np.int64
            )
        self.obs_space = spaces.Dict(parts)
        self.state_space = self.encoder.space
        self.seeder = Rng(0)
        self.seeded = False
        self.np_random = np.random.default_rng(0)  # for sample_legal without a generator
        self.match: Match[Any, Any] = Match(self.rules, self.seats, self.options, 0)
        self.turns = 0
        self._state_id = self.match.state_id
        self._previous: dict[int, tuple[Any, int]] = {}  # seat -> (index, entry seq)

    def new_match(self, seed: int | None, options: Mapping[str, Any] | None = None) -> None:
        """A new game; with `options["position"]` it starts from that position (and
        `options["chance"]` scripts its random results, see `Match.from_position`)."""
        if seed is not None:
            self.seeder = Rng(seed)
            self.seeded = True
        elif not self.seeded:
            self.seeder = Rng(secrets.randbits(64))  # unseeded: fresh games, as Gymnasium does
            self.seeded = True
        game_seed = self.seeder.next64() >> 1
        position = (options or {}).get("position")
        if position is None:
            self.match = Match(self.rules, self.seats, self.options, game_seed)
        else:
            self.match = self._from_position(position, (options or {}).get("chance"))
        self.np_random = np.random.default_rng(game_seed)
        self.turns = 0
        self._state_id = self.match.state_id
        self._previous = {}

    def _from_position(self, position: Mapping[str, Any], chance: Any) -> Match[Any, Any]:
        match: Match[Any, Any] = Match.from_position(self.rules, position, chance=chance)
        if match.seats != self.seats:
            raise BadPosition(
                f"the position has {match.seats} seats; this environment plays {self.seats}"
            )
        differ = sorted(k for k in self.options if match.options.get(k) != self.options[k])
        if differ:
            # The encoder and the action codec were built for the environment's options.
            shown = ", ".join(f"{k} {match.options.get(k)!r} ≠ {self.options[k]!r}" for k in differ)
            raise BadPosition(
                f"the position's options differ from this environment's ({shown}); "
                "make the environment with the position's options"
            )
        return match

    def count_turn(self) -> None:
        """Count a turn when the match's state id has moved on since the last count."""
        now = self.match.state_id
        if now != self._state_id:
            self._state_id = now
            self.turns += 1

    def observe(self, seat: int, choices: Choices | None) -> Obs:
        observation = self.match.observe(Viewer.of(seat))
        return self._obs(seat, self.encoder.encode(observation, seat), choices)

    def observe_all(self, choices: Mapping[int, Choices]) -> list[Obs]:
        """Every seat's observation, as `observe` gives it; with an encoder that encodes all
        seats from one view (`SharedEncoder`), the view is built and encoded once."""
        shared = self.shared_encoder
        if shared is None:
            return [self.observe(s, choices.get(s)) for s in range(self.seats)]
        seats = range(self.seats)
        features = shared.encode_seats(self.match.observe(Viewer.of(0)), seats)
        return [self._obs(s, f, choices.get(s)) for s, f in zip(seats, features, strict=True)]

    def _obs(self, seat: int, features: np.ndarray[Any, Any], choices: Choices | None) -> Obs:
        mask = self.codec.mask(choices) if choices is not None else self.codec.empty_mask()
        out = {"observation": features, "action_mask": mask}
        if self.previous_actions:
            out["previous_actions"] = self.previous_for(seat)
        return out

    def previous_for(self, viewer_seat: int) -> np.ndarray[Any, Any]:
        """Each seat's latest action as codec indices, NO_ACTION where unseen by the viewer."""
        out = np.full((self.seats, *self.previous_shape), NO_ACTION, np.int64)
        viewer = Viewer.of(viewer_seat)
        epoch = self.rules.epoch(self.match.state)
        for seat, (index, seq) in self._previous.items():
            entry = self.match.entries[seq]
            audience = getattr(entry, "audience", None)
            if audience is None or audience.admits(viewer, epoch):
                out[seat] = index
        return out

    def state(self) -> np.ndarray[Any, Any]:
        """The encoder's features of the archive view: everything, for centralised critics."""
        return self.encoder.encode(self.match.observe(ARCHIVE), -1)

    def feature_names(self) -> list[str]:
        return feature_names(self.encoder)

    def _remember(self, seat: int, action: Any) -> None:
        if not self.previous_actions:
            return
        try:
            index = self.codec.encode(self.match, seat, action)
        except CodecError:
            index = NO_ACTION  # an action outside the table (a free-text proposal)
        self._previous[seat] = (index, self.match.seq)

    def play(self, seat: int, choices: Choices, action: Any) -> bool:
        """Apply the seat's action (or its default when not legal); True if it was legal."""
        chosen = self.codec.decode(self.match, choices, action)
        if chosen is not None:
            self._remember(seat, chosen)
            try:
                self.match.act(seat, chosen)
                return True
            except ParleyError:
                self._previous.pop(seat, None)  # legal parts that the rules refuse together
        if self.on_illegal == "raise":
            raise IllegalAction(
                f"action {action!r} is not legal for seat {seat} now",
                state_id=self.match.state_id,
            )
        self.act_default(seat)
        return False

    def act_default(self, seat: int) -> None:
        self._remember(seat, self.rules.default_action(self.match.state, seat))
        self.match.act_default(seat)

    def rewards(self, outcome: Outcome) -> list[float]:
        if self.reward_kind == "score":
            return [float(s) for s in outcome.scores]
        share = 1.0 / len(outcome.winners) if outcome.winners else 0.0
        return [share if s in outcome.winners else 0.0 for s in range(self.seats)]

    def render(self) -> str:
        return self.rules.render(self.match.observe(SPECTATOR)["view"])


class _Shared:
    """What the AEC and Parallel forms share: the match, features, state and sampling."""

    game: _Game
    possible_agents: list[str]

    def _current_choices(self, agent: str) -> Choices | None:
        raise NotImplementedError

    @property
    def match(self) -> Match[Any, Any]:
        return self.game.match

    @property
    def turns(self) -> int:
        """Turns played in this game (changes of the match's state id)."""
        return self.game.turns

    def feature_names(self, agent: str) -> list[str]:
        """The name of every entry of `agent`'s observation vector, in order."""
        if agent not in self.game.seat_of:
            raise KeyError(f"no agent {agent!r}; agents are {self.possible_agents}")
        return self.game.feature_names()

    def state(self) -> np.ndarray[Any, Any]:
        """Features of the whole game (the archive view), for centralised training only."""
        return self.game.state()

    @property
    def state_space(self) -> spaces.Space[Any]:
        return self.game.state_space

    def sample_legal(
        self, agent: str, mask: Any = None, rng: np.random.Generator | None = None
    ) -> Any:
        """A uniformly random legal action for `agent`: under `mask` if given, else under
        the agent's current choices (faster still: no mask is scanned)."""
        codec = self.game.codec
        generator = rng if rng is not None else self.game.np_random
        if mask is None:
            choices = self._current_choices(agent)
            if choices is None:
                raise ValueError(f"{agent} has nothing to decide now; pass its mask")
            return sample_choices(codec, choices, generator)
        offsets = codec.offsets if isinstance(codec, FlatMasks) else None
        return sample_legal(mask, generator, offsets=offsets)


class ParleyAEC(_Shared, AECEnv[str, Obs, Any]):  # type: ignore[misc]
    """A Parley game as a PettingZoo AEC environment (every game, one seat at a time)."""

    def __init__(
        self,
        game: str | Rules[Any, Any],
        seats: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        codec: ActionCodec | None = None,
        encoder: ObsEncoder | None = None,
        max_turns: int | None = None,
        max_plies: int | None = None,
        reward: Reward = "win",
        on_illegal: OnIllegal = "default",
        mask_format: MaskFormat = "tuple",
        previous_actions: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.game = _Game(
            game, seats, options, codec, encoder, reward, on_illegal, mask_format, previous_actions
        )
        spec = self.game.rules.spec
        self.metadata = {
            "render_modes": ["ansi", "human"],
            "name": f"parley_{spec.name.replace('-', '_')}_v0",
            "is_parallelizable": False,
        }
        # `max_plies` is the older name of the same cap, kept for callers that use it.
        self.max_turns = _turn_cap(max_turns, max_plies, spec.max_plies)
        self.max_plies = self.max_turns
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

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game.new_match(seed, options)
        self.plies = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._select()

    def _current_choices(self, agent: str) -> Choices | None:
        seat = self.game.seat_of[agent]
        if self._choices is not None and self._choices.seat == seat:
            return self._choices
        return None

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
        self.game.count_turn()
        self._clear_rewards()
        self.infos[agent] = {"illegal": not legal}
        outcome = self.match.outcome()
        capped = self.game.turns >= self.max_turns
        if outcome is not None:
            for s, value in enumerate(self.game.rewards(outcome)):
                self.rewards[self.game.agent_names[s]] = value
            self.terminations = dict.fromkeys(self.agents, True)
        elif capped:
            self.truncations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        if outcome is None and not capped:
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


class ParleyParallel(_Shared, ParallelEnv[str, Obs, Any]):  # type: ignore[misc]
    """A Parley game as a PettingZoo Parallel environment: every owed seat acts at once."""

    def __init__(
        self,
        game: str | Rules[Any, Any],
        seats: int | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        codec: ActionCodec | None = None,
        encoder: ObsEncoder | None = None,
        max_turns: int | None = None,
        max_cycles: int | None = None,
        reward: Reward = "win",
        on_illegal: OnIllegal = "default",
        mask_format: MaskFormat = "tuple",
        previous_actions: bool = False,
        render_mode: str | None = None,
    ) -> None:
        self.game = _Game(
            game, seats, options, codec, encoder, reward, on_illegal, mask_format, previous_actions
        )
        spec = self.game.rules.spec
        self.metadata = {
            "render_modes": ["ansi", "human"],
            "name": f"parley_{spec.name.replace('-', '_')}_v0",
            "is_parallelizable": True,
        }
        # `max_cycles` is the older name of the same cap, kept for callers that use it.
        self.max_turns = _turn_cap(max_turns, max_cycles, spec.max_plies)
        self.max_cycles = self.max_turns
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

    def _current_choices(self, agent: str) -> Choices | None:
        return self._choices.get(self.game.seat_of[agent])

    def _observe_all(self) -> dict[str, Obs]:
        turn = self.match.turn()
        self._choices = {s: self.game.codec.choices(self.match, s) for s in sorted(turn.owing)}
        return dict(zip(self.game.agent_names, self.game.observe_all(self._choices), strict=True))

    def _infos(self) -> dict[str, dict[str, Any]]:
        owing = self.match.turn().owing
        return {a: {"acting": s in owing} for a, s in self.game.seat_of.items()}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Obs], dict[str, dict[str, Any]]]:
        self.game.new_match(seed, options)
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
                self.game.act_default(seat)
                illegal.add(seat)
            elif not self.game.play(seat, choices, actions[agent]):
                illegal.add(seat)
        self.cycles += 1
        self.game.count_turn()
        outcome = self.match.outcome()
        rewards = dict.fromkeys(self.agents, 0.0)
        done = outcome is not None
        if outcome is not None:
            for s, value in enumerate(self.game.rewards(outcome)):
                rewards[self.game.agent_names[s]] = value
        truncated = not done and self.game.turns >= self.max_turns
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


def aec_env(game: str | Rules[Any, Any], **kwargs: Any) -> ParleyAEC:
    """The AEC environment of a game (by name or rules); see ParleyAEC for the arguments."""
    return ParleyAEC(game, **kwargs)


def parallel_env(game: str | Rules[Any, Any], **kwargs: Any) -> ParleyParallel:
    """The Parallel environment of a game; see ParleyParallel for the arguments."""
    return ParleyParallel(game, **kwargs)
