"""Win/draw tallies, win shares with 95% intervals and TrueSkill ratings per bot.

A win share is per seat; its interval counts games, not seats (the seats of one game are
one sample).

A game is rated between the *bots* in it, not its seats: each bot takes one place, the
best place any of its seats reached (a seat among `Outcome.winners` comes first, the rest
keep the game's own ranks, tied where the game does not rank them). A bot holding several
seats is therefore one player with one rating update, never the mean of its seats'
updates, which let a bot filling many losing seats rise past one that wins. A game with a
single bot in it (self-play) changes no rating, and a bot that never met another bot is
reported unrated. Games are folded in index order, so the figures do not depend on which
worker finished first.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import trueskill

from parley.kernel import JSON

Z95 = 1.959963984540054  # the standard normal quantile of 0.975


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (successes may be fractional: shared wins)."""
    if trials <= 0:
        return (0.0, 1.0)
    p = min(1.0, max(0.0, successes / trials))
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # Clamped so rounding never leaves the share itself outside its own interval.
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


@dataclass(slots=True)
class Tally:
    """One bot's results, counted per seat it played."""

    games: int = 0
    seats: int = 0
    wins: int = 0  # seats that won alone
    draws: int = 0  # seats among several winners
    losses: int = 0
    points: float = 0.0  # 1 shared among a game's winners
    per_game: list[tuple[float, int]] = field(default_factory=list)  # (points, seats) a game
    _interval: tuple[int, tuple[float, float]] | None = None  # cached for this many games

    @property
    def win_share(self) -> float:
        """Points per seat played; a bot no better than its rivals gets 1/seats-per-game."""
        return self.points / self.seats if self.seats else 0.0

    @property
    def win_share_interval(self) -> tuple[float, float]:
        """95% interval of the win share from a bootstrap over the games the bot played.

        The seats a bot holds in one game share that game's dice and rivals, and at most
        one of them wins it alone: they are one sample, not several, so games are drawn
        (with replacement), never seats. When every game gave the bot the same share the
        draws say nothing of its spread: the Wilson interval with one trial per game
        stands in (4 wins in 4 games: 0.51-1, not 1-1)."""
        if self._interval is None or self._interval[0] != len(self.per_game):
            self._interval = (len(self.per_game), self._bootstrap())
        return self._interval[1]

    def _bootstrap(self) -> tuple[float, float]:
        from .scores import bootstrap  # the same draws as the centre scores

        low, high = bootstrap([(p, float(n)) for p, n in self.per_game])
        if low == high:
            return wilson_interval(self.win_share * self.games, self.games)
        share = self.win_share
        return (min(low, share), max(high, share))

    def to_json(self) -> dict[str, JSON]:
        low, high = self.win_share_interval
        return {
            "games": self.games,
            "seats": self.seats,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "points": round(self.points, 6),
            "win_share": round(self.win_share, 6),
            "win_share_95": [round(low, 6), round(high, 6)],
        }


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        """mu - 3 sigma: the usual leaderboard figure."""
        return self.mu - 3 * self.sigma

    def to_json(self) -> dict[str, JSON]:
        return {
            "mu": round(self.mu, 4),
            "sigma": round(self.sigma, 4),
            "conservative": round(self.conservative, 4),
        }


def bot_places(lineup: Sequence[str], outcome: Mapping[str, Any]) -> dict[str, int]:
    """Each bot's place in one game (0 is best; equal places are ties).

    A bot's place is that of its best seat: winners first, then the game's ranks.
    """
    ranks = [int(r) for r in outcome["ranks"]]
    if len(ranks) != len(lineup):
        raise ValueError(f"the outcome ranks {len(ranks)} seats but the lineup has {len(lineup)}")
    winners = {int(w) for w in outcome["winners"]}
    best: dict[str, int] = {}
    for seat, bot in enumerate(lineup):
        # Winners share place 0 whatever rank the game gave them; the rest follow by rank.
        place = 0 if seat in winners else ranks[seat]
        best[bot] = min(best.get(bot, place), place)
    return best


@dataclass(slots=True)
class Standings:
    """Tallies, current ratings and the rating history of every bot."""

    bots: list[str]
    env: trueskill.TrueSkill = field(
        default_factory=lambda: trueskill.TrueSkill(draw_probability=0.1)
    )
    tallies: dict[str, Tally] = field(default_factory=dict)
    ratings: dict[str, Any] = field(default_factory=dict)
    opponents: dict[str, set[str]] = field(default_factory=dict)
    history: list[dict[str, Rating]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for bot in self.bots:
            self._know(bot)

    def _know(self, bot: str) -> None:
        if bot not in self.tallies:
            if bot not in self.bots:
                self.bots.append(bot)
            self.tallies[bot] = Tally()
            self.ratings[bot] = self.env.create_rating()
            self.opponents[bot] = set()

    def add(self, lineup: Sequence[str], outcome: Mapping[str, Any]) -> None:
        """Count one finished game (`outcome` as in `Outcome.to_json`)."""
        places = bot_places(lineup, outcome)
        winners = {int(w) for w in outcome["winners"]}
        drawn = bool(outcome["draw"]) or len(winners) > 1
        for bot in places:
            self._know(bot)
            self.tallies[bot].games += 1
            self.opponents[bot].update(b for b in places if b != bot)
        for bot in places:
            held = [s for s, b in enumerate(lineup) if b == bot]
            share = sum(1.0 / len(winners) for s in held if s in winners)
            self.tallies[bot].per_game.append((share, len(held)))
        for seat, bot in enumerate(lineup):
            tally = self.tallies[bot]
            tally.seats += 1
            if seat in winners:
                tally.points += 1.0 / len(winners)
                if drawn:
                    tally.draws += 1
                else:
                    tally.wins += 1
            else:
                tally.losses += 1
        if len(places) > 1:
            self._rate(places)
        self.history.append({b: self.rating(b) for b in self.bots if self.is_rated(b)})

    def _rate(self, places: Mapping[str, int]) -> None:
        bots = list(places)
        groups = [(self.ratings[bot],) for bot in bots]
        updated = self.env.rate(groups, ranks=[places[bot] for bot in bots])
        for bot, (rating,) in zip(bots, updated, strict=True):
            self.ratings[bot] = rating

    def is_rated(self, bot: str) -> bool:
        """True once the bot has played a game against another bot."""
        return bool(self.opponents.get(bot))

    def rating(self, bot: str) -> Rating:
        """The bot's current TrueSkill rating (the prior while it is unrated)."""
        r = self.ratings[bot]
        return Rating(float(r.mu), float(r.sigma))

    def ranked(self) -> list[str]:
        """Rated bots by conservative rating, best first, then the unrated ones."""
        rated = sorted(
            (b for b in self.bots if self.is_rated(b)),
            key=lambda b: self.rating(b).conservative,
            reverse=True,
        )
        return rated + [b for b in self.bots if not self.is_rated(b)]

    def to_json(self) -> dict[str, JSON]:
        return {
            bot: {
                **self.tallies[bot].to_json(),
                "rated": self.is_rated(bot),
                "rating": self.rating(bot).to_json() if self.is_rated(bot) else None,
            }
            for bot in self.bots
        }


def standings(
    bots: Iterable[str], results: Iterable[tuple[Sequence[str], Mapping[str, Any]]]
) -> Standings:
    """Standings from (lineup, outcome) pairs, in the order given."""
    table = Standings(list(dict.fromkeys(bots)))
    for lineup, outcome in results:
        table.add(lineup, outcome)
    return table
