"""Per-seat results and Diplomacy's centre scores for an arena run's summary.

The centres are read from the finished match (`GameResult.centres`), so no record is
replayed. The sum-of-squares score: a solo winner scores 1 and the others 0; otherwise
each power scores its final centres squared over the sum of every power's centres
squared (an eliminated power 0): one point per game in all, like a win shared by draw.
Intervals are bootstraps over games: the seats of one game are one sample.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from parley.kernel import JSON, Match, Rng, Rules

from .ratings import wilson_interval

RESAMPLES = 2000


def final_centres(rules: Rules[Any, Any], match: Match[Any, Any]) -> tuple[int, ...] | None:
    """Each seat's supply centres at the end (Diplomacy); None for other games."""
    position = getattr(match.state, "position", None)
    counts = getattr(position, "centre_counts", None)
    if rules.spec.name != "diplomacy" or not callable(counts):
        return None
    found = counts()
    return tuple(int(found[seat]) for seat in range(match.seats))


def sum_of_squares(centres: Sequence[int], outcome: Mapping[str, Any]) -> list[float]:
    """Each seat's sum-of-squares score (see the module's docstring)."""
    winners = {int(w) for w in outcome["winners"]}
    total = sum(c * c for c in centres)
    if (len(winners) == 1 and not outcome["draw"]) or not total:
        return [1.0 / len(winners) if s in winners else 0.0 for s in range(len(centres))]
    return [c * c / total for c in centres]


def bootstrap(
    parts: Sequence[tuple[float, float]], resamples: int = RESAMPLES, seed: int = 0
) -> tuple[float, float]:
    """95% percentile interval of sum(numerators) / sum(denominators), games drawn anew."""
    if not parts:
        return (0.0, 0.0)
    rng = Rng(seed ^ 0xB0075)
    n = len(parts)
    values = []
    for _ in range(resamples):
        drawn = [parts[rng.below(n)] for _ in range(n)]
        den = sum(d for _, d in drawn)
        if den:
            values.append(sum(v for v, _ in drawn) / den)
    values.sort()
    if not values:
        return (0.0, 0.0)
    return (values[int(0.025 * (len(values) - 1))], values[int(0.975 * (len(values) - 1))])


def _share(points: float, seats: int, games: int) -> dict[str, JSON]:
    share = points / seats if seats else 0.0
    low, high = wilson_interval(share * games, games)  # one trial per game, not per seat
    return {
        "games": games,
        "points": round(points, 6),
        "win_share": round(share, 6),
        "win_share_95": [round(low, 6), round(high, 6)],
    }


def by_seat(
    names: Sequence[str], results: Sequence[tuple[Sequence[str], Mapping[str, Any]]]
) -> list[dict[str, JSON]]:
    """Per seat: the points won there, in all and by each bot that held it."""
    out: list[dict[str, JSON]] = []
    for seat, name in enumerate(names):
        points, games = 0.0, 0
        bots: dict[str, list[float]] = {}
        for lineup, outcome in results:
            winners = [int(w) for w in outcome["winners"]]
            won = 1.0 / len(winners) if seat in winners else 0.0
            points += won
            games += 1
            tally = bots.setdefault(lineup[seat], [0.0, 0.0])
            tally[0] += won
            tally[1] += 1
        out.append(
            {
                "seat": seat,
                "name": name,
                **_share(points, games, games),
                "bots": {b: _share(p, int(n), int(n)) for b, (p, n) in bots.items()},
            }
        )
    return out


def centre_scores(
    bots: Sequence[str],
    names: Sequence[str],
    results: Sequence[tuple[Sequence[str], Mapping[str, Any], Sequence[int] | None]],
    seed: int = 0,
) -> dict[str, JSON]:
    """Per bot and per power: mean final centres and sum-of-squares score, with intervals."""
    games = [(lineup, outcome, c) for lineup, outcome, c in results if c is not None]

    def figures(parts_c: list[tuple[float, float]], parts_s: list[tuple[float, float]]) -> JSON:
        seats = sum(d for _, d in parts_c)
        if not seats:
            return None
        low_c, high_c = bootstrap(parts_c, seed=seed)
        low_s, high_s = bootstrap(parts_s, seed=seed)
        return {
            "games": len(parts_c),
            "seats": int(seats),
            "centres": round(sum(v for v, _ in parts_c) / seats, 6),
            "centres_95": [round(low_c, 6), round(high_c, 6)],
            "sos": round(sum(v for v, _ in parts_s) / seats, 6),
            "sos_95": [round(low_s, 6), round(high_s, 6)],
        }

    by_bot: dict[str, JSON] = {}
    for bot in bots:
        parts_c, parts_s = [], []
        for lineup, outcome, centres in games:
            seats = [s for s, b in enumerate(lineup) if b == bot]
            if seats:
                sos = sum_of_squares(centres, outcome)
                parts_c.append((float(sum(centres[s] for s in seats)), float(len(seats))))
                parts_s.append((sum(sos[s] for s in seats), float(len(seats))))
        by_bot[bot] = figures(parts_c, parts_s)
    by_power: dict[str, JSON] = {}
    for seat, name in enumerate(names):
        parts_c = [(float(c[seat]), 1.0) for _, _, c in games]
        parts_s = [(sum_of_squares(c, o)[seat], 1.0) for _, o, c in games]
        by_power[name] = figures(parts_c, parts_s)
    return {
        "score": "sum of squares: a solo 1; else centres squared over the sum of squares",
        "games": len(games),
        "by_bot": by_bot,
        "by_power": by_power,
    }
