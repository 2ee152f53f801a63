"""Every use case of the seed as a scenario table (scenarios.toml), with one runner."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from tests.games.illuminati.helpers import build, run_steps

SCENARIOS: list[dict[str, Any]] = tomllib.loads(
    (Path(__file__).parent / "scenarios.toml").read_text("utf-8")
)["scenario"]


def test_scenario_names_are_unique() -> None:
    names = [s["name"] for s in SCENARIOS]
    assert len(names) == len(set(names))


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s["name"] for s in SCENARIOS])
def test_scenario(scenario: dict[str, Any]) -> None:
    state = build(scenario)
    run_steps(state, scenario["steps"])
