"""The game flow: phases in order, retreats, centres, builds and disbands, and the end."""

from __future__ import annotations

from parley.games.diplomacy.civil_disorder import CivilDisorderRule
from parley.games.diplomacy.map import standard_map
from parley.games.diplomacy.orders import format_order, parse_order
from parley.games.diplomacy.phase import Phase
from parley.games.diplomacy.phases import GameOptions, PhaseReport, process
from parley.games.diplomacy.position import Position
from parley.games.diplomacy.results import Outcome, Reason

DIP = standard_map()


def step(
    pos: Position, orders: dict[str, list[str]], options: GameOptions | None = None
) -> PhaseReport:
    parsed = {p: [parse_order(t, DIP, pos.phase.kind) for t in ts] for p, ts in orders.items()}
    return process(pos, parsed, options or GameOptions())


def units(pos: Position) -> set[str]:
    return {f"{u.power[:3]} {u.kind.value} {u.location}" for u in pos.all_units()}


def test_the_first_year_runs_spring_fall_winter() -> None:
    pos = Position.initial(DIP)
    assert pos.phase.name == "S1901M"
    spring = step(pos, {"FRANCE": ["A PAR - BUR"], "ENGLAND": ["F LON - NTH"]})
    assert spring.position.phase.name == "F1901M"
    assert spring.position.centres_of("FRANCE") == ["BRE", "MAR", "PAR"]
    fall = step(spring.position, {"FRANCE": ["A BUR - BEL"], "ENGLAND": ["F NTH - NWY"]})
    assert fall.position.phase.name == "W1901A"
    assert fall.position.centres_of("FRANCE") == ["BEL", "BRE", "MAR", "PAR"]
    assert fall.position.centres_of("ENGLAND") == ["EDI", "LON", "LVP", "NWY"]
    winter = step(fall.position, {"FRANCE": ["A PAR B"], "ENGLAND": ["F LON B"]})
    assert winter.position.phase.name == "S1902M"
    assert {"FRA A PAR", "ENG F LON"} <= units(winter.position)


def test_a_winter_without_adjustments_is_skipped() -> None:
    pos = Position.initial(DIP)
    pos = step(pos, {}).position
    fall = step(pos, {})
    assert fall.position.phase.name == "S1902M"
    assert fall.ending is None


def test_a_dislodged_unit_retreats_or_is_disbanded() -> None:
    pos = Position.build(
        DIP,
        Phase.parse("S1901M"),
        {"AUSTRIA": ["A BUD", "A TRI"], "ITALY": ["A VIE", "A BOH"]},
    )
    report = step(pos, {"AUSTRIA": ["A BUD S A TRI - VIE", "A TRI - VIE"]})
    assert report.position.phase.name == "S1901R"
    assert [r.order for r in report.auto] == []
    retreat = step(report.position, {"ITALY": ["A VIE - GAL"]})
    assert retreat.position.phase.name == "F1901M"
    assert "ITA A GAL" in units(retreat.position)
    # Unordered, the same unit is disbanded.
    retreat = step(report.position, {})
    assert not any(u.startswith("ITA A GAL") for u in units(retreat.position))
    assert [r.reason for r in retreat.results] == [Reason.DISBANDED]
    assert retreat.results[0].defaulted


def test_a_retreat_phase_with_no_way_out_is_resolved_at_once() -> None:
    pos = Position.build(
        DIP,
        Phase.parse("F1901M"),
        {"ENGLAND": ["F POR"], "FRANCE": ["F SPA/SC", "F MAO"]},
        centres={"ENGLAND": ["LON"], "FRANCE": ["PAR", "BRE", "MAR"]},
    )
    report = step(pos, {"FRANCE": ["F SPA/SC - POR", "F MAO S F SPA/SC - POR"]})
    assert [phase.name for phase, _ in report.auto] == ["F1901R"]
    assert report.auto[0][1][0].reason is Reason.DISBANDED
    # Fall is over: France takes Portugal; England has no unit, France may build.
    assert report.position.phase.name == "W1901A"
    assert "POR" in report.position.centres_of("FRANCE")


def test_centres_change_hands_after_fall_retreats() -> None:
    pos = Position.build(
        DIP,
        Phase.parse("F1901R"),
        {"GERMANY": ["A MUN"], "FRANCE": ["A BUR"]},
        centres={"GERMANY": ["MUN"], "FRANCE": ["PAR"]},
        dislodged={"GERMANY": ["A RUH <- BUR"]},
    )
    report = step(pos, {"GERMANY": ["A RUH R BEL"]})
    assert report.position.centres_of("GERMANY") == ["BEL", "MUN"]
    assert report.position.phase.name == "S1902M"  # nobody gains or loses a build


def test_spring_occupation_does_not_take_a_centre() -> None:
    pos = Position.build(DIP, Phase.parse("S1902M"), {"FRANCE": ["A BUR"]}, centres={"FRANCE": []})
    report = step(pos, {"FRANCE": ["A BUR - BEL"]})
    assert report.position.centres_of("FRANCE") == []


