"""Ratings that tell the truth: win-share intervals count games, not seats; the arena's
summary.json has per-seat results and, for Diplomacy, centre scores."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from parley import games
from parley.agents.arena import ArenaConfig, run_arena
from parley.agents.arena.ratings import Standings
from parley.agents.arena.scores import sum_of_squares
from parley.kernel import Outcome, replay


def _draw(seats: int) -> dict[str, Any]:
    return dict(Outcome.shared(list(range(seats)), seats, "agreed").to_json())


def _win(seat: int, seats: int) -> dict[str, Any]:
    return dict(Outcome.win(seat, seats, "scripted").to_json())


def test_the_interval_of_a_bot_in_three_seats_is_that_of_its_games() -> None:
    # Three seats of four every game; half the games a draw shared by all (a quarter point
    # per seat), half won by the other bot. Per game the bot's share per seat is 0.25 or 0:
    # the spread of its games, not of 600 independent seats, sets the interval.
    table = Standings(["many", "one"])
    n = 200
    for index in range(n):
        table.add(("many", "many", "many", "one"), _draw(4) if index % 2 else _win(3, 4))
    tally = table.tallies["many"]
    assert (tally.games, tally.seats, tally.win_share) == (n, 3 * n, 0.125)
    low, high = tally.win_share_interval
    expected = 1.96 * 0.125 / math.sqrt(n)  # the games' standard deviation is 0.125
    assert low < 0.125 < high
    assert (high - low) / 2 == pytest.approx(expected, rel=0.2)
    # Seats counted as Bernoulli trials gave an interval half as wide again.
    summary = table.to_json()["many"]
    assert summary["win_share_95"] == [round(low, 6), round(high, 6)]  # type: ignore[index]


def test_every_game_alike_falls_back_to_one_trial_per_game() -> None:
    table = Standings(["a", "b"])
    for _ in range(4):
        table.add(("a", "a", "b"), _win(0, 3))
    low, high = table.tallies["a"].win_share_interval
    assert table.tallies["a"].win_share == 0.5
    assert 0.0 < low < 0.5 < high <= 1.0  # not the degenerate [0.5, 0.5]


def test_summary_has_results_per_seat(tmp_path: Path) -> None:
    report = run_arena(
        ArenaConfig(game="sucker", bots=("heuristic", "random"), games=8, seed=3, out=tmp_path)
    )
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    seats = summary["by_seat"]
    assert [s["seat"] for s in seats] == [0, 1, 2, 3]
    assert [s["name"] for s in seats] == games.find("sucker").seat_names(4, {})
    assert sum(s["points"] for s in seats) == pytest.approx(8)  # one point per game
    for s in seats:
        assert s["games"] == 8 and sum(b["games"] for b in s["bots"].values()) == 8
        assert sum(b["points"] for b in s["bots"].values()) == pytest.approx(s["points"])
        low, high = s["win_share_95"]
        assert low <= s["win_share"] <= high
    heuristic_points = sum(s["bots"]["heuristic"]["points"] for s in seats)
    assert heuristic_points == pytest.approx(report.standings.tallies["heuristic"].points)
    assert "centres" not in summary  # only games with supply centres


def test_summary_has_diplomacy_centre_scores(tmp_path: Path) -> None:
    run_arena(
        ArenaConfig(
            game="diplomacy",
            bots=("heuristic", "random"),
            games=3,
            seed=2,
            options={"year_limit": 1902},
            out=tmp_path,
        )
    )
    summary = json.loads((tmp_path / "summary.json").read_text(encoding="utf-8"))
    centres = summary["centres"]
    assert centres["games"] == 3
    # Read the records back: each seat's final centres, and the score they give.
    rules = games.find("diplomacy")
    lines = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
    held: dict[str, list[int]] = {"heuristic": [], "random": []}
    sos: dict[str, list[float]] = {"heuristic": [], "random": []}
    for line in lines:
        match = replay(rules, json.loads(Path(line["record"]).read_text(encoding="utf-8")))
        counts = match.state.position.centre_counts()
        assert line["centres"] == [counts[s] for s in range(7)]
        scores = sum_of_squares(line["centres"], line["outcome"])
        assert sum(scores) == pytest.approx(1.0)
        for seat, bot in enumerate(line["players"]):
            held[bot].append(line["centres"][seat])
            sos[bot].append(scores[seat])
    for bot in ("heuristic", "random"):
        row = centres["by_bot"][bot]
        assert row["seats"] == len(held[bot])
        assert row["centres"] == pytest.approx(sum(held[bot]) / len(held[bot]), abs=1e-6)
        assert row["sos"] == pytest.approx(sum(sos[bot]) / len(sos[bot]), abs=1e-6)
        assert row["centres_95"][0] <= row["centres"] <= row["centres_95"][1]
    assert set(centres["by_power"]) == set(rules.seat_names(7, {}))
    assert centres["by_bot"]["heuristic"]["centres"] > centres["by_bot"]["random"]["centres"]
