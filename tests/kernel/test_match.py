from __future__ import annotations

import json

import pytest
from tests.kernel.toygames import Countdown, SealedBids

from parley.kernel import (
    ARCHIVE,
    SPECTATOR,
    BadOptions,
    IllegalAction,
    InvalidAction,
    Match,
    OutOfTurn,
    RecordError,
    StaleState,
    Viewer,
    load_record,
    replay,
    states,
)

COUNT = Countdown()
BIDS = SealedBids()


def test_setup_is_seeded_and_checks_seats_and_options() -> None:
    movers = {Match(COUNT, 4, seed=s).state.mover for s in range(20)}
    assert movers == {0, 1, 2, 3}
    assert Match(COUNT, 3, seed=11).state.mover == Match(COUNT, 3, seed=11).state.mover
    with pytest.raises(BadOptions, match="2–4 seats, not 5"):
        Match(COUNT, 5)
    with pytest.raises(BadOptions, match="start"):
        Match(COUNT, 2, {"start": 0})


def test_only_the_owed_seat_acts_and_errors_change_nothing() -> None:
    match = Match(COUNT, 3, {"start": 5}, seed=1)
    mover = match.state.mover
    other = (mover + 1) % 3
    with pytest.raises(OutOfTurn, match="nothing to decide"):
        match.act(other, "take 1")
    with pytest.raises(InvalidAction, match="'grab two'"):
        match.act(mover, "grab two")
    with pytest.raises(IllegalAction, match="1 to 3, not 4"):
        match.act(mover, "take 4")
    with pytest.raises(InvalidAction, match="no seat 7"):
        match.act(7, "take 1")
    assert match.state.left == 5 and match.seq == 0 and match.state.mover == mover
    match.act(mover, "TAKE 2")
    assert match.state.left == 3 and match.ply == 1


def test_stale_actions_are_refused() -> None:
    match = Match(COUNT, 2, seed=3)
    first = match.state_id
    match.act(match.state.mover, "take 1", state_id=first)
    with pytest.raises(StaleState, match=f"aimed at state {first}"):
        match.act(match.state.mover, "take 1", state_id=first)


def test_game_over_refuses_actions_and_reports_the_outcome() -> None:
    match = Match(COUNT, 2, {"start": 2}, seed=0)
    winner = match.state.mover
    match.act(winner, "take 2")
    outcome = match.outcome()
    assert outcome is not None and outcome.winners == {winner} and outcome.ranks[winner] == 1
    assert match.turn().owed == ()
    with pytest.raises(OutOfTurn, match="over"):
        match.act(1 - winner, "take 1")


def test_simultaneous_choices_stay_hidden_until_the_round_resolves() -> None:
    match = Match(BIDS, 3, seed=4)
    assert match.turn().simultaneous and match.turn().owing == {0, 1, 2}
    match.act(0, "bid 5")
    match.act(0, "bid 4")  # revising is allowed until everyone is in
    assert match.turn().owing == {1, 2} and 0 in match.turn().anytime
    seen_by_1 = match.history(Viewer.of(1))
    assert seen_by_1[0] == {"seq": 0, "type": "action", "seat": 0, "hidden": True}
    assert match.history(Viewer.of(0))[1]["notation"] == "bid 4"
    assert "bid 4" in json.dumps(match.history(ARCHIVE))
    assert "sealed:0:0:4" not in json.dumps(match.observe(Viewer.of(1)))
    assert "sealed:0:0:4" in json.dumps(match.observe(Viewer.of(0)))
    match.act(1, "bid 1")
    match.act(2, "bid 0")
    assert match.state.round == 1
    assert [e.get("notation") for e in match.history(SPECTATOR)] == [
        "bid 5",
        "bid 4",
        "bid 1",
        "bid 0",
    ]


def test_default_actions_are_recorded_as_automatic() -> None:
    match = Match(BIDS, 2, seed=4)
    match.act(0, "bid 3")
    entry = match.act_default(1)
    assert entry.auto and match.state.history == [[3, 0]]
    assert match.history(ARCHIVE)[1]["auto"] is True


