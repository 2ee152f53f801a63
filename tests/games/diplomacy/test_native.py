"""The native core against the pure-Python engine: every DATC case, seeded random cases,
and the switch between engines."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from typing import Any

import pytest

from parley.games.diplomacy import batch, native
from parley.games.diplomacy.civil_disorder import CivilDisorderRule
from parley.games.diplomacy.differential import (
    compare,
    engine,
    game_course,
    random_orders,
    random_position,
    snapshot,
)
from parley.games.diplomacy.legal import legal_orders
from parley.games.diplomacy.map import standard_map
from parley.games.diplomacy.orders import Order, parse_order
from parley.games.diplomacy.phase import Phase
from parley.games.diplomacy.phases import GameOptions, process
from parley.games.diplomacy.position import Position

from .test_datc import CASES, _options

# CI must exercise the core: there, a missing build is a failure, not a skip.
if not native.available():
    if os.environ.get("CI") == "true":
        raise RuntimeError("the native Diplomacy core was not built on CI")
    pytest.skip("the native core is not built (no C compiler)", allow_module_level=True)

RANDOM_CASES = 1200  # in CI; `python -m parley.games.diplomacy.differential` runs 100,000


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


def test_the_comparison_sees_a_difference(monkeypatch: pytest.MonkeyPatch) -> None:
    """The differential harness is not blind: a changed reason table is caught."""
    import parley.games.diplomacy.adjudicator as adjudicator

    dip = standard_map()
    rng = random.Random(3)
    swapped = list(native.REASONS)
    swapped[4], swapped[7] = swapped[7], swapped[4]  # BOUNCED <-> CUT
    consts = adjudicator._RESULT_CONSTS
    monkeypatch.setattr(adjudicator, "_RESULT_CONSTS", (*consts[:3], tuple(swapped), consts[4]))
    found = [compare(p, random_orders(p, rng)) for p in _positions(dip, rng, 60)]
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


@pytest.mark.parametrize("rule", list(CivilDisorderRule))
def test_native_games_follow_process(rule: CivilDisorderRule) -> None:
    """Games stepped by the batched API go exactly where `phases.process` goes."""
    options = GameOptions(civil_disorder=rule, year_limit=1935)
    for seed in range(2):
        assert game_course(seed, 150, options) == []


def test_native_game_clone_is_independent() -> None:
    dip = standard_map()
    game = batch.new_game(Position.initial(dip))
    copy = game.clone()
    game.step([codes[1] for codes in game.legal()])  # every unit's first move
    assert copy.phase == (0, 1901, 0)
    assert game.phase == (1, 1901, 0)
    assert batch.position_of(copy, dip).units == Position.initial(dip).units
    assert batch.position_of(game, dip).units != Position.initial(dip).units


def test_legal_for_one_power_matches_the_full_lists() -> None:
    dip = standard_map()
    rng = random.Random(11)
    game = batch.new_game(Position.initial(dip))
    for _ in range(12):
        every = game.legal()
        ours = [codes for p in range(len(dip.powers)) for codes in game.legal(p)]
        assert sorted(map(sorted, ours)) == sorted(map(sorted, every))
        if game.phase[2] != 0:
            break
        game.step([rng.choice(codes) for codes in every])


def test_step_many_steps_each_game_with_its_orders() -> None:
    dip = standard_map()
    games = [batch.new_game(Position.initial(dip)) for _ in range(3)]
    orders = [
        [],
        [codes[1] for codes in games[1].legal()],
        [codes[0] for codes in games[2].legal()],
    ]
    assert batch.step_many(games, orders) == [False, False, False]
    moved = [batch.position_of(g, dip).units for g in games]
    assert moved[0] == moved[2] == Position.initial(dip).units
    assert moved[1] != moved[0]
    with pytest.raises(ValueError, match="one order list per game"):
        batch.step_many(games, orders[:2])


def test_a_finished_game_refuses_more_orders() -> None:
    dip = standard_map()
    game = batch.new_game(Position.initial(dip), GameOptions(year_limit=1901))
    while not game.ended:
        game.step([])
    assert game.winner == -1
    with pytest.raises(ValueError, match="over"):
        game.step([])


def test_native_game_survives_any_codes() -> None:
    """Arbitrary ints as orders are ignored as illegal orders; the game goes on."""
    dip = standard_map()
    rng = random.Random(5)
    game = batch.new_game(Position.initial(dip), GameOptions(year_limit=1905))
    while not game.ended:
        junk = [rng.getrandbits(rng.choice([8, 31, 40, 62])) for _ in range(40)]
        junk += [-rng.getrandbits(20) for _ in range(5)]
        game.step(junk)
        pos = batch.position_of(game, dip)
        assert all(piece.power in range(7) for piece in pos.units.values())
    with pytest.raises(OverflowError):
        batch.new_game(Position.initial(dip)).step([1 << 70])


def test_native_tables_refuse_bad_input() -> None:
    dip = standard_map()
    core: Any = native.compile_map(dip)
    with pytest.raises(ValueError, match="doubled"):
        core.movement_values([0, 0], [0, 0], [False, False], [0, 0], -1, native.order_table(dip))
    with pytest.raises(ValueError, match="out of range"):
        core.resolve([0], [0], [False], [0], [1], [999], [0], [-1], [False])
    pos = Position.initial(dip)
    pos.owner[0] = 42
    with pytest.raises(ValueError, match="no power 42"):
        batch.new_game(pos)
    game_type = native.core_module().Game
    bare = game_type.__new__(game_type)
    with pytest.raises(ValueError, match="not initialised"):
        bare.legal()


def test_threads_get_the_same_answers() -> None:
    """Calls from several threads at once (the core keeps buffers between calls) agree
    with the same calls made one by one."""
    import threading

    dip = standard_map()
    rng = random.Random(13)
    cases = [(p, random_orders(p, rng)) for p in _positions(dip, rng, 40)]

    def answers() -> list[Any]:
        return [(legal_orders(p), snapshot(process(p.copy(), o))) for p, o in cases]

    with engine("native"):
        expected = answers()
        found: list[Any] = []

        def work() -> None:
            found.append(answers())

        threads = [threading.Thread(target=work) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert found == [expected] * 4
