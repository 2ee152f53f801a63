"""Bots that negotiate, per game, and the promise tallies the arena reports.

A game's negotiators live in `parley.agents.negotiation.<game>` with `make(rules, policy)`
and `promises(match) -> {"kept", "broken", "open"}`. Two policies: `honest` keeps every
deal it made; `opportunist` makes the same deals and then plays as if it had made none.
Both keep a ledger (`trust`) of who broke a promise and who never answers, and act on it;
the `naive` variants keep the books but trust everyone, as a baseline.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType
from typing import TYPE_CHECKING, Any

from parley.kernel import Match, Rules
from parley.kernel.errors import BadOptions

if TYPE_CHECKING:
    from ..protocol import Bot

POLICIES = ("honest", "opportunist")


def _module(game: str) -> ModuleType | None:
    name = f"{__name__}.{game.replace('-', '_')}"
    if importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)


def has_negotiator(game: str) -> bool:
    return _module(game) is not None


def make_negotiator(rules: Rules[Any, Any], policy: str = "honest", naive: bool = False) -> Bot:
    """The game's negotiating bot with this policy (`naive`: trusting everyone whatever
    they did); BadOptions when the game has none."""
    if policy not in POLICIES:
        raise BadOptions(f"no policy {policy!r}; policies: {', '.join(POLICIES)}", text=policy)
    module = _module(rules.spec.name)
    if module is None:
        raise BadOptions(
            f"{rules.spec.title} has no negotiating bot yet; try 'heuristic'", text=policy
        )
    bot: Bot = module.make(rules, policy, naive)
    return bot


def promise_tally(rules: Rules[Any, Any], match: Match[Any, Any]) -> dict[str, int]:
    """Promises kept, broken and open in a finished match; empty for games without deals."""
    module = _module(rules.spec.name)
    tally = getattr(module, "promises", None) if module is not None else None
    if tally is None or not any(True for _ in _press_or_deals(match)):
        return {}
    result: dict[str, int] = tally(match)
    return result


def _press_or_deals(match: Match[Any, Any]) -> Any:
    # Cheap guard: games without a single press entry or bargain have nothing to tally.
    from parley.kernel import ActionEntry, PressEntry

    for entry in match.entries:
        if isinstance(entry, PressEntry) or (
            isinstance(entry, ActionEntry) and type(entry.action).__name__ == "Propose"
        ):
            yield entry
