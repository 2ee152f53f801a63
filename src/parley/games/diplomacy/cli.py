"""`parley diplomacy ...`: the adjudicator and the legal-order lists for other tools."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from .jsonio import AdjudicationError, adjudicate_json
from .legal import legal_orders
from .map import DipMap, MapError, load_map, standard_map
from .orders import format_order
from .position import PositionError
from .serial import position_from_json

app = typer.Typer(
    name="diplomacy",
    help="Diplomacy tools: adjudicate a phase from JSON, list legal orders.",
    no_args_is_help=True,
    add_completion=False,
)


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def _read(source: Path | None) -> Any:
    try:
        text = sys.stdin.read() if source is None or str(source) == "-" else source.read_text()
    except OSError as err:
        raise _fail(f"cannot read {source}: {err.strerror}") from None
    if not text.strip():
        raise _fail("no input: give a JSON position and orders (see docs/diplomacy.md)")
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise _fail(f"the input is not valid JSON: {err.msg} at line {err.lineno}") from None


def _map(path: Path | None) -> DipMap | None:
    if path is None:
        return None
    try:
        return load_map(path)
    except MapError as err:
        raise _fail(str(err)) from None


InputArg = Annotated[
    Path | None, typer.Argument(help="A JSON file; standard input when absent or '-'.")
]
MapOpt = Annotated[
    Path | None, typer.Option("--map", help="A map file of your own (TOML); overrides 'map'.")
]


@app.command("adjudicate")
def adjudicate_command(
    source: InputArg = None,
    map_file: MapOpt = None,
    indent: Annotated[int, typer.Option(help="Indentation of the JSON output (0: one line).")] = 2,
) -> None:
    """Read a position and orders as JSON; write every order's result and the next position."""
    obj = _read(source)
    try:
        out = adjudicate_json(obj, _map(map_file))
    except AdjudicationError as err:
        raise _fail(str(err)) from None
    typer.echo(json.dumps(out, indent=indent or None))


@app.command("legal")
def legal_command(
    source: InputArg = None,
    map_file: MapOpt = None,
    power: Annotated[str | None, typer.Option(help="Only this power's orders.")] = None,
    indent: Annotated[int, typer.Option(help="Indentation of the JSON output (0: one line).")] = 2,
) -> None:
    """Read a position as JSON; write the legal orders of every unit (or power, in winter)."""
    obj = _read(source)
    dip = _map(map_file)
    if dip is None:
        name = obj.get("map", "standard") if isinstance(obj, dict) else "standard"
        try:
            dip = standard_map(str(name))
        except MapError as err:
            raise _fail(str(err)) from None
    try:
        pos = position_from_json(obj.get("position", obj) if isinstance(obj, dict) else obj, dip)
    except PositionError as err:
        raise _fail(f"bad position: {err}") from None
    wanted = power.upper() if power else None
    if wanted is not None and wanted not in dip.power_index:
        raise _fail(f"{power!r} is not a power of the {dip.name} map")
    found = legal_orders(pos, wanted)
    orders = {k: [format_order(o) for o in v] for k, v in found.items()}
    typer.echo(json.dumps(orders, indent=indent or None))
