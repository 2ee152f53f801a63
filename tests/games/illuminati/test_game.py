"""Whole games: the round limit ends random play, hidden cards stay hidden, views are whole."""

from __future__ import annotations

import json

import pytest
from tests.games.illuminati.helpers import build, run_steps

from parley.games.illuminati import RULES, Phase
from parley.games.illuminati.cards import load
from parley.kernel import ARCHIVE, SPECTATOR, Match, Rng, Viewer
from parley.kernel.conformance import play_random


@pytest.mark.parametrize("seats", [2, 5, 8])
def test_random_games_end_by_the_round_limit(seats: int) -> None:
    # Without elimination only a goal or the round limit (default 12) ends a game; random
    # play stays far under max_plies (12,000): at most ~1,300 actions in 8-player games.
    for seed in range(2):
        match = Match(RULES, seats, {"elimination": False, "rounds": 6}, seed=seed)
        plies = play_random(match, Rng(seed), RULES.spec.max_plies)
        assert match.is_over, f"seed {seed}: not over after {plies} actions"
        assert plies < RULES.spec.max_plies // 4
        assert match.state.round <= 7
        outcome = match.outcome()
        assert outcome is not None and outcome.winners


def test_card_counts() -> None:
    cards = load()
    assert len(cards.illuminati) == 8
    assert len(cards.groups) == 83
    assert sum(s.copies for s in cards.specials) == 15
    assert len(cards.deck()) == 98


def test_by_default_each_player_is_dealt_an_illuminati_at_setup() -> None:
    # The seed's blind pick among face-down cards comes to a random deal.
    for seed in range(5):
        state = Match(RULES, 5, seed=seed).state
        assert state.phase is not Phase.CHOOSE
        names = [p.illuminati for p in state.players]
        assert all(names) and len(set(names)) == 5
        assert len(state.center) >= 4  # four dealt, and the first draw may add one


def test_setup_deals_four_groups_and_each_player_chooses() -> None:
    match = Match(RULES, 3, {"illuminati": "choose"}, seed=5)
    state = match.state
    assert state.phase is Phase.CHOOSE
    assert len(state.center) == 4 and all(load().is_group(c) for c in state.center)
    first = state.first
    assert next(iter(match.turn().owing)) == first
    match.act(first, "take UFOs")
    match.act((first + 1) % 3, "take Network")
    match.act((first + 2) % 3, "take Gnomes")
    assert match.state.phase is Phase.GOAL
    assert next(iter(match.turn().owing)) == first
    match.act(first, "goal Network")
    # the choice is recorded for the UFOs only
    hidden = [e for e in match.history(Viewer.of((first + 1) % 3)) if e.get("hidden")]
    assert len(hidden) == 1
    mine = RULES.observe(match.state, Viewer.of(first))["players"][first]
    assert "Network" in mine["secret_goal"]
    theirs = RULES.observe(match.state, Viewer.of((first + 1) % 3))["players"][first]
    assert "secret_goal" not in theirs
    assert match.state.players[first].money["UFOs"] == 16  # 8 at setup, 8 income in turn 1


def test_face_down_cards_and_espionage_are_seen_by_their_owner_only() -> None:
    sc = {
        "illuminati": ["Gnomes of Zurich", "Network", "Bermuda Triangle"],
        "hands": {"P1": ["Computer Espionage"], "P2": ["Slush Fund", "Deep Agent:up"]},
    }
    state = build(sc)
    for viewer in (Viewer.of(0), Viewer.of(2), SPECTATOR):
        hand = RULES.observe(state, viewer)["players"][1]["hand"]
        assert hand[0] == {"card": None, "face_up": False}
        assert hand[1]["card"] == "Deep Agent"
    assert RULES.observe(state, Viewer.of(1))["players"][1]["hand"][0]["card"] == "Slush Fund"
    assert "Slush Fund" in RULES.secrets(state, 1)
    run_steps(state, ["P1: play Computer Espionage on Player 2", "P2: pass"])
    seen = RULES.observe(state, Viewer.of(0))
    assert seen["players"][1]["hand"][0]["card"] == "Slush Fund"
    assert "Slush Fund" in json.dumps(seen["notes"])
    other = RULES.observe(state, Viewer.of(2))
    assert other["notes"] == [] and other["players"][1]["hand"][0]["card"] is None
    assert "Slush Fund" not in RULES.secrets(state, 1)  # player 1 knows it now


def test_hidden_variant_keeps_what_the_viewer_sees() -> None:
    match = Match(RULES, 4, {"illuminati": "random"}, seed=11)
    play_random(match, Rng(3), 80)
    for seat in range(4):
        variant = RULES.hidden_variant(match.state, Viewer.of(seat), Rng(seat))
        assert variant is not None
        assert RULES.observe(variant, Viewer.of(seat)) == RULES.observe(
            match.state, Viewer.of(seat)
        )
        assert len(variant.deck) == len(match.state.deck)
        assert sorted(variant.deck + [h.card for p in variant.players for h in p.hand]) == sorted(
            match.state.deck + [h.card for p in match.state.players for h in p.hand]
        )
    assert RULES.hidden_variant(match.state, ARCHIVE, Rng(1)) is None


def test_observation_describes_structures_for_drawing() -> None:
    state = build(
        {
            "illuminati": ["Gnomes of Zurich", "Network"],
            "structure": [
                "P1: Big Media on Gnomes of Zurich east",
                "P1: Democrats on Big Media north",
            ],
            "money": {"Big Media": 4},
            "center": ["Texas"],
        }
    )
    view = RULES.observe(state, Viewer.of(1))
    cards = {c["name"]: c for c in view["structures"][0]["cards"]}
    bm = cards["Big Media"]
    assert (bm["x"], bm["y"], bm["w"], bm["h"], bm["orientation"]) == (2, 1, 4, 2, "landscape")
    assert bm["in_arrow"] == "west" and bm["master"] == "Gnomes of Zurich" and bm["treasury"] == 4
    assert {a["direction"]: a["to"] for a in bm["out_arrows"]} == {
        "east": None,
        "north": "Democrats",
        "south": None,
    }
    assert cards["Gnomes of Zurich"]["in_arrow"] is None
    assert view["uncontrolled"][0]["name"] == "Texas"
    assert view["deck"] == 0 and view["attack"] is None
    json.dumps(view)
    text = RULES.render(view)
    assert "Big Media" in text and "free arrows" in text


def test_attack_in_the_view_and_the_options_tree() -> None:
    state = build({"illuminati": ["Gnomes of Zurich", "Network"], "center": ["Texas"]})
    run_steps(state, ["P1: attack Texas with Gnomes of Zurich to control", "P1: roll"])
    view = RULES.observe(state, SPECTATOR)
    attack = view["attack"]
    assert attack["need"] == 1 and attack["terms"]["defence"] == -6
    assert view["window"] == {"kind": "react", "order": [1]}
    assert attack["answers"] == [
        {"seat": 0, "action": "attack Texas with Gnomes of Zurich to control"},
        {"seat": 0, "action": "roll"},
    ]
    tree = RULES.options_tree(state, 1)
    assert "pass" in tree.leaves() and "interfere 3 against" in tree.leaves()
    assert "Texas" in RULES.render(view) and "needs 1 or less" in RULES.render(view)
