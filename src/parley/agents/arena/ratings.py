"""Win/draw tallies and multiplayer TrueSkill ratings per bot, over a run's games.

Each seat of a game is rated as one player holding its bot's current rating, with the
ranks of `Outcome.ranks` (ties allowed); a bot that fills several seats of one game
takes the mean of those seats' updated ratings. Games are folded in index order, so the
figures do not depend on which worker finished first.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import trueskill

from parley.kernel import JSON


@dataclass(slots=True)
class Tally:
    """One bot's results, counted per seat it played."""

    games: int = 0
    seats: int = 0
    wins: int = 0  # seats that won alone
    draws: int = 0  # seats among several winners
    losses: int = 0
    points: float = 0.0  # 1 shared among a game's winners

    @property
    def win_share(self) -> float:
        """Points per seat played; a bot no better than its rivals gets 1/seats-per-game."""
        return self.points / self.seats if self.seats else 0.0

    def to_json(self) -> dict[str, JSON]:
        return {
            "games": self.games,
            "seats": self.seats,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "points": round(self.points, 6),
            "win_share": round(self.win_share, 6),
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


@dataclass(slots=True)
class Standings:
    """Tallies, current ratings and the rating history of every bot."""

    bots: list[str]
    env: trueskill.TrueSkill = field(
        default_factory=lambda: trueskill.TrueSkill(draw_probability=0.1)
    )
    tallies: dict[str, Tally] = field(default_factory=dict)
    ratings: dict[str, Any] = field(default_factory=dict)
    history: list[dict[str, Rating]] = field(default_factory=list)

    def __post_init__(self) -> None:
        for bot in self.bots:
            self.tallies.setdefault(bot, Tally())
            self.ratings.setdefault(bot, self.env.create_rating())

    def add(self, lineup: Sequence[str], outcome: Mapping[str, Any]) -> None:
        """Count one finished game (`outcome` as in `Outcome.to_json`)."""
        ranks = [int(r) for r in outcome["ranks"]]
        winners = {int(w) for w in outcome["winners"]}
        drawn = bool(outcome["draw"]) or len(winners) > 1
        for bot in set(lineup):
            if bot not in self.tallies:
                self.bots.append(bot)
                self.tallies[bot] = Tally()
                self.ratings[bot] = self.env.create_rating()
            self.tallies[bot].games += 1
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
        if len(lineup) > 1:
            self._rate(lineup, ranks)
        self.history.append({b: self.rating(b) for b in self.bots})

    def _rate(self, lineup: Sequence[str], ranks: Sequence[int]) -> None:
        groups = [(self.ratings[bot],) for bot in lineup]
        updated = self.env.rate(groups, ranks=[r - 1 for r in ranks])
        for bot in set(lineup):
            mine = [updated[seat][0] for seat, b in enumerate(lineup) if b == bot]
            mu = sum(r.mu for r in mine) / len(mine)
            sigma = sum(r.sigma for r in mine) / len(mine)
            self.ratings[bot] = self.env.create_rating(mu=mu, sigma=sigma)

    def rating(self, bot: str) -> Rating:
        r = self.ratings[bot]
        return Rating(float(r.mu), float(r.sigma))

    def to_json(self) -> dict[str, JSON]:
        return {
            bot: {**self.tallies[bot].to_json(), "rating": self.rating(bot).to_json()}
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
