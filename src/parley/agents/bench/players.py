"""Model players by import path, for the arena's workers: `parley.agents.bench.players:NAME`
is the bot `llm:NAME` (a spawned worker imports this module and asks it for NAME).

The profiles folder comes from the environment (`PARLEY_BENCH_PROFILES`), which worker
processes inherit from the run that starts them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from parley.kernel import Rules

from .model import LLMBot, llm_bot
from .profile import PREFIX

MODULE = __name__


def arena_name(player: str) -> str:
    """The arena's bot name for a bench player: `llm:NAME` → this module's path; bots as is."""
    if player.startswith(PREFIX):
        return f"{MODULE}:{player[len(PREFIX) :]}"
    return player


def player_name(bot: str) -> str:
    """The bench player a bot name of the arena stands for (the inverse of `arena_name`)."""
    head = f"{MODULE}:"
    return PREFIX + bot[len(head) :] if bot.startswith(head) else bot


def __getattr__(name: str) -> Callable[[Rules[Any, Any]], LLMBot]:
    if name.startswith("__"):
        raise AttributeError(name)

    def factory(rules: Rules[Any, Any]) -> LLMBot:
        return llm_bot(name, rules)

    return factory
