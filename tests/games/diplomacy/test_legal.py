"""Legal-order lists agree with the adjudicator's own legality checks, order for order."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from tests.games.diplomacy.helpers import random_game

from parley.games.diplomacy.adjudicator import adjudicate_movement
from parley.games.diplomacy.convoys import tables_for
from parley.games.diplomacy.legal import (
    adjustment_orders,
    canonical_order,
    legal_orders,
    movement_orders,
    retreat_orders,
)
from parley.games.diplomacy.legality import (
    check_convoy,
    check_move,
    check_support_hold,
    check_support_move,
)
from parley.games.diplomacy.map import DipMap, standard_map
from parley.games.diplomacy.orders import (
    WAIVE,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    format_order,
    parse_order,
)
from parley.games.diplomacy.phase import Phase, PhaseKind
from parley.games.diplomacy.position import Position
from parley.games.diplomacy.results import Outcome, Reason
from parley.games.diplomacy.units import UnitKind

A, F = UnitKind.ARMY, UnitKind.FLEET


def _fleet_spots(dip: DipMap) -> list[int]:
    return [loc.index for loc in dip.locations if dip.fleet_can_stand[loc.index]]


def _brute_force(pos: Position, rejected: list[Order] | None = None) -> dict[int, set[Order]]:
    """Every canonical candidate order of every unit that `legality` finds legal (and, into
    `rejected`, the candidates it finds illegal)."""
    dip = pos.map
    tables = tables_for(dip)
    units = pos.units
    fleets = 0
    for p, u in units.items():
        if u.fleet and dip.sea_mask >> p & 1:
            fleets |= 1 << p
    codes = [loc.code for loc in dip.locations]
    armies = [p.index for p in dip.provinces if dip.army_can_stand[p.index]]
    spots = _fleet_spots(dip)
    out: dict[int, set[Order]] = {}
    for p, u in units.items():
        kind = F if u.fleet else A
        here = codes[u.loc]
        found: set[Order] = {Hold(kind, here)}
        for d in spots if u.fleet else armies:
            for via in (False, True) if not u.fleet else (False,):
                move = Move(kind, here, codes[d], via)
                adjacent = bool(dip.army_mask[p] >> d & 1)
                if via and not adjacent:
                    continue  # VIA is written only for a convoy to a neighbour
                if not isinstance(check_move(dip, tables, fleets, u, move), Reason):
                    found.add(move)
                elif rejected is not None:
                    rejected.append(move)
        for q, v in units.items():
            if q == p:
                continue
            vkind = F if v.fleet else A
            there = codes[v.loc]
            hold = SupportHold(kind, here, vkind, there)
            if not isinstance(check_support_hold(dip, units, u, hold), Reason):
                found.add(hold)
            elif rejected is not None:
                rejected.append(hold)
            for d in spots if v.fleet else armies:
                support = SupportMove(kind, here, vkind, there, codes[d])
                legal = check_support_move(dip, tables, fleets, units, u, support)
                if not isinstance(legal, Reason):
                    found.add(support)
                elif rejected is not None:
                    rejected.append(support)
            if u.fleet and not v.fleet:
                for d in armies:
                    convoy = Convoy(F, here, codes[q], codes[d])
                    if not isinstance(check_convoy(dip, tables, fleets, units, u, convoy), Reason):
                        found.add(convoy)
                    elif rejected is not None:
                        rejected.append(convoy)
        out[p] = found
    return out


def _sample_positions() -> Iterator[Position]:
    for seed in (1, 2):
        for i, step in enumerate(random_game(seed, 60)):
            if step.position.phase.kind is PhaseKind.MOVEMENT and i % 6 == 0:
                yield step.position


def _crowded_seas() -> Position:
    """Fleets in most seas: many convoy routes, chords and supports through convoys."""
    dip = standard_map()
    return Position.build(
        dip,
        Phase.parse("S1905M"),
        {
            "ENGLAND": ["F NTH", "F ENG", "F IRI", "F NAO", "F NWG", "A LON", "A YOR", "A WAL"],
            "FRANCE": ["F MAO", "F WES", "F LYO", "A BRE", "A PIC", "A SPA"],
            "ITALY": ["F TYS", "F ION", "F ADR", "A NAP", "A TUN", "A APU"],
            "TURKEY": ["F AEG", "F EAS", "F BLA", "A SMY", "A CON", "A GRE"],
            "RUSSIA": ["F BAL", "F BOT", "A SWE", "A FIN", "A LVN"],
            "GERMANY": ["F SKA", "F HEL", "A DEN", "A HOL", "A KIE"],
        },
    )


@pytest.mark.parametrize("which", range(11))
def test_generated_orders_are_exactly_the_legal_ones(which: int) -> None:
    positions = [_crowded_seas(), *_sample_positions()]
    pos = positions[which % len(positions)]
    generated = movement_orders(pos)
    expected = _brute_force(pos)
    assert set(generated) == set(expected)
    for prov, orders in generated.items():
        code = pos.map.provinces[prov].code
        assert len(orders) == len(set(orders)), f"{code}: an order is listed twice"
        missing = expected[prov] - set(orders)
        extra = set(orders) - expected[prov]
        assert not missing, f"{code}: not listed: {sorted(map(format_order, missing))[:5]}"
        assert not extra, f"{code}: listed but illegal: {sorted(map(format_order, extra))[:5]}"


@pytest.mark.parametrize("which", range(3))
def test_the_adjudicator_judges_legality_as_the_checks_do(which: int) -> None:
    """The adjudicator checks common orders inline for speed; it must agree with `legality`."""
    pos = [_crowded_seas(), *_sample_positions()][which]
    rejected: list[Order] = []
    accepted = [o for orders in _brute_force(pos, rejected).values() for o in orders]
    rng = random.Random(which)
    owner = {pos.map.provinces[p].code: pos.map.powers[u.power] for p, u in pos.units.items()}
    for order, legal in [(o, True) for o in rng.sample(accepted, min(300, len(accepted)))] + [
        (o, False) for o in rng.sample(rejected, min(300, len(rejected)))
    ]:
        power = owner[order.loc.split("/")[0]]  # type: ignore[union-attr]
        result = adjudicate_movement(pos, {power: [order]}).results[0]
        assert (result.outcome is not Outcome.ILLEGAL) == legal, format_order(order)


def test_support_of_a_convoy_through_the_supporter_is_not_offered() -> None:
    # DATC 6.D.31: the only route from Rumania to Armenia runs through the Black Sea fleet.
    pos = Position.build(
        standard_map(), Phase.parse("S1901M"), {"AUSTRIA": ["A RUM"], "TURKEY": ["F BLA"]}
    )
    texts = {format_order(o) for o in legal_orders(pos)["BLA"]}
    assert "F BLA C A RUM - ARM" in texts
    assert "F BLA S A RUM - ARM" not in texts
    assert "A RUM - ARM" in {format_order(o) for o in legal_orders(pos)["RUM"]}


def test_unnecessary_convoying_fleet_is_not_offered() -> None:
    # DATC 6.G.19: the Western Mediterranean is on no minimal route from Marseilles to Spain.
    pos = Position.build(
        standard_map(),
        Phase.parse("S1901M"),
        {"FRANCE": ["A MAR", "F WES"], "ITALY": ["F LYO", "A SPA"]},
    )
    legal = legal_orders(pos)
    assert "F LYO C A MAR - SPA" in {format_order(o) for o in legal["LYO"]}
    assert "F WES C A MAR - SPA" not in {format_order(o) for o in legal["WES"]}
    assert "F WES C A MAR - NAF" in {format_order(o) for o in legal["WES"]}
    assert "A MAR - SPA VIA" in {format_order(o) for o in legal["MAR"]}


def test_fleet_support_names_the_coast() -> None:
    pos = Position.build(standard_map(), Phase.parse("S1901M"), {"FRANCE": ["F MAO", "F POR"]})
    texts = {format_order(o) for o in legal_orders(pos)["POR"]}
    assert {"F POR S F MAO - SPA/NC", "F POR S F MAO - SPA/SC"} <= texts
    assert "F POR S F MAO - SPA" not in texts


def test_retreat_lists_exclude_attackers_origin_standoffs_and_occupied() -> None:
    dip = standard_map()
    pos = Position.build(
        dip,
        Phase.parse("S1901R"),
        {"ITALY": ["A VIE"], "GERMANY": ["A MUN"], "AUSTRIA": ["A GAL"]},
        dislodged={"AUSTRIA": ["A VIE <- TRI"]},  # VIE taken by an army from TRI
        contested=["BOH"],
    )
    # The army now in VIE is Italy's; Austria's dislodged army waits to retreat.
    retreats = {format_order(o) for o in retreat_orders(pos)[dip.prov_index["VIE"]]}
    assert retreats == {"A VIE R BUD", "A VIE R TYR", "A VIE D"}


def test_adjustment_lists() -> None:
    dip = standard_map()
    pos = Position.build(
        dip,
        Phase.parse("W1901A"),
        {"RUSSIA": ["A MOS"], "FRANCE": ["A PAR", "A BUR", "A PIC"]},
        centres={"RUSSIA": ["MOS", "STP", "WAR"], "FRANCE": ["PAR"]},
    )
    builds = {format_order(o) for o in adjustment_orders(pos, "RUSSIA")}
    assert builds == {"A STP B", "F STP/NC B", "F STP/SC B", "A WAR B", "WAIVE"}
    disbands = adjustment_orders(pos, "FRANCE")
    assert set(disbands) == {Disband(A, "PAR"), Disband(A, "BUR"), Disband(A, "PIC")}
    assert adjustment_orders(pos, "ITALY") == []
    assert WAIVE not in disbands


def test_canonical_order_fills_in_what_the_board_makes_certain() -> None:
    dip = standard_map()
    pos = Position.build(
        dip,
        Phase.parse("S1901M"),
        {"FRANCE": ["F GAS", "A PAR"], "RUSSIA": ["F STP/SC"], "ENGLAND": ["F LON"]},
    )

    def canon(text: str) -> str:
        return format_order(canonical_order(pos, parse_order(text, dip)))

    assert canon("GAS - SPA") == "F GAS - SPA/NC"  # the only coast a fleet in GAS reaches
    assert canon("A PAR - GAS/NC") == "A PAR - GAS"
    assert canon("F PAR S STP - BOT") == "A PAR S F STP/SC - BOT"
    assert canon("LON S F PAR") == "F LON S A PAR"
    assert canon("STP/NC H") == "F STP/SC H"
    assert format_order(canonical_order(pos, Build(None, "PAR"))) == "A PAR B"
    assert canonical_order(pos, Retreat(None, "XYZ", "PAR")) == Retreat(None, "XYZ", "PAR")
