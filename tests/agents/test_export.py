"""Decision datasets: 1,000 arena games round-trip; no line shows what its seat could not see."""

from __future__ import annotations

import gzip
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from typer.testing import CliRunner

from parley import games
from parley.agents.arena import ArenaConfig, run_arena
from parley.agents.export import (
    Decision,
    ExportOptions,
    View,
    decision_schema,
    decisions,
    read_decisions,
    records_in,
    write_decisions,
)
from parley.cli import app
from parley.kernel import Match, RecordError, Rng, Viewer, apply_entry, replay
from parley.kernel.conformance import random_step

SUCKER = games.find("sucker")
DIPLOMACY = games.find("diplomacy")


@pytest.fixture(scope="module")
def arena_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    out = tmp_path_factory.mktemp("arena")
    config = ArenaConfig(
        "sucker",
        ("random", "heuristic"),
        games=1000,
        seed=3,
        out=out,
        seats=3,
        options={"chips": 3, "private_channels": True},
    )
    run_arena(config)
    yield out


@pytest.fixture(scope="module")
def exported(arena_run: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("export") / "decisions.jsonl.gz"
    stats = write_decisions(path, records_in([arena_run]))
    assert stats.games == 1000
    return path


def _text_of(value: Any) -> str:
    """Every string of a JSON value, one per line (as the conformance suite searches)."""
    if isinstance(value, dict):
        return "\n".join(f"{k}\n{_text_of(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return "\n".join(_text_of(v) for v in value)
    return str(value)


def test_a_thousand_arena_games_round_trip_through_the_dataset(
    arena_run: Path, exported: Path
) -> None:
    with gzip.open(exported, "rt", encoding="utf-8") as stream:
        lines = [json.loads(line) for line in stream]
    results = [json.loads(line) for line in (arena_run / "results.jsonl").read_text().splitlines()]
    assert len(lines) == sum(r["plies"] for r in results)
    by_game: dict[str, list[Decision]] = {}
    for raw, decision in zip(lines, read_decisions(exported), strict=True):
        assert decision.to_json() == raw  # the loader gives back exactly what was written
        by_game.setdefault(decision.game_id, []).append(decision)
    assert len(by_game) == 1000
    for result in results:
        record = json.loads(Path(result["record"]).read_text())
        mine = by_game[Path(result["record"]).stem]
        # The lines' actions, in order, are the record's actions, and replay the game.
        actions = [e for e in record["entries"] if e["type"] == "action"]
        assert [(d.seat, d.action["action"]) for d in mine] == [
            (e["seat"], e["action"]) for e in actions
        ]
        assert [d.step for d in mine] == list(range(len(mine)))
        assert all(d.outcome == record["outcome"] for d in mine)
        # Draw votes (capped games) come after the last action; press changes no state.
        rebuilt = dict(record)
        rebuilt["entries"] = [
            {"type": "action", "seat": d.seat, "action": d.action["action"]} for d in mine
        ] + [e for e in record["entries"] if e["type"] != "action"]
        assert replay(SUCKER, rebuilt).outcome() == replay(SUCKER, record).outcome()
        # Each line's legal list holds its action, but for bargain proposals (free text).
        for d in mine:
            assert d.legal is not None
            assert d.action["notation"] in d.legal or d.action["notation"].startswith("propose")


def test_lines_follow_the_json_schema(exported: Path) -> None:
    assert jsonschema_rs.meta.is_valid(decision_schema())
    validator = jsonschema_rs.Draft202012Validator(decision_schema())
    with gzip.open(exported, "rt", encoding="utf-8") as stream:
        for number, line in enumerate(stream):
            if number % 25 == 0:
                validator.validate(json.loads(line))
    with pytest.raises(jsonschema_rs.ValidationError):
        validator.validate({"format": "parley.decisions", "version": 1})


def _sucker_with_secrets(seed: int) -> dict[str, Any]:
    """A 3-seat game with private press between two seats and each seat's own notes."""
    match: Match[Any, Any] = Match(SUCKER, 3, {"chips": 3, "private_channels": True}, seed)
    rng = Rng(seed)
    notes: list[dict[str, Any]] = []
    while not match.is_over and match.ply < 300:
        ply = match.ply
        sender = ply % 3
        match.say(
            sender, f"PSST-{seed}-{ply}-from{sender}-to{(sender + 1) % 3}", to=[(sender + 1) % 3]
        )
        match.say(sender, f"HELLO-{seed}-{ply}")
        for seat in match.turn().owing:
            notes.append({"seat": seat, "state_id": match.state_id, "text": f"THINK-{seat}-{ply}"})
        if not random_step(match, rng):
            break
    record = match.to_json()
    record["notes"] = notes
    return record


def _diplomacy_phases(seed: int, plies: int) -> dict[str, Any]:
    match: Match[Any, Any] = Match(DIPLOMACY, 7, seed=seed)
    rng = Rng(seed)
    while match.ply < plies and random_step(match, rng):
        pass
    return match.to_json()


def _assert_no_leaks(record: dict[str, Any], lines: list[Decision]) -> int:
    """At each action, no other seat's secret and no press or note for others is in the line."""
    rules = games.find(record["game"])
    base = dict(record, entries=[])
    match = replay(rules, base)
    checked = 0
    by_seq = {d.seq: d for d in lines}
    for raw in record["entries"]:
        line = by_seq.get(match.seq) if raw["type"] == "action" else None
        if line is not None:
            seat = line.seat
            text = _text_of(line.to_json())
            for owner in range(match.seats):
                for secret in rules.secrets(match.state, owner):
                    if owner != seat:
                        assert secret not in text, f"seat {seat} sees seat {owner}'s {secret!r}"
                        checked += 1
            for group, secrets in rules.shared_secrets(match.state).items():
                for secret in secrets:
                    if seat not in group:
                        assert secret not in text
                        checked += 1
            for other in range(match.seats):
                if other != seat:
                    assert f"THINK-{other}-" not in text
            for piece in text.split("\n"):
                if piece.startswith("PSST-"):
                    sender, to = piece.rsplit("-", 2)[-2:]
                    assert seat in (int(sender[4:]), int(to[2:])), f"seat {seat} reads {piece}"
                    checked += 1
            # The observation is the seat's own, unchanged.
            assert line.observation == match.observe(Viewer.of(seat))
        apply_entry(match, raw)
    return checked


def test_no_line_shows_what_its_seat_could_not_see(arena_run: Path) -> None:
    checked = 0
    private = 0
    for game_id, record in records_in([arena_run]):
        private += sum(1 for e in record["entries"] if e.get("audience"))
        checked += _assert_no_leaks(record, list(decisions(record, game_id)))
    assert private > 50  # private bargains were made, so there was something to hide
    for seed in range(3):
        record = _sucker_with_secrets(seed)
        lines = list(decisions(record, f"sucker-{seed}"))
        assert any(line.press_received for line in lines)
        assert any(line.reasoning for line in lines)
        for line in lines:
            assert all(p["seat"] != line.seat for p in line.press_received)
            assert all(p["seat"] == line.seat for p in line.press_sent)
            assert all(r.startswith(f"THINK-{line.seat}-") for r in line.reasoning or [])
        checked += _assert_no_leaks(record, lines)
    record = _diplomacy_phases(4, 30)
    lines = list(decisions(record, "diplomacy-4"))
    assert len(lines) == 30
    checked += _assert_no_leaks(record, lines)
    assert checked > 300


@pytest.mark.parametrize(
    "rules",
    [r for r in games.all_rules() if r.spec.name not in ("sucker", "diplomacy")],
    ids=lambda r: r.spec.name,
)
def test_every_other_game_exports_without_leaks(rules: Any) -> None:
    # Export is generic: each game's own secrets (campus picks, Illuminati hands...) are
    # what the check searches for.
    match: Match[Any, Any] = Match(rules, rules.spec.max_seats, seed=3)
    rng = Rng(3)
    while match.ply < 60 and random_step(match, rng):
        pass
    record = match.to_json()
    lines = list(decisions(record, "g"))
    assert len(lines) == match.ply
    _assert_no_leaks(record, lines)


def test_spectator_and_archive_views_and_leaving_reasoning_out() -> None:
    record = _sucker_with_secrets(7)
    spectator = list(decisions(record, "g", ExportOptions(view=View.SPECTATOR)))
    archive = list(decisions(record, "g", ExportOptions(view=View.ARCHIVE)))
    quiet = list(decisions(record, "g", ExportOptions(reasoning=False)))
    text = _text_of([d.to_json() for d in spectator])
    assert "PSST-" not in text and "THINK-" not in text and "HELLO-" in text
    assert all(d.legal is None and d.reasoning is None for d in spectator)
    assert all(d.observation["viewer"] == "spectator" for d in spectator)
    assert "PSST-" in _text_of([d.to_json() for d in archive])
    assert all(d.observation["viewer"] == "archive" and d.legal is not None for d in archive)
    assert all("reasoning" not in d.to_json() for d in quiet)


def test_bad_input_is_refused_with_the_reason(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="format"):
        Decision.from_json({"format": "other"})
    with pytest.raises(RecordError, match="malformed"):
        Decision.from_json({"format": "parley.decisions", "version": 1})
    junk = tmp_path / "junk.json"
    junk.write_text('{"hello": 1}')
    with pytest.raises(RecordError, match="not a Parley game record"):
        list(records_in([junk]))
    record = _diplomacy_phases(1, 3)
    record["entries"][1]["action"] = "nonsense"
    with pytest.raises(RecordError, match="does not replay"):
        list(decisions(record, "broken"))


def test_cli_exports_a_folder_and_stdout(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    for seed in range(2):
        (folder / f"g{seed}.json").write_text(json.dumps(_sucker_with_secrets(seed)))
    (folder / "summary.json").write_text("{}")  # not a record: skipped in a folder
    out = tmp_path / "d.jsonl"
    runner = CliRunner()
    result = runner.invoke(app, ["export", str(folder), "--out", str(out), "--no-reasoning"])
    assert result.exit_code == 0, result.output
    lines = list(read_decisions(out))
    assert {d.game_id for d in lines} == {"g0", "g1"} and all(d.reasoning is None for d in lines)
    piped = runner.invoke(app, ["export", str(folder / "g0.json"), "--view", "spectator"])
    assert piped.exit_code == 0
    assert sum(1 for d in lines if d.game_id == "g0") == sum(
        1 for line in io.StringIO(piped.stdout) if line.startswith("{")
    )
    missing = runner.invoke(app, ["export", str(tmp_path / "nope")])
    assert missing.exit_code == 2 and "does not exist" in missing.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "parley.record", "version": 1, "game": "sucker"}')
    refused = runner.invoke(app, ["export", str(bad), "--out", str(tmp_path / "x.jsonl")])
    assert refused.exit_code == 2 and "lacks" in refused.output
    assert not (tmp_path / "x.jsonl").exists()
    nowhere = runner.invoke(app, ["export", "--database", f"sqlite:///{tmp_path}/no/such.db"])
    assert nowhere.exit_code == 2 and "database sqlite" in nowhere.output
    both = runner.invoke(app, ["export", str(folder), "--database", "sqlite://"])
    assert both.exit_code == 2 and "not both" in both.output
