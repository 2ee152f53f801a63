"""`parley play illuminati` in the terminal against bots, with the human's reaction windows."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from parley import games
from parley.cli import app
from parley.kernel import replay

TAKE = [
    "take Gnomes of Zurich",
    "take Network",
    "take Bavarian Illuminati",
]
ANSWERS = ["goal Network", "keep face down", "pass", "done", "roll", "decline"]


def test_a_human_answers_attacks_and_plays_to_the_end(tmp_path: Path) -> None:
    record = tmp_path / "illuminati.json"
    lines = ["help", "options", "banana", *TAKE, *ANSWERS * 120]
    result = CliRunner().invoke(
        app,
        [
            "play",
            "illuminati",
            "--seat",
            "1",
            "--players",
            "3",
            "--seed",
            "2",
            "--bots",
            "heuristic",
            "--save",
            str(record),
        ],
        input="\n".join(lines) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "Legal now:" in result.output and "take Gnomes of Zurich" in result.output
    assert "'banana' is not understood" in result.output
    assert "Player 1 to decide: answer the attack" in result.output
    assert "Uncontrolled:" in result.output
    assert "Game over" in result.output
    data = json.loads(record.read_text())
    again = replay(games.find("illuminati"), data)
    assert again.is_over and again.to_json() == data
