from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.kernel.toygames import Countdown
from typer.testing import CliRunner

from parley import games
from parley.cli import app

runner = CliRunner()


@pytest.fixture(autouse=True)
def countdown() -> Iterator[None]:
    games.register(Countdown())
    yield
    games.unregister("countdown")


def test_games_lists_every_registered_game_as_json() -> None:
    result = runner.invoke(app, ["games", "--json"])
    assert result.exit_code == 0, result.output
    listed = {g["name"]: g for g in json.loads(result.output)}
    assert set(listed) == set(games.names())
    assert listed["countdown"]["options"][0]["name"] == "start"
    table = runner.invoke(app, ["games"])
    assert table.exit_code == 0 and "count" in table.output


def test_games_piped_prints_every_value_whole() -> None:
    result = runner.invoke(app, ["games"])  # the runner's output is not a terminal
    assert result.exit_code == 0 and "…" not in result.output
    lines = result.output.splitlines()
    assert lines[0].split() == [
        "name",
        "title",
        "seats",
        "structure",
        "chance",
        "hidden",
        "aliases",
        "options",
    ]
    for spec in (r.spec for r in games.all_rules()):
        row = next(line for line in lines if line.startswith(spec.name + " "))
        assert spec.title in row and ", ".join(spec.aliases) in row
        assert ", ".join(f"{o.name}={o.default}" for o in spec.options) in row


def test_play_against_bots_until_the_end_and_save_the_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    moves = "banana\n" + "take 1\n" * 30  # a bad line first: it is refused and play goes on
    result = runner.invoke(
        app,
        ["play", "count", "--seat", "2", "--seed", "3", "-o", "start=9", "--save", str(record)],
        input=moves,
    )
    assert result.exit_code == 0, result.output
    assert "not understood" in result.output
    assert "Game over" in result.output
    data = json.loads(record.read_text())
    assert data["game"] == "countdown" and data["options"] == {"start": 9}
    assert sum(int(e["notation"].split()[1]) for e in data["entries"]) == 9

    replayed = runner.invoke(app, ["replay", str(record)])
    assert replayed.exit_code == 0, replayed.output
    assert "took the last one" in replayed.output


def test_bad_arguments_get_clear_errors(tmp_path: Path) -> None:
    unknown = runner.invoke(app, ["play", "chess"])
    assert unknown.exit_code == 2 and "no game called 'chess'" in unknown.output
    bad_option = runner.invoke(app, ["play", "countdown", "-o", "start=lots"])
    assert bad_option.exit_code == 2 and "whole number" in bad_option.output
    bad_seat = runner.invoke(app, ["play", "countdown", "--seat", "9"])
    assert bad_seat.exit_code == 2 and "--seat" in bad_seat.output
    broken = tmp_path / "broken.json"
    broken.write_text("{}")
    bad_record = runner.invoke(app, ["replay", str(broken)])
    assert bad_record.exit_code == 2 and "not a Parley game record" in bad_record.output
    missing = runner.invoke(app, ["replay", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and "cannot read" in missing.output


def test_version_is_the_packages() -> None:
    import parley

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout == f"parley {parley.__version__}\n"


def test_diplomacy_legal_indents_as_told() -> None:
    position = (Path(__file__).parents[1] / "examples" / "position.json").read_text()
    wide = runner.invoke(app, ["diplomacy", "legal", "--power", "france"], input=position)
    flat = runner.invoke(
        app, ["diplomacy", "legal", "--power", "france", "--indent", "0"], input=position
    )
    four = runner.invoke(
        app, ["diplomacy", "legal", "--power", "france", "--indent", "4"], input=position
    )
    assert wide.exit_code == flat.exit_code == four.exit_code == 0, wide.output
    assert json.loads(wide.stdout) == json.loads(flat.stdout) == json.loads(four.stdout)
    assert flat.stdout.count("\n") == 1 and '\n    "' in four.stdout and '\n  "' in wide.stdout
    assert "F BRE - MAO" in json.loads(flat.stdout)["BRE"]


def _refused_url() -> str:
    import socket

    with socket.socket() as probe:  # a loopback port nothing listens on once closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"


@pytest.mark.parametrize("command", ["agent", "mcp"])
def test_an_unreachable_server_or_a_bad_url_is_said_in_one_line(command: str) -> None:
    refused = _refused_url()
    for server, why in ((refused, f"cannot reach {refused}/"), ("nonsense", "cannot reach")):
        args = ["--server", server, "--name", "probe"]
        if command == "agent":
            args = ["some-game", *args, "--base-url", f"{refused}/v1", "--model", "m"]
        result = runner.invoke(app, [command, *args])
        assert result.exit_code == 2, result.output
        assert result.stderr.count("\n") == 1 and result.stderr.startswith(f"error: {why}")
        assert "Traceback" not in result.output
