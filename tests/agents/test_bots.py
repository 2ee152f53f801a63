"""The bot interface: made by name, fed a seat's view, answering legal actions."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.agents.toys import CountdownBot, Marching
from tests.kernel.toygames import Countdown, SealedBids, Take

from parley.agents.bots import bot_names, decide, decision_for, make_bot, register_bot
from parley.agents.heuristics import has_heuristic, register_heuristic, unregister_heuristic
from parley.kernel import BadOptions, Match, Rng


def test_builtin_bots_are_listed() -> None:
    assert {"random", "default", "heuristic"} <= set(bot_names())


@pytest.mark.parametrize(
    "rules", [Countdown(), SealedBids(), Marching()], ids=lambda r: r.spec.name
)
def test_random_bot_plays_whole_games_legally(rules: object) -> None:
    bot = make_bot("random", rules)  # type: ignore[arg-type]
    for seed in range(5):
        match = Match(rules, 3, seed=seed)  # type: ignore[arg-type]
        rng = Rng(seed)
        while not match.is_over:
            for seat in sorted(match.turn().owing):
                match.act(seat, decide(bot, match, seat, rng))  # raises if illegal
        assert match.outcome() is not None


def test_random_bot_is_deterministic_given_its_rng() -> None:
    bot = make_bot("random", Marching())

    def game(seed: int) -> object:
        match = Match(Marching(), 2, seed=0)
        rng = Rng(seed)
        while not match.is_over:
            for seat in sorted(match.turn().owing):
                match.act(seat, decide(bot, match, seat, rng))
        return match.to_json()

    assert game(4) == game(4)
    assert game(4) != game(5)


def test_default_bot_plays_the_seat_default() -> None:
    match = Match(SealedBids(), 2, seed=0)
    action = decide(make_bot("default", match.rules), match, 0, Rng(0))
    assert match.rules.format(action) == "bid 0"


def test_decision_carries_only_the_seats_own_view() -> None:
    match = Match(SealedBids(), 2, seed=0)
    match.act(1, "bid 4")
    decision = decision_for(match, 0, Rng(0))
    assert decision.seat == 0 and decision.observation["viewer"] == 0
    assert "bids" not in decision.view and "my_bid" not in decision.view
    assert decision.notations() == [f"bid {n}" for n in range(6)]


def test_bots_by_import_path_and_registration() -> None:
    bot = make_bot("tests.agents.toys:CountdownBot", Countdown())
    assert isinstance(bot, CountdownBot)
    match = Match(Countdown(), 2, {"start": 7}, seed=0)
    assert decide(bot, match, min(match.turn().owing), Rng(0)) == Take(3)
    with pytest.raises(BadOptions, match="cannot import bot"):
        make_bot("tests.agents.toys:Nobody", Countdown())
    with pytest.raises(BadOptions, match="not a bot"):
        make_bot("tests.agents.toys:TOKENS", Countdown())
    register_bot("always-one", lambda rules: CountdownBot())
    assert isinstance(make_bot("always-one", Countdown()), CountdownBot)


def test_unknown_bot_names_the_known_ones() -> None:
    with pytest.raises(BadOptions, match=r"no bot called 'genius'; bots: .*random"):
        make_bot("genius", Countdown())


@pytest.fixture
def countdown_heuristic() -> Iterator[None]:
    register_heuristic("countdown", lambda rules: CountdownBot())
    yield
    unregister_heuristic("countdown")


def test_heuristic_dispatches_per_game(countdown_heuristic: None) -> None:
    assert has_heuristic("countdown")
    assert isinstance(make_bot("heuristic", Countdown()), CountdownBot)
    assert not has_heuristic("sealed-bids")
    assert "heuristic" in bot_names(Countdown()) and "heuristic" not in bot_names(SealedBids())
    with pytest.raises(BadOptions, match="has no heuristic bot"):
        make_bot("heuristic", SealedBids())
