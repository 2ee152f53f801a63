"""`parley bench`: the command-line face of the bench."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from parley.kernel import ParleyError, parse_option_pairs

from ..arena import parse_bots
from .report import LEADERBOARD, REPORT
from .run import BenchConfig, BenchReport, run_bench

console = Console()
err_console = Console(stderr=True, soft_wrap=True)


def _fail(message: str) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {message}")
    return typer.Exit(2)


def bench_command(
    game: Annotated[str, typer.Argument(help="Game name or alias.")],
    players: Annotated[
        str,
        typer.Option(
            help="Players, comma-separated: llm:PROFILE for a model, or a bot name; cycled "
            "over the seats, rotated one seat per game."
        ),
    ],
    games: Annotated[int, typer.Option("--games", "-n", help="How many games to play.")] = 20,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    out: Annotated[Path, typer.Option(help="Folder of the run, one run per folder.")] = Path(
        "bench-out"
    ),
    profiles: Annotated[
        Path, typer.Option(help="Folder of the model profiles (llm:NAME reads NAME.toml).")
    ] = Path("."),
    resume: Annotated[
        bool, typer.Option(help="--out holds this run, stopped part-way: play what is missing.")
    ] = False,
    overwrite: Annotated[
        bool, typer.Option(help="--out holds another run: delete its files first.")
    ] = False,
    seats: Annotated[int, typer.Option(help="Seats per game (default: the game's).")] = 0,
    option: Annotated[
        list[str], typer.Option("--option", "-o", help="A game option as name=value.")
    ] = [],  # noqa: B006 - Typer reads the default, it is never mutated
    max_plies: Annotated[
        int, typer.Option(help="Actions before the survivors agree a draw (default: the game's).")
    ] = 0,
    workers: Annotated[
        int,
        typer.Option(
            "--workers", "-w", help="Games at once (default: the models' smallest concurrency)."
        ),
    ] = 0,
    resamples: Annotated[int, typer.Option(help="Bootstrap resamples for the intervals.")] = 2000,
) -> None:
    """Benchmark chat models against bots or each other: win share (and for Diplomacy a
    centre score), invalid answers, promises kept and broken, tokens and cost, each with a
    95% bootstrap interval over games; writes leaderboard.json and report.html."""
    try:
        config = BenchConfig(
            game=game,
            players=parse_bots(players),
            games=games,
            seed=seed,
            out=out,
            profiles=profiles,
            seats=seats or None,
            options=parse_option_pairs(option),
            max_plies=max_plies or None,
            workers=workers or None,
            resume=resume,
            overwrite=overwrite,
            resamples=resamples,
        )
        report = run_bench(config, on_result=lambda r: console.print(f"game {r.index} done"))
    except ParleyError as err:
        raise _fail(err.message) from None
    _print(report)


def _fig(row: dict[str, object], name: str, digits: int = 3) -> str:
    fig = row.get(name)
    if not isinstance(fig, dict):
        return "-"
    low, high = fig["ci95"]
    edge = max(digits - 1, 0)
    return f"{fig['value']:.{digits}f} ({low:.{edge}f}-{high:.{edge}f})"


def _print(report: BenchReport) -> None:
    board = report.leaderboard
    score = str(board["score"])
    columns = [("win share (95%)", "win_share", 3)]
    if score != "win_share":
        columns.append((f"{score} (95%)", score, 3))
    columns += [("invalid", "invalid_rate", 2), ("betrayal", "betrayal_rate", 2)]
    columns.append(("tokens/game", "tokens_per_game", 0))
    rows = [r for r in board["players"] if isinstance(r, dict)]
    # Columns nobody has a figure in (bots only: no invalid answers, no tokens) are left out.
    shown = [c for c in columns if any(isinstance(r.get(c[1]), dict) for r in rows)]
    table = Table(title=f"{board['title']}: {board['games']} games, seed {board['seed']}")
    table.add_column("player", no_wrap=True)
    table.add_column("seats", justify="right")
    for title, _, _ in shown:
        table.add_column(title, justify="right")
    for row in rows:
        cells = [_fig(row, name, digits) for _, name, digits in shown]
        table.add_row(str(row["player"]), str(row["seats"]), *cells)
    console.print(table)
    if report.resumed:
        console.print(f"{report.resumed} games were finished already and kept")
    console.print(f"wrote {report.out / LEADERBOARD} and {report.out / REPORT}", soft_wrap=True)
