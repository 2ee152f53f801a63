"""One interface for every bot: an observation and the legal actions in, an action out."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from parley.kernel import JSON, Match, Rng, Rules, Viewer
from parley.kernel.errors import BadOptions


@dataclass(frozen=True, slots=True)
class Decision:
    """What a bot sees when asked to act for a seat."""

    rules: Rules[Any, Any]
    seat: int
    observation: dict[str, JSON]
    legal: Sequence[Any]
    state: Any  # the rules' own state, for bots that search; never sent over a wire
    rng: Rng


class Bot(Protocol):
    name: str

    def choose(self, decision: Decision) -> Any:
        """An action of the game for `decision.seat`."""


class RandomBot:
    """Uniformly random legal actions (every part drawn, for composite games)."""

    name = "random"

    def choose(self, decision: Decision) -> Any:
        return decision.rules.random_action(decision.state, decision.seat, decision.rng)


BotFactory = Callable[[Rules[Any, Any]], Bot]
_FACTORIES: dict[str, BotFactory] = {"random": lambda rules: RandomBot()}


def register_bot(name: str, factory: BotFactory) -> None:
    """Make a bot available by name (e.g. "heuristic")."""
    _FACTORIES[name] = factory


def bot_names() -> list[str]:
    return sorted(_FACTORIES)


def make_bot(name: str, rules: Rules[Any, Any]) -> Bot:
    try:
        factory = _FACTORIES[name]
    except KeyError:
        known = ", ".join(bot_names())
        raise BadOptions(f"no bot called {name!r}; bots: {known}", text=name) from None
    return factory(rules)


def decide(bot: Bot, match: Match[Any, Any], seat: int, rng: Rng) -> Any:
    """Ask `bot` for `seat`'s action in `match` (not applied)."""
    decision = Decision(
        rules=match.rules,
        seat=seat,
        observation=match.observe(Viewer.of(seat)),
        legal=match.legal_actions(seat),
        state=match.state,
        rng=rng,
    )
    return bot.choose(decision)
