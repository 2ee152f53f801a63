"""What the table tells: event wording, the latest action's events, and clear refusals."""

from __future__ import annotations

import pytest
from tests.games.sucker.helpers import act

from parley.games.sucker import RULES
from parley.games.sucker.position import position
from parley.kernel import IllegalAction, Match, Rng, Viewer


def view(state: object) -> dict[str, object]:
    return RULES.observe(state, Viewer())  # type: ignore[arg-type]


def test_one_chip_played_is_singular() -> None:
    state = position(hands={"red": "7 red"}, mover="red")
    act(state, "red", "play red new")
    text = RULES.render(view(state))
    assert "1 chip played" in text and "1 chips" not in text


def test_giving_the_move_to_oneself_reads_as_keeping_it() -> None:
    state = position(hands={"red": "6 red, blue"}, mover="red")
    act(state, "red", "play blue new")  # red, green and yellow are absent: red chooses
    act(state, "red", "next red")
    assert state.recent[-1] == "Red keeps the move"
    assert not any("gives the move to Red" in e for e in state.recent)


def test_a_player_owing_a_choice_is_told_what_they_owe_not_that_they_lack_the_move() -> None:
    state = position(hands={"red": "6 red, blue"}, mover="red")
    act(state, "red", "play blue new")
    with pytest.raises(IllegalAction) as refused:
        act(state, "red", "play red new")
    assert "Red must first choose who moves next" in str(refused.value)
    assert "does not have the move" not in str(refused.value)
    with pytest.raises(IllegalAction) as other:
        act(state, "blue", "play blue new")
    assert "Blue does not have the move" in str(other.value)


def test_rejected_and_withdrawn_public_bargains_leave_an_event_private_ones_do_not() -> None:
    state = position(hands={"red": "7 red"}, mover="red", private_channels=True)
    act(state, "red", 'propose to blue: "together?"')
    act(state, "blue", "reject 1")
    assert state.recent[-1] == "Blue rejects bargain #1 from Red"
    act(state, "red", 'propose to green: "later?"')
    act(state, "red", "withdraw 2")
    assert state.recent[-1] == "Red withdraws bargain #2"
    act(state, "red", 'propose to yellow: "now"')
    act(state, "yellow", "accept 3")
    assert state.recent[-1] == "Bargain #3 from Red is agreed"
    before = state.recent
    act(state, "red", 'propose privately to blue: "secret"')
    act(state, "blue", "reject 4")
    assert state.recent == before


def test_a_capture_and_its_pile_are_told_as_the_latest_events() -> None:
    state = position(hands={"red": "6 red, blue"}, piles=["green blue"], mover="red")
    act(state, "red", "play blue on 1")
    seen = view(state)
    assert seen["latest"] == [
        "Red plays blue on pile 1",
        "Blue captures pile 1 (green blue blue) and must kill one chip of it",
    ]
    act(state, "blue", "kill green")
    assert view(state)["latest"] == ["Blue kills green and takes the rest"]


def test_a_defeat_names_the_defeated_player_and_the_winner() -> None:
    state = position(3, hands={"red": "red", "blue": ""}, mover="red", defeated=["green"])
    events = view(state)["events"]
    act(state, "red", "play red new")
    seen = view(state)
    assert seen["latest"][-1] == (
        "Blue is out of chips and defeated; Red is the last survivor and wins"
    )
    assert seen["events"] == events + len(seen["latest"])
    act_private = position(hands={"red": "7 red"}, mover="red", private_channels=True)
    act(act_private, "red", 'propose privately to blue: "x"')  # no public event: latest kept
    assert view(act_private)["latest"] == []


def test_every_table_event_starts_as_a_sentence() -> None:
    state = position(hands={"red": "7 red"}, piles=["blue green"], mover="red")
    act(state, "red", "play red on 1")
    assert state.recent[-1] == "Only yellow is absent: Yellow moves"
    rng = Rng(7)
    told: list[str] = []
    for seed in range(3):
        match = Match(RULES, ["a", "b", "c", "d"], {}, seed)
        while not match.is_over:
            seat = min(match.turn().owing)
            match.act(seat, RULES.random_action(match.state, seat, rng))
            told.extend(e for e in match.state.recent if e not in told)
    assert any(" is out" in e for e in told)  # captures, kills and defeats among them
    assert all(e[:1].isupper() for e in told), [e for e in told if not e[:1].isupper()]
