"""Negotiation with consequences: the negotiating bots with and without their trust ledger.

    .venv/bin/python benchmarks/negotiation_trust.py                 # both games, defaults
    .venv/bin/python benchmarks/negotiation_trust.py --game diplomacy --games 14
    .venv/bin/python benchmarks/negotiation_trust.py --game sucker --games 200

Each game is played twice in the arena with the same seeds and seat rotation: once by the
bots that keep and act on a ledger (`negotiator`, `opportunist`), once by the naive ones
that trust everyone (`negotiator-naive`, `opportunist-naive`); plain `heuristic` seats
never talk. Reported per bot:

* Diplomacy (seven seats, drawn after 1910): mean supply centres at the end of 1910.
* So Long Sucker (four seats): win share (a shared win counts as a share).
* Both: proposals sent, how many went to seats that never answered one (the heuristic
  seats), how many repeated an earlier proposal to the same seat word for word, and the
  promises kept and broken by the deal report.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

from parley import games
from parley.agents.arena import ArenaConfig, run_arena
from parley.games.diplomacy import daide
from parley.games.sucker.actions import Propose
from parley.kernel import ActionEntry, PressEntry, replay

LINEUPS = {
    "diplomacy": (
        "negotiator",
        "opportunist",
        "heuristic",
        "negotiator",
        "opportunist",
        "negotiator",
        "heuristic",
    ),
    "sucker": ("negotiator", "opportunist", "negotiator", "opportunist"),
}
OPTIONS: dict[str, dict[str, Any]] = {"diplomacy": {"year_limit": 1910}, "sucker": {}}


def naive(lineup: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(b if b == "heuristic" else f"{b}-naive" for b in lineup)


def proposals(rules: Any, record: dict[str, Any]) -> list[tuple[int, int, str]]:
    """(sender, recipient, text) of every proposal in the record, in order."""
    match = replay(rules, record)
    out: list[tuple[int, int, str]] = []
    powers: list[str] = []
    if rules.spec.name == "diplomacy":
        powers = list(match.start_state().map.powers)
    for entry in match.entries:
        if isinstance(entry, PressEntry) and entry.seat is not None and entry.to and powers:
            press, _ = daide.parse_message(entry.text, powers)
            if isinstance(press, daide.Propose):
                out.extend((entry.seat, to, entry.text) for to in entry.to)
        elif isinstance(entry, ActionEntry) and isinstance(entry.action, Propose):
            text = rules.format(entry.action)
            out.extend((entry.seat, to, text) for to in entry.action.to)
    return out


def centres(rules: Any, record: dict[str, Any]) -> list[int]:
    state = replay(rules, record).state
    counts = [0] * state.seats
    for owner in state.position.owner.values():
        if owner is not None and owner < state.seats:
            counts[owner] += 1
    return counts


def measure(game: str, bots: tuple[str, ...], count: int, seed: int) -> dict[str, Any]:
    rules = games.find(game)
    with tempfile.TemporaryDirectory() as folder:
        config = ArenaConfig(
            game,
            bots,
            games=count,
            seed=seed,
            out=Path(folder),
            seats=len(bots),
            options=OPTIONS[game],
        )
        report = run_arena(config)
        per_bot: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        for result in report.results:
            assert result.path is not None
            record = json.loads(Path(result.path).read_text(encoding="utf-8"))
            winners = result.outcome.get("winners") or []
            assert isinstance(winners, list)
            counts = centres(rules, record) if game == "diplomacy" else []
            for seat, bot in enumerate(result.lineup):
                row = per_bot[bot]
                row["seats"] += 1
                if seat in winners:
                    row["wins"] += 1.0 / len(winners)
                if counts:
                    row["centres"] += counts[seat]
            sent = proposals(rules, record)
            seen: set[tuple[int, int, str]] = set()
            for sender, to, text in sent:
                row = per_bot[result.lineup[sender]]
                row["proposals"] += 1
                if result.lineup[to] == "heuristic":
                    row["to_silent"] += 1
                if (sender, to, text) in seen:
                    row["repeats"] += 1
                seen.add((sender, to, text))
            for key in ("kept", "broken"):
                per_bot["(all)"][key] += result.promises.get(key, 0)
    table: dict[str, Any] = {}
    for bot, row in sorted(per_bot.items()):
        seats = row.get("seats", 0) or 1
        entry = {k: round(v, 3) for k, v in row.items()}
        if bot != "(all)":
            entry["win_share"] = round(row.get("wins", 0.0) / seats, 3)
            if game == "diplomacy":
                entry["mean_centres"] = round(row.get("centres", 0.0) / seats, 2)
        table[bot] = entry
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=sorted(LINEUPS), action="append")
    parser.add_argument("--games", type=int, default=7, help="games per variant")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    for game in args.game or sorted(LINEUPS):
        for label, bots in (("trust", LINEUPS[game]), ("naive", naive(LINEUPS[game]))):
            table = measure(game, bots, args.games, args.seed)
            print(json.dumps({"game": game, "variant": label, "games": args.games, **table}))


if __name__ == "__main__":
    main()
