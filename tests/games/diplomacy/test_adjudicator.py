"""Movement adjudication beyond the DATC: reasons, messages, and the position it leaves."""

from __future__ import annotations

from typing import Any

from parley.games.diplomacy.adjudicator import MovementReport, adjudicate_movement
from parley.games.diplomacy.map import build_map, standard_map
from parley.games.diplomacy.orders import parse_order
from parley.games.diplomacy.phase import Phase
from parley.games.diplomacy.position import Position
from parley.games.diplomacy.results import OrderResult, Outcome, Reason

DIP = standard_map()


def run(
    units: dict[str, list[str]], orders: dict[str, list[str]], dip: Any = DIP
) -> MovementReport:
    pos = Position.build(dip, Phase.parse("S1901M"), units)
    parsed = {p: [parse_order(t, dip) for t in texts] for p, texts in orders.items()}
    return adjudicate_movement(pos, parsed)


def result(report: MovementReport, text: str) -> OrderResult:
    from parley.games.diplomacy.orders import format_order

    for r in report.results:
        if format_order(r.order) == text:
            return r
    raise AssertionError(f"no result for {text}")


def test_bounce_names_the_other_unit() -> None:
    rep = run(
        {"AUSTRIA": ["A VIE"], "ITALY": ["A VEN"]},
        {"AUSTRIA": ["A VIE - TYR"], "ITALY": ["A VEN - TYR"]},
    )
    r = result(rep, "A VIE - TYR")
    assert (r.outcome, r.reason, r.who) == (Outcome.FAILS, Reason.BOUNCED, ("A VEN",))
    assert r.message == "bounced with A VEN"
    assert rep.position.contested == 1 << DIP.prov_index["TYR"]


def test_cut_support_and_dislodgement_are_explained() -> None:
    rep = run(
        {"AUSTRIA": ["F ADR", "A TRI", "A VIE"], "ITALY": ["A VEN", "A TYR"]},
        {
            "AUSTRIA": ["F ADR S A TRI - VEN", "A TRI - VEN", "A VIE - TYR"],
            "ITALY": ["A VEN H", "A TYR S A VEN"],
        },
    )
    cut = result(rep, "A TYR S A VEN")
    assert (cut.reason, cut.who, cut.message) == (Reason.CUT, ("A VIE",), "support cut by A VIE")
    held = result(rep, "A VEN H")
    assert held.reason is Reason.DISLODGED and held.message == "dislodged by A TRI"
    assert result(rep, "A TRI - VEN").reason is Reason.MOVED
    away = rep.position.dislodged[DIP.prov_index["VEN"]]
    assert away.attacker_from == DIP.prov_index["TRI"]


def test_no_convoy_and_own_unit_reasons() -> None:
    rep = run(
        {"ENGLAND": ["A LON", "F NTH"], "GERMANY": ["A BER", "F KIE"]},
        {"ENGLAND": ["A LON - NWY", "F NTH H"], "GERMANY": ["F KIE - BER"]},
    )
    assert result(rep, "A LON - NWY").reason is Reason.NO_CONVOY
    own = result(rep, "F KIE - BER")
    assert (own.reason, own.who) == (Reason.OWN_UNIT, ("A BER",))


def test_every_unit_gets_a_result_and_defaults_are_marked() -> None:
    rep = run({"FRANCE": ["A PAR", "F BRE", "A MAR"]}, {"FRANCE": ["A PAR - BUR"]})
    assert len(rep.results) == 3
    defaulted = [r for r in rep.results if r.defaulted]
    assert {r.order.loc for r in defaulted} == {"BRE", "MAR"}  # type: ignore[union-attr]
    assert all(r.reason is Reason.HELD for r in defaulted)


