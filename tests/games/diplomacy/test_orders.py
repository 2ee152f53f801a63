"""Order notation: lenient reading, canonical printing, round trips and clear errors."""

from __future__ import annotations

import pytest

from parley.games.diplomacy.map import standard_map
from parley.games.diplomacy.orders import (
    WAIVE,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    OrderSyntaxError,
    Retreat,
    SupportHold,
    SupportMove,
    format_order,
    parse_order,
)
from parley.games.diplomacy.phase import PhaseKind
from parley.games.diplomacy.units import UnitKind

A, F = UnitKind.ARMY, UnitKind.FLEET
DIP = standard_map()


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("a par-bur", "A PAR - BUR"),
        ("A Par S F Bre", "A PAR S F BRE"),
        ("Paris to Burgundy", "PAR - BUR"),
        ("F STP/SC B", "F STP/SC B"),
        ("A LON - NWY VIA", "A LON - NWY VIA"),
        ("A London - Norway via convoy", "A LON - NWY VIA"),
        ("F NTH C A LON - NWY", "F NTH C A LON - NWY"),
        ("F North Sea convoys London to Norway", "F NTH C A LON - NWY"),
        ("A MUN S A BER - SIL", "A MUN S A BER - SIL"),
        ("A Munich supports German A Berlin", "A MUN S A BER"),
        ("A PAR R BUR", "A PAR R BUR"),
        ("A PAR D", "A PAR D"),
        ("WAIVE", "WAIVE"),
        ("  a   PAR   ->   bur  ", "A PAR - BUR"),
        ("A Par moves to Bur", "A PAR - BUR"),
        ("A Berlin holds", "A BER H"),
        ("F Mid-Atlantic Ocean - Spain(nc)", "F MAO - SPA/NC"),
        ("F Spain north coast - Mid-Atlantic Ocean", "F SPA/NC - MAO"),
        ("F spa sc - wes", "F SPA/SC - WES"),
        ("Build F St Petersburg (south coast)", "F STP/SC B"),
        ("Remove A Paris", "A PAR D"),
        ("A Yorkshire - North Sea - Belgium", "A YOR - BEL"),  # a convoy path is ignored
        ("A GAS - SPA/WC", "A GAS - SPA"),  # an unknown coast is ignored
    ],
)
def test_lenient_forms_read_to_the_canonical_order(text: str, canonical: str) -> None:
    assert format_order(parse_order(text, DIP)) == canonical


def test_parsed_values() -> None:
    assert parse_order("a par-bur", DIP) == Move(A, "PAR", "BUR")
    assert parse_order("A LON - NWY VIA", DIP) == Move(A, "LON", "NWY", True)
    assert parse_order("F NTH C A LON - NWY", DIP) == Convoy(F, "NTH", "LON", "NWY")
    assert parse_order("A MUN S BER", DIP) == SupportHold(A, "MUN", None, "BER")
    assert parse_order("A MUN S A BER - SIL", DIP) == SupportMove(A, "MUN", A, "BER", "SIL")
    assert parse_order("A PAR H", DIP) == Hold(A, "PAR")
    assert parse_order("WAIVE", DIP) is WAIVE
    assert parse_order("F STP/SC B", DIP) == Build(F, "STP/SC")
    assert parse_order("A PAR D", DIP) == Disband(A, "PAR")


def test_a_move_in_a_retreat_phase_is_a_retreat() -> None:
    assert parse_order("A PAR - BUR", DIP, PhaseKind.RETREAT) == Retreat(A, "PAR", "BUR")
    assert parse_order("A PAR - BUR", DIP, PhaseKind.MOVEMENT) == Move(A, "PAR", "BUR")


def test_codes_parse_without_a_map() -> None:
    assert parse_order("f stp/sc - bot") == Move(F, "STP/SC", "BOT")


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("A PAR - XYZ", "'xyz'"),
        ("A PAR", "says nothing it should do"),
        ("A PAR S", "expected a province"),
        ("F NTH C A LON", "destination of the convoyed army"),
        ("hello world", "'hello'"),
        ("A PAR - BUR VIA VIA", "unexpected 'via'"),
        ("A PAR H BUR", "unexpected"),
    ],
)
def test_errors_name_the_offending_text(text: str, fragment: str) -> None:
    with pytest.raises(OrderSyntaxError) as err:
        parse_order(text, DIP)
    assert fragment in err.value.message
    assert err.value.text == text


def test_a_retreat_cannot_be_convoyed() -> None:
    with pytest.raises(OrderSyntaxError, match="convoy"):
        parse_order("A PAR - BUR VIA", DIP, PhaseKind.RETREAT)


@pytest.mark.parametrize(
    "order",
    [
        Hold(A, "PAR"),
        Hold(None, "PAR"),
        Move(F, "MAO", "SPA/NC"),
        Move(A, "LON", "BEL", True),
        SupportHold(F, "BOT", F, "STP/SC"),
        SupportMove(A, "MUN", None, "BER", "SIL"),
        SupportMove(F, "MAR", F, "GAS", "SPA/NC"),
        Convoy(F, "NTH", "LON", "NWY"),
        Retreat(F, "NTH", "NWG"),
        Disband(A, "PAR"),
        Build(F, "STP/NC"),
        Build(None, "STP/NC"),
        WAIVE,
    ],
)
def test_format_then_parse_round_trips(order: object) -> None:
    phase = PhaseKind.RETREAT if isinstance(order, Retreat) else None
    text = format_order(order)  # type: ignore[arg-type]
    assert parse_order(text, DIP, phase) == order
