"""Decision datasets: one JSON line per action taken, as the acting seat saw it.

`export_records` turns game records (files, an arena run's folder, or a server database)
into JSON Lines, one line per action: the game, step, seat, the seat's observation just
before it acted (`Match.observe`, so redacted by the same rules as the live game), its legal
actions, the action, the press it received and sent since its previous decision, and the
private reasoning the record holds for that decision. A spectator or archive view replaces
the seat's view on request. Games are read, replayed and written one at a time, so memory
stays flat however many there are. `read_decisions` loads the lines back; the format is
`decision_schema()` (JSON Schema, draft 2020-12).
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from importlib import resources
from pathlib import Path
from typing import IO, Any

from parley import games
from parley.kernel import (
    ARCHIVE,
    JSON,
    SPECTATOR,
    Match,
    RecordError,
    Viewer,
    apply_entry,
    replay,
)
from parley.kernel.log import check_record

FORMAT = "parley.decisions"
VERSION = 1


class View(StrEnum):
    """Whose eyes a dataset line is written through."""

    SEAT = "seat"  # the acting seat's own view (the default)
    SPECTATOR = "spectator"  # what anyone watching saw
    ARCHIVE = "archive"  # everything, hidden information included


@dataclass(frozen=True, slots=True)
class ExportOptions:
    view: View = View.SEAT
    reasoning: bool = True  # include private reasoning the record holds


@dataclass(frozen=True, slots=True)
class Decision:
    """One dataset line: an action and what its seat (or the chosen viewer) knew then."""

    game: str
    game_id: str
    step: int
    seq: int
    seat: int
    view: View
    state_id: int
    observation: dict[str, JSON]
    legal: list[str] | None
    action: dict[str, JSON]
    press_received: list[dict[str, JSON]] = field(default_factory=list)
    press_sent: list[dict[str, JSON]] = field(default_factory=list)
    reasoning: list[str] | None = None
    players: list[str] = field(default_factory=list)
    options: dict[str, JSON] = field(default_factory=dict)
    outcome: dict[str, JSON] | None = None
    usage: dict[str, JSON] | None = None  # a chat model's requests, tokens and cost

    def to_json(self) -> dict[str, JSON]:
        out: dict[str, JSON] = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "game_id": self.game_id,
            "players": list(self.players),
            "options": dict(self.options),
            "step": self.step,
            "seq": self.seq,
            "seat": self.seat,
            "view": self.view.value,
            "state_id": self.state_id,
            "observation": self.observation,
            "legal": None if self.legal is None else list(self.legal),
            "action": self.action,
            "press_received": list(self.press_received),
            "press_sent": list(self.press_sent),
            "outcome": self.outcome,
        }
        if self.reasoning is not None:
            out["reasoning"] = list(self.reasoning)
        if self.usage is not None:
            out["usage"] = dict(self.usage)
        return out

    @staticmethod
    def from_json(obj: Mapping[str, Any]) -> Decision:
        if obj.get("format") != FORMAT:
            raise RecordError(f"not a Parley decision line (format {obj.get('format')!r})")
        if obj.get("version") != VERSION:
            raise RecordError(f"decision line version {obj.get('version')!r} is not supported")
        try:
            reasoning = obj.get("reasoning")
            legal = obj["legal"]
            return Decision(
                game=str(obj["game"]),
                game_id=str(obj["game_id"]),
                step=int(obj["step"]),
                seq=int(obj["seq"]),
                seat=int(obj["seat"]),
                view=View(obj["view"]),
                state_id=int(obj["state_id"]),
                observation=dict(obj["observation"]),
                legal=None if legal is None else [str(a) for a in legal],
                action=dict(obj["action"]),
                press_received=list(obj["press_received"]),
                press_sent=list(obj["press_sent"]),
                reasoning=None if reasoning is None else [str(r) for r in reasoning],
                players=[str(p) for p in obj["players"]],
                options=dict(obj["options"]),
                outcome=obj.get("outcome"),
                usage=None if obj.get("usage") is None else dict(obj["usage"]),
            )
        except (KeyError, TypeError, ValueError) as err:
            raise RecordError(f"a decision line is malformed: {err!r}") from None


def _viewer(view: View, seat: int) -> Viewer:
    if view is View.SPECTATOR:
        return SPECTATOR
    if view is View.ARCHIVE:
        return ARCHIVE
    return Viewer.of(seat)


def _notes_by_decision(record: Mapping[str, Any]) -> dict[tuple[int, int], list[str]]:
    """A record's private reasoning by (seat, state_id); `notes` is optional in a record."""
    out: dict[tuple[int, int], list[str]] = {}
    for note in record.get("notes") or ():
        try:
            key = (int(note["seat"]), int(note["state_id"]))
            out.setdefault(key, []).append(str(note["text"]))
        except (KeyError, TypeError, ValueError):
            raise RecordError(f"a note of the record is malformed: {note!r}") from None
    return out


def _usage_by_decision(record: Mapping[str, Any]) -> dict[tuple[int, int], dict[str, JSON]]:
    """A record's per-decision model usage by (seat, state_id); `usage` is optional."""
    out: dict[tuple[int, int], dict[str, JSON]] = {}
    for entry in record.get("usage") or ():
        try:
            key = (int(entry["seat"]), int(entry["state_id"]))
        except (KeyError, TypeError, ValueError):
            raise RecordError(f"a usage entry of the record is malformed: {entry!r}") from None
        out[key] = {k: v for k, v in entry.items() if k not in ("seat", "state_id")}
    return out


def _admits(press: Mapping[str, Any], viewer: Viewer) -> bool:
    to = press.get("to")
    if to is None or viewer.omniscient:
        return True
    return viewer.seat is not None and (viewer.seat == press.get("seat") or viewer.seat in to)


