"""Observation, the text picture, the options tree, and defaults for absent players."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from tests.games.sucker.helpers import act

from parley.games.sucker import RULES, Colour, Decline, KillFromPile, Play, SuckerRules
from parley.games.sucker.position import position
from parley.kernel import ARCHIVE, SPECTATOR, Match, OptionSpec, Rng, Viewer
from parley.kernel.conformance import CHECKS, random_step


def test_everything_on_the_table_is_public() -> None:
    state = position(
        hands={"red": "3 red, blue", "yellow": "6 yellow, green"},
        piles=["blue", "green red"],
        defeated=[],
    )
    views = [RULES.observe(state, v) for v in (Viewer.of(2), SPECTATOR, ARCHIVE)]
    for view in views:
        view.pop("you")
    assert views[0] == views[1] == views[2]
    view = RULES.observe(state, Viewer.of(0))
    assert view["you"] == "red"
    assert view["players"][0] == {
        "number": 1,
        "colour": "red",
        "alive": True,
        "hand": {"red": 3, "blue": 1},
        "held": 4,
        "prisoners": 1,
    }
    assert view["piles"] == [
        {"number": 1, "chips": ["blue"]},
        {"number": 2, "chips": ["green", "red"]},
    ]
    assert view["phase"] == "move" and view["to_act"] == "red"
    assert view["dead"] == {"red": 3, "yellow": 1}


def test_render_shows_hands_piles_and_the_decision() -> None:
    state = position(hands={"red": "red", "blue": "", "green": "5 green, yellow"}, piles=["green"])
    act(state, "red", "play red on 1")
    act(state, "red", "next blue")
    act(state, "yellow", 'propose to green: green gives yellow to blue; "save blue"')
    text = RULES.render(RULES.observe(state, Viewer.of(2)))
    assert "3 Green   5 green, 1 yellow <- you, to act" in text
    assert "pile 1: green red" in text
    assert "Blue was given the move with no chips" in text
    assert "rescue blue with <colour>" in text
    assert '#1 yellow to green: green gives yellow to blue "save blue"' in text
    # The kernel envelope renders the same.
    match = Match(RULES, 4, seed=1)
    envelope = match.observe(Viewer.of(0))
    assert RULES.render(envelope) == RULES.render(envelope["view"])


def test_render_of_a_finished_game_names_the_winner() -> None:
    state = position(3, hands={"red": "red", "blue": ""}, defeated=["green"])
    act(state, "red", "play red new")
    text = RULES.render(RULES.observe(state, SPECTATOR))
    assert "Game over: Red is the last survivor and wins." in text
    assert "2 Blue    defeated" in text


def test_the_options_tree_groups_the_decision_prisoners_and_bargains() -> None:
    state = position(hands={"red": "2 red, blue"}, piles=["green"])
    act(state, "blue", 'propose to red: "hi"')
    tree = RULES.options_tree(state, 0)
    assert [c.key for c in tree.children] == ["decision", "prisoners", "bargains"]
    assert tree.children[0].leaves()[:3] == ["play red on 1", "play red new", "play blue on 1"]
    assert "give blue to green" in tree.children[1].leaves()
    assert tree.children[2].leaves() == ["accept 1", "reject 1"]


def test_default_actions_are_safe_and_legal() -> None:
    state = position(hands={"red": "red, blue"}, piles=["green"])
    assert RULES.default_action(state, 0) == Play(Colour.RED, None)
    state = position(hands={"red": "blue"}, piles=["green"])
    assert RULES.default_action(state, 0) == Play(Colour.BLUE, None)
    state = position(hands={"red": "2 red"}, piles=["blue green red"])
    act(state, "red", "play red on 1")
    assert RULES.default_action(state, 0) == KillFromPile(Colour.BLUE)  # keep own colour
    state = position(hands={"red": "red", "blue": "", "green": "5 green, yellow"}, piles=["green"])
    act(state, "red", "play red on 1")
    act(state, "red", "next blue")
    assert RULES.default_action(state, 2) == Decline()


class PrivateSucker(SuckerRules):
    """The same game with private channels on by default, for the conformance suite."""

    spec = replace(
        SuckerRules.spec,
        options=tuple(
            OptionSpec(o.name, True, o.help) if o.name == "private_channels" else o
            for o in SuckerRules.spec.options
        ),
    )


def test_conformance_with_private_channels_on() -> None:
    rules = PrivateSucker()
    # The kernel's redaction check is per seat and private bargains belong to groups of
    # seats: the next test checks those.
    for check in ("random_playouts", "record_roundtrip", "notation_roundtrip", "errors"):
        CHECKS[check](rules)


def test_private_bargains_never_reach_non_parties_in_random_games() -> None:
    """The kernel's redaction check is per seat; this one allows for groups of seats."""
    rules = PrivateSucker()
    checked = 0
    for seed in range(4):
        match: Match[Any, Any] = Match(rules, 6, seed=seed)
        rng = Rng(seed + 17)
        for _ in range(150):
            if match.is_over or not random_step(match, rng):
                break
            groups = rules.shared_secrets(match.state)
            if not groups:
                continue
            views = {
                v: json.dumps([match.observe(v), match.history(v)])
                for v in [Viewer.of(s) for s in range(6)] + [SPECTATOR]
            }
            for parties, texts in groups.items():
                for secret in texts:
                    text = json.dumps(secret)[1:-1]  # as it appears inside JSON
                    for viewer, seen in views.items():
                        inside = viewer.seat in parties
                        assert (text in seen) == inside, (seed, viewer, text)
                        checked += 1
            archive = json.dumps(match.observe(ARCHIVE))
            assert all(json.dumps(t)[1:-1] in archive for ts in groups.values() for t in ts)
    assert checked > 100
