"""`parley play campus` in the terminal against bots, to the end, with the same notation."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from parley.cli import app
from parley.games.campus import RULES
from parley.kernel import replay


def test_a_human_can_play_a_whole_game_against_bots(tmp_path: Path) -> None:
    record = tmp_path / "campus.json"
    # Ash starts on Museum (F2) with this seed; whatever is owed, one of these answers it.
    lines = [
        "help",
        "options",
        "banana",
        "move F2 to Q9",
        "museum-greenhouses",
        *["pick 30", "pass"] * 80,
    ]
    result = CliRunner().invoke(
        app,
        [
            "play",
            "campus",
            "--seat",
            "1",
            "--seed",
            "4",
            "-o",
            "round_limit=6",
            "--save",
            str(record),
        ],
        input="\n".join(lines) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "you are Ash" in result.output
    assert "Legal now:" in result.output and "move F2 to E2" in result.output
    assert "'banana' is not understood" in result.output
    assert "no sector called 'q9'" in result.output
    assert "Ash captures the unowned Greenhouses (F3) from Museum (F2)." in result.output
    assert "Game over" in result.output
    data = json.loads(record.read_text())
    again = replay(RULES, data)
    assert again.is_over and again.to_json() == data
