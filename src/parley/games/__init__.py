"""The game registry: every Parley game by name or alias.

Built-in games live in sub-packages that expose `RULES`; other packages add games through
the `parley.games` entry-point group (an entry point naming a Rules instance).
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache
from importlib.metadata import entry_points
from typing import Any

from parley.kernel import Rules, UnknownGame

BUILTIN = (
    "campus",
    "diplomacy",
    "illuminati",
    "planets",
    "sucker",
)


@cache
def _registry() -> dict[str, Rules[Any, Any]]:
    found: dict[str, Rules[Any, Any]] = {}
    for package in BUILTIN:
        module_name = f"{__name__}.{package}"
        if importlib.util.find_spec(module_name) is None:
            continue
        rules = getattr(importlib.import_module(module_name), "RULES", None)
        if rules is not None:  # a game package still being written registers nothing
            found[rules.spec.name] = rules
    for point in entry_points(group="parley.games"):
        rules = point.load()
        found.setdefault(rules.spec.name, rules)
    return found


def register(rules: Rules[Any, Any]) -> None:
    """Add a game at run time (tests, notebooks); its name must be new."""
    registry = _registry()
    if rules.spec.name in registry and registry[rules.spec.name] is not rules:
        raise ValueError(f"a game named {rules.spec.name!r} is registered already")
    registry[rules.spec.name] = rules


def unregister(name: str) -> None:
    """Remove a game added with `register` (tests)."""
    _registry().pop(name, None)


def names() -> list[str]:
    """Registered game names, sorted."""
    return sorted(_registry())


def all_rules() -> list[Rules[Any, Any]]:
    return [_registry()[n] for n in names()]


def find(name: str) -> Rules[Any, Any]:
    """The game called `name` (or one of its aliases), ignoring case and spaces."""
    wanted = name.strip().lower().replace(" ", "").replace("_", "-")
    for rules in _registry().values():
        spec = rules.spec
        if wanted == spec.name or wanted in spec.aliases:
            return rules
    known = ", ".join(
        f"{r.spec.name} ({', '.join(r.spec.aliases)})" if r.spec.aliases else r.spec.name
        for r in all_rules()
    )
    raise UnknownGame(f"no game called {name!r}; known games: {known or 'none'}", text=name)