def decisions(
    record: Mapping[str, Any], game_id: str, options: ExportOptions | None = None
) -> Iterator[Decision]:
    """The dataset lines of one game record, in the order its actions were taken."""
    opts = options or ExportOptions()
    check_record(record)
    rules = games.find(str(record.get("game", "")))
    # The game's start as the record gives it: its set-up, or its position and script.
    match: Match[Any, Any] = replay(rules, {**record, "entries": []})
    notes = _notes_by_decision(record) if opts.reasoning else {}
    usage = _usage_by_decision(record)
    outcome = record.get("outcome")
    # Press since each seat's previous decision (received, sent), as each viewer may see it.
    pending: list[dict[str, Any]] = []
    since: dict[int, int] = {}
    entries = list(record.get("entries", []))
    for index, raw in enumerate(entries):
        kind = raw.get("type") if isinstance(raw, Mapping) else None
        if kind == "action":
            seat = int(raw["seat"])
            viewer = _viewer(opts.view, seat)
            observation = match.observe(viewer)
            legal = (
                None
                if opts.view is View.SPECTATOR
                else [rules.format(a) for a in match.legal_actions(seat)]
            )
            step, seq, state_id = match.ply, match.seq, match.state_id
            try:
                apply_entry(match, raw)
            except RecordError:
                raise
            except Exception as err:
                raise RecordError(f"entry {index} of {game_id} does not replay: {err}") from err
            start = since.get(seat, 0)
            window = [p for p in pending if p["seq"] >= start]
            received = [p for p in window if p.get("seat") != seat and _admits(p, viewer)]
            sent = [p for p in window if p.get("seat") == seat and _admits(p, viewer)]
            since[seat] = seq + 1
            reasoning = None
            if opts.reasoning and (opts.view is not View.SPECTATOR):
                reasoning = notes.get((seat, state_id), [])
            yield Decision(
                game=rules.spec.name,
                game_id=game_id,
                step=step,
                seq=seq,
                seat=seat,
                view=opts.view,
                state_id=state_id,
                observation=observation,
                legal=legal,
                action=_action_as_seen(match, seq, viewer),
                press_received=received,
                press_sent=sent,
                reasoning=reasoning,
                players=list(match.players),
                options=dict(match.options),
                outcome=outcome,
                usage=usage.get((seat, state_id)),
            )
        else:
            try:
                apply_entry(match, raw)
            except RecordError:
                raise
            except Exception as err:
                raise RecordError(f"entry {index} of {game_id} does not replay: {err}") from err
            if kind == "press":
                pending.append(match.history(ARCHIVE, since=match.seq - 1)[0])
        _forget_read_press(pending, since, match.seats)


def _action_as_seen(match: Match[Any, Any], seq: int, viewer: Viewer) -> dict[str, JSON]:
    """The action entry as `viewer` sees it just after it was taken."""
    entry = match.history(viewer, since=seq)[0]
    return {k: v for k, v in entry.items() if k not in ("seq", "type", "seat")}


def _forget_read_press(pending: list[dict[str, Any]], since: dict[int, int], seats: int) -> None:
    """Drop press every seat has already been shown, so a long game's window stays short."""
    if not pending:
        return
    oldest = min(since.get(s, 0) for s in range(seats))
    while pending and pending[0]["seq"] < oldest:
        pending.pop(0)


# --- sources ---------------------------------------------------------------------------


def records_in(paths: Iterable[Path]) -> Iterator[tuple[str, dict[str, Any]]]:
    """(game id, record) for every Parley record under the paths (files or folders).

    Folders are searched recursively in name order; JSON files that are not game records
    (an arena run's summary, say) are skipped.
    """
    for path in paths:
        files = sorted(path.rglob("*.json")) if path.is_dir() else [path]
        for file in files:
            try:
                data = json.loads(file.read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError) as err:
                raise RecordError(f"cannot read {file}: {err}") from None
            if isinstance(data, dict) and data.get("format") == "parley.record":
                yield file.stem, data
            elif not path.is_dir():
                raise RecordError(f"{file} is not a Parley game record")


def _open_write(path: Path) -> IO[str]:
    if path.suffix == ".gz":
        return gzip.open(path, "wt", encoding="utf-8")
    return path.open("w", encoding="utf-8")


def _open_read(path: Path) -> IO[str]:
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8")
    return path.open(encoding="utf-8")


@dataclass(slots=True)
class ExportStats:
    games: int = 0
    decisions: int = 0


def write_decisions(
    out: Path | IO[str],
    records: Iterable[tuple[str, Mapping[str, Any]]],
    options: ExportOptions | None = None,
) -> ExportStats:
    """Write every record's decisions to `out` (a `.jsonl` or `.jsonl.gz` path, or a stream)."""
    stats = ExportStats()
    stream = _open_write(out) if isinstance(out, Path) else out
    try:
        for game_id, record in records:
            for decision in decisions(record, game_id, options):
                stream.write(json.dumps(decision.to_json(), separators=(",", ":")) + "\n")
                stats.decisions += 1
            stats.games += 1
    finally:
        if isinstance(out, Path):
            stream.close()
    return stats


def read_decisions(path: Path) -> Iterator[Decision]:
    """The lines of an exported dataset, one at a time (`.jsonl` or `.jsonl.gz`)."""
    with _open_read(path) as stream:
        for number, line in enumerate(stream, 1):
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as err:
                raise RecordError(f"{path}:{number} is not JSON: {err}") from None
            yield Decision.from_json(obj)


def decision_schema() -> dict[str, Any]:
    """The JSON Schema of one dataset line."""
    text = resources.files("parley.agents").joinpath("decision.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema
