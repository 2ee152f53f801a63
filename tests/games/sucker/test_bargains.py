"""Bargains: proposed, accepted, rejected, withdrawn; recorded; never enforced; analysed."""

from __future__ import annotations

import json

import pytest
from tests.games.sucker.helpers import act, owed, seat

from parley.games.sucker import MAX_OPEN_BARGAINS, RULES, Phase
from parley.games.sucker.analysis import Verdict, bargain_report
from parley.games.sucker.position import position
from parley.kernel import ARCHIVE, SPECTATOR, IllegalAction, Match, Viewer


def test_a_bargain_is_agreed_when_every_addressee_accepts() -> None:
    state = position(mover="red")
    act(state, "red", "propose to blue, green: blue passes to red; green passes to red")
    assert list(state.bargains) == [1]
    act(state, "blue", "accept 1")
    assert state.bargains[1].accepted == {1} and not state.agreed
    with pytest.raises(IllegalAction, match="accepted bargain 1 already"):
        act(state, "blue", "accept 1")
    # To a player who is not party to it, the bargain does not exist.
    with pytest.raises(IllegalAction, match="there is no open bargain 1"):
        act(state, "yellow", "accept 1")
    act(state, "green", "accept 1")
    assert state.bargains == {} and [b.id for b in state.agreed] == [1]
    assert owed(state) == ("red", "move")  # bargaining changes nothing on the table


def test_one_rejection_ends_a_bargain_and_the_proposer_may_withdraw() -> None:
    state = position(mover="red")
    act(state, "red", "propose to blue, green: blue passes to red")
    act(state, "blue", "accept 1")
    act(state, "green", "reject 1")
    assert state.bargains == {} and state.agreed == []
    act(state, "yellow", 'propose to red: "truce?"')
    with pytest.raises(IllegalAction, match="only the proposer"):
        act(state, "red", "withdraw 2")
    act(state, "yellow", "withdraw 2")
    assert state.bargains == {}
    with pytest.raises(IllegalAction, match="no open bargain 2"):
        act(state, "red", "accept 2")


def test_promises_must_come_from_parties_and_be_keepable_in_principle() -> None:
    state = position(mover="red")
    with pytest.raises(IllegalAction, match="not a party"):
        act(state, "red", "propose to blue: green passes to red")
    with pytest.raises(IllegalAction, match="own colour"):
        act(state, "red", "propose to blue: red gives red to blue")
    with pytest.raises(IllegalAction, match="to oneself"):
        act(state, "red", "propose to red: red passes to blue")
    with pytest.raises(IllegalAction, match="another player"):
        act(state, "red", "propose to blue: blue passes to blue")
    assert state.bargains == {}


def test_a_player_has_at_most_a_few_open_bargains() -> None:
    state = position(mover="red")
    for _ in range(MAX_OPEN_BARGAINS):
        act(state, "red", 'propose to blue: "hello"')
    with pytest.raises(IllegalAction, match="withdraw one first"):
        act(state, "red", 'propose to blue: "hello"')
    act(state, "red", "withdraw 2")
    act(state, "red", 'propose to green: "hello"')
    assert sorted(state.bargains) == [1, 3, 4]


def test_open_bargains_lapse_when_a_party_is_defeated() -> None:
    state = position(
        hands={"red": "2 red", "blue": "", "green": "5 green, yellow"}, piles=["green"]
    )
    act(state, "blue", 'propose to yellow: "help me"')
    act(state, "green", 'propose to yellow: "hi"')
    act(state, "red", "play red on 1")
    act(state, "red", "next blue")
    act(state, "green", "decline")
    assert not state.alive[1]
    assert list(state.bargains) == [2]


def test_bargain_actions_are_recorded_and_replayed() -> None:
    match = Match(RULES, 4, seed=5)
    mover = match.state.holder
    other = (mover + 1) % 4
    entry = match.act(mover, f'propose to {other + 1}: {other + 1} passes to {mover + 1}; "ok?"')
    match.act(other, "accept 1")
    record = match.to_json()
    assert record["entries"][0]["notation"] == RULES.format(entry.action)
    again = Match(RULES, 4, seed=5)
    for raw in record["entries"]:
        again.act(raw["seat"], raw["action"])
    assert again.observe(ARCHIVE) == match.observe(ARCHIVE)


