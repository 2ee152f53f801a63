"""Standalone well-formedness checks of the DATC case file ``datc.toml``.

The file holds the DATC v3.1 test cases 6.A-6.J as data. These tests read it with
``tomllib`` only (no engine import), so the data can be held to its format while the
adjudicator is written separately. Each check returns a list of human-readable problems;
the real file must yield none, and the mutation tests at the end show that each check
catches the fault it is meant to catch.
"""

from __future__ import annotations

import copy
import re
import tomllib
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

DATC_FILE = Path(__file__).resolve().parent / "datc.toml"

# Number of cases per section in DATC v3.1 (counted from the document's case headings).
SECTION_COUNTS = {
    "6.A": 12,  # basic checks
    "6.B": 15,  # coastal issues
    "6.C": 9,  # circular movement
    "6.D": 34,  # supports and dislodges
    "6.E": 15,  # head-to-head battles and beleaguered garrisons
    "6.F": 25,  # convoys
    "6.G": 20,  # convoying to adjacent provinces
    "6.H": 16,  # retreating
    "6.I": 7,  # building
    "6.J": 11,  # civil disorder and disbands
}
TOTAL_CASES = 164

# The 75 provinces of the standard map plus impassable Switzerland (76 codes).
_PROVINCE_CODES = (
    "ADR AEG ALB ANK APU ARM BAL BAR BEL BER BLA BOH BOT BRE BUD BUL BUR CLY CON "
    "DEN EAS EDI ENG FIN GAL GAS GRE HEL HOL ION IRI KIE LON LVN LVP LYO MAO MAR "
    "MOS MUN NAF NAO NAP NTH NWG NWY PAR PIC PIE POR PRU ROM RUH RUM SER SEV SIL "
    "SKA SMY SPA STP SWE SWI SYR TRI TUN TUS TYR TYS UKR VEN VIE WAL WAR WES YOR"
)
PROVINCES = frozenset(_PROVINCE_CODES.split())
COASTS = {"BUL": {"EC", "SC"}, "SPA": {"NC", "SC"}, "STP": {"NC", "SC"}}
POWERS = frozenset({"AUSTRIA", "ENGLAND", "FRANCE", "GERMANY", "ITALY", "RUSSIA", "TURKEY"})
RESULTS = frozenset({"succeeds", "fails", "illegal"})

CASE_KEYS = {
    "id",
    "title",
    "map",
    "phase",
    "options",
    "note",
    "units",
    "centres",
    "dislodged",
    "contested",
    "step",
}
STEP_KEYS = {"orders", "expect"}
EXPECT_KEYS = {"orders", "dislodged", "units"}

ID_RE = re.compile(r"^(6\.[A-J])\.([1-9][0-9]?)$")
PHASE_RE = re.compile(r"^([SFW])(\d{4})([MRA])$")
LOC = r"[A-Z]{3}(?:/[A-Z]{2})?"
UNIT_RE = re.compile(rf"^([AF]) ({LOC})$")
# Order grammar per phase type; groups name every location so codes can be checked.
MOVEMENT_ORDER_RES = (
    re.compile(rf"^[AF] (?P<a>{LOC}) H$"),
    re.compile(rf"^[AF] (?P<a>{LOC}) - (?P<b>{LOC})(?: VIA)?$"),
    re.compile(rf"^[AF] (?P<a>{LOC}) S [AF] (?P<b>{LOC})(?: - (?P<c>{LOC}))?$"),
    re.compile(rf"^F (?P<a>{LOC}) C A (?P<b>{LOC}) - (?P<c>{LOC})$"),
)
RETREAT_ORDER_RES = (
    re.compile(rf"^[AF] (?P<a>{LOC}) R (?P<b>{LOC})$"),
    re.compile(rf"^[AF] (?P<a>{LOC}) D$"),
    # Non-retreat orders appear in the DATC's retreat cases to check they are rejected.
    *MOVEMENT_ORDER_RES,
)
ADJUSTMENT_ORDER_RES = (
    re.compile(rf"^[AF] (?P<a>{LOC}) [BD]$"),
    re.compile(r"^WAIVE$"),
)

