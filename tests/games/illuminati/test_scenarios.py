"""Every use case of the seed as a scenario table (scenarios.toml), with one runner."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from tests.games.illuminati.helpers import build, finish_dice, run_steps

# scenarios.toml: the seed's use cases; rules_audit.toml: the seed and the reference read
# rule by rule, with the arithmetic of each attack term in tables.
SCENARIOS: list[dict[str, Any]] = [
    scenario
    for name in ("scenarios.toml", "rules_audit.toml")
    for scenario in tomllib.loads((Path(__file__).parent / name).read_text("utf-8"))["scenario"]
]


def test_scenario_names_are_unique() -> None:
    names = [s["name"] for s in SCENARIOS]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["name"] for s in SCENARIOS])
def test_scenario(scenario: dict[str, Any]) -> None:
    state = build(scenario)
    run_steps(state, scenario["steps"])
    finish_dice(state)
