"""Arena ratings on scripted outcomes whose right order is known."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parley.agents.arena import Standings
from parley.agents.arena.ratings import bot_places, standings, wilson_interval
from parley.agents.arena.report import plot_ratings
from parley.kernel import Outcome


def _win(seat: int, seats: int) -> dict[str, object]:
    return dict(Outcome.win(seat, seats, "scripted").to_json())


def _shared(inside: list[int], seats: int) -> dict[str, object]:
    return dict(Outcome.shared(inside, seats, "scripted").to_json())


def _lineup(bots: list[str], seats: int, index: int) -> tuple[str, ...]:
    return tuple(bots[(s + index) % len(bots)] for s in range(seats))


def test_a_bot_winning_a_third_of_games_outranks_one_winning_one_in_seventy() -> None:
    # Seven seats, two bots cycled and rotated as the arena does (4 seats and 3 in turn).
    # The strong bot wins 1 game in 3, the weak 1 in 67; the rest end in a draw shared
    # by every seat, the usual end of capped Diplomacy self-play.
    bots = ["strong", "weak"]
    table = Standings(list(bots))
    for index in range(201):
        lineup = _lineup(bots, 7, index)
        if index % 3 == 0:
            outcome = _win(lineup.index("strong"), 7)
        elif index % 67 == 1:
            outcome = _win(lineup.index("weak"), 7)
        else:
            outcome = _shared(list(range(7)), 7)
        table.add(lineup, outcome)
    strong, weak = table.tallies["strong"], table.tallies["weak"]
    assert strong.wins > 20 * weak.wins
    rating_strong, rating_weak = table.rating("strong"), table.rating("weak")
    assert rating_strong.mu - rating_weak.mu > 2 * max(rating_strong.sigma, rating_weak.sigma)
    assert table.ranked() == ["strong", "weak"]
    # The intervals do not overlap: the difference is not noise.
    assert strong.win_share_interval[0] > weak.win_share_interval[1]


def test_three_bots_in_a_strict_order_are_rated_in_that_order() -> None:
    bots = ["c", "a", "b"]
    table = Standings(list(bots))
    strength = {"a": 3, "b": 2, "c": 1}
    for index in range(60):
        lineup = _lineup(bots, 3, index)
        ranked = sorted(range(3), key=lambda s: -strength[lineup[s]])
        scores = [0.0] * 3
        for place, seat in enumerate(ranked):
            scores[seat] = float(3 - place)
        table.add(lineup, Outcome.by_scores(scores, "scripted").to_json())
    assert table.ranked() == ["a", "b", "c"]
    mus = [table.rating(b).mu for b in ("a", "b", "c")]
    assert mus[0] > mus[1] > mus[2]


def test_a_bot_in_several_seats_gets_one_update_not_the_mean_of_its_seats() -> None:
    one_seat = Standings(["a", "b"])
    one_seat.add(("a", "b"), _win(0, 2))
    three_seats = Standings(["a", "b"])
    # a wins with one seat and loses with two: as a bot it beat b, once.
    three_seats.add(("a", "a", "b", "a"), _win(1, 4))
    assert three_seats.rating("a") == one_seat.rating("a")
    assert three_seats.rating("b") == one_seat.rating("b")
    assert three_seats.tallies["a"].seats == 3 and three_seats.tallies["a"].wins == 1


def test_losers_stay_tied_unless_the_game_ranks_them() -> None:
    assert bot_places(("a", "b", "c"), _win(2, 3)) == {"a": 2, "b": 2, "c": 0}
    ranked = Outcome.by_scores([1.0, 5.0, 3.0], "scores").to_json()
    assert bot_places(("a", "b", "c"), ranked) == {"a": 3, "b": 0, "c": 2}
    # Winners of a shared draw come first together, whatever the ranks say.
    assert bot_places(("a", "b", "c"), _shared([0, 1], 3)) == {"a": 0, "b": 0, "c": 2}
    with pytest.raises(ValueError, match="lineup has 2"):
        bot_places(("a", "b"), _win(0, 3))


def test_self_play_leaves_a_bot_unrated_and_out_of_the_rating_history() -> None:
    table = standings(
        ["mirror", "a", "b"],
        [
            (("mirror", "mirror", "mirror"), _win(1, 3)),
            (("a", "b", "a"), _win(1, 3)),
        ],
    )
    summary = table.to_json()
    assert summary["mirror"] == {**summary["mirror"], "rated": False, "rating": None}
    assert table.tallies["mirror"].wins == 1 and table.tallies["mirror"].games == 1
    assert summary["a"]["rated"] is True and summary["b"]["rating"] is not None  # type: ignore[index]
    assert "mirror" not in table.history[-1] and "a" in table.history[-1]
    assert table.ranked()[-1] == "mirror"
    # Self-play moved nobody: the first game left the history empty of ratings.
    assert table.history[0] == {}


def test_win_share_interval_matches_the_wilson_formula() -> None:
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.27753), abs=1e-5)
    assert wilson_interval(5, 10) == pytest.approx((0.23659, 0.76341), abs=1e-5)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    summary = standings(["a", "b"], [(("a", "b"), _win(0, 2))] * 4).to_json()
    assert summary["a"]["win_share"] == 1.0
    assert summary["a"]["win_share_95"] == pytest.approx([0.51011, 1.0], abs=1e-5)


@given(st.integers(0, 200), st.integers(1, 200))
def test_the_interval_holds_the_share_and_stays_in_bounds(wins: int, trials: int) -> None:
    successes = min(wins, trials)
    low, high = wilson_interval(successes, trials)
    assert 0.0 <= low <= successes / trials <= high <= 1.0


def test_the_plot_draws_rated_and_unrated_bots(tmp_path: Path) -> None:
    table = standings(
        ["a", "b", "solo"], [(("a", "b"), _win(0, 2)), (("solo", "solo"), _win(0, 2))]
    )
    path = plot_ratings(tmp_path / "r.png", table, "scripted")
    assert path.read_bytes().startswith(b"\x89PNG")
