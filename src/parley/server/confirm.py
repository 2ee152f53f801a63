"""Questions before actions that spend something: the game's `Rules.confirm`, put on the
leaves of an options tree as `confirm` so that clients ask without knowing any rule."""

from __future__ import annotations

from typing import Any

from parley.kernel import Rules


def asks(rules: Rules[Any, Any]) -> bool:
    """Whether the game has any question to ask (most games do not: nothing to walk)."""
    return type(rules).confirm is not Rules.confirm


def tag_confirms(rules: Rules[Any, Any], state: Any, seat: int, tree: dict[str, Any]) -> None:
    """Put the game's question on every leaf of `tree` (its JSON form) that has one."""
    if not asks(rules):
        return
    stack = [tree]
    while stack:
        node = stack.pop()
        action = node.get("action")
        if isinstance(action, str):
            question = rules.confirm(state, seat, action)
            if question:
                node["confirm"] = question
        stack.extend(node.get("children") or ())