def test_illegal_orders_are_reported_and_the_unit_holds() -> None:
    rep = run(
        {"ENGLAND": ["F LON", "F NTH"], "GERMANY": ["A MUN"]},
        {"GERMANY": ["F LON - NTH", "A MUN - PAR", "A BER - SIL"], "ENGLAND": ["F NTH - PIC"]},
    )
    assert result(rep, "F LON - NTH").reason is Reason.FOREIGN_UNIT
    assert result(rep, "F LON - NTH").who == ("ENGLAND",)
    assert result(rep, "A MUN - PAR").reason is Reason.UNREACHABLE
    assert result(rep, "A BER - SIL").reason is Reason.NO_UNIT
    bad = result(rep, "F NTH - PIC")
    assert bad.outcome is Outcome.ILLEGAL and bad.message == "illegal: cannot reach PIC"
    assert {DIP.provinces[p].code for p in rep.position.units} == {"LON", "NTH", "MUN"}


def test_two_different_orders_for_one_unit_make_it_hold() -> None:
    # DATC 4.D.3: the unit holds, and can still receive support to hold.
    rep = run(
        {"GERMANY": ["A BER", "A MUN"], "RUSSIA": ["A PRU", "A SIL"]},
        {
            "GERMANY": ["A BER - KIE", "A BER - PRU", "A MUN S A BER"],
            "RUSSIA": ["A PRU - BER", "A SIL S A PRU - BER"],
        },
    )
    assert result(rep, "A BER - KIE").reason is Reason.DUPLICATE
    assert result(rep, "A BER - PRU").outcome is Outcome.ILLEGAL
    assert result(rep, "A MUN S A BER").outcome is Outcome.SUCCEEDS
    assert result(rep, "A PRU - BER").outcome is Outcome.FAILS


def test_the_same_order_twice_counts_once() -> None:
    rep = run({"FRANCE": ["A PAR"]}, {"FRANCE": ["A PAR - BUR", "A PAR - BUR"]})
    assert [r.outcome for r in rep.results] == [Outcome.SUCCEEDS, Outcome.SUCCEEDS]
    assert DIP.prov_index["BUR"] in rep.position.units


def test_paradox_is_reported_as_such() -> None:
    rep = run(
        {"ENGLAND": ["F LON", "F WAL"], "FRANCE": ["A BRE", "F ENG"]},
        {
            "ENGLAND": ["F LON S F WAL - ENG", "F WAL - ENG"],
            "FRANCE": ["A BRE - LON", "F ENG C A BRE - LON"],
        },
    )
    assert result(rep, "F ENG C A BRE - LON").reason is Reason.PARADOX
    assert "Szykman" in result(rep, "A BRE - LON").message


def test_adjudication_on_a_small_inline_map() -> None:
    # Three provinces in a row and a sea beside them: a supported attack and a convoy.
    data = {
        "format": 1,
        "name": "strip",
        "powers": ["RED", "BLUE"],
        "victory_centres": 2,
        "provinces": {
            "AAA": {"name": "Alpha", "kind": "coast", "centre": True, "home": "RED",
                    "army": ["BBB"], "fleet": ["BBB", "SEA"]},
            "BBB": {"name": "Beta", "kind": "coast", "centre": True,
                    "army": ["AAA", "CCC"], "fleet": ["AAA", "CCC", "SEA"]},
            "CCC": {"name": "Gamma", "kind": "coast", "centre": True, "home": "BLUE",
                    "army": ["BBB"], "fleet": ["BBB", "SEA"]},
            "SEA": {"name": "The Sea", "kind": "sea", "fleet": ["AAA", "BBB", "CCC"]},
        },
        "units": {"RED": ["A AAA", "F SEA"], "BLUE": ["A CCC"]},
    }  # fmt: skip
    dip = build_map(data)
    rep = run(
        {"RED": ["A AAA", "F SEA"], "BLUE": ["A BBB"]},
        {"RED": ["A AAA - BBB", "F SEA S A AAA - BBB"], "BLUE": ["A BBB H"]},
        dip,
    )
    assert result(rep, "A AAA - BBB").outcome is Outcome.SUCCEEDS
    assert dip.prov_index["BBB"] in rep.position.dislodged
    rep = run(
        {"RED": ["A AAA", "F SEA"], "BLUE": ["A BBB"]},
        {"RED": ["A AAA - CCC", "F SEA C A AAA - CCC"]},
        dip,
    )
    assert result(rep, "A AAA - CCC").outcome is Outcome.SUCCEEDS
