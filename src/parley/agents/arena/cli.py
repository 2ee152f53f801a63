"""`parley arena`: the command-line face of the arena."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from parley.kernel import ParleyError, load_record, parse_option_pairs

from .play import ForkPoint
from .play import Progress as RunProgress
from .report import PLOT, RESULTS, SUMMARY
from .run import ArenaConfig, ArenaReport, parse_bots, run_arena

console = Console()
err_console = Console(stderr=True, soft_wrap=True)  # an error stays one line


def _fail(message: str) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {message}")
    return typer.Exit(2)


def arena_command(
    game: Annotated[
        str | None, typer.Argument(help="Game name or alias (omit with --from).")
    ] = None,
    bots: Annotated[
        str, typer.Option(help="Bots, comma-separated; cycled over the seats, rotated per game.")
    ] = "random",
    games: Annotated[int, typer.Option("--games", "-n", help="How many games to play.")] = 10,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers", "-w", help="Worker processes (default 1; with --ray, the cluster's CPUs)."
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="Seed of the whole run.")] = 0,
    out: Annotated[
        Path | None,
        typer.Option(
            help="Folder for the run's records and reports, one run per folder (default: "
            "arena-out/GAME-BOTS-seedS, or arena-out/GAME-RECORD-atN-BOTS-seedS with --from)."
        ),
    ] = None,
    resume: Annotated[
        bool,
        typer.Option(help="--out holds this run, stopped part-way: play only the missing games."),
    ] = False,
    overwrite: Annotated[
        bool, typer.Option(help="--out holds another run: delete its records and reports first.")
    ] = False,
    seats: Annotated[int, typer.Option(help="Seats per game (default: the game's).")] = 0,
    option: Annotated[
        list[str], typer.Option("--option", "-o", help="A game option as name=value.")
    ] = [],  # noqa: B006 - Typer reads the default, it is never mutated
    max_plies: Annotated[
        int, typer.Option(help="Actions before the survivors agree a draw (default: the game's).")
    ] = 0,
    from_record: Annotated[
        Path | None, typer.Option("--from", help="Fork this game record instead of new games.")
    ] = None,
    at: Annotated[int, typer.Option(help="With --from: keep the record's first N entries.")] = 0,
    position: Annotated[
        Path | None,
        typer.Option(help="Play every game from this position (see `parley position`)."),
    ] = None,
    ray: Annotated[
        bool, typer.Option("--ray", help="Play the games on Ray (the cluster ray.init() finds).")
    ] = False,
    ray_address: Annotated[
        str | None,
        typer.Option(
            help="Play on the Ray cluster at this address (HOST:6379, ray://HOST:10001, "
            "'auto', or 'local' for a new one here); implies --ray."
        ),
    ] = None,
    concurrency: Annotated[
        int,
        typer.Option(help="With --ray: games each worker plays at once (for bots that wait)."),
    ] = 1,
    quiet: Annotated[bool, typer.Option(help="No progress bar.")] = False,
) -> None:
    """Play many seeded games between bots; report wins, draws and TrueSkill ratings."""
    fork: ForkPoint | None = None
    try:
        if position is not None:
            if from_record is not None:
                raise _fail("--position and --from each give the start: name one")
            fork, game = _position_fork(position, game)
        if from_record is not None:
            try:
                record = load_record(from_record.read_text(encoding="utf-8"))
            except OSError as err:
                raise _fail(f"cannot read {from_record}: {err.strerror}") from None
            fork = ForkPoint(record, at, str(from_record))
            game = game or str(record.get("game", ""))
        if not game:
            raise _fail("name a game, or fork a record with --from")
        if out is None:
            out = default_out(game, bots, seed, from_record or position, at)
        config = ArenaConfig(
            game=game,
            bots=parse_bots(bots),
            games=games,
            workers=workers,
            seed=seed,
            out=out,
            seats=seats or None,
            options=parse_option_pairs(option),
            max_plies=max_plies or None,
            fork=fork,
            ray=ray,
            ray_address=ray_address,
            concurrency=concurrency,
            resume=resume,
            overwrite=overwrite,
        )
        report = _run(config, quiet)
    except ParleyError as err:
        raise _fail(err.message) from None
    _print_report(report)


def _position_fork(path: Path, game: str | None) -> tuple[ForkPoint, str]:
    """A position as the start of every game: a record that begins with it, forked at 0."""
    from parley import games as registry
    from parley.kernel import Match
    from parley.kernel.positions import parse_json

    try:
        data = parse_json(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise _fail(f"cannot read {path}: {err.strerror}") from None
    name = game or str(data.get("game", ""))
    if not name:
        raise _fail("name the game, or give a position that says its game")
    rules = registry.find(name)
    record = Match.from_position(rules, data).to_json()
    return ForkPoint(record, 0, str(path)), rules.spec.name


def default_out(game: str, bots: str, seed: int, fork: Path | None, at: int) -> Path:
    """A run's default folder, named by what makes it this run: game, bots and seed, and for
    a fork its record and entry (so a fork never lands in its source's folder)."""
    names = dict.fromkeys(_plain(b) for b in bots.split(","))
    who = "+".join(n for n in names if n)[:80] or "bots"
    where = f"-{fork.stem}-at{at}" if fork is not None else ""
    return Path("arena-out") / f"{_plain(game)}{where}-{who}-seed{seed}"


def _plain(name: str) -> str:
    """A name fit for a folder: import paths' colons and the like become underscores."""
    return re.sub(r"[^\w.-]+", "_", name.strip())


def _run(config: ArenaConfig, quiet: bool) -> ArenaReport:
    if quiet:
        return run_arena(config)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[in_flight]} in flight, {task.fields[failed]} failed"),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=console, transient=False) as bar:
        task = bar.add_task(f"{config.game} games", total=config.games, in_flight=0, failed=0)

        def show(state: RunProgress) -> None:
            bar.update(task, completed=state.done, in_flight=state.in_flight, failed=state.failed)

        return run_arena(config, on_progress=show)


