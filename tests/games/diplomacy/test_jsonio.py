"""The JSON adjudication interface and `parley diplomacy adjudicate`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from parley.games.diplomacy import adjudicate_json
from parley.games.diplomacy.cli import app
from parley.games.diplomacy.jsonio import AdjudicationError
from parley.games.diplomacy.map import DATA_DIR

runner = CliRunner()

SPRING = {
    "phase": "S1901M",
    "units": {"AUSTRIA": ["A BUD", "A TRI"], "ITALY": ["A VIE"], "GERMANY": ["A MUN"]},
    "orders": {
        "AUSTRIA": ["A BUD S A TRI - VIE", "a tri-vie"],
        "GERMANY": ["Munich to Bohemia"],
    },
}


def test_results_and_next_position() -> None:
    out = adjudicate_json(SPRING)
    assert out["phase"] == "S1901M"
    austria = out["results"]["AUSTRIA"]
    assert [r["order"] for r in austria] == ["A BUD S A TRI - VIE", "A TRI - VIE"]
    assert [r["outcome"] for r in austria] == ["succeeds", "succeeds"]
    italy = out["results"]["ITALY"][0]
    assert italy == {
        "order": "A VIE H",
        "outcome": "fails",
        "reason": "dislodged",
        "message": "dislodged by A TRI",
        "with": ["A TRI"],
        "dislodged_by": "A TRI",
        "defaulted": True,
    }
    nxt = out["next"]
    assert nxt["phase"] == "S1901R"
    assert nxt["dislodged"] == {"ITALY": ["A VIE <- TRI"]}
    assert nxt["units"]["AUSTRIA"] == ["A BUD", "A VIE"]
    assert out["ended"] is None


def test_the_next_position_round_trips() -> None:
    first = adjudicate_json(SPRING)
    again = adjudicate_json({"position": first["next"], "orders": {"ITALY": ["A VIE R GAL"]}})
    assert again["phase"] == "S1901R"
    assert again["results"]["ITALY"][0]["outcome"] == "succeeds"
    assert again["next"]["phase"] == "F1901M"
    # Adjudicating a position with no orders and feeding the output back is stable.
    held = adjudicate_json({"position": again["next"]})
    assert held["next"]["units"] == again["next"]["units"]
    assert held["next"]["centres"] == again["next"]["centres"]


def test_options_are_applied() -> None:
    winter = {
        "phase": "W1901A",
        "units": {"ITALY": ["A WAR", "A TUS"]},
        "centres": {"ITALY": ["WAR"]},
    }
    seed = adjudicate_json(winter)
    rule_2023 = adjudicate_json({**winter, "options": {"civil_disorder": "2023"}})
    assert seed["next"]["units"]["ITALY"] == ["A TUS"]  # Warsaw is far from Italy's homes
    assert rule_2023["next"]["units"]["ITALY"] == ["A WAR"]  # units on centres stay


@pytest.mark.parametrize(
    ("obj", "fragment"),
    [
        ([], "JSON object"),
        ({"phase": "X1901M", "units": {}}, "not a phase name"),
        ({"phase": "S1901M"}, "'units'"),
        ({"phase": "S1901M", "units": {"FRANCE": ["A XYZ"]}}, "XYZ"),
        ({"phase": "S1901M", "units": {"FRANCE": ["F PAR"]}}, "cannot stand"),
        ({"phase": "S1901M", "units": {"FRANCE": ["A PAR", "A PAR"]}}, "two units"),
        ({"phase": "S1901M", "units": {"ATLANTIS": ["A PAR"]}}, "ATLANTIS"),
        ({"phase": "S1901M", "units": {}, "orders": {"FRANCE": ["A PAR jumps"]}}, "'jumps'"),
        ({"phase": "S1901M", "units": {}, "orders": {"MARS": []}}, "MARS"),
        ({"phase": "S1901M", "units": {}, "map": "atlantis"}, "atlantis"),
        ({"phase": "S1901M", "units": {}, "colour": "red"}, "colour"),
        ({"phase": "S1901M", "units": {}, "options": {"civil_disorder": "1066"}}, "seed"),
    ],
)
def test_malformed_input_is_a_clear_error(obj: Any, fragment: str) -> None:
    with pytest.raises(AdjudicationError) as err:
        adjudicate_json(obj)
    assert fragment in str(err.value)


def test_cli_reads_stdin_and_writes_json() -> None:
    result = runner.invoke(app, ["adjudicate"], input=json.dumps(SPRING))
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == adjudicate_json(SPRING)


def test_cli_reads_a_file_and_a_users_map(tmp_path: Path) -> None:
    source = tmp_path / "phase.json"
    source.write_text(
        json.dumps(
            {
                "phase": "S2000M",
                "units": {"NORTH": ["A VAR"], "EAST": ["A ORR"]},
                "orders": {"NORTH": ["A VAR - TAL"], "EAST": ["A ORR - VAR"]},
            }
        )
    )
    result = runner.invoke(app, ["adjudicate", str(source), "--map", str(DATA_DIR / "tiny.toml")])
    assert result.exit_code == 0, result.output
    out = json.loads(result.stdout)
    assert out["map"] == "tiny"
    assert out["next"]["units"] == {"NORTH": ["A TAL"], "SOUTH": [], "EAST": ["A VAR"]}


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "no input"),
        ("{not json", "not valid JSON"),
        ('{"phase": "S1901M", "units": {"FRANCE": ["A PAR"]}, "orders": {"FRANCE": ["A PAR ~"]}}',
         "cannot understand"),
    ],
)  # fmt: skip
def test_cli_refuses_malformed_input_with_a_message_and_non_zero_exit(
    text: str, fragment: str
) -> None:
    result = runner.invoke(app, ["adjudicate"], input=text)
    assert result.exit_code != 0
    assert fragment in result.stderr
    assert result.stdout == ""


def test_cli_lists_legal_orders() -> None:
    position = {"phase": "S1901M", "units": {"FRANCE": ["A PAR"], "GERMANY": ["A MUN"]}}
    result = runner.invoke(app, ["legal", "--power", "france"], input=json.dumps(position))
    assert result.exit_code == 0, result.output
    listed = json.loads(result.stdout)
    assert list(listed) == ["PAR"]
    assert "A PAR - BUR" in listed["PAR"] and "A PAR S A MUN - BUR" in listed["PAR"]
