"""`parley position` and `parley play --from`: positions from files, checked and played."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from parley.cli import app

runner = CliRunner()


def test_position_prints_a_template_and_checks_it_tidily(tmp_path: Path) -> None:
    made = runner.invoke(app, ["position", "campus", "--players", "3", "-o", "round_limit=2"])
    assert made.exit_code == 0, made.output
    data = json.loads(made.output)
    assert data["game"] == "campus" and data["seats"] == 3
    assert data["options"]["round_limit"] == 2
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data), encoding="utf-8")  # one long line
    checked = runner.invoke(app, ["position", "campus", str(path)])
    assert checked.exit_code == 0 and checked.output == made.output  # tidied the same way
    piped = runner.invoke(app, ["position", "campus", "-"], input=json.dumps(data))
    assert piped.output == made.output


def test_position_refuses_bad_ones_in_one_line(tmp_path: Path) -> None:
    bad = runner.invoke(app, ["position", "planets", "-"], input='{"seats": 3, "rng": 5}')
    assert bad.exit_code == 2 and "error: tokens: missing" in bad.output
    assert len(bad.output.strip().splitlines()) == 1
    broken = runner.invoke(app, ["position", "campus", "-"], input="{")
    assert broken.exit_code == 2 and "not valid JSON" in broken.output
    gone = runner.invoke(app, ["position", "campus", str(tmp_path / "nothing.json")])
    assert gone.exit_code == 2 and "cannot read" in gone.output


def test_position_from_any_moment_of_a_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    played = runner.invoke(
        app,
        ["play", "campus", "--players", "2", "-o", "round_limit=1", "--save", str(record)],
        input="pass\n" * 50,
    )
    assert played.exit_code == 0, played.output
    start = runner.invoke(app, ["position", "campus", "--record", str(record), "--at", "0"])
    fresh = runner.invoke(app, ["position", "campus", "--players", "2", "-o", "round_limit=1"])
    assert start.exit_code == 0 and start.output == fresh.output
    end = runner.invoke(app, ["position", "campus", "--record", str(record)])
    assert json.loads(end.output)["phase"] == "over"
    late = runner.invoke(app, ["position", "campus", "--record", str(record), "--at", "999"])
    assert late.exit_code == 2 and "--at must be" in late.output


def test_play_from_a_position_records_it_and_replays(tmp_path: Path) -> None:
    made = runner.invoke(app, ["position", "campus", "--seed", "3", "-o", "round_limit=2"])
    position = tmp_path / "p.json"
    position.write_text(made.output, encoding="utf-8")
    record = tmp_path / "game.json"
    result = runner.invoke(
        app, ["play", "campus", "--from", str(position), "--save", str(record)], input="pass\n" * 99
    )
    assert result.exit_code == 0, result.output
    assert "round limit (2)" in result.output
    saved = json.loads(record.read_text(encoding="utf-8"))
    assert saved["position"] == json.loads(made.output)
    replayed = runner.invoke(app, ["replay", str(record)])
    assert replayed.exit_code == 0, replayed.output
    wrong = runner.invoke(app, ["play", "sucker", "--from", str(position)], input="")
    assert wrong.exit_code == 2 and "game" in wrong.output


def test_the_arena_plays_every_game_from_a_position(tmp_path: Path) -> None:
    from parley.games.sucker import RULES
    from parley.games.sucker.position import position as build
    from parley.kernel import replay

    state = build(3, hands={"red": "2 red", "blue": "blue", "green": "green"}, mover="blue")
    start = tmp_path / "start.json"
    start.write_text(json.dumps(RULES.write_position(state)), encoding="utf-8")
    out = tmp_path / "run"
    args = ["arena", "--bots", "random", "-n", "2", "--position", str(start), "--out", str(out)]
    result = runner.invoke(app, [*args, "--quiet"])
    assert result.exit_code == 0, result.output
    for path in sorted((out / "games").glob("game-*.json")):
        record = json.loads(path.read_text(encoding="utf-8"))
        assert record["position"] == RULES.write_position(state)
        assert replay(RULES, record).is_over
    both = runner.invoke(app, ["arena", "--position", str(start), "--from", str(start)])
    assert both.exit_code == 2 and "name one" in both.output