Case = dict[str, Any]
Data = dict[str, Any]


def load() -> Data:
    with DATC_FILE.open("rb") as handle:
        return tomllib.load(handle)


def location_problem(loc: str) -> str | None:
    """Return why a location such as ``STP/NC`` is not on the standard map, if it is not."""
    code, _, coast = loc.partition("/")
    if code not in PROVINCES:
        return f"unknown province {code!r}"
    if coast and coast not in COASTS.get(code, set()):
        return f"unknown coast {loc!r}"
    return None


def unit_problem(unit: str) -> str | None:
    match = UNIT_RE.match(unit)
    if match is None:
        return f"malformed unit {unit!r}"
    return location_problem(match.group(2))


def next_phase(phase: str) -> str:
    """The phase after ``phase`` when every phase is played (retreats included)."""
    match = PHASE_RE.match(phase)
    if match is None:
        raise ValueError(f"malformed phase {phase!r}")
    season, year, kind = match.group(1), int(match.group(2)), match.group(3)
    if kind == "M":
        return f"{season}{year}R"
    if kind == "R":
        return f"F{year}M" if season == "S" else f"W{year}A"
    return f"S{year + 1}M"


def step_type(case: Case, index: int) -> str:
    """Phase type (M/R/A) of a case's step ``index``: each step is the phase after the last."""
    phase = str(case.get("phase", ""))
    if PHASE_RE.match(phase) is None:
        return "M"
    for _ in range(index):
        phase = next_phase(phase)
    return phase[-1]


def order_problem(order: str, kind: str) -> str | None:
    patterns = {"M": MOVEMENT_ORDER_RES, "R": RETREAT_ORDER_RES, "A": ADJUSTMENT_ORDER_RES}[kind]
    for pattern in patterns:
        match = pattern.match(order)
        if match is not None:
            for loc in match.groupdict().values():
                if loc is not None and (why := location_problem(loc)):
                    return f"{why} in order {order!r}"
            return None
    return f"malformed {kind} order {order!r}"


def iter_units(by_power: Any) -> Iterator[tuple[str, Any]]:
    if not isinstance(by_power, dict):
        yield "?", by_power
        return
    yield from by_power.items()


# ---------------------------------------------------------------- checks


def check_counts(data: Data) -> list[str]:
    cases = data.get("case", [])
    problems = []
    if len(cases) != TOTAL_CASES:
        problems.append(f"{len(cases)} cases, expected {TOTAL_CASES}")
    ids = [case.get("id") for case in cases]
    for case_id, count in Counter(ids).items():
        if count > 1:
            problems.append(f"id {case_id!r} used {count} times")
    sections: Counter[str] = Counter()
    expected_order = [f"{s}.{n}" for s, c in SECTION_COUNTS.items() for n in range(1, c + 1)]
    for case_id in ids:
        match = ID_RE.match(str(case_id))
        if match is None:
            problems.append(f"malformed id {case_id!r}")
            continue
        sections[match.group(1)] += 1
    for section, count in SECTION_COUNTS.items():
        if sections[section] != count:
            problems.append(f"section {section}: {sections[section]} cases, expected {count}")
    if not problems and ids != expected_order:
        problems.append("cases are not in DATC order")
    return problems


def check_case_fields(data: Data) -> list[str]:
    problems = []
    for case in data.get("case", []):
        cid = case.get("id")
        if extra := set(case) - CASE_KEYS:
            problems.append(f"{cid}: unknown keys {sorted(extra)}")
        title = case.get("title")
        if not isinstance(title, str) or not title.strip() or "\n" in title:
            problems.append(f"{cid}: title must be one non-empty line")
        if case.get("map", "standard") != "standard":
            problems.append(f"{cid}: unexpected map {case.get('map')!r}")
        match = PHASE_RE.match(str(case.get("phase", "")))
        if match is None:
            problems.append(f"{cid}: malformed phase {case.get('phase')!r}")
        else:
            season, year, kind = match.groups()
            if (season == "W") != (kind == "A") or int(year) < 1901:
                problems.append(f"{cid}: impossible phase {case['phase']!r}")
        if not case.get("step"):
            problems.append(f"{cid}: no steps")
        if str(cid).startswith("6.J.") and case.get("options") != {"civil_disorder": "2023"}:
            problems.append(f"{cid}: 6.J cases need options civil_disorder = '2023'")
    return problems


