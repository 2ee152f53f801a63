"""What a bench run leaves besides the arena's files: `leaderboard.json` and `report.html`
(tables and plots in one file, the plots as PNG data URIs: it opens offline)."""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from parley.kernel import JSON

LEADERBOARD = "leaderboard.json"
SCORES = {"win_share": "win share", "sos": "sum-of-squares score"}
REPORT = "report.html"


def write_leaderboard(out: Path, board: Mapping[str, JSON]) -> Path:
    path = out / LEADERBOARD
    path.write_text(json.dumps(board, indent=2), encoding="utf-8")
    return path


def _png(figure: Any) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _interval_plot(
    rows: Sequence[Mapping[str, Any]], figure_name: str, label: str, chance: float | None
) -> str | None:
    """Players' values of one figure with their 95% intervals, as a PNG data URI."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    shown = [r for r in rows if isinstance(r.get(figure_name), Mapping)]
    if not shown:
        return None
    figure = Figure(figsize=(7, 0.6 * len(shown) + 1.4), dpi=100)
    FigureCanvasAgg(figure)
    axes = figure.subplots()
    names = [str(r["player"]) for r in reversed(shown)]
    for y, row in enumerate(reversed(shown)):
        fig = row[figure_name]
        value, (low, high) = float(fig["value"]), fig["ci95"]
        axes.errorbar(
            [value], [y], xerr=[[value - low], [high - value]], fmt="o", capsize=5,
            color="tab:blue" if row["kind"] == "model" else "tab:grey",
        )  # fmt: skip
    if chance is not None:
        axes.axvline(chance, linestyle="--", color="tab:red", linewidth=1, label="equal play")
        axes.legend(loc="lower right")
    # From zero: a share or a count is read against nothing, not against its neighbours.
    top = max(float(r[figure_name]["ci95"][1]) for r in shown)
    top = max(top, chance or 0.0)
    axes.set_xlim(0, top * 1.15 if top > 0 else 1.0)
    axes.set_yticks(range(len(names)))
    axes.set_yticklabels(names)
    axes.set_ylim(-0.5, len(names) - 0.5)
    axes.set_xlabel(label + " (95% bootstrap interval over games)")
    axes.grid(True, axis="x", alpha=0.3)
    figure.tight_layout()
    return _png(figure)


def _cell(fig: Any, digits: int = 3) -> str:
    if not isinstance(fig, Mapping):
        return "–"
    low, high = fig["ci95"]
    return f"{fig['value']:.{digits}f} <small>[{low:.{digits}f}, {high:.{digits}f}]</small>"


def write_report(out: Path, board: Mapping[str, Any]) -> Path:
    """The HTML report: the leaderboard table, then one plot per figure."""
    rows: list[Mapping[str, Any]] = list(board["players"])
    chance = float(board["chance"])
    e = html.escape
    head = (
        "<tr><th>#</th><th>player</th><th>seats</th><th>win share</th>"
        + ("<th>sum-of-squares</th><th>centres</th>" if board["game"] == "diplomacy" else "")
        + "<th>invalid answers</th><th>defaulted</th><th>promises made / kept / broken</th>"
        "<th>betrayal rate</th><th>tokens per game</th><th>cost per game</th></tr>"
    )
    body = []
    for i, r in enumerate(rows, 1):
        model = r.get("model") or {}
        p = r["promises"]
        body.append(
            f"<tr><td>{i}</td><td>{e(str(r['player']))}</td><td>{r['seats']}</td>"
            f"<td>{_cell(r['win_share'])}</td>"
            + (
                f"<td>{_cell(r['sos'])}</td><td>{_cell(r['centres'], 1)}</td>"
                if board["game"] == "diplomacy"
                else ""
            )
            + f"<td>{_cell(r['invalid_rate'])}</td>"
            f"<td>{int(model.get('defaulted', 0)) if model else '–'}</td>"
            f"<td>{p['made']} / {p['kept']} / {p['broken']}</td>"
            f"<td>{_cell(r['betrayal_rate'])}</td>"
            f"<td>{_cell(r['tokens_per_game'], 0)}</td><td>{_cell(r['cost_per_game'], 4)}</td></tr>"
        )
    plots = [
        ("win_share", "win share per seat", chance),
        ("sos", "sum-of-squares score per seat", chance),
        ("invalid_rate", "invalid answers / answers", None),
        ("betrayal_rate", "promises broken / judged", None),
        ("tokens_per_game", "tokens per game", None),
        ("cost_per_game", "cost per game", None),
    ]
    images = []
    for name, label, line in plots:
        uri = _interval_plot(rows, name, label, line)
        if uri is not None:
            images.append(f'<h2>{e(label)}</h2><img alt="{e(label)}" src="{uri}">')
    title = f"Parley bench: {board['title']}"
    ranked = e(SCORES.get(str(board["score"]), str(board["score"])))
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{e(title)}</title>
<style>
body {{ font-family: sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; }}
th, td {{ border: 1px solid #ccc; padding: 0.3em 0.6em; text-align: right; }}
td:nth-child(2), th:nth-child(2) {{ text-align: left; }}
small {{ color: #666; }}
img {{ max-width: 100%; }}
</style></head><body>
<h1>{e(title)}</h1>
<p>{board["games"]} games of {board["seats"]} seats, seed {board["seed"]}; players cycled
over the seats and rotated one seat per game. Ranked by {ranked}; equal play
scores {chance:.3f}. Intervals: 95% percentile bootstrap over games
({board["resamples"]} resamples; the seats of one game move together).</p>
<table>{head}{"".join(body)}</table>
{"".join(images)}
</body></html>
"""
    path = out / REPORT
    path.write_text(page, encoding="utf-8")
    return path
