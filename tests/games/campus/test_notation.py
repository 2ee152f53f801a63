"""Lenient notation in, canonical notation out, and the round trip."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parley.games.campus import NO_PICK, PASS, RULES, Move, Pick, load_map
from parley.kernel import AmbiguousAction, InvalidAction

BOARD = load_map()


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("move A3 to Library", Move("A3", "E4")),
        ("a3-lib", Move("A3", "E4")),
        ("A3 -> E4", Move("A3", "E4")),
        ("move observatory into chemistry labs", Move("A3", "B3")),
        ("great hall music rooms", Move("D2", "D3")),
        ("  MOVE  e5 TO e6 ", Move("E5", "E6")),
        ("attack E5 D5", Move("E5", "D5")),
        ("pass", PASS),
        ("End turn", PASS),
        ("pick 42", Pick(42)),
        ("42", Pick(42)),
        ("pick 0", Pick(0)),
        ("pick none", NO_PICK),
        ("no pick", NO_PICK),
        ("pick abstain", NO_PICK),
    ],
)
def test_lenient_parsing(text: str, action: object) -> None:
    assert RULES.parse(text) == action


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Move("A3", "E4"), "move A3 to E4"),
        (PASS, "pass"),
        (Pick(7), "pick 7"),
        (NO_PICK, "pick none"),
    ],
)
def test_canonical_printing(action: object, text: str) -> None:
    assert RULES.format(action) == text  # type: ignore[arg-type]


@pytest.mark.parametrize("text", ["", "fly to the moon", "move A3 to Narnia", "pick lots", "☃"])
def test_nonsense_is_invalid_and_names_the_input(text: str) -> None:
    with pytest.raises(InvalidAction) as err:
        RULES.parse(text)
    assert err.value.message


def test_ambiguous_prefix_lists_candidates() -> None:
    with pytest.raises(AmbiguousAction) as err:
        RULES.parse("move mu to E4")  # Museum, Music Rooms
    assert len(err.value.candidates) >= 2


@given(st.sampled_from(range(BOARD.size)), st.data())
def test_every_move_roundtrips(src: int, data: st.DataObject) -> None:
    dst = data.draw(st.sampled_from(BOARD.adjacent[src]))
    move = Move(BOARD.codes[src], BOARD.codes[dst])
    text = RULES.format(move)
    assert RULES.parse(text) == move
    assert RULES.parse(f"{BOARD.sectors[src].alias}-{BOARD.sectors[dst].alias}") == move
    assert RULES.parse(f"move {BOARD.sectors[src].name} to {BOARD.sectors[dst].name}") == move


@given(st.integers(min_value=0, max_value=100))
def test_picks_roundtrip(value: int) -> None:
    assert RULES.parse(RULES.format(Pick(value))) == Pick(value)


@pytest.mark.parametrize(
    "text", ["pick ²", "²", "pick ٣", "pick ４２", "pick " + "9" * 5000, "9" * 5000]
)
def test_odd_digits_and_huge_numbers_are_invalid_not_a_crash(text: str) -> None:
    """Only ASCII digits make a pick; a number of thousands of digits is refused, not read."""
    with pytest.raises(InvalidAction) as err:
        RULES.parse(text)
    assert "0 to 100" in err.value.message and len(err.value.message) < 300


def test_a_long_but_readable_number_is_read_and_refused_by_the_rules() -> None:
    assert RULES.parse("pick 000042") == Pick(42)
    assert RULES.parse("pick 101") == Pick(101)  # the rules refuse it as illegal (scenarios)
