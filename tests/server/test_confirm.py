"""Questions before actions that spend something: the server tags the options' leaves with
the game's `confirm` question (a campus attack, an Illuminati announcement, a Planet Control
activation) and nothing else, so clients ask without knowing a rule."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from tests.server.conftest import Client, LiveServer
from tests.server.test_play import start_game

from parley import games
from parley.kernel import Match, Rng
from parley.kernel.conformance import random_step
from parley.server.confirm import tag_confirms

Users = Any


def leaves(node: dict[str, Any] | None) -> Iterator[dict[str, Any]]:
    if not node:
        return
    if isinstance(node.get("action"), str):
        yield node
    for child in node.get("children") or ():
        yield from leaves(child)


def tagged(match: Match[Any, Any], seat: int) -> list[dict[str, Any]]:
    tree = match.rules.options_tree(match.state, seat).to_json()
    tag_confirms(match.rules, match.state, seat, tree)
    return list(leaves(tree))


def until(match: Match[Any, Any], want: Any, steps: int = 400) -> tuple[int, list[dict[str, Any]]]:
    """Play random steps until the seat to move has a leaf `want` accepts."""
    rng = Rng(5)
    for _ in range(steps):
        for owed in match.turn().owed:
            found = tagged(match, owed.seat)
            if any(want(leaf) for leaf in found):
                return owed.seat, found
        random_step(match, rng)
    raise AssertionError("no such option came up")


def test_campus_asks_before_an_attack_only() -> None:
    match: Match[Any, Any] = Match(games.find("campus"), 3, seed=4)
    _, found = until(match, lambda leaf: "confirm" in leaf)
    asked = [leaf for leaf in found if "confirm" in leaf]
    assert all(leaf["action"].startswith("move ") for leaf in asked)
    assert all("% to win" in leaf["confirm"] and "destroys" in leaf["confirm"] for leaf in asked)
    # Every attack is asked about (its label says "attack"), a plain move never.
    for leaf in found:
        assert ("confirm" in leaf) == ("attack" in leaf["label"]), leaf


def test_illuminati_asks_before_announcing_an_attack() -> None:
    match: Match[Any, Any] = Match(games.find("illuminati"), 3, seed=2)
    _, found = until(match, lambda leaf: leaf["action"].startswith("attack "))
    for leaf in found:
        assert ("confirm" in leaf) == leaf["action"].startswith("attack ")
    assert "one of your two actions" in next(x["confirm"] for x in found if "confirm" in x)


def test_planets_asks_before_spending_a_command_token(live: LiveServer, users: Users) -> None:
    amy, bob, cat = users("amy"), users("bob"), users("cat")
    gid, _ = start_game(amy, [bob, cat], "planets")
    people: list[Client] = [amy, bob, cat]
    for _ in range(30):
        mover = next(p for p in people if p.get(f"/api/games/{gid}/state")["owes"])
        found = list(leaves(mover.get(f"/api/games/{gid}/state")["options"]))
        if any(x["action"].startswith("activate ") for x in found):
            break
        mover.post(f"/api/games/{gid}/actions", {"action": found[0]["action"]})
    else:
        raise AssertionError("no activation was offered")
    for leaf in found:
        system = leaf["action"].removeprefix("activate ")
        expected = f"Spend a command token to activate {system}?"
        assert leaf.get("confirm") == (expected if leaf["action"].startswith("activate ") else None)
    # The options route tags them the same way.
    same = list(leaves(mover.get(f"/api/games/{gid}/options")["options"]))
    assert [x.get("confirm") for x in same] == [x.get("confirm") for x in found]
    # A game without questions tags nothing.
    gid2, _ = start_game(amy, [bob, cat], "sucker")
    for p in (amy, bob, cat):
        st = p.get(f"/api/games/{gid2}/state")
        assert all("confirm" not in x for x in leaves(st["options"]))
