"""The `parley` command."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from parley import games
from parley.kernel import (
    ARCHIVE,
    Match,
    ParleyError,
    Rng,
    Viewer,
    load_record,
    parse_option_pairs,
    replay,
)

app = typer.Typer(
    name="parley",
    help="Parley: multiplayer games of conquest and negotiation.",
    no_args_is_help=True,
    add_completion=False,
)
console = Console()
err_console = Console(stderr=True)


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
    table = Table(title="Parley games")
    for column in ("name", "title", "seats", "structure", "chance", "hidden", "aliases", "options"):
        table.add_column(column)
    for s in specs:
        table.add_row(
            s.name,
            s.title,
            f"{s.min_seats}–{s.max_seats}",
            s.structure.value,
            "yes" if s.chance else "no",
            "yes" if s.hidden_information else "no",
            ", ".join(s.aliases),
            ", ".join(f"{o.name}={o.default}" for o in s.options),
        )
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
) -> None:
    """Play a game in the terminal against bots; type actions in the game's notation."""
    from parley.agents.bots import decide, make_bot

    try:
        rules = games.find(game)
        count = players or rules.spec.default_seats or rules.spec.min_seats
        names = [f"bot {i + 1}" for i in range(count)]
        if not 1 <= seat <= count:
            raise _fail(f"--seat must be between 1 and {count}")
        names[seat - 1] = "you"
        match: Match[Any, Any] = Match(rules, names, parse_option_pairs(option), seed)
        bot = make_bot(bots, rules)
    except ParleyError as err:
        raise _fail(err.message) from None
    me = seat - 1
    rng = Rng(seed ^ 0x5EED)
    console.print(
        f"[bold]{rules.spec.title}[/] — you are {match.seat_names()[me]}. "
        "Type an action, 'help', 'options', 'say TEXT' or 'quit'."
    )
    while not match.is_over:
        turn = match.turn()
        others = sorted(s for s in turn.owing if s != me)
        if others:
            for other in others:
                match.act(other, decide(bot, match, other, rng))
            continue
        if me not in turn.owing:
            break  # nobody else owes anything and neither do we: the rules will have ended it
        console.print(rules.render(match.observe(Viewer.of(me))["view"]))
        text = typer.prompt(">")
        command = text.strip().lower()
        if command in ("quit", "exit"):
            break
        if command in ("help", "options", "?"):
            leaves = rules.options_tree(match.state, me).leaves()
            console.print(
                "Legal now: " + "; ".join(leaves[:60]) + (" …" if len(leaves) > 60 else "")
            )
            continue
        if command.startswith("say "):
            match.say(me, text.strip()[4:])
            continue
        try:
            match.act(me, text)
        except ParleyError as err:
            err_console.print(f"[red]{err.message}[/]")
    outcome = match.outcome()
    if outcome is not None:
        winners = ", ".join(match.seat_names()[w] for w in sorted(outcome.winners)) or "nobody"
        console.print(f"[bold]Game over[/]: {outcome.reason}. Winner(s): {winners}.")
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
    viewer = ARCHIVE if seat == 0 else Viewer.of(seat - 1)
    shown = 0

    def show(match: Match[Any, Any], entry: Any) -> None:
        nonlocal shown
        for line in match.history(viewer, since=shown):
            who = "table" if line.get("seat") is None else match.seat_names()[int(line["seat"])]
            what = line.get("notation") or line.get("text") or line.get("type")
            console.print(f"[dim]{line['seq']:>5}[/] {who}: {what}")
        shown = match.seq
        if step:
            console.print(rules.render(match.observe(viewer)["view"]))
            typer.prompt("", default="", show_default=False, prompt_suffix="")

    try:
        final = replay(rules, record, on_step=show)
    except ParleyError as err:
        raise _fail(err.message) from None
    console.print(rules.render(final.observe(viewer)["view"]))
    outcome = final.outcome()
    console.print(f"Outcome: {outcome.reason if outcome else 'the game goes on'}")


# --- commands from other packages: one line each --------------------------------------

from parley.server.cli import serve  # noqa: E402

app.command("serve")(serve)

from parley.agents.arena.cli import arena_command  # noqa: E402

app.command("arena")(arena_command)

from parley.agents.export_cli import export_command  # noqa: E402

app.command("export")(export_command)

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
