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
    """Rated bots' TrueSkill mu after every game (band: one sigma either side), and every
    bot's win share with its 95% interval."""
    # The object-oriented API with the Agg canvas: no pyplot state, no display needed.
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    figure = Figure(figsize=(11, 4.5), dpi=100)
    FigureCanvasAgg(figure)
    axes, shares = figure.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    games = list(range(1, len(table.history) + 1))
    colours: dict[str, str] = {}
    for bot in table.bots:
        points = [
            (i, snap[bot]) for i, snap in zip(games, table.history, strict=True) if bot in snap
        ]
        if not points:
            continue  # never met another bot: unrated, no curve
        xs = [i for i, _ in points]
        mus = [r.mu for _, r in points]
        sigmas = [r.sigma for _, r in points]
        (line,) = axes.plot(xs, mus, label=bot, linewidth=1.5)
        colours[bot] = line.get_color()
        axes.fill_between(
            xs,
            [m - s for m, s in zip(mus, sigmas, strict=True)],
            [m + s for m, s in zip(mus, sigmas, strict=True)],
            alpha=0.2,
            color=colours[bot],
        )
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("games")
    axes.set_ylabel("TrueSkill μ (band: ±1σ)")
    axes.set_title(title)
    axes.grid(True, alpha=0.3)
    if colours:
        axes.legend(loc="best")
    order = list(reversed(table.bots))
    for y, bot in enumerate(order):
        tally = table.tallies[bot]
        low, high = tally.win_share_interval
        share = tally.win_share
        shares.errorbar(
            [share],
            [y],
            xerr=[[share - low], [high - share]],
            fmt="o",
            capsize=4,
            color=colours.get(bot, "grey"),
        )
    shares.set_yticks(range(len(order)))
    shares.set_yticklabels(
        [
            f"{bot}\n{table.tallies[bot].seats} seats"
            + ("" if table.is_rated(bot) else ", unrated")
            for bot in order
        ]
    )
    shares.set_xlim(0, 1)
    shares.set_ylim(-0.5, len(order) - 0.5)
    shares.set_xlabel("win share per seat (95% interval)")
    shares.grid(True, axis="x", alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, format="png")
    return path
