"""Which action codec and observation encoder each game uses.

A game's RL module is `parley.agents.rl.games.<game>` (dashes become underscores) with
`codec(rules, seats, options)` and, optionally, `encoder(rules, seats, options)` and
`env_options(rules, seats)` (game options the environments default to, e.g. a year
limit). Games from elsewhere (and tests) register theirs with `register_codec` /
`register_encoder` / `register_env_options`.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any

from parley.kernel import Rules
from parley.kernel.errors import BadOptions

from .codecs import ActionCodec, CodecFactory
from .encoders import EncoderFactory, JsonEncoder, ObsEncoder

_CODECS: dict[str, CodecFactory] = {}
_ENCODERS: dict[str, EncoderFactory] = {}
EnvOptionsFactory = Callable[[Rules[Any, Any], int], Mapping[str, Any]]
_ENV_OPTIONS: dict[str, EnvOptionsFactory] = {}


def register_codec(game: str, factory: CodecFactory) -> None:
    _CODECS[game] = factory


def register_encoder(game: str, factory: EncoderFactory) -> None:
    _ENCODERS[game] = factory


def register_env_options(game: str, factory: EnvOptionsFactory) -> None:
    _ENV_OPTIONS[game] = factory


def unregister(game: str) -> None:
    _CODECS.pop(game, None)
    _ENCODERS.pop(game, None)
    _ENV_OPTIONS.pop(game, None)


def _module(game: str) -> ModuleType | None:
    name = f"{__package__}.games.{game.replace('-', '_')}"
    if importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)


def codec_for(rules: Rules[Any, Any], seats: int, options: Mapping[str, Any]) -> ActionCodec:
    """The game's action codec; BadOptions when nobody has written its action table."""
    game = rules.spec.name
    factory = _CODECS.get(game)
    if factory is None:
        module = _module(game)
        factory = getattr(module, "codec", None) if module is not None else None
    if factory is None:
        raise BadOptions(
            f"{rules.spec.title} has no action table for RL yet; register one with "
            "parley.agents.rl.register_codec",
            text=game,
        )
    return factory(rules, seats, options)


def encoder_for(rules: Rules[Any, Any], seats: int, options: Mapping[str, Any]) -> ObsEncoder:
    """The game's observation encoder, or the generic JSON-bytes one."""
    game = rules.spec.name
    factory = _ENCODERS.get(game)
    if factory is None:
        module = _module(game)
        factory = getattr(module, "encoder", None) if module is not None else None
    if factory is None:
        return JsonEncoder()
    return factory(rules, seats, options)


def env_options_for(rules: Rules[Any, Any], seats: int) -> dict[str, Any]:
    """Game options the RL environments use unless the caller sets them; none by default."""
    game = rules.spec.name
    factory = _ENV_OPTIONS.get(game)
    if factory is None:
        module = _module(game)
        factory = getattr(module, "env_options", None) if module is not None else None
    return dict(factory(rules, seats)) if factory is not None else {}
