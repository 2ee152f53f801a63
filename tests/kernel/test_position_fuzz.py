"""Hand-edited positions gone wrong: any value replaced, dropped or added anywhere is either
refused with BadPosition or read into a state the game can show and play. Nothing else."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from tests.games.positions import random_match

from parley import games
from parley.kernel import ARCHIVE, ParleyError, Viewer

ODD_VALUES: list[Any] = [None, True, -1, 0, 7, 10**30, 1.5, "", "x", "A1", [], [0], {}, {"a": 1}]


def paths(obj: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [path]
    if isinstance(obj, dict):
        for k, v in obj.items():
            found += paths(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            found += paths(v, (*path, i))
    return found


def mutate(position: dict[str, Any], rng: random.Random) -> None:
    path = rng.choice([p for p in paths(position) if p])
    parent: Any = position
    for key in path[:-1]:
        parent = parent[key]
    roll = rng.random()
    if roll < 0.2 and isinstance(parent, dict):
        del parent[path[-1]]
    elif roll < 0.3 and isinstance(parent, list):
        parent.append(rng.choice(ODD_VALUES))
    else:
        parent[path[-1]] = rng.choice(ODD_VALUES)


@pytest.mark.parametrize("game", ["campus", "illuminati", "planets", "sucker", "diplomacy"])
def test_broken_positions_are_refused_or_usable(game: str) -> None:
    rules = games.find(game)
    rng = random.Random(game)
    refused = 0
    for k in range(60):
        match = random_match(rules, k % 5, (k % 5) * 25)
        position = json.loads(json.dumps(rules.write_position(match.state)))
        for _ in range(rng.randint(1, 3)):
            mutate(position, rng)
        try:
            state = rules.read_position(position)
        except ParleyError as err:
            assert err.message, position
            refused += 1
            continue
        rules.observe(state, ARCHIVE)
        for seat in range(rules.seat_count(state)):
            rules.observe(state, Viewer.of(seat))
            rules.legal_actions(state, seat)
    assert refused > 10  # the mutations do break positions; most are caught by reading
