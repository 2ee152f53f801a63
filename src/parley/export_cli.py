"""`parley export`: game records to a JSON Lines dataset of decisions."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from sqlalchemy.exc import SQLAlchemyError

from parley.agents.export import ExportOptions, View, records_in, write_decisions
from parley.kernel import ParleyError

err_console = Console(stderr=True, soft_wrap=True)  # paths in messages stay whole


def export_command(
    sources: Annotated[
        list[Path] | None,
        typer.Argument(help="Record files or folders (an arena run's, say); searched recursively."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", "-o", help="Write here (.jsonl, or .jsonl.gz to compress); default stdout."
        ),
    ] = None,
    database: Annotated[
        str | None,
        typer.Option(help="Read a Parley server's database at this URL instead of files."),
    ] = None,
    unfinished: Annotated[
        bool, typer.Option(help="With --database: include games still going or closed.")
    ] = False,
    view: Annotated[
        View, typer.Option(help="Whose eyes: the acting seat's, a spectator's, or the archive's.")
    ] = View.SEAT,
    reasoning: Annotated[
        bool, typer.Option(help="Include private reasoning the records hold (--no-reasoning).")
    ] = True,
) -> None:
    """Write one JSON line per decision: observation, legal actions, action, press, reasoning."""
    if database is None and not sources:
        err_console.print("[bold red]error:[/] name record files or folders, or --database URL")
        raise typer.Exit(2)
    if database is not None and sources:
        err_console.print("[bold red]error:[/] read either files or --database, not both")
        raise typer.Exit(2)
    for source in sources or []:
        if not source.exists():
            err_console.print(f"[bold red]error:[/] {source} does not exist")
            raise typer.Exit(2)
    records = (
        _database_records(database, finished_only=not unfinished)
        if database is not None
        else records_in(sources or [])
    )
    options = ExportOptions(view=view, reasoning=reasoning)
    try:
        stats = write_decisions(out if out is not None else sys.stdout, records, options)
    except (ParleyError, SQLAlchemyError, OSError) as err:
        if out is not None:
            out.unlink(missing_ok=True)  # no half-written dataset left behind
        message = err.message if isinstance(err, ParleyError) else str(err).splitlines()[0]
        where = f" (database {database})" if isinstance(err, SQLAlchemyError) else ""
        err_console.print(f"[bold red]error:[/] {message}{where}")
        raise typer.Exit(2) from None
    err_console.print(
        f"{stats.decisions} decisions from {stats.games} games" + (f" in {out}" if out else "")
    )


def _database_records(url: str, finished_only: bool) -> Any:
    # The server owns its database; the export only asks it for records.
    from parley.server.export import records_in_database

    return records_in_database(url, finished_only=finished_only)
