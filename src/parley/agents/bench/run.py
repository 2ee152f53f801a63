"""A bench run: the arena plays the games, then the figures, leaderboard and report.

One run per folder, as in the arena: the arena's files (`run.json`, `results.jsonl`,
`games/`, `summary.json`) and the bench's (`bench.json`: the players and their profiles,
without keys; `leaderboard.json`, `report.html`). A stopped run is resumed with `resume`:
finished games are kept and skipped; a folder holding another run is refused.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parley.kernel import JSON
from parley.kernel.errors import BadOptions

from ..arena import ArenaConfig, ArenaError, run_arena
from ..arena.folder import holds_run
from ..arena.play import GameResult, resolve_rules
from ..bots import make_bot
from . import metrics
from .profile import FOLDER_ENV, PREFIX, Profile, load_profile
from .report import write_leaderboard, write_report

BENCH = "bench.json"


@dataclass(frozen=True, slots=True)
class BenchConfig:
    """One bench run. `players` are `llm:PROFILE` names and bot names, cycled over seats."""

    game: str
    players: tuple[str, ...]
    games: int = 20
    seed: int = 0
    out: Path = Path("bench-out")
    profiles: Path = Path(".")
    seats: int | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    max_plies: int | None = None
    workers: int | None = None  # default: the smallest concurrency of the models' profiles
    resume: bool = False
    overwrite: bool = False
    resamples: int = metrics.RESAMPLES


@dataclass(slots=True)
class BenchReport:
    config: BenchConfig
    results: list[GameResult]
    leaderboard: dict[str, JSON]
    out: Path
    resumed: int = 0


def _profiles(config: BenchConfig) -> dict[str, Profile]:
    found: dict[str, Profile] = {}
    for player in dict.fromkeys(config.players):
        if player.startswith(PREFIX):
            found[player] = load_profile(player[len(PREFIX) :], config.profiles)
    return found


def _settings(config: BenchConfig, profiles: Mapping[str, Profile]) -> dict[str, JSON]:
    return {
        "format": "parley.bench-run",
        "version": 1,
        "players": list(config.players),
        "profiles": {name: p.public() for name, p in profiles.items()},
    }


def _check_folder(config: BenchConfig, settings: dict[str, JSON]) -> None:
    """Refuse a resume of a run that is not this bench run (the arena checks the rest)."""
    path = config.out / BENCH
    if not config.resume or not holds_run(config.out):
        return
    try:
        before = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise ArenaError(
            f"{config.out} holds a run without a readable {BENCH} (an arena run?); "
            "--overwrite replaces it, or choose another folder with --out"
        ) from None
    for key in ("players", "profiles"):
        if before.get(key) != settings[key]:
            raise ArenaError(
                f"{config.out} holds a bench run with other {key}; --resume needs the same "
                "players and profiles (a changed profile is a different model)"
            )


def run_bench(
    config: BenchConfig, on_result: Callable[[GameResult], None] | None = None
) -> BenchReport:
    """Play the run (or what is missing of it), then write the leaderboard and the report."""
    if not config.players:
        raise BadOptions("name at least one player (--players)", text="")
    if config.resamples < 100:
        raise BadOptions("a bootstrap needs at least 100 resamples", text=str(config.resamples))
    profiles = _profiles(config)
    settings = _settings(config, profiles)
    _check_folder(config, settings)
    # Worker processes read the profiles from here (they inherit the environment).
    os.environ[FOLDER_ENV] = str(config.profiles.resolve())
    workers = config.workers
    if workers is None:
        workers = min((p.concurrency for p in profiles.values()), default=1)
    arena = ArenaConfig(
        game=config.game,
        bots=config.players,  # `llm:NAME` is a bot the arena knows (parley.agents.bots)
        games=config.games,
        workers=workers,
        seed=config.seed,
        out=config.out,
        seats=config.seats,
        options=config.options,
        max_plies=config.max_plies,
        resume=config.resume,
        overwrite=config.overwrite,
    )
    if config.resume and config.overwrite:
        raise ArenaError("--resume and --overwrite exclude each other; choose one")
    if config.out.exists() and not config.out.is_dir():
        raise ArenaError(f"{config.out} is a file, not a folder for a bench run")
    if holds_run(config.out) and not (config.resume or config.overwrite):
        raise ArenaError(
            f"{config.out} holds a run already; --resume finishes it, --overwrite replaces "
            "it, or choose another folder with --out"
        )
    rules = resolve_rules(config.game)
    for player in config.players:  # bots and game checked before anything is written
        if not player.startswith(PREFIX):
            make_bot(player, rules)
    config.out.mkdir(parents=True, exist_ok=True)
    (config.out / BENCH).write_text(json.dumps(settings, indent=2), encoding="utf-8")
    played = run_arena(arena, on_result=on_result)
    board = leaderboard(config, played.results, profiles, played.summary)
    write_leaderboard(config.out, board)
    write_report(config.out, board)
    return BenchReport(config, played.results, board, config.out, played.resumed)


def leaderboard(
    config: BenchConfig,
    results: list[GameResult],
    profiles: Mapping[str, Profile],
    summary: Mapping[str, Any],
) -> dict[str, JSON]:
    """Every player's figures and counts, best first by the game's score."""
    rules = resolve_rules(config.game)
    games = [metrics.game_facts(rules, r) for r in sorted(results, key=lambda r: r.index)]
    players = list(dict.fromkeys(config.players))
    figures = metrics.figures(games, players, config.seed, config.resamples)
    seats = int(summary["seats"])
    score = "sos" if rules.spec.name == "diplomacy" else "win_share"
    rows: list[dict[str, JSON]] = []
    for player in players:
        rows.append(
            {
                "player": player,
                "kind": "model" if player in profiles else "bot",
                "profile": profiles[player].public() if player in profiles else None,
                **metrics.totals(games, player),
                **figures[player],
            }
        )
    rows.sort(key=lambda r: metrics.order_key(r, score), reverse=True)
    return {
        "format": "parley.bench-leaderboard",
        "version": 1,
        "game": rules.spec.name,
        "title": rules.spec.title,
        "games": len(games),
        "seats": seats,
        "seed": config.seed,
        "chance": round(1 / seats, 6),
        "score": score,
        "resamples": config.resamples,
        "capped": sum(1 for g in games if g.capped),
        "players": rows,
    }