def _print_report(report: ArenaReport) -> None:
    summary = report.summary
    table = Table(title=f"{summary['game']}: {summary['games']} games, seed {summary['seed']}")
    # Few columns, so that bot names and intervals stay whole in an 80-column terminal;
    # the seats each bot held stand next to its per-seat win share.
    columns = ("bot", "seats", "W-D-L", "win share (95%)", "μ ± σ", "μ-3σ")
    for column in columns:
        table.add_column(
            column, justify="left" if column == "bot" else "right", no_wrap=column == "bot"
        )
    for bot in report.standings.ranked():
        tally = report.standings.tallies[bot]
        rating = report.standings.rating(bot)
        low, high = tally.win_share_interval
        rated = report.standings.is_rated(bot)
        table.add_row(
            bot,
            str(tally.seats),
            f"{tally.wins}-{tally.draws}-{tally.losses}",
            f"{tally.win_share:.3f} ({low:.3f}-{high:.3f})",
            f"{rating.mu:.2f} ± {rating.sigma:.2f}" if rated else "unrated",
            f"{rating.conservative:.2f}" if rated else "",
        )
    console.print(table)
    seats = {bot: report.standings.tallies[bot].seats for bot in report.standings.bots}
    if len(set(seats.values())) > 1:
        # Win shares are per seat, but games are won by bots: a bot filling more seats
        # wins more games and so rates higher at equal play. Say so beside the figures.
        held = ", ".join(f"{bot} {n}" for bot, n in seats.items())
        console.print(
            f"Seats played: {held}. Win share is per seat; a bot holding more seats wins more "
            "games (and rating) at equal play: compare bots on equal seat counts."
        )
    unrated = [bot for bot in report.standings.bots if not report.standings.is_rated(bot)]
    if unrated:
        console.print(
            f"Unrated (played only itself, no other bot to be measured against): "
            f"{', '.join(unrated)}."
        )
    played = len(report.results) - report.resumed
    head = f"{summary['games']} games"
    if report.resumed:
        head += f", {report.resumed} finished before this resume; {played} played"
    console.print(
        f"{head} in {report.seconds:.2f} s "
        f"({report.games_per_second:.2f} games/s); {summary['capped']} reached the ply cap "
        f"and ended in an agreed draw."
    )
    distinct = summary.get("distinct_continuations")
    if isinstance(distinct, int):
        console.print(f"Forked games: {distinct} distinct continuations of {summary['games']}.")
        if distinct == 1 and len(report.results) > 1:
            console.print(
                "Every forked game went the same way: these bots choose without chance, and "
                "the record's seed fixes the game's own; add a bot that draws on its seed "
                "(such as random) to --bots for different continuations."
            )
    press = summary.get("press")
    if isinstance(press, dict) and (
        any(press["messages_by_bot"].values()) or any(press["promises"].values())
    ):
        sent = ", ".join(f"{bot} {n}" for bot, n in sorted(press["messages_by_bot"].items()))
        kept = press["promises"]
        console.print(
            f"Press: messages sent by {sent}; promises kept {kept['kept']}, broken "
            f"{kept['broken']}, still open {kept['open']}."
        )
    if report.config.on_ray:
        nodes = summary.get("nodes")
        per_node = ", ".join(str(n) for n in nodes.values()) if isinstance(nodes, dict) else ""
        console.print(
            f"On {summary['backend']}: {summary['workers']} workers; games per node: "
            f"{per_node}; {summary['retried']} games played again after their worker was lost."
        )
    out = report.config.out
    console.print(f"Records in {out / 'games'}; {out / SUMMARY}, {out / RESULTS}, {out / PLOT}.")
