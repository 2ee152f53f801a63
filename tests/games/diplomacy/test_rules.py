"""Diplomacy on the kernel: seats, hidden simultaneous orders, refusal of illegal sets, the end."""

from __future__ import annotations

import json

import pytest

from parley import games
from parley.games.diplomacy import RULES, OrderSet
from parley.kernel import ARCHIVE, SPECTATOR, IllegalAction, Match, Rng, Viewer
from parley.kernel.conformance import play_random


def test_registered_under_its_name_and_alias() -> None:
    assert games.find("diplomacy") is RULES
    assert games.find("dip") is RULES


def test_a_full_random_game_runs_from_1901_to_its_end() -> None:
    match = Match(RULES, 7, options={"year_limit": 1906}, seed=3)
    play_random(match, Rng(11), 5000)
    outcome = match.outcome()
    assert outcome is not None
    assert outcome.draw and outcome.reason == "the year limit 1906 was reached"
    phases = match.observe(ARCHIVE)["view"]["phases"]
    assert phases[0] == "S1901M" and any(p.startswith("F1906") for p in phases)
    assert not match.turn().owed


def test_a_random_game_on_the_tiny_map_ends_with_a_result() -> None:
    match = Match(RULES, 3, options={"map": "tiny", "year_limit": 2030}, seed=5)
    play_random(match, Rng(5), 5000)
    outcome = match.outcome()
    assert outcome is not None and len(outcome.ranks) == 3


def test_seats_are_powers_and_owe_orders_at_once() -> None:
    match = Match(RULES, 7, seed=1)
    assert match.seat_names() == list(RULES.seat_names(7, match.options))
    assert match.seat_names()[2] == "FRANCE"
    turn = match.turn()
    assert turn.simultaneous and turn.owing == frozenset(range(7))


def test_orders_stay_hidden_until_the_phase_is_adjudicated() -> None:
    match = Match(RULES, 7, seed=1)
    match.act(2, "A PAR - BUR; F BRE - MAO")
    mine = json.dumps(match.observe(Viewer.of(2)))
    theirs = json.dumps([match.observe(Viewer.of(3)), match.history(Viewer.of(3))])
    assert "A PAR - BUR" in mine
    assert "A PAR - BUR" not in theirs
    assert "A PAR - BUR" not in json.dumps(match.observe(SPECTATOR))
    assert match.observe(Viewer.of(3))["view"]["submitted"] == ["FRANCE"]
    # France may revise while others are still to order.
    assert 2 in match.turn().anytime
    match.act(2, "A PAR - PIC")
    for seat in (0, 1, 3, 4, 5, 6):
        match.act(seat, "NO ORDERS")
    view = match.observe(Viewer.of(3))["view"]
    assert view["position"]["phase"] == "F1901M"
    assert "A PIC" in view["position"]["units"]["FRANCE"]
    assert "A PAR - PIC" in json.dumps(match.history(Viewer.of(3)))
    results = view["last"][0]["results"]["FRANCE"]
    assert results[0] == {"order": "A PAR - PIC", "outcome": "succeeds", "reason": "moved",
                          "message": "moved"}  # fmt: skip


def test_an_illegal_order_refuses_the_whole_set_and_changes_nothing() -> None:
    match = Match(RULES, 7, seed=1)
    before = json.dumps(match.observe(ARCHIVE))
    with pytest.raises(IllegalAction, match="A PAR - MUN"):
        match.act(2, "A PAR - BUR; A PAR - MUN")
    with pytest.raises(IllegalAction, match="cannot reach"):
        match.act(2, "F BRE - PAR")
    with pytest.raises(IllegalAction, match="already has an order"):
        match.act(2, "A PAR - BUR; A PAR - PIC")
    with pytest.raises(IllegalAction, match="belongs to"):
        match.act(2, "A MUN - BUR")
    assert json.dumps(match.observe(ARCHIVE)) == before
    assert match.seq == 0


def test_lenient_text_is_made_canonical_against_the_board() -> None:
    match = Match(RULES, 7, seed=1)
    action = match.parse("Paris to Burgundy; bre - mao", 2)
    assert RULES.format(action) == "A PAR - BUR; F BRE - MAO"
    assert RULES.parse("", match.state, 2) == OrderSet()


def test_options_tree_has_one_group_per_unit() -> None:
    match = Match(RULES, 7, seed=1)
    tree = RULES.options_tree(match.state, 5)  # Russia
    assert tree.each
    assert [c.label for c in tree.children] == ["A MOS", "F SEV", "F STP/SC", "A WAR"]
    assert "F STP/SC - BOT" in tree.children[2].leaves()


def test_unseated_powers_are_in_civil_disorder() -> None:
    match = Match(RULES, 2, seed=1)
    assert match.turn().owing == frozenset({0, 1})
    match.act(0, "A VIE - GAL")
    match.act(1, "NO ORDERS")
    units = match.observe(ARCHIVE)["view"]["position"]["units"]
    assert units["RUSSIA"] == ["A MOS", "F SEV", "F STP/SC", "A WAR"]
    assert "A GAL" in units["AUSTRIA"]


def test_a_draw_agreed_by_every_survivor_ends_the_game() -> None:
    match = Match(RULES, 7, seed=1)
    for seat in range(7):
        match.vote_draw(seat, True)
    outcome = match.outcome()
    assert outcome is not None and outcome.draw and outcome.winners == frozenset(range(7))


def test_adjustment_sets_are_checked_as_a_whole() -> None:
    match = Match(RULES, 7, seed=1)

    def phase() -> str:
        return str(match.observe(ARCHIVE)["view"]["position"]["phase"])

    for text in ("A MAR - SPA", "A SPA H"):
        for seat in range(7):
            match.act(seat, text if seat == 2 else "NO ORDERS")
    assert phase() == "W1901A"
    assert match.turn().owing == frozenset({2})  # only France has an adjustment
    with pytest.raises(IllegalAction, match="no build is owed"):
        match.act(2, "A MAR B; WAIVE")
    with pytest.raises(IllegalAction, match="occupied"):
        match.act(2, "A PAR B")
    match.act(2, "F MAR B")
    assert phase() == "S1902M"
    assert "F MAR" in match.observe(ARCHIVE)["view"]["position"]["units"]["FRANCE"]
