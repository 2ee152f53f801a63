"""Scripted chance (rng.Script) and matches started from a position (Match.from_position)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parley.games.campus import RULES as CAMPUS
from parley.games.illuminati import RULES as ILLUMINATI
from parley.games.sucker import RULES as SUCKER
from parley.kernel import (
    BadPosition,
    ChanceError,
    Draw,
    IllegalAction,
    Match,
    OutOfTurn,
    RecordError,
    Rng,
    Script,
    replay,
)


@given(st.integers(min_value=0, max_value=2**64 - 1))
def test_labels_change_no_draw(seed: int) -> None:
    a, b = Rng(seed), Rng(seed)
    items_a, items_b = list(range(9)), list(range(9))
    a.shuffle(items_a, label="the deck")
    b.shuffle(items_b)
    assert items_a == items_b
    assert a.randint(1, 6, label="attack roll") == b.randint(1, 6)
    assert a.choice("abc", label="tie") == b.choice("abc")
    assert a.below(10, label="x") == b.below(10)
    assert a.state == b.state


def test_a_script_gives_its_results_in_order_and_checks_labels() -> None:
    script = Script([("attack roll", 5), Draw("defence", 2), 3, ["deck", ["c", "a", "b"]]])
    assert script.randint(1, 6, label="attack roll by Ash") == 5
    assert script.randint(1, 6, label="Defence roll by Beech") == 2  # case does not matter
    assert script.choice([1, 2, 3], label="anything") == 3  # a bare value matches any label
    deck = ["a", "b", "c"]
    script.shuffle(deck, label="the deck")
    assert deck == ["c", "a", "b"]
    assert script.left == 0
    assert script.drawn[0] == ("attack roll by Ash", 5)
    script.finish()


@pytest.mark.parametrize(
    ("draws", "call", "words"),
    [
        ([], lambda s: s.randint(1, 6, label="attack roll by Ash"), "ran out at draw 1"),
        ([("defence", 2)], lambda s: s.randint(1, 6, label="attack roll"), "expected 2 for"),
        ([7], lambda s: s.randint(1, 6, label="attack roll"), "is not a whole number 1–6"),
        ([True], lambda s: s.below(2), "is not a whole number"),
        (["x"], lambda s: s.choice(["a", "b"], label="tie"), "is not one of"),
        ([["deck", ["a", "a"]]], lambda s: s.shuffle(["a", "b"], label="deck"), "rearrangement"),
        ([1.5], lambda s: s.random(), "from 0 up to 1"),
    ],
)
def test_a_script_that_does_not_fit_fails_clearly(
    draws: list[Any], call: Callable[[Script], object], words: str
) -> None:
    script = Script(draws)
    with pytest.raises(ChanceError) as err:
        call(script)
    assert words in err.value.message


def test_results_left_unused_fail_clearly() -> None:
    script = Script([("attack roll", 5), ("defence roll", 1)])
    script.randint(1, 6, label="attack roll by Ash")
    with pytest.raises(ChanceError, match=r"1 scripted result\(s\) left unused after 1 draw"):
        script.finish()


def test_a_scripted_match_scripts_its_setup_and_records_the_script() -> None:
    # So Long Sucker draws who plays first at set-up, and nothing after.
    match = Match(SUCKER, 4, chance=[("who plays first", 2)])
    assert match.turn().owing == {2}
    match.finish_chance()
    record = json.loads(json.dumps(match.to_json()))
    assert record["chance"] == [["who plays first", 2]]
    assert replay(SUCKER, record).turn().owing == {2}
    with pytest.raises(ChanceError, match="who plays first"):
        Match(SUCKER, 4, chance=[])


def test_a_match_from_a_position_keeps_the_legality_checks() -> None:
    start = Match(CAMPUS, 2, seed=3)
    position = CAMPUS.write_position(start.state)
    match = Match.from_position(CAMPUS, position, ["ann", "bob"])
    other = 1 - start.state.current
    with pytest.raises(OutOfTurn):
        match.act(other, "pass")
    with pytest.raises(IllegalAction):
        match.act(start.state.current, "move B6 to E6")
    assert match.seq == 0 and CAMPUS.write_position(match.state) == position


def test_its_record_starts_with_the_position_and_replays_from_it() -> None:
    start = Match(CAMPUS, 3, seed=8)
    for _ in range(6):
        seat = next(iter(start.turn().owing))
        start.act(seat, start.legal_actions(seat)[-1])
    position = CAMPUS.write_position(start.state)
    match = Match.from_position(CAMPUS, position)
    for _ in range(6):
        seat = next(iter(match.turn().owing))
        match.act(seat, match.legal_actions(seat)[0])
    record = json.loads(match.dumps())
    assert record["position"] == position
    again = replay(CAMPUS, record)
    assert CAMPUS.write_position(again.state) == CAMPUS.write_position(match.state)
    forked = match.fork(2)
    assert forked.seq == 2 and forked.position == position


def test_scripted_dice_from_a_position() -> None:
    from tests.games.illuminati.helpers import build

    state = build(
        {
            "illuminati": ["Gnomes of Zurich", "Network"],
            "structure": ["P2: Texas on Network north"],
            "money": {"Gnomes of Zurich": 20},
        }
    )
    position = ILLUMINATI.write_position(state)
    match = Match.from_position(ILLUMINATI, position, chance=[("attack roll by Player 1", 1)] * 2)
    match.act(0, "attack Texas with Gnomes of Zurich to neutralize")
    while match.script() is not None and match.script().left and match.turn().owing:  # type: ignore[union-attr]
        seat = next(iter(match.turn().owing))
        texts = [ILLUMINATI.format(a) for a in match.legal_actions(seat)]
        match.act(seat, next(t for t in texts if t in ("roll", "pass", "done")))
    match.finish_chance()
    assert ILLUMINATI.write_position(match.state)["players"][1]["links"].get("Texas")  # 2 fails
    record = json.loads(match.dumps())
    assert record["chance"] == [["attack roll by Player 1", 1]] * 2
    assert ILLUMINATI.write_position(replay(ILLUMINATI, record).state) == ILLUMINATI.write_position(
        match.state
    )


def test_a_bad_position_is_refused_before_any_match_exists() -> None:
    with pytest.raises(BadPosition, match="game"):
        Match.from_position(CAMPUS, {"game": "sucker"})
    with pytest.raises(BadPosition, match="2 players were named"):
        Match.from_position(CAMPUS, CAMPUS.write_position(Match(CAMPUS, 3).state), ["a", "b"])
    record = Match(CAMPUS, 2).to_json()
    record["position"] = {"game": "campus", "board": "nonsense"}
    with pytest.raises(RecordError, match="position does not read"):
        replay(CAMPUS, record)


def test_the_decisions_dataset_follows_a_match_from_a_position() -> None:
    from parley.agents.export import decisions

    position = CAMPUS.write_position(Match(CAMPUS, 2, seed=5).state)
    match = Match.from_position(CAMPUS, position)
    for _ in range(4):
        seat = next(iter(match.turn().owing))
        match.act(seat, match.legal_actions(seat)[0])
    lines = list(decisions(json.loads(match.dumps()), "g1"))
    taken = [e["notation"] for e in match.to_json()["entries"]]
    assert [line.action["notation"] for line in lines] == taken
    assert "pass" not in taken
