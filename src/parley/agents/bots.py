"""Bots by name: the registry every front end uses to make one.

Built in: `random` (uniform legal actions), `default` (the seat's default action, what a
seat in civil disorder does), `heuristic` (a per-game player from
`parley.agents.heuristics`), and `negotiator` / `opportunist` (players that make deals in
press, from `parley.agents.negotiation`). `llm:PROFILE` is a chat model played through
the endpoint its profile names (`parley.agents.bench`). A name of the form
`package.module:attribute` imports a bot class or factory, so worker processes can build
bots that were never registered there. The interface itself is `parley.agents.protocol`,
re-exported here; how each answers a proposed draw is `parley.agents.draws`.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from parley.kernel import Rules
from parley.kernel.errors import BadOptions

from .heuristics import has_heuristic, make_heuristic
from .negotiation import has_negotiator, make_negotiator
from .protocol import (
    Bot,
    BotFactory,
    Conversation,
    Decision,
    DefaultBot,
    RandomBot,
    Reply,
    Say,
    acts_anytime,
    decide,
    decision_for,
    draw_vote,
)

__all__ = [
    "Bot",
    "BotFactory",
    "Conversation",
    "Decision",
    "DefaultBot",
    "RandomBot",
    "Reply",
    "Say",
    "acts_anytime",
    "bot_names",
    "decide",
    "decision_for",
    "draw_vote",
    "make_bot",
    "register_bot",
]


def _heuristic(rules: Rules[Any, Any]) -> Bot:
    return make_heuristic(rules)


def _negotiator(policy: str, naive: bool = False) -> BotFactory:
    def factory(rules: Rules[Any, Any]) -> Bot:
        return make_negotiator(rules, policy, naive)

    return factory


_FACTORIES: dict[str, BotFactory] = {
    "random": lambda rules: RandomBot(),
    "default": lambda rules: DefaultBot(),
    "heuristic": _heuristic,
    "negotiator": _negotiator("honest"),  # makes deals in press and keeps them
    "opportunist": _negotiator("opportunist"),  # makes the same deals, then ignores them
    # The same two, trusting everyone whatever they did (no consequences for broken deals).
    "negotiator-naive": _negotiator("honest", naive=True),
    "opportunist-naive": _negotiator("opportunist", naive=True),
}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make a bot available by name."""
    _FACTORIES[name] = factory


def bot_names(rules: Rules[Any, Any] | None = None) -> list[str]:
    """Every bot name; with `rules`, only those that can play that game."""
    names = sorted(_FACTORIES)
    if rules is not None:
        if not has_heuristic(rules.spec.name):
            names.remove("heuristic")
        if not has_negotiator(rules.spec.name):
            for name in ("negotiator", "opportunist", "negotiator-naive", "opportunist-naive"):
                names.remove(name)
    return names


def make_bot(name: str, rules: Rules[Any, Any]) -> Bot:
    """The bot called `name` for this game; BadOptions naming the known bots otherwise."""
    name = name.strip()
    if name.startswith("llm:"):
        # A chat model, named by its profile (parley.agents.bench.profile); imported here
        # so that the registry loads without the model client.
        from .bench.model import llm_bot

        return llm_bot(name[len("llm:") :], rules)
    if ":" in name:
        return _imported_bot(name, rules)
    try:
        factory = _FACTORIES[name]
    except KeyError:
        known = ", ".join(bot_names())
        raise BadOptions(f"no bot called {name!r}; bots: {known}", text=name) from None
    return factory(rules)


def _imported_bot(path: str, rules: Rules[Any, Any]) -> Bot:
    module_name, _, attribute = path.partition(":")
    try:
        target = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as err:
        raise BadOptions(f"cannot import bot {path!r}: {err}", text=path) from None
    # A bot class is built with no arguments, a factory function gets the rules, and an
    # instance is used as it is.
    if isinstance(target, type):
        bot = target()
    elif callable(target) and not hasattr(target, "choose"):
        bot = target(rules)
    else:
        bot = target
    if not callable(getattr(bot, "choose", None)):
        raise BadOptions(f"{path!r} is not a bot (it has no choose method)", text=path)
    return bot  # type: ignore[no-any-return]


# --- models as players, for the server (which meets agents only through this module) -----

MODEL_PREFIX = "llm:"  # `llm:NAME`: a model profile, NAME.toml (parley.agents.bench.profile)


def model_profile(name: str, folder: Path | None = None) -> Any:
    """The model profile `name` (without `llm:`); BadOptions when anything is wrong."""
    from .bench.profile import load_profile

    return load_profile(name, folder)


def model_bot(profile: Any, rules: Rules[Any, Any]) -> Any:
    """A bot that asks the profile's model, counting its tokens and cost as it goes."""
    from .bench.model import LLMBot

    return LLMBot(profile, rules)
