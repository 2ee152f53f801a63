"""Which action codec and observation encoder each game uses.

A game's RL module is `parley.agents.rl.games.<game>` (dashes become underscores) with
`codec(rules, seats, options)` and, optionally, `encoder(rules, seats, options)`. Games
from elsewhere (and tests) register theirs with `register_codec` / `register_encoder`.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from parley.kernel import Rules
from parley.kernel.errors import BadOptions

from .codecs import ActionCodec, CodecFactory
from .encoders import EncoderFactory, JsonEncoder, ObsEncoder

_CODECS: dict[str, CodecFactory] = {}
_ENCODERS: dict[str, EncoderFactory] = {}


def register_codec(game: str, factory: CodecFactory) -> None:
    _CODECS[game] = factory


def register_encoder(game: str, factory: EncoderFactory) -> None:
    _ENCODERS[game] = factory


def unregister(game: str) -> None:
    _CODECS.pop(game, None)
    _ENCODERS.pop(game, None)


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