def test_private_bargains_are_seen_only_by_their_parties() -> None:
    match = Match(RULES, 4, {"private_channels": True}, seed=5)
    red, blue, green = 0, 1, 2
    match.act(red, 'propose privately to blue: blue passes to red; "our secret"')
    match.act(blue, "accept 1")
    match.act(green, 'propose to red: "a public word"')
    for viewer in (Viewer.of(red), Viewer.of(blue), ARCHIVE):
        text = json.dumps([match.observe(viewer), match.history(viewer)])
        assert "our secret" in text
    for viewer in (Viewer.of(green), Viewer.of(3), SPECTATOR):
        text = json.dumps([match.observe(viewer), match.history(viewer)])
        assert "our secret" not in text and "passes to red" not in text
        assert "a public word" in text
        hidden = [e for e in match.history(viewer) if e.get("hidden")]
        assert [e["seat"] for e in hidden] == [red, blue]
    assert RULES.shared_secrets(match.state) == {
        frozenset({red, blue}): ['propose privately to blue: blue passes to red; "our secret"']
    }


def test_the_random_player_never_proposes_privately_without_the_option() -> None:
    match = Match(RULES, 4, seed=3)
    from parley.kernel import Rng
    from parley.kernel.conformance import play_random

    play_random(match, Rng(9), 5000)
    proposals = [e for e in match.to_json()["entries"] if "propose" in str(e.get("notation"))]
    assert proposals and not any("privately" in e["notation"] for e in proposals)


# --- the analysis: promises kept and broken ------------------------------------------------


def first_mover_seed(colour: int) -> int:
    """A seed whose four-player game starts with `colour` to move."""
    return next(s for s in range(200) if Match(RULES, 4, seed=s).state.holder == colour)


def scripted_match() -> Match:  # type: ignore[type-arg]
    """Blue moves first; red captures a blue prisoner and gives it as promised."""
    match: Match = Match(RULES, 4, seed=first_mover_seed(1))  # type: ignore[type-arg]
    steps = [
        ("blue", "play blue new"),  # pile 1: blue; choices green, yellow, red
        ("red", "propose to green: red gives blue to green; green passes to red"),  # 1
        ("green", "accept 1"),
        ("yellow", 'propose to blue: blue passes to yellow; "deal?"'),  # 2
        ("blue", "accept 2"),
        ("green", "propose to yellow: yellow gives green to green"),  # 3
        ("yellow", "accept 3"),
        ("red", "propose to blue, yellow: blue passes to red"),  # 4: only blue accepts
        ("blue", "accept 4"),
        ("green", "propose to blue: blue passes to green"),  # 5: rejected
        ("blue", "reject 5"),
        ("blue", "next red"),  # breaks bargain 2: yellow was allowed too
        ("red", "play red on 1"),  # blue red: choices green, yellow
        ("red", "next green"),
        ("green", "play green new"),  # pile 2: green; choices yellow, red, blue
        ("green", "next red"),  # keeps bargain 1's move promise
        ("red", "play red on 1"),  # blue red red: red captures
        ("red", "kill red"),  # red takes blue and red
        ("red", "give blue to green"),  # keeps bargain 1's chip promise
        ("red", "play red new"),  # pile 3: red; choices blue, green, yellow
        ("red", "next blue"),
        ("blue", "play blue new"),  # pile 4: blue; choices green, yellow, red
        ("blue", "next green"),
    ]
    for who, text in steps:
        match.act(seat(who), text)
    return match


def test_the_analysis_tells_kept_from_broken_promises() -> None:
    match = scripted_match()
    reports = {r.bargain: r for r in bargain_report(match)}
    assert sorted(reports) == [1, 2, 3]  # 4 was never fully accepted, 5 was rejected
    one = reports[1]
    assert (one.proposer, one.to) == (0, (2,))
    assert [(c.text, c.verdict) for c in one.checks] == [
        ("red gives blue to green", Verdict.KEPT),
        ("green passes to red", Verdict.KEPT),
    ]
    give = match.entries[one.checks[0].evidence[0]]
    assert RULES.format(give.action) == "give blue to green"  # type: ignore[union-attr]
    two = reports[2]
    assert [(c.text, c.verdict) for c in two.checks] == [
        ("blue passes to yellow", Verdict.BROKEN),
        ('"deal?"', Verdict.UNCHECKABLE),
    ]
    # Blue's first choice after the agreement allowed yellow, and blue chose red.
    assert two.checks[0].detail == "chose red instead"
    chosen = match.entries[two.checks[0].evidence[0]]
    assert RULES.format(chosen.action) == "next red"  # type: ignore[union-attr]
    assert [(c.text, c.verdict) for c in reports[3].checks] == [
        ("yellow gives green to green", Verdict.PENDING)
    ]


def test_unkept_chip_promises_are_broken_once_the_game_is_over() -> None:
    match = scripted_match()
    while not match.is_over:
        match.act_default(min(match.turn().owing))
    reports = {r.bargain: r for r in bargain_report(match)}
    check = reports[3].checks[0]
    assert check.verdict is Verdict.BROKEN and check.detail == "0 of 1 given"
    assert match.state.phase is Phase.OVER
