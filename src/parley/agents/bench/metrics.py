"""The bench's figures, per player, from the arena's results and the games' records.

Every interval is a 95% percentile bootstrap over *games*: the games are drawn with
replacement and each figure is recomputed from the drawn games, so the seats of one game
(which share its dice, its bots and each other's mistakes) move together, as one sample.
Every player's figures use the same draws, so their intervals compare like with like.

Figures:

* **win share**: points per seat played, a game's 1 point shared among its winners (a bot
  no better than its rivals scores one over the number of seats);
* **Diplomacy: sum-of-squares score** ("sos"): a solo winner scores 1 and the others 0;
  otherwise each power scores its centres squared over the sum of every power's centres
  squared (an eliminated power 0), so a game hands out 1 point in all; its mean per seat;
  and the mean of final supply centres;
* **invalid answers**: answers the rules refused over answers given (models only);
  decisions that ended with the seat's default action, and endpoint failures, apart;
* **promises** (games that record deals): a promise is one party's part of an agreed deal.
  So Long Sucker: each term of an accepted bargain (chips to give, the move to pass) is a
  promise by the seat that owes it, kept or broken as the bargain analysis judges it;
  the note of a bargain is not a promise. Diplomacy: a DAIDE proposal every addressee
  accepted (`YES`) is a promise by each party; when the orders break it, it is broken by
  the party whose orders broke it (the others' part is not judged), and kept by every
  party when nothing broke it by the end. Still pending at the end: open;
  **betrayal rate** = broken / (kept + broken);
* **tokens and cost per game**, from the endpoint's reported usage and the profile's prices.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parley.kernel import JSON, Rng, Rules, Viewer, replay

from ..arena.play import GameResult

RESAMPLES = 2000


@dataclass(slots=True)
class GameFacts:
    """What one game gives each seat, with the seats' players by bench name."""

    index: int
    players: list[str]
    points: list[float]
    capped: bool
    centres: list[int] | None = None  # Diplomacy: final supply centres per seat
    sos: list[float] | None = None
    promises: list[dict[str, int]] = field(default_factory=list)  # per seat
    stats: dict[str, dict[str, float]] = field(default_factory=dict)  # per player


def game_facts(rules: Rules[Any, Any], result: GameResult) -> GameFacts:
    """One finished game's facts, its record replayed for centres and promises."""
    players = list(result.lineup)
    winners = [int(w) for w in result.outcome["winners"]]
    points = [1.0 / len(winners) if seat in winners else 0.0 for seat in range(len(players))]
    facts = GameFacts(
        index=result.index,
        players=players,
        points=points,
        capped=result.capped,
        stats={b: dict(v) for b, v in result.bot_stats.items()},
        promises=[{"made": 0, "kept": 0, "broken": 0, "open": 0} for _ in players],
    )
    if result.path is None:
        return facts
    record = json.loads(Path(result.path).read_text(encoding="utf-8"))
    match = replay(rules, record)
    name = rules.spec.name
    if name == "diplomacy":
        _diplomacy(match, facts, winners)
    elif name == "sucker":
        _sucker(match, facts)
    return facts


def _diplomacy(match: Any, facts: GameFacts, winners: Sequence[int]) -> None:
    from parley.games.diplomacy.deals import Verdict, deal_report

    view: Any = match.observe(Viewer(omniscient=True))["view"]
    powers = list(match.state.map.powers)
    owned = view["position"]["centres"]
    centres = [len(owned.get(powers[seat], [])) for seat in range(len(facts.players))]
    facts.centres = centres
    total = sum(c * c for c in centres)
    solo = len(winners) == 1 and not match.outcome().draw
    facts.sos = [
        (1.0 if seat in winners else 0.0) if solo or not total else c * c / total
        for seat, c in enumerate(centres)
    ]
    tokens = {p: i for i, p in enumerate(powers)} | {p[:3]: i for i, p in enumerate(powers)}
    for check in deal_report(match):
        if check.verdict is Verdict.UNCHECKABLE:
            continue
        parties = sorted(check.deal.parties)
        for seat in parties:
            facts.promises[seat]["made"] += 1
        if check.verdict is Verdict.BROKEN:
            breaker = tokens.get(check.detail.split(" ", 1)[0].upper())
            if breaker is not None and breaker in parties:
                facts.promises[breaker]["broken"] += 1
        else:
            key = "kept" if check.verdict is Verdict.KEPT else "open"
            for seat in parties:
                facts.promises[seat][key] += 1


