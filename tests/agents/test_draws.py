"""How each bot answers a proposed draw (`parley.agents.draws`), on set positions."""

from __future__ import annotations

from typing import Any

import pytest
from tests.kernel.toygames import Countdown, Take

from parley import games
from parley.agents import bots, draws
from parley.kernel import Match, Rng


def _decision(match: Match[Any, Any], seat: int, rng: Rng | None = None) -> bots.Decision:
    return bots.Decision(match.rules, seat, match.state, rng or Rng(seat), match=match)


@pytest.mark.parametrize(
    ("game", "seats"),
    [("diplomacy", 7), ("campus", 3), ("illuminati", 3), ("planets", 3), ("sucker", 4)],
)
def test_no_bot_accepts_a_draw_at_move_0(game: str, seats: int) -> None:
    rules = games.find(game)
    match = Match(rules, seats, {}, seed=1)
    assert not draws.standing(rules, match.state, match).late_enough
    for name in bots.bot_names(rules):
        bot = bots.make_bot(name, rules)
        for seat in range(seats):
            assert not bots.draw_vote(bot, _decision(match, seat)), (name, seat)


def _diplomacy_in_1905() -> Match[Any, Any]:
    """Heuristic bots at every seat but Austria, which holds, to the spring of 1905."""
    rules = games.find("diplomacy")
    heuristic = bots.make_bot("heuristic", rules)
    match = Match(rules, 7, {}, seed=1)
    for step in range(200):
        if str(match.state.position.phase) == "S1905M":
            return match
        for seat in sorted(match.turn().owing):
            if seat == 0:
                match.act(seat, rules.default_action(match.state, seat))
            else:
                match.act(seat, bots.decide(heuristic, match, seat, Rng(step)))
    raise AssertionError("the game never reached 1905")


def test_heuristic_bots_accept_late_unless_ahead() -> None:
    match = _diplomacy_in_1905()
    rules = match.rules
    st = draws.standing(rules, match.state, match)
    assert st.progress == 1905 and st.late_enough and st.measure == "game-year"
    counts = match.state.position.centre_counts()
    leader = max(range(7), key=lambda s: counts[s])
    assert sorted(counts)[-1] > sorted(counts)[-2]  # one power leads alone
    for name in ("heuristic", "negotiator", "opportunist"):
        bot = bots.make_bot(name, rules)
        votes = {s: bots.draw_vote(bot, _decision(match, s)) for s in range(7)}
        assert votes == {s: s != leader for s in range(7)}, (name, counts)


def test_the_default_bot_and_civil_disorder_accept_late_whatever_they_hold() -> None:
    match = _diplomacy_in_1905()
    default = bots.make_bot("default", match.rules)
    assert all(bots.draw_vote(default, _decision(match, s)) for s in range(7))
    assert draws.unplayed_accepts(match.rules, match)


def test_the_random_bot_tosses_a_seeded_coin_once_late_enough() -> None:
    match = _diplomacy_in_1905()
    bot = bots.make_bot("random", match.rules)
    answers = [bots.draw_vote(bot, _decision(match, 2, Rng(k))) for k in range(200)]
    assert 60 <= sum(answers) <= 140  # about half
    again = [bots.draw_vote(bot, _decision(match, 2, Rng(k))) for k in range(200)]
    assert again == answers  # the same stream, the same answers


class _Silent:
    name = "silent"

    def choose(self, decision: bots.Decision) -> Any:
        return decision.legal[0]


def test_a_bot_without_a_draw_judgement_refuses() -> None:
    match = _diplomacy_in_1905()
    assert not bots.draw_vote(_Silent(), _decision(match, 1))


def test_a_game_without_a_measure_counts_actions_per_seat() -> None:
    match = Match(Countdown(), 2, {"start": 90}, seed=3)
    for _ in range(39):
        match.act(match.state.mover, Take(1))
    st = draws.standing(match.rules, match.state, match)
    assert (st.progress, st.earliest, st.measure) == (19, 20, "actions per seat")
    assert not draws.unplayed_accepts(match.rules, match)
    match.act(match.state.mover, Take(1))
    assert draws.unplayed_accepts(match.rules, match)
    assert bots.draw_vote(bots.make_bot("default", match.rules), _decision(match, 0))
    # With no strength to compare, nobody is ahead: any bot that judges accepts.
    assert not draws.standing(match.rules, match.state, match).ahead(0)
