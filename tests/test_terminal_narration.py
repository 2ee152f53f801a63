"""The terminal's narrator tells every table event, however many actions came between looks."""

from __future__ import annotations

import re
from io import StringIO
from typing import Any

import pytest
from rich.console import Console

from parley import games
from parley.kernel import Match, Rng, Viewer
from parley.terminal import EVENT_READERS, Narrator


def random_game(game: str, seats: int, seed: int, options: dict[str, Any] | None = None) -> Match:
    rules = games.find(game)
    match: Match[Any, Any] = Match(rules, seats, options or {}, seed)
    rng = Rng(seed)
    for _ in range(rules.spec.max_plies):
        if match.is_over:
            break
        seat = min(match.turn().owing)
        match.act(seat, rules.random_action(match.state, seat, rng))
    assert match.is_over
    return match


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [
        ("campus", 4, {}),
        ("planets", 3, {}),
        ("illuminati", 4, {}),
        ("sucker", 4, {"chips": 3}),
        ("diplomacy", 3, {"map": "tiny", "year_limit": 2006}),
    ],
)
def test_one_look_after_a_whole_game_tells_every_event(
    game: str, seats: int, options: dict[str, Any]
) -> None:
    match = random_game(game, seats, 5, options)
    out = StringIO()
    # The narrator looks once, at the end: far more events than any view keeps.
    Narrator(match, Viewer.of(1), Console(file=out, width=300), me=1).tell()
    tail, total = EVENT_READERS[match.rules.spec.name](match.observe(Viewer.of(1))["view"])
    told = re.findall(r"^      · ", out.getvalue(), re.M)
    assert total > len(tail) + 10  # the view's tail alone would have lost most of them
    assert len(told) == total


def test_a_diplomacy_power_knocked_out_is_told_and_you_hear_it_in_your_words() -> None:
    tiny = {"map": "tiny", "year_limit": 2030}
    out = StringIO()
    match = random_game("diplomacy", 3, 17, tiny)
    Narrator(match, Viewer.of(0), Console(file=out, width=300), me=0).tell()
    assert out.getvalue().count("· EAST is out of the game.\n") == 1
    assert match.rules.alive(match.state) == frozenset({0, 1})

    out = StringIO()
    match = random_game("diplomacy", 3, 4, tiny)
    assert 0 not in match.rules.alive(match.state)
    Narrator(match, Viewer.of(0), Console(file=out, width=300), me=0).tell()
    assert "is out of the game" not in out.getvalue()  # NORTH is "you": the session says it