def _sucker(match: Any, facts: GameFacts) -> None:
    from parley.games.sucker.actions import ChipPromise
    from parley.games.sucker.analysis import Verdict, bargain_report

    for report in bargain_report(match):
        for check in report.checks:
            if check.promise is None or check.verdict is Verdict.UNCHECKABLE:
                continue
            p = check.promise
            seat = p.giver if isinstance(p, ChipPromise) else p.chooser
            facts.promises[seat]["made"] += 1
            if check.verdict is Verdict.KEPT:
                facts.promises[seat]["kept"] += 1
            elif check.verdict is Verdict.BROKEN:
                facts.promises[seat]["broken"] += 1
            else:
                facts.promises[seat]["open"] += 1


# --- per player, with bootstrap intervals ----------------------------------------------


def _ratio(parts: Sequence[tuple[float, float]]) -> float | None:
    den = sum(d for _, d in parts)
    return sum(n for n, _ in parts) / den if den else None


def _per_game(
    games: Sequence[GameFacts], player: str, what: str
) -> list[tuple[float, float] | None]:
    """(numerator, denominator) of a figure in each game; None where the player was absent."""
    out: list[tuple[float, float] | None] = []
    for g in games:
        seats = [s for s, p in enumerate(g.players) if p == player]
        if not seats:
            out.append(None)
            continue
        stats = g.stats.get(player, {})
        if what == "win_share":
            out.append((sum(g.points[s] for s in seats), len(seats)))
        elif what == "sos":
            out.append((sum(g.sos[s] for s in seats), len(seats)) if g.sos else None)
        elif what == "centres":
            out.append((sum(g.centres[s] for s in seats), len(seats)) if g.centres else None)
        elif what == "invalid_rate":
            out.append((stats.get("invalid", 0.0), stats.get("answers", 0.0)) if stats else None)
        elif what == "betrayal_rate":
            broken = sum(g.promises[s]["broken"] for s in seats)
            judged = broken + sum(g.promises[s]["kept"] for s in seats)
            out.append((broken, judged))
        elif what == "tokens_per_game":
            used = stats.get("prompt_tokens", 0.0) + stats.get("completion_tokens", 0.0)
            out.append((used, 1.0) if stats else None)
        elif what == "cost_per_game":
            out.append((stats.get("cost", 0.0), 1.0) if stats else None)
        else:
            raise ValueError(f"no figure {what!r}")
    return out


def _take(
    per: Sequence[tuple[float, float] | None], draw: Sequence[int]
) -> list[tuple[float, float]]:
    """The drawn games' parts of a figure (games the player was not in add nothing)."""
    return [part for part in (per[i] for i in draw) if part is not None]


FIGURES = (
    "win_share",
    "sos",
    "centres",
    "invalid_rate",
    "betrayal_rate",
    "tokens_per_game",
    "cost_per_game",
)


def figures(
    games: Sequence[GameFacts], players: Sequence[str], seed: int, resamples: int = RESAMPLES
) -> dict[str, dict[str, JSON]]:
    """Each player's figures with 95% bootstrap intervals over games (None: no data)."""
    rng = Rng(seed ^ 0x5BE1C4)
    n = len(games)
    draws = [[rng.below(n) for _ in range(n)] for _ in range(resamples)] if n else []
    out: dict[str, dict[str, JSON]] = {}
    for player in players:
        row: dict[str, JSON] = {}
        for what in FIGURES:
            per = _per_game(games, player, what)
            present = [p for p in per if p is not None]
            value = _ratio(present)
            if value is None:
                row[what] = None
                continue
            samples = sorted(
                v for v in (_ratio(_take(per, draw)) for draw in draws) if v is not None
            )
            low = samples[int(0.025 * (len(samples) - 1))] if samples else value
            high = samples[int(0.975 * (len(samples) - 1))] if samples else value
            row[what] = {"value": round(value, 10), "ci95": [round(low, 10), round(high, 10)]}
        out[player] = row
    return out


def totals(games: Sequence[GameFacts], player: str) -> dict[str, JSON]:
    """Counts over the run: games, seats, wins, answers, promises, tokens, cost."""
    seats = sum(g.players.count(player) for g in games)
    played = [g for g in games if player in g.players]
    sums: dict[str, float] = {}
    for g in played:
        for key, value in g.stats.get(player, {}).items():
            sums[key] = sums.get(key, 0.0) + value
    promises = {"made": 0, "kept": 0, "broken": 0, "open": 0}
    for g in played:
        for seat, p in enumerate(g.players):
            if p == player:
                for key in promises:
                    promises[key] += g.promises[seat][key]
    return {
        "games": len(played),
        "seats": seats,
        "points": round(
            sum(g.points[s] for g in played for s, p in enumerate(g.players) if p == player), 6
        ),
        "promises": dict(promises),
        "model": {k: round(v, 8) for k, v in sums.items()} if sums else None,
    }


def order_key(row: Mapping[str, Any], score: str) -> float:
    fig = row.get(score)
    return float(fig["value"]) if isinstance(fig, Mapping) else -1.0