def check_positions(data: Data) -> list[str]:
    """Starting units, centres and the units expected after each step are well formed."""
    problems = []
    for case in data.get("case", []):
        cid = case.get("id")
        tables = [("units", case.get("units", {}))]
        tables += [
            (f"step {i + 1} expected units", step["expect"]["units"])
            for i, step in enumerate(case.get("step", []))
            if "units" in step.get("expect", {})
        ]
        for label, table in tables:
            occupied: set[str] = set()
            for power, units in iter_units(table):
                if power not in POWERS:
                    problems.append(f"{cid}: {label}: unknown power {power!r}")
                if not isinstance(units, list):
                    problems.append(f"{cid}: {label}: {power} units must be a list")
                    continue
                for unit in units:
                    if why := unit_problem(str(unit)):
                        problems.append(f"{cid}: {label}: {why}")
                        continue
                    province = unit.split()[1].split("/")[0]
                    if province in occupied:
                        problems.append(f"{cid}: {label}: two units in {province}")
                    occupied.add(province)
                    if unit.startswith("A ") and "/" in unit:
                        problems.append(f"{cid}: {label}: army with a coast {unit!r}")
        for power, centres in iter_units(case.get("centres", {})):
            if power not in POWERS:
                problems.append(f"{cid}: centres: unknown power {power!r}")
            for code in centres:
                if code not in PROVINCES:
                    problems.append(f"{cid}: centres: unknown province {code!r}")
        if case.get("centres") is not None and not str(case.get("phase", "")).startswith("W"):
            problems.append(f"{cid}: centres given outside an adjustment phase")
    return problems


def check_steps(data: Data) -> list[str]:
    problems = []
    for case in data.get("case", []):
        cid = case.get("id")
        start_units = {u for _, units in iter_units(case.get("units", {})) for u in units}
        for index, step in enumerate(case.get("step", [])):
            where = f"{cid} step {index + 1}"
            if extra := set(step) - STEP_KEYS:
                problems.append(f"{where}: unknown keys {sorted(extra)}")
            kind = step_type(case, index)
            texts: list[str] = []
            for power, orders in iter_units(step.get("orders", {})):
                if power not in POWERS:
                    problems.append(f"{where}: unknown power {power!r}")
                for order in orders:
                    texts.append(order)
                    if why := order_problem(order, kind):
                        problems.append(f"{where}: {why}")
            expect = step.get("expect", {})
            if not expect:
                problems.append(f"{where}: nothing expected")
            if extra := set(expect) - EXPECT_KEYS:
                problems.append(f"{where}: unknown expect keys {sorted(extra)}")
            counts = Counter(texts)
            for text, result in expect.get("orders", {}).items():
                if text not in counts:
                    problems.append(f"{where}: expected order {text!r} is not among the orders")
                elif counts[text] > 1:
                    problems.append(f"{where}: expected order {text!r} is ambiguous")
                if result not in RESULTS:
                    problems.append(f"{where}: bad result {result!r} for {text!r}")
            for unit in expect.get("dislodged", []):
                if why := unit_problem(unit):
                    problems.append(f"{where}: dislodged {why}")
                elif index == 0 and unit not in start_units:
                    problems.append(f"{where}: dislodged unit {unit!r} is not on the board")
            if "dislodged" in expect and kind != "M":
                problems.append(f"{where}: dislodgements only happen in movement steps")
    return problems


CHECKS: tuple[Callable[[Data], list[str]], ...] = (
    check_counts,
    check_case_fields,
    check_positions,
    check_steps,
)


@pytest.fixture(scope="module")
def data() -> Data:
    return load()


@pytest.mark.parametrize("check", CHECKS, ids=lambda c: c.__name__)
def test_datc_file_is_well_formed(data: Data, check: Callable[[Data], list[str]]) -> None:
    assert check(data) == []


