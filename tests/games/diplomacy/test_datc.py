"""The DATC v3.1 cases 6.A–6.J (datc.toml), each run through the engine phase by phase."""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from parley.games.diplomacy.civil_disorder import CivilDisorderRule
from parley.games.diplomacy.map import standard_map
from parley.games.diplomacy.orders import Order, format_order, parse_order
from parley.games.diplomacy.phase import Phase, PhaseKind
from parley.games.diplomacy.phases import GameOptions, PhaseReport, process
from parley.games.diplomacy.position import Position

DATC_FILE = Path(__file__).resolve().parent / "datc.toml"
CASES: list[dict[str, Any]] = tomllib.loads(DATC_FILE.read_text(encoding="utf-8"))["case"]


def _options(raw: dict[str, Any]) -> GameOptions:
    rule = CivilDisorderRule(raw.get("civil_disorder", CivilDisorderRule.SEED.value))
    return GameOptions(civil_disorder=rule)


def _units_by_power(pos: Position) -> dict[str, Counter[str]]:
    out: dict[str, Counter[str]] = {p: Counter() for p in pos.map.powers}
    for unit in pos.all_units():
        out[unit.power][f"{unit.kind.value} {unit.location}"] += 1
    return out


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_datc_case(case: dict[str, Any]) -> None:
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
        where = f"{case['id']} step {number} ({pos.phase})"
        texts: list[tuple[str, str]] = []
        orders: dict[str, list[Order]] = {}
        for power, given in step.get("orders", {}).items():
            orders[power] = []
            for text in given:
                orders[power].append(parse_order(text, dip, pos.phase.kind))
                texts.append((power, text))
        report = process(pos, orders, options)
        given_results = [r for r in report.results if not r.defaulted]
        assert len(given_results) == len(texts), where
        outcome = {}
        for (power, text), result in zip(texts, given_results, strict=True):
            assert result.power == power, where
            outcome.setdefault(text, result)
        expect = step.get("expect", {})
        for text, wanted in expect.get("orders", {}).items():
            got = outcome[text]
            assert got.outcome.value == wanted, (
                f"{where}: {text!r} expected {wanted}, got {got.outcome.value} ({got.message})"
            )
        if "dislodged" in expect:
            assert sorted(_dislodged_names(report)) == sorted(expect["dislodged"]), (
                f"{where}: dislodged units"
            )
        if "units" in expect:
            wanted_units = {p: Counter(u) for p, u in expect["units"].items()}
            got = _units_by_power(report.position)
            for power in dip.powers:
                assert got[power] == wanted_units.get(power, Counter()), (
                    f"{where}: units of {power}: got {sorted(got[power])}, "
                    f"expected {sorted(wanted_units.get(power, Counter()))}"
                )
        pos = report.position


def _dislodged_names(report: PhaseReport) -> list[str]:
    """Units dislodged in a movement step: those waiting to retreat, or disbanded at once
    when none of them could retreat anywhere."""
    names: list[str] = []
    if report.phase.kind is not PhaseKind.MOVEMENT:
        return names
    dip = report.position.map
    for away in report.position.dislodged.values():
        piece = away.piece
        names.append(f"{'F' if piece.fleet else 'A'} {dip.locations[piece.loc].code}")
    for _, results in report.auto:
        for r in results:
            names.append(format_order(r.order).removesuffix(" D"))
    return names