def test_builds_only_in_free_owned_home_centres_up_to_the_surplus() -> None:
    pos = Position.build(
        DIP,
        Phase.parse("W1901A"),
        {"RUSSIA": ["A MOS", "A SWE", "F RUM"]},
        centres={"RUSSIA": ["MOS", "SEV", "STP", "SWE", "RUM", "NWY"]},
    )
    report = step(
        pos,
        {
            "RUSSIA": [
                "A MOS B",
                "A WAR B",
                "F STP B",
                "F SEV B",
                "F STP/NC B",
                "A UKR B",
                "A SEV B",
            ]
        },
    )
    outcomes = {format_order(r.order): (r.outcome, r.reason) for r in report.results}
    assert outcomes["A MOS B"] == (Outcome.ILLEGAL, Reason.OCCUPIED)
    assert outcomes["A WAR B"] == (Outcome.ILLEGAL, Reason.NOT_OWNED)
    assert outcomes["F STP B"] == (Outcome.ILLEGAL, Reason.NEEDS_COAST)
    assert outcomes["F SEV B"][0] is Outcome.SUCCEEDS
    assert outcomes["F STP/NC B"][0] is Outcome.SUCCEEDS
    assert outcomes["A UKR B"] == (Outcome.ILLEGAL, Reason.NOT_HOME_CENTRE)
    assert outcomes["A SEV B"] == (Outcome.ILLEGAL, Reason.OCCUPIED)
    assert {"RUS F SEV", "RUS F STP/NC"} <= units(report.position)
    assert report.position.phase.name == "S1902M"


def test_waive_uses_up_a_build() -> None:
    pos = Position.build(
        DIP, Phase.parse("W1901A"), {"FRANCE": []}, centres={"FRANCE": ["PAR", "BRE"]}
    )
    report = step(pos, {"FRANCE": ["WAIVE", "A PAR B", "A BRE B"]})
    assert [r.outcome for r in report.results] == [
        Outcome.SUCCEEDS,
        Outcome.SUCCEEDS,
        Outcome.ILLEGAL,
    ]


def test_missing_disbands_follow_the_seed_rule() -> None:
    # France owns one centre and has three units: two go. Moscow is farthest from the French
    # home centres; of the North Atlantic fleet and the Munich army (both two steps away)
    # the fleet goes first.
    pos = Position.build(
        DIP,
        Phase.parse("W1901A"),
        {"FRANCE": ["A PAR", "F NAO", "A MUN", "A MOS"]},
        centres={"FRANCE": ["PAR", "MUN"]},
    )
    report = step(pos, {})
    gone = [format_order(r.order) for r in report.results]
    assert gone == ["A MOS D", "F NAO D"]
    assert all(r.defaulted for r in report.results)
    assert units(report.position) == {"FRA A PAR", "FRA A MUN"}


def test_seed_rule_breaks_ties_alphabetically_by_province_name() -> None:
    pos = Position.build(
        DIP, Phase.parse("W1901A"), {"FRANCE": ["A BUR", "A PIC", "A GAS"]}, centres={"FRANCE": []}
    )
    report = step(pos, {})
    # All are one step from a home centre: Burgundy, Gascony, Picardy in that order.
    assert [format_order(r.order) for r in report.results] == ["A BUR D", "A GAS D", "A PIC D"]


def test_2023_rule_keeps_units_on_centres() -> None:
    pos = Position.build(
        DIP,
        Phase.parse("W1901A"),
        {"ITALY": ["A WAR", "A TUS"]},
        centres={"ITALY": ["WAR"]},
    )
    report = step(pos, {}, GameOptions(civil_disorder=CivilDisorderRule.Y2023))
    assert [format_order(r.order) for r in report.results] == ["A TUS D"]


def test_solo_victory_at_eighteen_centres() -> None:
    centres = ["PAR", "BRE", "MAR", "SPA", "POR", "BEL", "HOL", "MUN", "KIE", "BER", "DEN",
               "LON", "LVP", "EDI", "NWY", "SWE", "ROM"]  # fmt: skip
    pos = Position.build(
        DIP, Phase.parse("F1905M"), {"FRANCE": ["A BUR"], "ITALY": ["A VEN"]},
        centres={"FRANCE": centres, "ITALY": ["NAP"]},
    )  # fmt: skip
    report = step(pos, {"FRANCE": ["A BUR - MUN"]})
    assert report.ending is None  # Munich was already French: 17 centres
    report = step(pos, {"FRANCE": ["A BUR - BEL"], "ITALY": ["A VEN - TRI"]})
    assert report.ending is None
    pos2 = Position.build(
        DIP, Phase.parse("F1905M"), {"FRANCE": ["A TYR"]},
        centres={"FRANCE": centres, "ITALY": ["NAP"]},
    )  # fmt: skip
    report = step(pos2, {"FRANCE": ["A TYR - VEN"]})
    assert report.ending is not None and report.ending.winner == "FRANCE"
    assert "18" in report.ending.reason


def test_last_power_standing_wins() -> None:
    pos = Position.build(
        DIP,
        Phase.parse("F1910M"),
        {"TURKEY": ["A VIE", "A BUD"]},
        centres={"TURKEY": ["VIE", "BUD", "ANK"], "AUSTRIA": ["TRI"]},
    )
    report = step(pos, {"TURKEY": ["A BUD - TRI"]})
    assert report.ending is not None and report.ending.winner == "TURKEY"
    assert report.ending.reason == "Turkey is the last power standing"


def test_year_limit_ends_in_a_draw_of_the_survivors() -> None:
    pos = Position.initial(DIP)
    options = GameOptions(year_limit=1901)
    pos = step(pos, {}, options).position
    report = step(pos, {}, options)
    assert report.ending is not None and report.ending.winner is None
    assert set(report.ending.powers) == set(DIP.powers)
    assert "1901" in report.ending.reason


def test_2023_rule_counts_distance_from_either_coast() -> None:
    # The second variant of DATC 6.J.9, which datc.toml (one position per case) leaves out:
    # the fleet in Skagerrak is two steps from St Petersburg by its north coast.
    pos = Position.build(
        DIP,
        Phase.parse("W1901A"),
        {"RUSSIA": ["A ALB", "A SEV", "F SKA"]},
        centres={"RUSSIA": ["STP", "SEV"]},
    )
    report = step(pos, {}, GameOptions(civil_disorder=CivilDisorderRule.Y2023))
    assert [format_order(r.order) for r in report.results] == ["A ALB D"]
