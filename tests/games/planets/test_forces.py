"""The full rules' forces beyond the scenario tables: move notation with cargo, the units'
values, position checks, and the size of the legal move lists."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest

from parley.games.planets import RULES
from parley.games.planets.actions import Aim, Move, Retreat, Stay
from parley.games.planets.units import UNITS, cost_of
from parley.kernel import BadPosition, InvalidAction, Match, Rng

from .helpers import empty_match, lay_out


@pytest.mark.parametrize(
    ("text", "action"),
    [
        (
            "move 1 carrier from 0102 to 0203 with 2 infantry from Vesta, 1 fighter from 0102",
            Move(
                "0102",
                (("carrier", 1),),
                "0203",
                (("0102", "fighter", 1), ("Vesta", "infantry", 2)),
            ),
        ),
        (
            "Move 1 CV from 104 to 203 with 2 inf 1 mech from castellan minor ff from 0104",
            Move(
                "0104",
                (("carrier", 1),),
                "0203",
                (
                    ("0104", "fighter", 1),
                    ("Castellan Minor", "infantry", 2),
                    ("Castellan Minor", "mech", 1),
                ),
            ),
        ),
        ("fire at blue", Aim(1)),
        ("retreat to 0204", Retreat("0204")),
        ("stay", Stay()),
    ],
)
def test_reading_is_lenient_and_writing_canonical(text: str, action: Any) -> None:
    assert RULES.parse(text) == action
    assert RULES.parse(RULES.format(action)) == action


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("move 1 carrier from 0102 to 0203 with 2 infantry", "from <system or planet>"),
        ("move 1 carrier from 0102 to 0203 with 2 infantry from Atlantis", "no planet or system"),
        ("move 1 carrier from 0102 to 0203 with 1 ff from 0102 1 ff from 0102", "named twice"),
        ("fire at mauve", "not a player's colour"),
        ("retreat 0204", "'retreat to <system>'"),
    ],
)
def test_bad_texts_are_refused_with_the_reason(text: str, words: str) -> None:
    with pytest.raises(InvalidAction, match=words):
        RULES.parse(text)


def test_units_values_of_the_full_rules() -> None:
    assert (UNITS["fighter"].cost, UNITS["fighter"].per_cost, UNITS["fighter"].move) == (1, 2, 0)
    assert UNITS["warsun"].dice == 3 and UNITS["warsun"].bombard_dice == 3
    assert (UNITS["destroyer"].barrage, UNITS["destroyer"].barrage_dice) == (9, 2)
    assert cost_of("fighter", 1) == cost_of("fighter", 2) == 1
    assert all(UNITS[k].full for k in ("fighter", "warsun", "flagship"))


def test_the_war_sun_rolls_three_dice() -> None:
    board = {
        "units": ["0202 red warsun 1", "0203 blue dreadnought 1"],
        "dice": [3, 3, 2, 4],
    }
    match = lay_out(empty_match(options={"rules": "full"}), board)
    match.act(0, "activate 0203")
    match.act(0, "move 1 warsun from 0202 to 0203")
    fight = match.state.last_combat
    assert fight is not None and fight["rounds"][0]["rolls"] == [[3, 3, 2], [4]]
    assert fight["rounds"][0]["hits"] == [2, 0]


def fresh(rules: str) -> dict[str, Any]:
    state = Match(RULES, 3, {"rules": rules}, seed=2).state
    return json.loads(json.dumps(RULES.write_position(state)))


@pytest.mark.parametrize(
    ("rules", "change", "words"),
    [
        (
            "compact",
            lambda p: p["space"].update({"0404": {"units": {"0": {"fighter": 1}}}}),
            "no fighter",
        ),
        ("compact", lambda p: p.update({"combat_step": "rolled"}), "compact rules keep none"),
        ("full", lambda p: p.update({"combat_step": "sideways"}), "combat_step"),
        ("full", lambda p: p.update({"retreat": [7, "0203"]}), "retreat"),
        ("full", lambda p: p.update({"made": {"carrier": -1}}), "made['carrier']"),
    ],
)
def test_bad_forces_in_a_position_are_named(rules: str, change: Any, words: str) -> None:
    position = fresh(rules)
    change(position)
    with pytest.raises(BadPosition, match=words.replace("[", r"\[")):
        RULES.read_position(position)


def test_legal_move_lists_stay_bounded_with_loaded_fleets() -> None:
    """A crowded home: every ship type, fighters and ground forces in space and on both
    planets; the moves into a neighbour stay well under the bound the clients can list."""
    units = [
        "0301 red carrier 4",
        "0301 red warsun 2",
        "0301 red dreadnought 3",
        "0301 red cruiser 3",
        "0301 red fighter 6",
        "0301 red infantry 4",
        "Aurel red infantry 6",
        "Aurel red mech 2",
        "Aurel Minor red infantry 2",
        "Aurel Minor red mech 1",
        "Aurel red dock 1",
    ]
    board = {"units": units, "control": {"Aurel": "red", "Aurel Minor": "red"}}
    match = lay_out(empty_match(options={"rules": "full"}), board)
    match.act(0, "activate 0302")
    legal = match.legal_actions(0)
    assert 100 < len(legal) < 2000
    rng = Rng(5)
    for action in (rng.choice(legal) for _ in range(40)):  # each offered move is accepted
        other = RULES.clone(match.state)
        RULES.apply(other, 0, action)


@pytest.mark.parametrize("seed", range(3))
def test_between_actions_no_cargo_is_beyond_capacity(seed: int) -> None:
    """Whatever the bots do, a tactical action never ends with fighters or ground forces in
    a space area beyond its ships' capacity (docks sheltering fighters)."""
    from parley.agents.bots import decide, make_bot
    from parley.games.planets.forces import excess
    from parley.games.planets.state import Stage

    match = Match(RULES, 3 + seed, {"rules": "full"}, seed=seed)
    bots = [make_bot("heuristic" if s % 2 else "random", RULES) for s in range(3 + seed)]
    rng = Rng(seed)
    checked = 0
    for _ in range(700):
        if match.outcome() is not None:
            break
        seat = match.turn().owed[0].seat
        if match.state.stage is Stage.ACTION:
            for sid, area in match.state.space.items():
                for s in area.seats():
                    assert excess(match.state, sid, s) == 0, (sid, s, area.units[s])
            checked += 1
        match.act(seat, RULES.format(decide(bots[seat], match, seat, rng)))
    assert checked > 20


