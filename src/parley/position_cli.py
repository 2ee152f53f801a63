"""`parley position`: check a position and print it tidily, or write one to start from."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from parley import games
from parley.kernel import BadPosition, Match, ParleyError, Rules, load_record, parse_option_pairs
from parley.kernel.positions import dumps, parse_json

err_console = Console(stderr=True, soft_wrap=True)


def _fail(message: str) -> typer.Exit:
    err_console.print(f"[bold red]error:[/] {message}", highlight=False, markup=True)
    return typer.Exit(2)


def read_position_file(rules: Rules[Any, Any], path: Path | str) -> dict[str, Any]:
    """The position in a file ("-" is standard input), checked by the game; BadPosition or
    OSError when it cannot be used."""
    text = sys.stdin.read() if str(path) == "-" else Path(path).read_text(encoding="utf-8")
    data = parse_json(text)
    rules.read_position(data)  # raises BadPosition naming the field
    return data


def position_command(
    game: Annotated[str, typer.Argument(help="Game name or alias.")],
    file: Annotated[
        str | None,
        typer.Argument(help="A position (JSON) to check; '-' reads standard input."),
    ] = None,
    record: Annotated[
        Path | None, typer.Option(help="Take the position from this game record instead.")
    ] = None,
    at: Annotated[
        int | None, typer.Option(help="With --record: after this many entries (default: all).")
    ] = None,
    players: Annotated[int, typer.Option(help="Seats of a new game (default: the game's).")] = 0,
    seed: Annotated[int, typer.Option(help="Seed of a new game's randomness.")] = 0,
    option: Annotated[
        list[str], typer.Option("--option", "-o", help="A new game's option as name=value.")
    ] = [],  # noqa: B006 - Typer reads the default, it is never mutated
) -> None:
    """Check a position and print it tidily; with no FILE, print a new game's starting
    position (a template to edit), or with --record the position at any moment of a game.

    A position is the whole truth, hidden parts included: share it only with people who
    may see everything. `parley play GAME --from FILE` starts a game from it.
    """
    try:
        rules = games.find(game)
        if file is not None and record is not None:
            raise _fail("give a position FILE or --record, not both")
        if file is not None:
            data = read_position_file(rules, file)
            state = rules.read_position(data)
        elif record is not None:
            state = _from_record(rules, record, at)
        else:
            count = players or rules.spec.default_seats or rules.spec.min_seats
            state = Match(rules, count, parse_option_pairs(option), seed).state
        print(dumps(rules.write_position(state)), end="")
    except OSError as err:
        raise _fail(f"cannot read {file or record}: {err.strerror}") from None
    except ParleyError as err:
        raise _fail(err.message) from None


def _from_record(rules: Rules[Any, Any], path: Path, at: int | None) -> Any:
    from parley.kernel import replay

    record = load_record(path.read_text(encoding="utf-8"))
    if record.get("game") != rules.spec.name:
        raise BadPosition(f"the record is of {record.get('game')!r}, not {rules.spec.name!r}")
    entries = list(record.get("entries", []))
    if at is not None:
        if not 0 <= at <= len(entries):
            raise BadPosition(f"--at must be 0–{len(entries)}: the record has {len(entries)}")
        record = {**record, "entries": entries[:at]}
    return replay(rules, json.loads(json.dumps(record))).state
