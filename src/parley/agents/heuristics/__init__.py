"""Heuristic bots, one per game, all reachable as the bot named "heuristic".

A game's heuristic lives in `parley.agents.heuristics.<game>` (dashes become underscores)
and exposes `make(rules) -> Bot`. Games from other packages register theirs with
`register_heuristic`.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

from parley.kernel import Rules
from parley.kernel.errors import BadOptions

if TYPE_CHECKING:
    from ..protocol import Bot, BotFactory

_REGISTERED: dict[str, BotFactory] = {}


def register_heuristic(game: str, factory: BotFactory) -> None:
    """Make `factory` the heuristic bot of the game called `game`."""
    _REGISTERED[game] = factory


def unregister_heuristic(game: str) -> None:
    _REGISTERED.pop(game, None)


def _module_factory(game: str) -> BotFactory | None:
    module_name = f"{__name__}.{game.replace('-', '_')}"
    if importlib.util.find_spec(module_name) is None:
        return None
    factory: Any = getattr(importlib.import_module(module_name), "make", None)
    return factory if callable(factory) else None


def has_heuristic(game: str) -> bool:
    return game in _REGISTERED or _module_factory(game) is not None


def make_heuristic(rules: Rules[Any, Any]) -> Bot:
    """The heuristic bot for this game; BadOptions when the game has none."""
    game = rules.spec.name
    factory = _REGISTERED.get(game) or _module_factory(game)
    if factory is None:
        raise BadOptions(f"{rules.spec.title} has no heuristic bot yet; try 'random'", text=game)
    return factory(rules)
