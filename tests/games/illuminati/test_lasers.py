"""The Orbital Mind Control Lasers in both readings: the reasons given for refusals, the
options tree the clients draw, the JSON form, the observation, and random play with the
Lasers on the table (every legal action round-trips; the bots use them)."""

from __future__ import annotations

from typing import Any

import pytest
from tests.games.illuminati.helpers import act, build

from parley.agents.bots import decide, make_bot
from parley.games.illuminati import RULES, Lasers, view
from parley.kernel import IllegalAction, InvalidAction, Match, Rng, Viewer

TABLE: dict[str, Any] = {
    "illuminati": ["Gnomes of Zurich", "Network", "Servants of Cthulhu"],
    "structure": [
        "P1: Orbital Mind Control Lasers on Gnomes of Zurich north",
        "P2: Pentagon on Network north",
    ],
    "center": ["Texas", "Empty Vee"],
}


def table(**options: str) -> Any:
    return build({**TABLE, "options": options})


def refusal(state: Any, seat: int, text: str) -> str:
    with pytest.raises(IllegalAction) as err:
        act(state, seat, text)
    return err.value.message


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("lasers Texas add Weird", "name the alignment to switch"),
        ("lasers Texas remove Violent", "do not remove one"),
        ("lasers Texas to Weird", "name the alignment to switch"),
        ("lasers Texas from Violent to Government", "is Government already"),
        ("lasers Texas from Weird to Peaceful", "has no Weird alignment"),
        ("lasers Orbital Mind Control Lasers from Communist to Weird", "not themselves"),
        ("lasers Network add Weird", "no group in play"),
    ],
)
def test_the_seed_reading_says_why_a_switch_is_refused(text: str, reason: str) -> None:
    state = table()
    message = refusal(state, 0, text)
    assert reason in message, message
    assert state.lasers == {} and not state.lasered


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("lasers Texas from Violent to Weird", "Violent reverses to Peaceful"),
        ("lasers Texas add Violent", "is Violent already"),
        ("lasers Texas remove Weird", "has no Weird alignment"),
    ],
)
def test_the_option_says_why_a_change_is_refused(text: str, reason: str) -> None:
    message = refusal(table(lasers="add_remove_reverse"), 0, text)
    assert reason in message, message


def test_once_a_turn_and_only_for_the_owner() -> None:
    state = table()
    assert "owner's turn" in refusal(state, 1, "lasers Texas from Violent to Weird")
    act(state, 0, "lasers Texas from Violent to Weird")
    assert "used this turn" in refusal(state, 0, "lasers Pentagon from Violent to Peaceful")
    others = build({**TABLE, "structure": ["P2: Orbital Mind Control Lasers on Network north"]})
    assert "controls no Orbital" in refusal(others, 0, "lasers Texas from Violent to Weird")


def test_the_options_tree_offers_every_switch_with_words_from_the_server() -> None:
    state = table()
    tree = RULES.options_tree(state, 0)
    node = next(c for c in tree.children if c.key == "lasers")
    assert node.label == "Orbital Mind Control Lasers"
    by_group = {g.label: g for g in node.children}
    assert set(by_group) == {"Texas", "Empty Vee", "Pentagon"}
    # Texas has 3 alignments, each may become any of the 7 it has not; Empty Vee has none
    # and may take any of the 10; Pentagon (Government, Straight, Violent) 3 x 7
    assert [len(by_group[g].children) for g in ("Texas", "Empty Vee", "Pentagon")] == [21, 10, 21]
    leaves = {leaf.action: leaf.label for g in node.children for leaf in g.children}
    assert leaves["lasers Texas from Violent to Peaceful"] == "Texas: Violent becomes Peaceful"
    assert leaves["lasers Empty Vee add Weird"] == "Empty Vee gains Weird"
    legal = {RULES.format(a) for a in RULES.legal_actions(state, 0) if isinstance(a, Lasers)}
    assert set(leaves) == legal


def test_the_options_tree_under_the_option() -> None:
    state = table(lasers="add_remove_reverse")
    node = next(c for c in RULES.options_tree(state, 0).children if c.key == "lasers")
    texas = next(g for g in node.children if g.label == "Texas")
    labels = {leaf.label for leaf in texas.children}
    # 7 adds, 3 removals, and the reversals whose opposite Texas has not (Violent, and
    # Conservative, Government: Liberal and Communist)
    assert len(labels) == 10 + 3
    assert {"Texas gains Weird", "Texas loses Violent", "Texas: Violent becomes Peaceful"} <= labels


def test_json_form_round_trips_and_refuses_other_shapes() -> None:
    state = table()
    for action in RULES.legal_actions(state, 0):
        if isinstance(action, Lasers):
            assert RULES.action_from_json(RULES.action_to_json(action), state, 0) == action
    with pytest.raises(InvalidAction):
        RULES.action_from_json({"group": "Texas", "from": "Violent"}, state, 0)


def test_the_observation_shows_the_change_and_the_printed_alignments() -> None:
    state = table()
    act(state, 0, "lasers Texas from Government to Communist")
    seen = view.observe(state, Viewer.of(1))
    assert seen["lasers"] == {"Texas": {"from": "Government", "to": "Communist"}}
    texas = next(c for c in seen["uncontrolled"] if c["name"] == "Texas")  # type: ignore[union-attr,index]
    assert texas["alignments"] == ["Communist", "Conservative", "Violent"]
    assert texas["printed_alignments"] == ["Conservative", "Government", "Violent"]
    assert "Texas: Government becomes Communist" in seen["log"][-1]  # type: ignore[index]


@pytest.mark.parametrize("reading", ["switch", "add_remove_reverse"])
def test_random_and_heuristic_play_with_the_lasers(reading: str) -> None:
    """Bots decide among the Lasers' actions like any other, and each round-trips."""
    used = 0
    for seed in range(6):
        match = Match(RULES, 3, {"lasers": reading}, seed=seed)
        match.state = table(lasers=reading)  # the Lasers already on the table
        players = [make_bot(name, RULES) for name in ("random", "heuristic", "random")]
        rng = Rng(seed)
        for _ in range(150):
            if match.is_over:
                break
            seat = next(iter(match.turn().owing))
            for action in match.legal_actions(seat):
                text = RULES.format(action)
                assert RULES.parse(text, match.state, seat) == action, text
                assert (
                    RULES.action_from_json(RULES.action_to_json(action), match.state, seat)
                    == action
                )
            choice = decide(players[seat], match, seat, rng)
            used += isinstance(choice, Lasers)
            match.act(seat, choice)
    assert used > 0