def test_press_is_part_of_the_record_and_private_press_stays_private() -> None:
    match = Match(BIDS, 3, seed=2)
    match.say(0, "hello all")
    match.say(0, "just us", to=[1])
    match.say(None, "the game master speaks")
    assert [e["text"] for e in match.history(Viewer.of(1)) if e["type"] == "press"] == [
        "hello all",
        "just us",
        "the game master speaks",
    ]
    for outsider in (Viewer.of(2), SPECTATOR):
        assert "just us" not in json.dumps(match.history(outsider))
    with pytest.raises(InvalidAction, match="at most"):
        match.say(0, "x" * 5000)
    with pytest.raises(InvalidAction, match="needs some text"):
        match.say(0, "   ")
    with pytest.raises(InvalidAction, match="other recipient"):
        match.say(0, "me", to=[0])


def test_unanimous_draw_ends_the_game_with_secret_votes_until_decided() -> None:
    match = Match(BIDS, 3, seed=2)
    assert match.vote_draw(0, True) is None
    assert match.history(Viewer.of(1))[0] == {"seq": 0, "type": "vote", "seat": 0}
    assert match.history(Viewer.of(0))[0]["accept"] is True
    assert match.vote_draw(1, True) is None
    decision = match.vote_draw(2, True)
    assert decision is not None and decision.agreed
    outcome = match.outcome()
    assert outcome is not None and outcome.draw and outcome.winners == {0, 1, 2}
    with pytest.raises(OutOfTurn):
        match.act(0, "bid 1")


def test_one_no_rejects_a_draw_and_actions_let_proposals_lapse() -> None:
    match = Match(BIDS, 3, seed=2)
    with pytest.raises(IllegalAction, match="no draw proposal"):
        match.vote_draw(1, False)
    match.vote_draw(0, True)
    decision = match.vote_draw(1, False)
    assert decision is not None and not decision.agreed and match.outcome() is None
    match.vote_draw(0, True)
    match.act(1, "bid 2")
    assert match.pending_draw_votes() == frozenset()


def test_record_roundtrip_replay_and_fork() -> None:
    match = Match(BIDS, 2, {"rounds": 2}, seed=8)
    for text in ("bid 1", "bid 5"):
        match.act(0, text)
    match.say(1, "psst", to=[0])
    match.act(1, "bid 2")
    match.vote_draw(0, True)
    match.vote_draw(1, False)
    match.act(0, "bid 0")
    match.act(1, "bid 3")
    assert match.is_over
    record = load_record(match.dumps())
    again = replay(BIDS, record)
    assert again.to_json() == match.to_json()
    assert again.state.scores == match.state.scores
    fork = match.fork(3)
    assert fork.seq == 3 and fork.state.round == 0 and fork.state.bids == {0: 5}
    fork.act(1, "bid 5")
    assert fork.state.round == 1 and match.state.round == 2  # the original is untouched
    steps = list(states(BIDS, record))
    assert len(steps) == len(record["entries"]) + 1
    assert [m.state.round for m in steps][:5] == [0, 0, 0, 0, 1]


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"format": "chess-pgn"}, "not a Parley game record"),
        ({"version": 99}, "version 99"),
        ({"game": "countdown"}, "of 'countdown'"),
        (
            {"entries": [{"type": "action", "seat": 0, "action": "bid 9"}]},
            "entry 0 does not replay",
        ),
        ({"entries": [{"type": "dance"}]}, "unknown entry type"),
        ({"entries": [{"type": "action"}]}, "entry 0 is malformed"),
    ],
)
def test_bad_records_are_refused_clearly(change: dict[str, object], words: str) -> None:
    record = Match(BIDS, 2, seed=1).to_json() | change
    with pytest.raises(RecordError, match=words):
        replay(BIDS, record)


def test_loading_checks_json_and_format() -> None:
    with pytest.raises(RecordError, match="not valid JSON"):
        load_record("{nope")
    with pytest.raises(RecordError, match="a JSON object"):
        load_record("[1]")
    with pytest.raises(RecordError, match="version 2"):
        load_record('{"format": "parley.record", "version": 2}')


def test_copy_is_independent() -> None:
    match = Match(COUNT, 2, seed=5)
    twin = match.copy()
    twin.act(twin.state.mover, "take 3")
    assert match.state.left == 21 and twin.state.left == 18 and match.seq == 0