def test_phase_sequence() -> None:
    assert [next_phase(p) for p in ("S1901M", "S1901R", "F1901M", "F1901R", "W1901A")] == [
        "S1901R",
        "F1901M",
        "F1901R",
        "W1901A",
        "S1902M",
    ]
    assert len(PROVINCES) == 76


def test_every_case_checks_something(data: Data) -> None:
    """Each case states at least one order outcome, dislodgement list or final position."""
    empty = [
        case["id"] for case in data["case"] if not any(step["expect"] for step in case["step"])
    ]
    assert empty == []


def test_preferred_options_are_encoded(data: Data) -> None:
    """Spot checks of outcomes that depend on the DATC's preferred options."""
    by_id = {case["id"]: case for case in data["case"]}

    def result(case_id: str, order: str, step: int = 0) -> str:
        return str(by_id[case_id]["step"][step]["expect"]["orders"][order])

    # 4.A.1: a multi-route convoy survives while one route is intact.
    assert result("6.F.9", "A LON - BEL") == "succeeds"
    # 4.A.2 Szykman: Pandin's extended paradox leaves London in place.
    assert result("6.F.17", "A BRE - LON") == "fails"
    assert by_id["6.F.17"]["step"][0]["expect"]["dislodged"] == []
    # 4.A.3 (v3.1): no land fallback for an explicit convoy move.
    assert result("6.G.8", "A BEL - HOL VIA") == "fails"
    assert result("6.G.20", "A PIC - BEL VIA") == "fails"
    # 4.A.5: retreat to the origin of an adjacent convoyed attacker is allowed.
    assert result("6.H.11", "A MAR R GAS", step=1) == "succeeds"


# ---------------------------------------------------------------- mutation tests


def mutate(data: Data, change: Callable[[Data], None]) -> Data:
    broken = copy.deepcopy(data)
    change(broken)
    return broken


def _first_step(data: Data, case_id: str) -> dict[str, Any]:
    case = next(c for c in data["case"] if c["id"] == case_id)
    step: dict[str, Any] = case["step"][0]
    return step


MUTATIONS: dict[str, tuple[Callable[[Data], None], Callable[[Data], list[str]], str]] = {
    "drop a case": (lambda d: d["case"].pop(), check_counts, "163 cases"),
    "duplicate id": (
        lambda d: d["case"][1].update(id="6.A.1"),
        check_counts,
        "used 2 times",
    ),
    "bad phase": (
        lambda d: d["case"][0].update(phase="W1901M"),
        check_case_fields,
        "impossible phase",
    ),
    "unknown province in a unit": (
        lambda d: d["case"][0]["units"].update(ENGLAND=["F XYZ"]),
        check_positions,
        "unknown province",
    ),
    "malformed unit": (
        lambda d: d["case"][0]["units"].update(ENGLAND=["Fleet NTH"]),
        check_positions,
        "malformed unit",
    ),
    "bad coast": (
        lambda d: d["case"][0]["units"].update(ENGLAND=["F SPA/EC"]),
        check_positions,
        "unknown coast",
    ),
    "expected order missing from orders": (
        lambda d: _first_step(d, "6.A.1")["expect"]["orders"].update({"F NTH - BEL": "fails"}),
        check_steps,
        "not among the orders",
    ),
    "bad result word": (
        lambda d: _first_step(d, "6.A.1")["expect"]["orders"].update({"F NTH - PIC": "bounces"}),
        check_steps,
        "bad result",
    ),
    "unknown province in an order": (
        lambda d: _first_step(d, "6.A.1")["orders"].update(ENGLAND=["F NTH - QQQ"]),
        check_steps,
        "unknown province",
    ),
    "6.J case without the 2023 option": (
        lambda d: d["case"][-1].pop("options"),
        check_case_fields,
        "civil_disorder",
    ),
}


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_checks_catch_mutations(data: Data, name: str) -> None:
    change, check, needle = MUTATIONS[name]
    problems = check(mutate(data, change))
    assert any(needle in problem for problem in problems), problems
