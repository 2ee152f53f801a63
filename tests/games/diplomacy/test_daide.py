"""The DAIDE press subset: parsed, printed back canonically, and told in words."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parley.games.diplomacy import daide
from parley.games.diplomacy.map import standard_map
from parley.games.diplomacy.orders import Hold, Move, SupportMove
from parley.games.diplomacy.units import UnitKind

DATA = tomllib.loads((Path(__file__).parent / "daide_cases.toml").read_text())
MAP = standard_map()
POWERS = list(MAP.powers)
PLACES = {code: MAP.province(code).name for code in ("BUR", "PIC")}


@pytest.mark.parametrize("case", DATA["case"], ids=lambda c: c["text"])
def test_cases_parse_print_and_read(case: dict[str, Any]) -> None:
    press = daide.parse_press(case["text"], POWERS)
    canonical = case.get("canonical", case["text"])
    assert daide.format_press(press) == canonical
    assert daide.parse_press(canonical, POWERS) == press
    assert daide.describe(press, case["sender"], PLACES) == case["words"]


@pytest.mark.parametrize("case", DATA["refused"], ids=lambda c: c["text"])
def test_text_outside_the_subset_is_refused_with_a_reason(case: dict[str, str]) -> None:
    with pytest.raises(daide.DaideError, match=case["why"]):
        daide.parse_press(case["text"], POWERS)


def test_a_message_carries_an_expression_and_free_text() -> None:
    press = daide.Propose(daide.Peace(("ENGLAND", "FRANCE")))
    text = daide.format_message(press, "Let us settle the Channel first.")
    assert text.splitlines()[0] == "PRP (PCE (ENG FRA))"
    assert daide.parse_message(text, POWERS) == (press, "Let us settle the Channel first.")


@pytest.mark.parametrize(
    "text", ["Hello, France!", "PRP but not really", "YES (PRP (PCE (ENG XYZ)))", ""]
)
def test_free_text_is_left_as_it_is(text: str) -> None:
    assert daide.parse_message(text, POWERS) == (None, text)


def test_an_order_without_a_unit_type_cannot_be_written() -> None:
    with pytest.raises(daide.DaideError, match="unit type"):
        daide.format_press(daide.Propose(daide.Do("FRANCE", Hold(None, "PAR"))))


# --- every arrangement survives printing and reading ------------------------------------------

powers = st.lists(st.sampled_from(POWERS), min_size=1, max_size=3, unique=True).map(tuple)
provinces = st.lists(
    st.sampled_from(["BUR", "ENG", "LYO", "NTH", "PIC"]), min_size=1, max_size=3, unique=True
).map(tuple)
armies = st.sampled_from(["PAR", "MUN", "VIE", "ROM"])
orders = st.one_of(
    st.builds(
        lambda p, loc: daide.Do(p, Hold(UnitKind.ARMY, loc)), st.sampled_from(POWERS), armies
    ),
    st.builds(
        lambda p, loc: daide.Do(p, Move(UnitKind.FLEET, loc, "ENG")),
        st.sampled_from(POWERS),
        st.sampled_from(["BRE", "LON", "NTH"]),
    ),
    st.builds(
        lambda p, q: daide.Do(p, SupportMove(UnitKind.ARMY, "MUN", UnitKind.ARMY, "PAR", "BUR"), q),
        st.sampled_from(POWERS),
        st.sampled_from(POWERS),
    ),
)
leaves = st.one_of(
    st.builds(daide.Peace, powers),
    st.builds(daide.Alliance, powers, powers),
    st.just(daide.Draw()),
    st.builds(daide.Dmz, powers, provinces),
    orders,
)
arrangements = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.builds(daide.And, st.lists(inner, min_size=2, max_size=3).map(tuple)),
        st.builds(daide.Or, st.lists(inner, min_size=2, max_size=3).map(tuple)),
        st.builds(daide.Not, inner),
    ),
    max_leaves=6,
)
presses = st.builds(daide.Propose, arrangements).flatmap(
    lambda p: st.one_of(
        st.just(p), st.builds(daide.Reply, st.sampled_from(sorted(daide.REPLIES)), st.just(p))
    )
)


@given(presses)
def test_every_press_round_trips(press: daide.Press) -> None:
    text = daide.format_press(press)
    assert daide.parse_press(text, POWERS) == press
    assert daide.parse_message(daide.format_message(press, "p.s."), POWERS) == (press, "p.s.")
