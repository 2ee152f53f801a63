"""The fuller round beyond the scenario tables: old records, positions mid-round, the sheet."""

from __future__ import annotations

from typing import Any

import pytest

from parley.games.planets import RULES, strategy
from parley.games.planets.strategy import TOKENS_PER_SEAT, reinforcements
from parley.kernel import SPECTATOR, BadPosition, Match, Rng, replay
from parley.kernel.conformance import play_random, random_step


def test_a_record_from_before_the_rules_option_replays_as_the_compact_game() -> None:
    match: Match[Any, Any] = Match(RULES, 3, {"rules": "compact"}, seed=3)
    play_random(match, Rng(3), 120)
    record = match.to_json()
    old = {**record, "options": {k: v for k, v in record["options"].items() if k != "rules"}}
    again = replay(RULES, old)
    assert again.state.compact
    assert again.observe(SPECTATOR) == match.observe(SPECTATOR)
    assert RULES.legacy_options == {"rules": "compact"}


def test_a_record_of_the_full_game_keeps_its_rules() -> None:
    match: Match[Any, Any] = Match(RULES, 3, seed=3)
    play_random(match, Rng(3), 120)
    again = replay(RULES, match.to_json())
    assert not again.state.compact
    assert again.observe(SPECTATOR) == match.observe(SPECTATOR)


@pytest.mark.parametrize("seats", [3, 5])
def test_positions_mid_round_read_back_as_written(seats: int) -> None:
    match: Match[Any, Any] = Match(RULES, seats, seed=11)
    rng = Rng(11)
    stages = set()
    step = 0
    while match.outcome() is None:
        random_step(match, rng)
        state = match.state
        stages.add(state.stage.value)
        step += 1
        if step % 3:
            continue
        position = RULES.write_position(state)
        again = RULES.read_position(position)
        assert RULES.write_position(again) == position
        assert RULES.observe(again, SPECTATOR) == RULES.observe(state, SPECTATOR)
    assert {"strategy", "primary", "secondary", "status"} <= stages


def test_every_seat_keeps_sixteen_command_tokens() -> None:
    match: Match[Any, Any] = Match(RULES, 4, seed=5)
    rng = Rng(5)
    while match.outcome() is None:
        random_step(match, rng)
        state = match.state
        for seat in range(state.seats):
            pools = state.tactics[seat] + state.fleet[seat] + state.strategy_pool[seat]
            board = sum(owners.count(seat) for owners in state.tokens.values())
            held = state.gain if state.current == seat else 0
            assert pools + board + held + reinforcements(state, seat) == TOKENS_PER_SEAT
            assert reinforcements(state, seat) >= 0


@pytest.mark.parametrize("seats", [5, 6])
def test_five_or_six_players_take_one_card_each(seats: int) -> None:
    match: Match[Any, Any] = Match(RULES, seats, seed=2)
    state = match.state
    order = [(state.speaker + k) % seats for k in range(seats)]
    for seat in order:
        assert match.turn().owed[0].seat == seat
        match.act(seat, RULES.format(match.legal_actions(seat)[-1]))  # the highest card left
    assert state.stage.value == "action"
    assert sorted(h for h in state.holders if h is not None) == list(range(seats))
    assert state.card_goods == [1] * (8 - seats) + [0] * seats
    # initiative: the lowest card first, which the last picker took
    assert strategy.initiative(state)[0] == order[-1]


def test_a_position_with_broken_round_fields_is_refused() -> None:
    match: Match[Any, Any] = Match(RULES, 3, seed=2)
    good = RULES.write_position(match.state)
    for change, words in (
        ({"holders": [0, None]}, "one entry per strategy card"),
        ({"tactics": [14, 3, 3]}, "more than 16 tokens"),
        ({"speaker": 5}, "speaker"),
        ({"trims": [[0, "9999"]]}, "no system"),
    ):
        with pytest.raises(BadPosition, match=words):
            RULES.read_position({**good, **change})
    compact = RULES.write_position(Match(RULES, 3, {"rules": "compact"}, seed=2).state)
    with pytest.raises(BadPosition, match="compact rules"):
        RULES.read_position({**compact, "holders": [None] * 8})


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("take Accord", "pick accord"),
        ("pick 2", "pick accord"),
        ("strategy 8", "strategy dominion"),
        ("Follow DOMINION", "follow dominion"),
        ("decline", "decline"),
        ("tokens 3 3 2", "tokens 3 3 2"),
        ("buy a token", "buy token"),
        ("seal 203", "seal 0203"),
        ("ready vesta", "ready Vesta"),
        ("speaker Blue", "speaker blue"),
        ("place spacedock on vesta", "place dock on Vesta"),
        ("grant green", "grant green"),
        ("lift 0203", "lift 0203"),
        ("score throne", "score throne"),
        ("remove dread", "remove dreadnought"),
        ("pay the custodians", "pay custodians"),
    ],
)
def test_the_round_is_read_leniently_and_written_canonically(text: str, canonical: str) -> None:
    action = RULES.parse(text)
    assert RULES.format(action) == canonical
    assert RULES.parse(canonical) == action


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("pick banana", "not a strategy card"),
        ("pick 9", "not a strategy card"),
        ("tokens 3 3", "three counts"),
        ("speaker pink", "not a player's colour"),
        ("score nothing", "not an objective"),
    ],
)
def test_bad_round_notation_is_refused_with_the_reason(text: str, words: str) -> None:
    from parley.kernel import InvalidAction

    with pytest.raises(InvalidAction, match=words):
        RULES.parse(text)


def test_a_secondary_asks_the_others_in_turn_and_the_table_shows_who() -> None:
    match: Match[Any, Any] = Match(RULES, 4, seed=2)
    state = match.state
    while state.stage.value == "strategy":
        seat = match.turn().owed[0].seat
        match.act(seat, RULES.format(match.legal_actions(seat)[0]))
    assert RULES.window(state) is None
    holder = match.turn().owed[0].seat
    card = next(a for a in match.legal_actions(holder) if type(a).__name__ == "Strategic")
    match.act(holder, RULES.format(card))
    while state.stage.value == "primary":
        match.act(holder, RULES.format(match.rules.default_action(state, holder)))
    order = [(holder + k) % 4 for k in range(1, 4)]
    asked = match.turn().owed[0].seat
    window = RULES.window(state)
    assert window is not None
    at = order.index(asked)
    assert window.answered == tuple(order[:at]) and window.later == tuple(order[at + 1 :])
