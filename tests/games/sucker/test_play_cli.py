"""`parley play sucker` in the terminal against bots, to the end."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from parley import games
from parley.cli import app
from parley.kernel import replay

# Whatever Red owes, one of these answers it: a chip of any colour to a new pile, a
# choice among the other players, a kill of any colour, or a declined rescue.
ANSWERS = [
    "play red new",
    "play blue new",
    "play green new",
    "play yellow new",
    "next blue",
    "next green",
    "next yellow",
    "kill red",
    "kill blue",
    "kill green",
    "kill yellow",
    "decline",
]


def test_a_human_can_play_a_whole_game_against_bots(tmp_path: Path) -> None:
    record = tmp_path / "sucker.json"
    # An empty line after each answer lets play go on at an out-of-turn prompt.
    lines = ["help", "options", "banana", *[x for a in ANSWERS * 60 for x in (a, "")]]
    result = CliRunner().invoke(
        app,
        ["play", "sls", "--seat", "1", "--seed", "4", "--save", str(record)],
        input="\n".join(lines) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "you are Red" in result.output
    assert "say TEXT" in result.output
    assert "Legal now:\n  Your decision:\n    play red" in result.output
    assert "'banana' is not understood" in result.output
    assert "Piles (bottom to top):" in result.output
    assert "Game over" in result.output
    data = json.loads(record.read_text())
    again = replay(games.find("sucker"), data)
    assert again.is_over and again.to_json() == data
