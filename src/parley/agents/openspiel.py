"""Parley games as OpenSpiel (`pyspiel`) Python games, and an OpenSpiel MCTS arena bot.

`register(game)` registers a Parley game under `parley_<name>` so `pyspiel.load_game`
and OpenSpiel's algorithms find it; `register_all()` does every game the bridge can carry.
Actions are the indices of the game's RL action table (`parley.agents.rl`), so a game
with an RL codec needs nothing else here; observation tensors come from its RL encoder.

* Sequential games (So Long Sucker) are sequential OpenSpiel games: the player to move is
  the lowest seat that owes a decision. Out-of-turn actions of the other seats (bargains,
  prisoner transfers) are left out, as are actions outside the table (free-text
  proposals).
* Simultaneous games whose seats each pick one index (`Discrete` codecs) use OpenSpiel's
  simultaneous-move form; a seat with nothing to decide gets one legal index, ignored.
  Diplomacy is not bridged: a power's move is a whole order set (one index per unit, a
  `MultiDiscrete` vector), which OpenSpiel's one-integer-per-player form cannot hold
  without unrolling each phase into per-unit turns.
* Chance: a Parley game draws everything from one seeded generator, so a game with
  `chance` starts with a chance node that picks its seed among `chance_seeds` (a
  parameter, default 16); `seed` >= 0 fixes it instead. Later dice come from that seed's
  generator inside the state, so a search that copies the state foresees them: fine for
  the first-mover draw of So Long Sucker, optimistic for dice games.
* A game still going after `max_game_length` actions ends in a draw shared by the
  surviving seats, as in the arena. Returns are 1 shared among the winners, else 0.
* Hidden information: `ParleyState.resample_from_infostate(player, sampler)` redraws what
  the player cannot see with the rules' `hidden_variant` (and reseeds the dice), so
  OpenSpiel's information-set MCTS (`open_spiel.python.algorithms.ismcts`) searches
  campus conquest and Illuminati without reading hidden cards; `ismcts_bot` is that
  search as an arena bot. OpenSpiel's plain MCTS built on a game that hides information
  gets a `HiddenStateWarning`: it would search the true hidden state.
"""

from __future__ import annotations

import json
import sys
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from parley import games
from parley.kernel import SPECTATOR, Match, Outcome, Rng, Rules, Structure, Viewer
from parley.kernel.errors import BadOptions

from .rl.codecs import ActionCodec, Choices, FlatCodec
from .rl.encoders import ObsEncoder
from .rl.registry import codec_for, encoder_for

PREFIX = "parley_"
DEFAULT_CHANCE_SEEDS = 16


class BridgeError(BadOptions):
    """A game the bridge cannot carry, with the reason."""


class HiddenStateWarning(UserWarning):
    """A perfect-information search was set up on a game that hides information."""


# OpenSpiel's plain MCTS reads `game.get_type()` once when a bot is built; a bot built from
# this module on such a game searches the true state, hidden cards and all.
_PLAIN_SEARCH_MODULES = frozenset({mcts.__name__})


def short_name(rules: Rules[Any, Any]) -> str:
    return PREFIX + rules.spec.name.replace("-", "_")


def bridge_reason(rules: Rules[Any, Any]) -> str | None:
    """Why a game cannot be bridged, or None when it can."""
    spec = rules.spec
    seats = spec.default_seats or spec.min_seats
    try:
        codec = codec_for(rules, seats, spec.resolve_options({}))
    except BadOptions as err:
        return f"{spec.title} has no RL action table: {err.message}"
    if getattr(codec.action_space, "n", None) is None:
        form = "simultaneous form" if spec.structure is Structure.SIMULTANEOUS else "games"
        return (
            f"{spec.title}'s move is a vector of indices (one per part, e.g. per unit), which "
            f"OpenSpiel's {form} (one integer per player and move) cannot hold"
        )
    return None