def test_the_view_shows_capacity_the_barrage_and_an_announced_retreat() -> None:
    from parley.kernel import SPECTATOR

    board = {
        "units": [
            "0202 red carrier 1",
            "0202 red destroyer 1",
            "Tasko red infantry 2",
            "0203 blue cruiser 1",
            "Saphra blue infantry 1",
        ],
        "control": {"Saphra": "blue", "Tasko": "red"},
        "dice": [2, 3, 1, 1, 8],  # the barrage; then red misses and blue hits
    }
    match = lay_out(empty_match(options={"rules": "full"}), board)
    match.act(0, "activate 0203")
    match.act(0, "move 1 carrier from 0202 to 0203 with 2 infantry from Tasko")
    match.act(0, "move 1 destroyer from 0202 to 0203")  # the last ships: movement ends
    match.act(1, "retreat to 0204")  # carried out once red has assigned blue's hit
    assert match.turn().owed[0].kind == "hits"
    view = match.observe(SPECTATOR)["view"]
    assert {"system": "0203", "seat": 0, "capacity": 4, "cargo": 2, "sheltered": 0} in view[
        "space_capacity"
    ]
    assert view["retreat"] == {"seat": 1, "system": "0204"}
    assert view["last_combat"]["barrage"] == {"rolls": [[2, 3], []], "hits": [0, 0]}
    text = RULES.render(match.observe(SPECTATOR))
    assert "0203 red: 2 / 4" in text
    assert "Retreat announced: blue to 0204" in text
    assert "anti-fighter barrage: red [2, 3] (0 hits), blue [] (0 hits)" in text


def test_combined_loads_are_judged_as_a_whole() -> None:
    """Two listed loads of the same ships, merged into one move: accepted exactly when the
    merged cargo fits the ships and each place has it; accepted ones move every unit named."""
    from parley.agents.bots import decide, make_bot
    from parley.games.planets.engine import move_problem
    from parley.games.planets.state import Stage

    merged_ok = merged_refused = 0
    for seed in range(4):
        match = Match(RULES, 3, {"rules": "full"}, seed=seed)
        bot = make_bot("heuristic", RULES)
        rng = Rng(seed)
        for _ in range(500):
            if match.outcome() is not None:
                break
            state = match.state
            seat = match.turn().owed[0].seat
            if state.stage is Stage.MOVE and not state.hits and not state.trims:
                loads: dict[tuple[str, tuple[tuple[str, int], ...]], list[Move]] = {}
                for m in match.legal_actions(seat):
                    if isinstance(m, Move) and m.cargo:
                        loads.setdefault((m.source, m.units), []).append(m)
                for group in loads.values():
                    for a, b in itertools.pairwise(group):
                        if {(p, k) for p, k, _ in a.cargo} & {(p, k) for p, k, _ in b.cargo}:
                            continue
                        cargo = tuple(sorted(a.cargo + b.cargo))
                        both = Move(a.source, a.units, a.dest, cargo)
                        room = sum(UNITS[k].capacity * n for k, n in a.units)
                        fits = sum(n for _, _, n in cargo) <= room
                        assert (move_problem(state, seat, both) is None) == fits, both
                        if fits:
                            other = RULES.clone(state)
                            RULES.apply(other, seat, both)
                            for place, kind, n in cargo:
                                assert other.where(place).count(seat, kind) == (
                                    state.where(place).count(seat, kind) - n
                                )
                            merged_ok += 1
                        else:
                            merged_refused += 1
            match.act(seat, RULES.format(decide(bot, match, seat, rng)))
    assert merged_ok and merged_refused
