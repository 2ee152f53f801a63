"""What an arena run leaves behind: summary JSON, per-game lines and a ratings plot."""

from __future__ import annotations

import json
from pathlib import Path

from parley.kernel import JSON

from .ratings import Standings

SUMMARY = "summary.json"
RESULTS = "results.jsonl"
PLOT = "ratings.png"


def write_results(out: Path, lines: list[dict[str, JSON]]) -> Path:
    path = out / RESULTS
    with path.open("w", encoding="utf-8") as f:
        for line in lines:
            f.write(json.dumps(line, sort_keys=True) + "\n")
    return path


def write_summary(out: Path, summary: dict[str, JSON]) -> Path:
    path = out / SUMMARY
    path.write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return path


def plot_ratings(path: Path, table: Standings, title: str) -> Path:
    """Each bot's TrueSkill mu after every game, with a band of one sigma either side."""
    # The object-oriented API with the Agg canvas: no pyplot state, no display needed.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    figure = Figure(figsize=(8, 4.5), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.add_subplot()
    games = list(range(1, len(table.history) + 1))
    for bot in table.bots:
        mus = [snapshot[bot].mu for snapshot in table.history if bot in snapshot]
        sigmas = [snapshot[bot].sigma for snapshot in table.history if bot in snapshot]
        xs = games[len(games) - len(mus) :]
        axes.plot(xs, mus, label=bot, linewidth=1.5)
        axes.fill_between(
            xs,
            [m - s for m, s in zip(mus, sigmas, strict=True)],
            [m + s for m, s in zip(mus, sigmas, strict=True)],
            alpha=0.2,
        )
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("games")
    axes.set_ylabel("TrueSkill μ (band: ±1σ)")
    axes.set_title(title)
    axes.grid(True, alpha=0.3)
    if table.bots:
        axes.legend(loc="best")
    figure.tight_layout()
    figure.savefig(path, format="png")
    return path