def _game_type(rules: Rules[Any, Any]) -> Any:
    spec = rules.spec
    params: dict[str, Any] = {
        "players": spec.default_seats or spec.min_seats,
        "seed": -1 if spec.chance else 0,
        "chance_seeds": DEFAULT_CHANCE_SEEDS,
        "max_game_length": spec.max_plies,
    }
    for option in spec.options:
        if isinstance(option.default, bool | int | float | str):
            params[option.name] = option.default
    simultaneous = spec.structure is Structure.SIMULTANEOUS
    return pyspiel.GameType(
        short_name=short_name(rules),
        long_name=f"Parley {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SIMULTANEOUS
        if simultaneous
        else pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        if spec.chance
        else pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION
        if spec.hidden_information or simultaneous
        else pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_seats,
        min_num_players=spec.min_seats,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


@dataclass(frozen=True, slots=True)
class _Config:
    seats: int
    options: dict[str, Any]
    seed: int
    chance_seeds: int
    max_length: int
    codec: ActionCodec
    encoder: ObsEncoder


_CONFIGS: dict[tuple[str, str], _Config] = {}


def _config(rules: Rules[Any, Any], params: Mapping[str, Any]) -> _Config:
    key = (rules.spec.name, json.dumps(dict(params), sort_keys=True, default=str))
    found = _CONFIGS.get(key)
    if found is None:
        spec = rules.spec
        values = dict(params)
        seats = int(values.get("players", spec.default_seats or spec.min_seats))
        names = {o.name for o in spec.options}
        options = spec.resolve_options({k: v for k, v in values.items() if k in names})
        found = _CONFIGS[key] = _Config(
            seats=seats,
            options=options,
            seed=int(values.get("seed", -1 if spec.chance else 0)),
            chance_seeds=int(values.get("chance_seeds", DEFAULT_CHANCE_SEEDS)),
            max_length=int(values.get("max_game_length", spec.max_plies)),
            codec=codec_for(rules, seats, options),
            encoder=encoder_for(rules, seats, options),
        )
    return found


class ParleyGame(pyspiel.Game):  # type: ignore[misc]
    """One Parley game as an OpenSpiel game, for the seats and options in `params`."""

    rules: Rules[Any, Any]

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        rules = self.rules
        spec = rules.spec
        values = dict(params or {})
        seats = int(values.get("players", spec.default_seats or spec.min_seats))
        spec.check_seats(seats)
        names = {o.name for o in spec.options}
        options = spec.resolve_options({k: v for k, v in values.items() if k in names})
        seed = int(values.get("seed", -1 if spec.chance else 0))
        chance_seeds = int(values.get("chance_seeds", DEFAULT_CHANCE_SEEDS))
        max_length = int(values.get("max_game_length", spec.max_plies))
        codec = codec_for(rules, seats, options)
        space = codec.action_space
        actions = int(getattr(space, "n", 0))
        if actions <= 0:
            raise BridgeError(bridge_reason(rules) or "the codec is not Discrete", text=spec.name)
        info = pyspiel.GameInfo(
            num_distinct_actions=actions,
            max_chance_outcomes=chance_seeds if seed < 0 else 0,
            num_players=seats,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=max_length,
        )
        super().__init__(_game_type(rules), info, values)

    # OpenSpiel may rebuild a game object without running __init__ (when it deserialises a
    # state in C++), so everything derived from the parameters is looked up, not stored.
    @property
    def config(self) -> _Config:
        return _config(self.rules, self.get_parameters())

    @property
    def seats(self) -> int:
        return self.config.seats

    @property
    def options(self) -> dict[str, Any]:
        return self.config.options

    @property
    def seed(self) -> int:
        return self.config.seed

    @property
    def chance_seeds(self) -> int:
        return self.config.chance_seeds

    @property
    def max_length(self) -> int:
        return self.config.max_length

    @property
    def codec(self) -> ActionCodec:
        return self.config.codec

    @property
    def encoder(self) -> ObsEncoder:
        return self.config.encoder

    @property
    def simultaneous(self) -> bool:
        return self.rules.spec.structure is Structure.SIMULTANEOUS

    def get_type(self) -> Any:
        game_type = super().get_type()
        if self.rules.spec.hidden_information:
            caller = sys._getframe(1).f_globals.get("__name__")
            if caller in _PLAIN_SEARCH_MODULES:
                warnings.warn(
                    f"OpenSpiel's plain MCTS on {self.rules.spec.title} searches the true "
                    "state, including what the searching seat cannot see; use information-"
                    "set MCTS (open_spiel.python.algorithms.ismcts, or the arena bot "
                    "parley.agents.openspiel:ismcts_bot), which resamples hidden "
                    "information with resample_from_infostate",
                    HiddenStateWarning,
                    stacklevel=3,
                )
        return game_type

    def new_initial_state(self) -> ParleyState:
        return ParleyState(self)

    def state_from_match(self, match: Match[Any, Any]) -> ParleyState:
        """An OpenSpiel state at `match`'s position (a copy: the match is not changed)."""
        state = ParleyState(self)
        state.match = match.copy()
        return state

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> ParleyObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return ParleyObserver(self, perfect_recall, params)


class ParleyState(pyspiel.State):  # type: ignore[misc]
    """A Parley match as an OpenSpiel state (the seed first, at a chance node, if drawn)."""

    def __init__(self, game: ParleyGame) -> None:
        super().__init__(game)
        # OpenSpiel clones a Python state by deep-copying each attribute; these holders
        # make that cheap: the game is shared, the match copied with `Match.copy`, and
        # the per-decision cache dropped.
        self._game = _Shared(game)
        self._match = _MatchSlot(None)
        self._cache = _Cache()

    @property
    def bridge(self) -> ParleyGame:
        game: ParleyGame = self._game.value
        return game

    @property
    def match(self) -> Match[Any, Any] | None:
        slot = self._match
        if slot.value is None and not slot.drawn:
            slot.drawn = True  # a fixed seed: the match starts at once, made when first used
            if self.bridge.seed >= 0:
                slot.value = self._new_match(self.bridge.seed)
        return slot.value

    @match.setter
    def match(self, value: Match[Any, Any] | None) -> None:
        self._match = _MatchSlot(value)
        self._match.drawn = True
        self._cache.choices.clear()

    @property
    def _choices(self) -> dict[int, Choices]:
        return self._cache.choices

    def _new_match(self, seed: int) -> Match[Any, Any]:
        game = self.bridge
        return Match(game.rules, game.seats, game.options, seed)

    @property
    def _live(self) -> Match[Any, Any]:
        assert self.match is not None, "the seed is not drawn yet"
        return self.match

    def _capped(self) -> bool:
        return self.match is not None and self.match.ply >= self.bridge.max_length

    def current_player(self) -> int:
        if self.match is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.bridge.simultaneous:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return min(self.match.turn().owing)

    def _seat_choices(self, seat: int) -> Choices:
        found = self._choices.get(seat)
        if found is None:
            found = self._choices[seat] = self.bridge.codec.choices(self._live, seat)
        return found

    def _legal_actions(self, player: int) -> list[int]:
        match = self._live
        if self.bridge.simultaneous and player not in match.turn().owing:
            return [0]  # nothing to decide: one index, ignored
        mask = np.asarray(self.bridge.codec.mask(self._seat_choices(player)))
        return [int(i) for i in np.flatnonzero(mask)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        n = self.bridge.chance_seeds
        return [(k, 1.0 / n) for k in range(n)]

    def _act(self, seat: int, action: int) -> None:
        match = self._live
        chosen = self.bridge.codec.decode(match, self._seat_choices(seat), action)
        if chosen is None:
            raise pyspiel.SpielError(f"action {action} is not legal for seat {seat} now")
        match.act(seat, chosen)

    def _apply_action(self, action: int) -> None:
        if self.match is None:
            self.match = self._new_match(_seed_of(int(action)))
            return
        seat = min(self.match.turn().owing)
        self._act(seat, int(action))
        self._choices.clear()

    def _apply_actions(self, actions: Sequence[int]) -> None:
        match = self._live
        for seat in sorted(match.turn().owing):
            if not match.is_over and seat in match.turn().owing:
                self._act(seat, int(actions[seat]))
        self._choices.clear()

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed {action}"
        codec = self.bridge.codec
        if isinstance(codec, FlatCodec) and 0 <= action < len(codec.table):
            who = self.match.seat_names()[player] if self.match is not None else f"seat {player}"
            return f"{who}: {codec.table[action]}"
        return f"seat {player}: {action}"

    def is_terminal(self) -> bool:
        return self.match is not None and (self.match.is_over or self._capped())

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ParleyState:
        """A copy of this state that `player_id` cannot tell from it: what the player cannot
        see drawn anew by the rules' `hidden_variant`, the dice reseeded (OpenSpiel's
        `ResampleFromInfostate`, which information-set MCTS calls every simulation).

        `probability_sampler` (OpenSpiel's, a callable giving a number in [0, 1)) seeds
        the draw; the player's observation and history are the same in the copy."""
        twin: ParleyState = self.clone()
        match = self.match
        if match is None:
            return twin  # the seed is not drawn yet: nothing to hide
        draw = float(probability_sampler())
        if not 0.0 <= draw <= 1.0:
            raise pyspiel.SpielError(f"the probability sampler gave {draw}, not in [0, 1]")
        rng = Rng(int(draw * (1 << 53)) ^ (match.ply << 53) ^ _seed_of(player_id))
        twin.match = determinised(match, player_id, rng)
        return twin

    def outcome(self) -> Outcome | None:
        """The game's outcome, or the survivors' shared draw when it hit the length cap."""
        match = self._live
        found = match.outcome()
        if found is None and self._capped():
            alive = self.bridge.rules.alive(match.state)
            found = Outcome.shared(alive, match.seats, "length cap: draw shared by survivors")
        return found

    def returns(self) -> list[float]:
        seats = self.bridge.seats
        if not self.is_terminal():
            return [0.0] * seats
        outcome = self.outcome()
        assert outcome is not None
        share = 1.0 / len(outcome.winners) if outcome.winners else 0.0
        return [share if s in outcome.winners else 0.0 for s in range(seats)]

    def __str__(self) -> str:
        if self.match is None:
            return "(seed not drawn)"
        view = self.match.observe(SPECTATOR)["view"]
        try:
            return str(self.bridge.rules.render(view))
        except Exception:
            return json.dumps(view, sort_keys=True)


class _Shared:
    """Held by reference: deep copies share it."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Shared, (self.value,))


class _MatchSlot:
    """The match; a deep copy is `Match.copy` (clones the rules state, shares the rules)."""

    __slots__ = ("drawn", "value")

    def __init__(self, value: Match[Any, Any] | None, drawn: bool = False) -> None:
        self.value = value
        self.drawn = drawn

    def __deepcopy__(self, memo: dict[int, Any]) -> _MatchSlot:
        return _MatchSlot(None if self.value is None else self.value.copy(), self.drawn)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_MatchSlot, (self.value, self.drawn))


class _Cache:
    """Each seat's choices at the current position; a copy starts empty."""

    __slots__ = ("choices",)

    def __init__(self) -> None:
        self.choices: dict[int, Choices] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Cache:
        return _Cache()

    def __reduce__(self) -> tuple[Any, ...]:
        return (_Cache, ())


def determinised(match: Match[Any, Any], seat: int, rng: Rng) -> Match[Any, Any]:
    """A copy of `match` that `seat` cannot tell from it: what the seat cannot see redrawn
    by `Rules.hidden_variant`, and the dice (a state attribute `rng`, as the built-in games
    have) reseeded, so a search foresees neither hidden cards nor the real dice."""
    rules = match.rules
    copy = match.copy()
    if rules.spec.hidden_information:
        variant = rules.hidden_variant(copy.state, Viewer.of(seat), rng)
        if variant is not None:  # None: nothing is hidden from the seat just now
            copy.state = variant
    if rules.spec.chance and isinstance(getattr(copy.state, "rng", None), Rng):
        copy.state.rng = Rng(rng.next64() >> 1)
    return copy


def _seed_of(chance_outcome: int) -> int:
    """The game seed a chance outcome stands for (spread out, so games differ widely)."""
    return (chance_outcome * 0x9E3779B97F4A7C15 + 1) % (1 << 62)


class ParleyObserver:
    """OpenSpiel observer: the RL encoder's features of the seat's own view, and text."""

    def __init__(
        self, game: ParleyGame, perfect_recall: bool, params: Mapping[str, Any] | None
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {dict(params)}")
        self.game = game
        self.perfect_recall = perfect_recall
        size = int(game.encoder.space.shape[0])
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: ParleyState, player: int) -> None:
        if state.match is None:
            self.tensor.fill(0.0)
            return
        observation = state.match.observe(Viewer.of(player))
        self.tensor[:] = self.game.encoder.encode(observation, player)

    def string_from(self, state: ParleyState, player: int) -> str:
        if state.match is None:
            return "seed not drawn"
        viewer = Viewer.of(player)
        observation = state.match.observe(viewer)
        if not self.perfect_recall:
            return json.dumps(observation, sort_keys=True)
        # Perfect recall: the seat's whole record as it saw it, then what it sees now.
        history = state.match.history(viewer)
        return json.dumps({"history": history, "now": observation}, sort_keys=True)


_REGISTERED: dict[str, type[ParleyGame]] = {}


def register(game: str | Rules[Any, Any]) -> str:
    """Register a Parley game with OpenSpiel (once); returns its OpenSpiel short name."""
    rules = games.find(game) if isinstance(game, str) else game
    name = short_name(rules)
    if name in _REGISTERED:
        return name
    reason = bridge_reason(rules)
    if reason is not None:
        raise BridgeError(reason, text=rules.spec.name)
    class_name = f"Parley{rules.spec.name.title().replace('-', '')}Game"
    game_class = type(class_name, (ParleyGame,), {"rules": rules, "__module__": __name__})
    # Pickling (OpenSpiel's serialisation checks do it) finds the class by module and name.
    globals()[class_name] = game_class
    pyspiel.register_game(_game_type(rules), game_class)
    _REGISTERED[name] = game_class
    return name


def register_all() -> dict[str, str]:
    """Register every game the bridge can carry; returns {game: reason} for the others."""
    skipped: dict[str, str] = {}
    for rules in games.all_rules():
        reason = bridge_reason(rules)
        if reason is None:
            register(rules)
        else:
            skipped[rules.spec.name] = reason
    return skipped


def load(game: str | Rules[Any, Any], **params: Any) -> ParleyGame:
    """The OpenSpiel game of a Parley game (registered on first use)."""
    loaded: ParleyGame = pyspiel.load_game(register(game), params)
    return loaded


# --- MCTS in the arena --------------------------------------------------------------------


class RulesRolloutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Random playouts with the rules' own `random_action`, straight on a copy of the match
    (no action table in the loop), and uniform priors. A playout still going after
    `depth` actions counts as a draw shared by the surviving seats."""

    def __init__(self, rollouts: int = 1, seed: int = 0, depth: int = 300) -> None:
        self.rollouts = rollouts
        self.depth = depth
        self.rng = np.random.default_rng(seed)

    def evaluate(self, state: ParleyState) -> np.ndarray[Any, Any]:
        seats = state.bridge.seats
        total = np.zeros(seats)
        for _ in range(self.rollouts):
            working: ParleyState = state.clone()
            if working.match is None:
                working.apply_action(int(self.rng.integers(state.bridge.chance_seeds)))
            match = working._live
            rules = match.rules
            rng = Rng(int(self.rng.integers(1 << 62)))
            stop = min(state.bridge.max_length, match.ply + self.depth)
            while not match.is_over and match.ply < stop:
                owing = sorted(match.turn().owing)
                if not owing:
                    break
                seat = owing[0]
                match.act(seat, rules.random_action(match.state, seat, rng))
            if working.is_terminal():
                total += np.asarray(working.returns())
            else:
                alive = sorted(rules.alive(match.state))
                for seat in alive:
                    total[seat] += 1.0 / len(alive)
        result: np.ndarray[Any, Any] = total / self.rollouts
        return result

    def prior(self, state: ParleyState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


class _SearchBot:
    """What the arena's OpenSpiel search bots share: their settings and one OpenSpiel game
    per seat count and option set."""

    def __init__(
        self, rules: Rules[Any, Any], simulations: int, uct_c: float, rollout_depth: int
    ) -> None:
        self.rules = rules
        self.simulations = simulations
        self.uct_c = uct_c
        self.rollout_depth = rollout_depth
        self._games: dict[tuple[int, str], ParleyGame] = {}

    def _game(self, match: Match[Any, Any]) -> ParleyGame:
        key = (match.seats, json.dumps(match.options, sort_keys=True))
        game = self._games.get(key)
        if game is None:
            params = {"players": match.seats, "seed": 0, **match.options}
            game = self._games[key] = load(self.rules, **params)
        return game


class MCTSArenaBot(_SearchBot):
    """OpenSpiel's MCTS as a Parley bot, searching the position through the bridge.

    In a game with hidden information it searches a *determinisation*: the state redrawn
    by `Rules.hidden_variant` for its seat (the hidden parts put anywhere they could be,
    others' secret choices redrawn), so it never reads what the seat cannot see; games
    that hide information without that hook are refused. In a game with chance, the
    copy's generator (a state attribute `rng`, as the built-in games have) is reseeded, so
    the search cannot foresee the real dice.
    """

    name = "openspiel-mcts"

    def __init__(
        self,
        rules: Rules[Any, Any],
        simulations: int = 200,
        uct_c: float = 2.0,
        rollout_depth: int = 300,
    ) -> None:
        reason = bridge_reason(rules)
        if reason is not None:
            raise BridgeError(reason, text=rules.spec.name)
        if rules.spec.hidden_information and _no_variants(rules):
            raise BridgeError(
                f"{rules.spec.title} hides information and has no hidden_variant to search "
                "a determinisation of; the MCTS bot would read what its seat cannot see",
                text=rules.spec.name,
            )
        super().__init__(rules, simulations, uct_c, rollout_depth)

    def searched(self, match: Match[Any, Any], seat: int, rng: Rng) -> Match[Any, Any]:
        """The copy of `match` the search runs on: determinised and reseeded as needed."""
        return determinised(match, seat, rng)

    def choose(self, decision: Any) -> Any:
        # The arena's decisions carry their match; the bot needs it to rebuild the position.
        match: Match[Any, Any] | None = getattr(decision, "_match", None)
        if match is None:
            raise BridgeError("the OpenSpiel MCTS bot needs the decision's match")
        game = self._game(match)
        state = game.state_from_match(self.searched(match, decision.seat, decision.rng))
        if state.current_player() != decision.seat:
            # Out of turn (only the lowest owing seat moves in the bridge): play the default.
            return self.rules.default_action(match.state, decision.seat)
        seed = int(decision.rng.next64() >> 33)
        with warnings.catch_warnings():
            # The state searched is a determinisation, not the true one: the warning for
            # plain MCTS on hidden information does not apply.
            warnings.simplefilter("ignore", HiddenStateWarning)
            bot = mcts.MCTSBot(
                game,
                self.uct_c,
                self.simulations,
                RulesRolloutEvaluator(1, seed, self.rollout_depth),
                random_state=np.random.RandomState(seed),
                solve=False,
            )
        action = bot.step(state)
        return _decoded(game, match, decision.seat, int(action))


class ISMCTSArenaBot(_SearchBot):
    """OpenSpiel's information-set MCTS as a Parley bot, for games that hide information.

    Every simulation starts from a state resampled for its seat (`resample_from_infostate`,
    built on `Rules.hidden_variant`), and the search tree is keyed by the seat's
    information state, so one tree gathers what all the possible hidden states teach
    instead of trusting one guess. Games without hidden information are refused (plain
    MCTS is the search for them), as are games that hide information without the hook.
    """

    name = "openspiel-ismcts"

    def __init__(
        self,
        rules: Rules[Any, Any],
        simulations: int = 200,
        uct_c: float = 2.0,
        rollout_depth: int = 300,
    ) -> None:
        reason = bridge_reason(rules)
        if reason is not None:
            raise BridgeError(reason, text=rules.spec.name)
        if rules.spec.structure is Structure.SIMULTANEOUS:
            raise BridgeError(
                f"OpenSpiel's information-set MCTS searches sequential games only; "
                f"{rules.spec.title} is simultaneous",
                text=rules.spec.name,
            )
        if not rules.spec.hidden_information:
            raise BridgeError(
                f"{rules.spec.title} hides nothing from its seats: search it with plain MCTS "
                "(parley.agents.openspiel:mcts_bot)",
                text=rules.spec.name,
            )
        if _no_variants(rules):
            raise BridgeError(
                f"{rules.spec.title} hides information and has no hidden_variant to "
                "resample it with",
                text=rules.spec.name,
            )
        super().__init__(rules, simulations, uct_c, rollout_depth)

    def choose(self, decision: Any) -> Any:
        match: Match[Any, Any] | None = getattr(decision, "_match", None)
        if match is None:
            raise BridgeError("the OpenSpiel ISMCTS bot needs the decision's match")
        game = self._game(match)
        # The true position: the search reads it only through resample_from_infostate and
        # the seat's information state.
        state = game.state_from_match(match)
        if state.current_player() != decision.seat:
            return self.rules.default_action(match.state, decision.seat)
        seed = int(decision.rng.next64() >> 33)
        random_state = np.random.RandomState(seed)
        bot = ismcts.ISMCTSBot(
            game,
            RulesRolloutEvaluator(1, seed, self.rollout_depth),
            self.uct_c,
            self.simulations,
            random_state=random_state,
            # The seat's observation names the position (the record need not be replayed
            # into every key), and some hidden draws change which indices are offered.
            use_observation_string=True,
            allow_inconsistent_action_sets=True,
        )
        # Resample with the bot's own generator, so a seeded game replays exactly.
        bot.set_resampler(lambda s, player: s.resample_from_infostate(player, random_state.uniform))
        action = bot.step(state)
        return _decoded(game, match, decision.seat, int(action))


def _decoded(game: ParleyGame, match: Match[Any, Any], seat: int, action: int) -> Any:
    # The index means the same action in the real position: legal actions do not depend on
    # what is hidden from the seat (the conformance suite checks it).
    chosen = game.codec.decode(match, game.codec.choices(match, seat), action)
    if chosen is None:
        return match.rules.default_action(match.state, seat)
    return chosen


def _no_variants(rules: Rules[Any, Any]) -> bool:
    return type(rules).hidden_variant is Rules.hidden_variant


def mcts_bot(rules: Rules[Any, Any]) -> MCTSArenaBot:
    """The arena bot `parley.agents.openspiel:mcts_bot` (200 simulations per move)."""
    return MCTSArenaBot(rules)


def mcts_bot_fast(rules: Rules[Any, Any]) -> MCTSArenaBot:
    """A cheaper MCTS bot, `parley.agents.openspiel:mcts_bot_fast` (50 simulations)."""
    return MCTSArenaBot(rules, simulations=50)


def ismcts_bot(rules: Rules[Any, Any]) -> ISMCTSArenaBot:
    """The arena bot `parley.agents.openspiel:ismcts_bot` (200 simulations per move)."""
    return ISMCTSArenaBot(rules)


def ismcts_bot_fast(rules: Rules[Any, Any]) -> ISMCTSArenaBot:
    """A cheaper ISMCTS bot, `parley.agents.openspiel:ismcts_bot_fast` (50 simulations)."""
    return ISMCTSArenaBot(rules, simulations=50)
