"""The native core against the pure-Python engine: every DATC case, seeded random cases,
and the switch between engines."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from typing import Any

import pytest

from parley.games.diplomacy import native
from parley.games.diplomacy.differential import (
    compare,
    engine,
    random_orders,
    random_position,
    snapshot,
)
from parley.games.diplomacy.legal import legal_orders
from parley.games.diplomacy.map import standard_map
from parley.games.diplomacy.orders import Order, parse_order
from parley.games.diplomacy.phase import Phase
from parley.games.diplomacy.phases import process
from parley.games.diplomacy.position import Position

from .test_datc import CASES, _options

# CI must exercise the core: there, a missing build is a failure, not a skip.
if not native.available():
    if os.environ.get("CI") == "true":
        raise RuntimeError("the native Diplomacy core was not built on CI")
    pytest.skip("the native core is not built (no C compiler)", allow_module_level=True)

RANDOM_CASES = 1500  # in CI; `python -m parley.games.diplomacy.differential` runs 100,000


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_datc_case_agrees(case: dict[str, Any]) -> None:
    dip = standard_map(case.get("map", "standard"))
    pos = Position.build(
        dip,
        Phase.parse(case["phase"]),
        case.get("units", {}),
        case.get("centres"),
        case.get("dislodged"),
        case.get("contested", ()),
    )
    options = _options(case.get("options", {}))
    for number, step in enumerate(case["step"], start=1):
        orders: dict[str, list[Order]] = {
            power: [parse_order(text, dip, pos.phase.kind) for text in given]
            for power, given in step.get("orders", {}).items()
        }
        seen = {}
        for name in ("python", "native"):
            with engine(name):
                report = process(pos.copy(), orders, options)
                seen[name] = (legal_orders(pos), snapshot(report))
        assert seen["native"] == seen["python"], f"{case['id']} step {number}"
        pos = report.position


@pytest.mark.parametrize("seed", range(3))
def test_random_cases_agree(seed: int) -> None:
    dip = standard_map()
    rng = random.Random(seed)
    for number in range(RANDOM_CASES // 3):
        pos = random_position(dip, rng)
        orders = random_orders(pos, rng)
        assert compare(pos, orders) == [], f"seed {seed} case {number}"


def test_random_games_agree() -> None:
    """Whole games from one seed take the same course on both engines."""
    dip = standard_map()
    courses = {}
    for name in ("python", "native"):
        with engine(name):
            rng = random.Random(7)
            pos = Position.initial(dip)
            course = []
            for _ in range(60):
                report = process(pos, random_orders(pos, rng))
                course.append(snapshot(report))
                if report.ending is not None:
                    break
                pos = report.position
            courses[name] = course
    assert courses["native"] == courses["python"]


def test_the_comparison_sees_a_difference() -> None:
    """The differential harness is not blind: a changed reason table is caught."""
    dip = standard_map()
    rng = random.Random(3)
    saved = native.REASONS
    try:
        native_module: Any = native
        swapped = list(saved)
        swapped[4], swapped[7] = swapped[7], swapped[4]  # BOUNCED <-> CUT
        native_module.REASONS = tuple(swapped)
        import parley.games.diplomacy.adjudicator as adjudicator

        adjudicator_module: Any = adjudicator
        adjudicator_module.REASONS = native_module.REASONS
        found = [compare(p, random_orders(p, rng)) for p in _positions(dip, rng, 60)]
    finally:
        native_module.REASONS = saved
        adjudicator_module.REASONS = saved
    assert any(found)


def _positions(dip: Any, rng: random.Random, count: int) -> list[Position]:
    return [random_position(dip, rng) for _ in range(count)]


def test_set_engine_refuses_unknown_names() -> None:
    with pytest.raises(native.EngineError, match="'fast'"):
        native.set_engine("fast")
    assert native.engine() in ("native", "python")


def test_python_engine_uses_no_core() -> None:
    with engine("python"):
        assert native.engine() == "python"
        assert native.core_map(standard_map()) is None
    with engine("native"):
        assert native.core_map(standard_map()) is not None


def test_environment_variable_forces_an_engine() -> None:
    code = "from parley.games.diplomacy import native; print(native.engine())"
    for name, expected in (("python", "python"), ("native", "native"), ("auto", "native")):
        env = dict(os.environ, PARLEY_DIPLOMACY_ENGINE=name)
        done = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
        assert done.stdout.strip() == expected
    env = dict(os.environ, PARLEY_DIPLOMACY_ENGINE="turbo")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode != 0 and "turbo" in done.stderr
