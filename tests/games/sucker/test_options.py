"""Options: 3–6 players, 3/5/7 chips, the defeated-colour capture rule, private channels."""

from __future__ import annotations

import pytest

from parley import games
from parley.games.sucker import RULES, CaptureRule, Phase, move_bound
from parley.games.sucker.colours import label
from parley.kernel import ARCHIVE, BadOptions, IllegalAction, Match


def test_the_game_is_registered_under_its_aliases() -> None:
    for name in ("sucker", "so-long-sucker", "So Long Sucker", "SLS"):
        assert games.find(name) is RULES
    assert RULES.spec.default_seats == 4
    assert {o.name: o.default for o in RULES.spec.options} == {
        "chips": 7,
        "defeated_capture": "dead-box",
        "private_channels": False,
    }


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
def test_each_player_owns_a_colour_and_holds_all_of_it(seats: int) -> None:
    match = Match(RULES, seats, seed=seats)
    names = ["Red", "Blue", "Green", "Yellow", "Purple", "Orange"][:seats]
    assert match.seat_names() == names
    state = match.state
    assert state.hands == [[7 if c == s else 0 for c in range(seats)] for s in range(seats)]
    assert state.phase is Phase.MOVE and 0 <= state.holder < seats
    assert match.turn().owing == {state.holder}


@pytest.mark.parametrize("seats", [2, 7])
def test_other_player_counts_are_refused(seats: int) -> None:
    with pytest.raises(BadOptions):
        Match(RULES, seats)


def test_the_first_mover_is_drawn_from_the_seed() -> None:
    firsts = {Match(RULES, 4, seed=s).state.holder for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    assert Match(RULES, 4, seed=11).state.holder == Match(RULES, 4, seed=11).state.holder


@pytest.mark.parametrize("chips", [3, 5, 7])
def test_chips_per_colour(chips: int) -> None:
    match = Match(RULES, 5, {"chips": chips})
    assert [sum(hand) for hand in match.state.hands] == [chips] * 5
    assert match.observe(ARCHIVE)["view"]["chips_per_colour"] == chips
    assert move_bound(5, chips) == 5 * chips * (5 * chips + 2)


def test_other_chip_counts_are_refused() -> None:
    with pytest.raises(BadOptions, match="one of 3, 5, 7"):
        Match(RULES, 4, {"chips": 4})


def test_the_defeated_capture_option() -> None:
    assert Match(RULES, 4).state.capture_rule is CaptureRule.DEAD_BOX
    assert Match(RULES, 4, {"defeated_capture": "leave"}).state.capture_rule is CaptureRule.LEAVE
    with pytest.raises(BadOptions):
        Match(RULES, 4, {"defeated_capture": "keep"})


def test_private_channels_are_off_unless_asked_for() -> None:
    match = Match(RULES, 4, seed=1)
    mover = match.state.holder
    other = (mover + 1) % 4
    with pytest.raises(IllegalAction, match="private bargains are off"):
        match.act(mover, f'propose privately to {label(other)}: "psst"')
    on = Match(RULES, 4, {"private_channels": "on"}, seed=1)
    on.act(mover, f'propose privately to {label(other)}: "psst"')
    assert on.state.bargains[1].private
