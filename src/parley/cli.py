"""The `parley` command."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

import parley
from parley import games
from parley.kernel import (
    Match,
    ParleyError,
    Rng,
    load_record,
    parse_option_pairs,
)

app = typer.Typer(
    name="parley",
    help="Parley: multiplayer games of conquest and negotiation.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console()
err_console = Console(stderr=True, soft_wrap=True)  # an error stays one line


def _show_version(value: bool) -> None:
    if value:
        print(f"parley {parley.__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_show_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Parley: multiplayer games of conquest and negotiation."""


def _fail(message: str, code: int = 2) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {message}")
    return typer.Exit(code)


@app.command("games")
def games_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """List the registered games and what they declare."""
    specs = [r.spec for r in games.all_rules()]
    if as_json:
        print(json.dumps([s.to_json() for s in specs], indent=2))
        return
    columns = ("name", "title", "seats", "structure", "chance", "hidden", "aliases", "options")
    rows = [
        (
            s.name,
            s.title,
            f"{s.min_seats}–{s.max_seats}",
            s.structure.value,
            "yes" if s.chance else "no",
            "yes" if s.hidden_information else "no",
            ", ".join(s.aliases),
            ", ".join(f"{o.name}={o.default}" for o in s.options),
        )
        for s in specs
    ]
    widths = [max(len(r[i]) for r in (columns, *rows)) for i in range(len(columns))]
    if not console.is_terminal:
        # Piped or redirected: whole values, columns padded, nothing cut to a guessed width.
        for row in (columns, *rows):
            print("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip())
        return
    if console.width < sum(widths) + 3 * len(columns) + 1:
        # Too narrow for the table: one block per game, every value whole.
        for row in rows:
            for column, value in zip(columns, row, strict=True):
                console.print(Text(f"{column:>9}: {value}"), highlight=False)
            console.print()
        return
    table = Table(title="Parley games")
    for column in columns:
        table.add_column(column, no_wrap=True)
    for row in rows:
        table.add_row(*(Text(v) for v in row))  # values are data, not markup
    console.print(table)


@app.command("play")
def play_command(
    game: Annotated[str, typer.Argument(help="Game name or alias.")],
    seat: Annotated[int, typer.Option(help="Your seat, numbered from 1.")] = 1,
    players: Annotated[int, typer.Option(help="Number of seats (default: the game's).")] = 0,
    seed: Annotated[int, typer.Option(help="Seed of the game's randomness.")] = 0,
    option: Annotated[
        list[str], typer.Option("--option", "-o", help="A game option as name=value.")
    ] = [],  # noqa: B006 - Typer reads the default, it is never mutated
    bots: Annotated[str, typer.Option(help="Bot for the other seats.")] = "random",
    save: Annotated[
        Path | None, typer.Option(help="Write the game record here at the end.")
    ] = None,
    from_file: Annotated[
        str | None,
        typer.Option("--from", help="Start from this position (see `parley position`)."),
    ] = None,
) -> None:
    """Play a game in the terminal against bots; type actions in the game's notation."""
    from parley.agents.bots import make_bot
    from parley.position_cli import read_position_file

    try:
        rules = games.find(game)
        position = None if from_file is None else read_position_file(rules, from_file)
        if position is not None:  # the position says how many seats there are
            count = rules.seat_count(rules.read_position(position))
        else:
            count = players or rules.spec.default_seats or rules.spec.min_seats
        names = [f"bot {i + 1}" for i in range(count)]
        if not 1 <= seat <= count:
            raise _fail(f"--seat must be between 1 and {count}")
        names[seat - 1] = "you"
        match: Match[Any, Any] = (
            Match(rules, names, parse_option_pairs(option), seed)
            if position is None
            else Match.from_position(rules, position, names)
        )
        bot = make_bot(bots, rules)
    except OSError as err:
        raise _fail(f"cannot read {from_file}: {err.strerror}") from None
    except ParleyError as err:
        raise _fail(err.message) from None
    from parley.terminal import Session

    session = Session(match, seat - 1, bot, Rng(seed ^ 0x5EED), console, input)
    session.run()
    if save is not None:
        match.save(save)
        console.print(f"Record saved to {save}.")


@app.command("replay")
def replay_command(
    record_file: Annotated[Path, typer.Argument(help="A game record (JSON).")],
    step: Annotated[bool, typer.Option(help="Wait for Enter between entries.")] = False,
    seat: Annotated[int, typer.Option(help="View as this seat (from 1); 0 shows everything.")] = 0,
) -> None:
    """Step through a saved game record."""
    try:
        record = load_record(record_file.read_text(encoding="utf-8"))
        rules = games.find(str(record.get("game", "")))
    except OSError as err:
        raise _fail(f"cannot read {record_file}: {err.strerror}") from None
    except ParleyError as err:
        raise _fail(err.message) from None
    from parley.terminal import replay_record, viewer_for

    def pause() -> None:
        typer.prompt("", default="", show_default=False, prompt_suffix="")

    try:
        replay_record(rules, record, viewer_for(seat), console, pause if step else None)
    except ParleyError as err:
        raise _fail(err.message) from None


# --- commands from other packages: one line each --------------------------------------

from parley.server.cli import backup_command, restore_command, serve  # noqa: E402

app.command("serve")(serve)
app.command("backup")(backup_command)
app.command("restore")(restore_command)

from parley.agents.arena.cli import arena_command  # noqa: E402

app.command("arena")(arena_command)

from parley.agents.bench.cli import bench_command  # noqa: E402

app.command("bench")(bench_command)

from parley.export_cli import export_command  # noqa: E402

app.command("export")(export_command)

from parley.position_cli import position_command  # noqa: E402

app.command("position")(position_command)

from parley.agents.remote.cli import agent_command, mcp_command  # noqa: E402


def _connection_failure(err: BaseException) -> str | None:
    """One line saying which server could not be reached and why, if that is what `err` is."""
    import httpx

    if isinstance(err, BaseExceptionGroup):
        found = (_connection_failure(e) for e in err.exceptions)
        return next((line for line in found if line is not None), None)
    if isinstance(err, httpx.HTTPStatusError):
        return f"{err.request.url} answered {err.response.status_code}"
    if isinstance(err, httpx.RequestError):
        try:
            where = str(err.request.url)
        except RuntimeError:  # no request made yet: the URL itself was refused
            where = "the server"
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        return f"cannot reach {where}: {reason}"
    if isinstance(err, httpx.InvalidURL):
        return f"bad URL: {err}"
    if isinstance(err, OSError):
        return f"cannot connect: {err.strerror or err}"
    return None


def _connection_errors_in_one_line(
    command: Callable[..., None],
) -> Callable[..., None]:
    """`command`, with an unreachable server or a bad URL at start-up said in one line on
    stderr and exit status 2, instead of a traceback."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            command(*args, **kwargs)
        except (typer.Exit, typer.Abort, KeyboardInterrupt):
            raise
        except Exception as err:
            line = _connection_failure(err)
            if line is None:
                raise
            raise _fail(line) from None

    return run


app.command("mcp")(_connection_errors_in_one_line(mcp_command))
app.command("agent")(_connection_errors_in_one_line(agent_command))

from parley.games.diplomacy.cli import app as diplomacy_app  # noqa: E402

app.add_typer(diplomacy_app, name="diplomacy", help="Diplomacy tools: adjudicate, legal orders.")


def main() -> None:
    try:
        app()
    except ParleyError as err:
        err_console.print(f"[bold red]error:[/] {err.message}")
        sys.exit(2)


if __name__ == "__main__":
    main()
