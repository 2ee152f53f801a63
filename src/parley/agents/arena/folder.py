"""An arena run's folder: one run per folder, never mixed with another or overwritten unasked.

A run writes `run.json` (its settings) before its first game, each game's record as it
finishes and a line per game to `results.jsonl` as it arrives, then `summary.json` and the
plot. A folder holding any of these holds a run: a new run is refused there unless told to
finish that run (`resume`) or to replace it (`overwrite`).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from parley.kernel import JSON

from .errors import ArenaError
from .play import GameResult, record_name
from .report import PLOT, RESULTS, SUMMARY

RUN = "run.json"
GAMES_DIR = "games"
_RECORD = re.compile(r"game-\d{5,}\.json")
# The settings that make two runs the same run; `games` may grow on resume.
_SAME_RUN = ("game", "bots", "seed", "seats", "options", "max_plies", "fork")


def holds_run(out: Path) -> bool:
    """Whether `out` holds (part of) an arena run."""
    if any((out / name).exists() for name in (RUN, SUMMARY, RESULTS)):
        return True
    games = out / GAMES_DIR
    return games.is_dir() and any(_RECORD.fullmatch(p.name) for p in games.iterdir())


def record_digest(record: Mapping[str, Any]) -> str:
    """A short digest of a record's JSON: tells apart two records, or two fork sources."""
    text = json.dumps(record, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def prepare(
    out: Path,
    settings: dict[str, JSON],
    games: int,
    *,
    resume: bool,
    overwrite: bool,
    source: Path | None = None,
) -> dict[int, GameResult]:
    """Make `out` ready for a run with `settings`; the games it already holds when resuming.

    Refuses, before anything is written: a folder holding another run (unless `resume` or
    `overwrite`), a run to resume whose settings differ, and a folder that holds `source`,
    the record a fork starts from, whatever the flags.
    """
    if resume and overwrite:
        raise ArenaError("--resume and --overwrite exclude each other; choose one")
    if source is not None and _inside(source, out):
        raise ArenaError(
            f"{out} holds {source}, the record being forked; write the fork to another folder "
            "(--out)"
        )
    done: dict[int, GameResult] = {}
    if out.exists() and not out.is_dir():
        raise ArenaError(f"{out} is a file, not a folder for an arena run")
    if holds_run(out):
        if resume:
            done = _finished(out, settings, games)
        elif overwrite:
            _clear(out)
        else:
            raise ArenaError(
                f"{out} holds an arena run already; --resume finishes it, --overwrite "
                "replaces it, or choose another folder with --out"
            )
    (out / GAMES_DIR).mkdir(parents=True, exist_ok=True)
    (out / RUN).write_text(json.dumps({**settings, "games": games}, indent=2), encoding="utf-8")
    return done


def append_result(out: Path, result: GameResult) -> None:
    """Add one game's line to `results.jsonl` as it arrives, so a stopped run can resume."""
    with (out / RESULTS).open("a", encoding="utf-8") as f:
        f.write(json.dumps(result.to_json(), sort_keys=True) + "\n")


def _inside(path: Path, folder: Path) -> bool:
    return path.resolve().is_relative_to(folder.resolve())


def _finished(out: Path, settings: dict[str, JSON], games: int) -> dict[int, GameResult]:
    try:
        before = json.loads((out / RUN).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise ArenaError(
            f"{out} holds an arena run without a readable {RUN}, which --resume needs; "
            "--overwrite replaces it"
        ) from None
    for key in _SAME_RUN:
        if before.get(key) != settings.get(key):
            raise ArenaError(
                f"{out} holds a run with {key}={_show(before.get(key))}, this one has "
                f"{key}={_show(settings.get(key))}; --resume needs the same settings"
            )
    done: dict[int, GameResult] = {}
    path = out / RESULTS
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    for line in lines:
        try:
            result = GameResult.from_json(json.loads(line))
        except (ValueError, KeyError, TypeError):
            continue  # a line cut short when the run stopped: that game is played again
        if (out / GAMES_DIR / record_name(result.index)).is_file():
            done[result.index] = result
    beyond = [index for index in done if index >= games]
    if beyond:
        raise ArenaError(
            f"{out} holds {max(beyond) + 1} games or more; --games must be at least that to "
            "resume it"
        )
    return done


def _show(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(str(v) for v in value)
    return json.dumps(value, sort_keys=True) if isinstance(value, dict) else str(value)


def _clear(out: Path) -> None:
    """Remove what an arena run wrote, and nothing else."""
    for name in (RUN, SUMMARY, RESULTS, PLOT):
        (out / name).unlink(missing_ok=True)
    games = out / GAMES_DIR
    if games.is_dir():
        for path in games.iterdir():
            if _RECORD.fullmatch(path.name):
                path.unlink()
