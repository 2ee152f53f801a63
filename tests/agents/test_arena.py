"""The arena on the toy games: workers, records, figures and forks (Ray: test_arena_ray.py)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.kernel.toygames import Countdown
from typer.testing import CliRunner

from parley import games
from parley.agents.arena import (
    ArenaConfig,
    ArenaError,
    ForkPoint,
    Standings,
    game_seeds,
    lineup,
    play_game,
    run_arena,
)
from parley.agents.bots import Decision
from parley.cli import app
from parley.kernel import BadOptions, load_record, replay

COUNTDOWN = "tests.kernel.toygames:Countdown"
BIDS = "tests.kernel.toygames:SealedBids"
SMART = "tests.agents.toys:CountdownBot"


def _records(out: Path) -> dict[str, Any]:
    return {p.name: json.loads(p.read_text()) for p in sorted((out / "games").glob("*.json"))}


def test_two_workers_play_every_game_and_the_figures_add_up(tmp_path: Path) -> None:
    out = tmp_path / "two"
    config = ArenaConfig(COUNTDOWN, ("random", SMART), games=40, workers=2, seed=7, out=out)
    seen: list[int] = []
    states: list[tuple[int, int, int]] = []
    run_arena(
        config,
        lambda r: seen.append(r.index),
        lambda p: states.append((p.done, p.in_flight, p.failed)),
    )
    assert sorted(seen) == list(range(40))
    # The progress bar's figures: done only grows, never more games at once than workers.
    assert [s[0] for s in states] == sorted(s[0] for s in states)
    assert max(s[1] for s in states) == 2 and states[-1] == (40, 0, 0)
    records = _records(out)
    assert len(records) == 40
    rules = Countdown()
    lines = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert [line["index"] for line in lines] == list(range(40))
    for line in lines:
        record = records[Path(line["record"]).name]
        assert record["players"] == line["players"]
        assert record["outcome"] == line["outcome"]
        again = replay(rules, record)  # every record replays to its own outcome
        assert again.to_json() == record
    summary = json.loads((out / "summary.json").read_text())
    standings = summary["standings"]
    for tally in standings.values():
        assert tally["wins"] + tally["draws"] + tally["losses"] == tally["seats"]
    assert sum(t["seats"] for t in standings.values()) == 40 * 2
    assert sum(t["wins"] for t in standings.values()) == 40  # countdown has one winner
    # Perfect play against random play wins nearly always, and the ratings say so.
    assert standings[SMART]["win_share"] > 0.8
    assert standings[SMART]["rating"]["mu"] > standings["random"]["rating"]["mu"] + 5
    assert summary["games_per_second"] > 0 and summary["capped"] == 0
    png = (out / "ratings.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 5000


def test_the_same_run_with_one_worker_gives_the_same_records_and_figures(tmp_path: Path) -> None:
    def run(workers: int) -> tuple[dict[str, Any], dict[str, Any]]:
        out = tmp_path / f"w{workers}"
        run_arena(ArenaConfig(COUNTDOWN, ("random", SMART), 12, workers, seed=3, out=out))
        summary = json.loads((out / "summary.json").read_text())
        return _records(out), summary["standings"]

    assert run(1) == run(2)


def test_seats_rotate_and_seeds_differ_per_game() -> None:
    assert lineup(("a", "b", "c"), 4, 0) == ("a", "b", "c", "a")
    assert lineup(("a", "b", "c"), 4, 1) == ("b", "c", "a", "b")
    seeds = {game_seeds(5, i) for i in range(100)}
    assert len(seeds) == 100 and game_seeds(5, 3) == game_seeds(5, 3)


def test_games_past_the_cap_end_in_a_draw_agreed_by_survivors(tmp_path: Path) -> None:
    config = ArenaConfig(BIDS, ("random",), games=3, seats=3, out=tmp_path, max_plies=4)
    report = run_arena(config)
    assert all(r.capped for r in report.results)
    record = load_record(Path(report.results[0].path or "").read_text())
    votes = [e for e in record["entries"] if e["type"] == "vote"]
    assert [v["seat"] for v in votes] == [0, 1, 2]
    assert record["outcome"]["draw"] and record["outcome"]["winners"] == [0, 1, 2]
    assert report.standings.tallies["random"].draws == 9


def test_fork_plays_on_from_the_chosen_entry(tmp_path: Path) -> None:
    first = run_arena(ArenaConfig(COUNTDOWN, ("random",), 1, out=tmp_path / "a", seed=1))
    source = load_record(Path(first.results[0].path or "").read_text())
    at = 3
    config = ArenaConfig(
        COUNTDOWN, (SMART, "random"), 6, out=tmp_path / "b", fork=ForkPoint(source, at, "x")
    )
    report = run_arena(config)
    for result in report.results:
        record = load_record(Path(result.path or "").read_text())
        assert record["seed"] == source["seed"]
        assert record["entries"][:at] == source["entries"][:at]
        assert record["players"] == list(result.lineup)
    assert report.summary["forked_from"] == {"record": "x", "at": at}
    with pytest.raises(ArenaError, match="cannot fork"):
        run_arena(
            ArenaConfig(COUNTDOWN, ("random",), 1, out=tmp_path / "c", fork=ForkPoint(source, 999))
        )


def test_bad_bots_and_counts_are_refused_before_playing(tmp_path: Path) -> None:
    with pytest.raises(BadOptions, match="no bot called 'genius'"):
        run_arena(ArenaConfig(COUNTDOWN, ("random", "genius"), 2, out=tmp_path))
    with pytest.raises(ArenaError, match="at least one game"):
        run_arena(ArenaConfig(COUNTDOWN, ("random",), 0, out=tmp_path))
    assert not (tmp_path / "games").exists()


class _BrokenBot:
    name = "broken"

    def choose(self, decision: object) -> str:
        return "take 7"


def test_a_bot_answering_illegally_gets_the_default_and_is_counted(tmp_path: Path) -> None:
    config = ArenaConfig(
        COUNTDOWN, ("random", "tests.agents.test_arena:_BrokenBot"), 4, out=tmp_path
    )
    report = run_arena(config)
    errors = report.summary["bot_errors"]
    assert isinstance(errors, dict) and errors["tests.agents.test_arena:_BrokenBot"] > 0
    record = load_record(Path(report.results[0].path or "").read_text())
    assert any(e.get("auto") for e in record["entries"])


class _CrashOnceBot:
    """Ends the process it plays in, the first time any copy of it is asked to move."""

    name = "crash-once"

    def choose(self, decision: Decision) -> Any:
        try:
            Path(os.environ[CRASH_MARKER]).touch(exist_ok=False)  # only one copy creates it
        except FileExistsError:
            return decision.rules.random_action(decision.state, decision.seat, decision.rng)
        os._exit(3)


CRASH_MARKER = "PARLEY_TEST_CRASH_MARKER"
CRASH_ONCE = "tests.agents.test_arena:_CrashOnceBot"


def test_games_lost_with_a_dead_worker_process_are_played_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(CRASH_MARKER, str(tmp_path / "crashed"))
    failed: list[int] = []
    config = ArenaConfig(COUNTDOWN, (CRASH_ONCE, "random"), 6, 2, seed=9, out=tmp_path / "two")
    report = run_arena(config, on_progress=lambda p: failed.append(p.failed))
    # The dead worker's game, and the other worker's if it was still playing.
    assert report.summary["retried"] in (1, 2) and failed[-1] == report.summary["retried"]
    assert (tmp_path / "crashed").exists() and len(report.results) == 6
    # The marker is there now: the same run in this process does not crash.
    run_arena(ArenaConfig(COUNTDOWN, (CRASH_ONCE, "random"), 6, 1, seed=9, out=tmp_path / "one"))
    assert _records(tmp_path / "two") == _records(tmp_path / "one")


class _ExitingBot:
    name = "exiting"

    def choose(self, decision: Decision) -> Any:
        os._exit(3)


def test_a_game_that_keeps_killing_its_worker_process_is_given_up(tmp_path: Path) -> None:
    bot = "tests.agents.test_arena:_ExitingBot"
    with pytest.raises(ArenaError, match="lost with its worker 3 times"):
        run_arena(ArenaConfig(COUNTDOWN, (bot,), 2, 2, out=tmp_path))


def test_standings_count_each_seat_a_bot_fills() -> None:
    table = Standings(["a", "b"])
    table.add(("a", "a", "b"), {"ranks": [1, 2, 2], "winners": [0], "draw": False})
    assert table.tallies["a"].wins == 1 and table.tallies["a"].losses == 1
    assert table.tallies["b"].losses == 1 and table.tallies["a"].games == 1
    assert len(table.history) == 1


def test_ray_backend_without_ray_says_how_to_get_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if the `ray` extra were not installed
    config = ArenaConfig(COUNTDOWN, ("random",), 2, out=tmp_path, ray=True)
    with pytest.raises(ArenaError, match=r"pip install 'parley-games\[ray\]'"):
        run_arena(config)
    assert not (tmp_path / "games").exists()


runner = CliRunner()


@pytest.fixture
def countdown_registered() -> Iterator[None]:
    games.register(Countdown())
    yield
    games.unregister("countdown")


def test_cli_arena_then_replay_then_fork(tmp_path: Path, countdown_registered: None) -> None:
    out = tmp_path / "cli"
    result = runner.invoke(
        app,
        [
            "arena",
            "countdown",
            "--bots",
            "random,random",
            "--games",
            "6",
            "--workers",
            "2",
            "--seed",
            "4",
            "--out",
            str(out),
            "-o",
            "start=12",
        ],
    )
    assert result.exit_code == 0, result.output
    assert "games/s" in result.output and "random" in result.output
    records = sorted((out / "games").glob("*.json"))
    assert len(records) == 6
    replayed = runner.invoke(app, ["replay", str(records[0])])
    assert replayed.exit_code == 0, replayed.output
    assert "took the last one" in replayed.output
    forked = runner.invoke(
        app,
        [
            "arena",
            "--from",
            str(records[0]),
            "--at",
            "2",
            "--games",
            "3",
            "--out",
            str(tmp_path / "fork"),
            "--quiet",
        ],
    )
    assert forked.exit_code == 0, forked.output
    fork_record = load_record(next((tmp_path / "fork" / "games").glob("*.json")).read_text())
    assert fork_record["options"] == {"start": 12}
    bad = runner.invoke(app, ["arena", "countdown", "--bots", "nobody", "--out", str(out)])
    assert bad.exit_code == 2 and "no bot called 'nobody'" in bad.output
    missing = runner.invoke(app, ["arena"])
    assert missing.exit_code == 2 and "name a game" in missing.output


def test_play_game_returns_the_record_when_told_to_write_nothing() -> None:
    from parley.agents.arena import GameTask

    seed, bot_seed = game_seeds(0, 0)
    task = GameTask(0, COUNTDOWN, 2, {"start": 9}, seed, bot_seed, ("random", "random"), 100)
    result = play_game(task)
    assert result.path is None and result.record is not None
    assert result.record["outcome"] == result.outcome


def test_cli_summary_puts_seats_beside_win_share_and_self_play_unrated(
    tmp_path: Path, countdown_registered: None
) -> None:
    # Two bots cycled over three seats for five games: one holds 8 seats, the other 7.
    out = tmp_path / "uneven"
    args = ["--seats", "3", "--seed", "1", "--quiet", "-o", "start=9"]
    result = runner.invoke(
        app,
        [
            "arena",
            "countdown",
            "--bots",
            "random,default",
            "--games",
            "5",
            "--out",
            str(out),
            *args,
        ],
    )
    assert result.exit_code == 0, result.output
    standings = json.loads((out / "summary.json").read_text())["standings"]
    assert (standings["random"]["seats"], standings["default"]["seats"]) == (8, 7)
    rows = {line.split()[1]: line for line in result.output.splitlines() if line.startswith("│ ")}
    for bot in ("random", "default"):
        tally = standings[bot]
        low, high = tally["win_share_95"]
        cells = [c.strip() for c in rows[bot].strip("│").split("│")]
        assert cells[:2] == [bot, str(tally["seats"])]
        assert cells[3] == f"{tally['win_share']:.3f} ({low:.3f}-{high:.3f})"
    assert "Seats played: random 8, default 7." in " ".join(result.output.split())
    # One bot in every seat: it never met another, so it has no rating.
    alone = tmp_path / "alone"
    result = runner.invoke(
        app, ["arena", "countdown", "--bots", "random", "--games", "3", "--out", str(alone), *args]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((alone / "summary.json").read_text())["standings"]["random"]
    assert summary["rated"] is False and summary["rating"] is None and summary["seats"] == 9
    row = next(line for line in result.output.splitlines() if line.startswith("│ random"))
    assert "unrated" in row and "±" not in row
    assert "Unrated (played only itself" in result.output


# --- one run per folder -----------------------------------------------------------------


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def _arena(*args: str) -> Any:
    return runner.invoke(app, ["arena", *args, "--quiet"])


def test_a_folder_holding_a_run_is_refused_unless_resumed_or_overwritten(
    tmp_path: Path, countdown_registered: None
) -> None:
    out = tmp_path / "run"
    common = ["countdown", "--bots", "random,default", "--seed", "2", "--out", str(out)]
    assert _arena(*common, "--games", "3").exit_code == 0
    before = _files(out)
    again = _arena(*common, "--games", "3")
    assert again.exit_code == 2
    assert again.stderr.count("\n") == 1 and "holds an arena run already" in again.stderr
    assert _files(out) == before  # nothing written, nothing lost
    # Resuming with other settings is refused too, naming the setting that differs.
    other = _arena("countdown", "--bots", "random", "--seed", "2", "--out", str(out), "--resume")
    assert other.exit_code == 2 and "bots=random,default" in other.stderr
    # Resumed with more games: the three played stay as they were, two more are added,
    # and the whole equals one uninterrupted run of five.
    resumed = _arena(*common, "--games", "5", "--resume")
    assert resumed.exit_code == 0, resumed.output
    assert "3 finished before this resume" in " ".join(resumed.stdout.split())
    after = _files(out)
    assert all(after[name] == data for name, data in before.items() if name.startswith("games"))
    whole = tmp_path / "whole"
    assert _arena(*common[:-1], str(whole), "--games", "5").exit_code == 0
    assert _records(out) == _records(whole)
    assert _results(out) == _results(whole)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 5 and summary["resumed"] == 3
    # Overwritten: the old run's files are gone, the folder holds the new run alone.
    (out / "notes.txt").write_text("mine")
    replaced = _arena(*common, "--games", "2", "--overwrite")
    assert replaced.exit_code == 0, replaced.output
    assert sorted(_records(out)) == ["game-00000.json", "game-00001.json"]
    assert len((out / "results.jsonl").read_text().splitlines()) == 2
    assert (out / "notes.txt").read_text() == "mine"  # not the arena's: left alone
    both = _arena(*common, "--games", "2", "--overwrite", "--resume")
    assert both.exit_code == 2 and "exclude each other" in both.stderr


def _results(out: Path) -> list[dict[str, Any]]:
    lines = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    return [{k: v for k, v in line.items() if k not in ("seconds", "record")} for line in lines]


def test_a_run_stopped_part_way_resumes_to_the_same_games(tmp_path: Path) -> None:
    config = ArenaConfig(COUNTDOWN, ("random", SMART), 6, seed=5, out=tmp_path / "a")
    run_arena(config)
    whole = _records(tmp_path / "a")
    # As if stopped while writing game 4's line, before game 5's record: the cut line and
    # the missing record are played again, the rest kept.
    results = tmp_path / "a" / "results.jsonl"
    lines = results.read_text().splitlines()
    results.write_text("\n".join(lines[:4]) + "\n" + lines[4][:20])
    (tmp_path / "a" / "games" / "game-00005.json").unlink()
    (tmp_path / "a" / "summary.json").unlink()
    played: list[int] = []
    report = run_arena(
        ArenaConfig(COUNTDOWN, ("random", SMART), 6, seed=5, out=tmp_path / "a", resume=True),
        on_result=lambda r: played.append(r.index),
    )
    assert sorted(played) == [4, 5] and report.resumed == 4
    assert _records(tmp_path / "a") == whole
    assert [r.index for r in report.results] == list(range(6))
    # Shrinking a run by resuming is refused, and refused before anything changes.
    with pytest.raises(ArenaError, match="--games must be at least"):
        run_arena(
            ArenaConfig(COUNTDOWN, ("random", SMART), 3, seed=5, out=tmp_path / "a", resume=True)
        )


def test_export_of_a_run_folder_gives_that_runs_games_only(
    tmp_path: Path, countdown_registered: None
) -> None:
    out = tmp_path / "run"
    args = ["countdown", "--bots", "random,default", "--out", str(out)]
    assert _arena(*args, "--games", "4").exit_code == 0
    assert _arena(*args, "--games", "2", "--seed", "9").exit_code == 2
    assert _arena(*args, "--games", "2", "--seed", "9", "--overwrite").exit_code == 0
    target = tmp_path / "d.jsonl"
    exported = runner.invoke(app, ["export", str(out), "--out", str(target)])
    assert exported.exit_code == 0, exported.output
    lines = [json.loads(line) for line in target.read_text().splitlines()]
    plies = sum(r["plies"] for r in _results(out))
    assert {line["game_id"] for line in lines} == {"game-00000", "game-00001"}
    assert len(lines) == plies


def _sucker_run(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    made = _arena("sucker", "--bots", "heuristic,random", "--games", "4", "--out", str(run))
    assert made.exit_code == 0, made.output
    return run


def test_a_fork_leaves_its_source_alone_and_explores_different_continuations(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    run = _sucker_run(tmp_path)
    before = _files(run)
    source = run / "games" / "game-00003.json"
    # The documented example, into the default folder, which is not the source's.
    fork = ["--from", str(source.relative_to(tmp_path)), "--at", "40", "--games", "10"]
    forked = _arena(*fork, "--bots", "heuristic,random")
    assert forked.exit_code == 0, forked.output
    assert _files(run) == before
    out = tmp_path / "arena-out" / "sucker-game-00003-at40-heuristic+random-seed0"
    records = _records(out)
    assert len(records) == 10
    prefix = load_record(source.read_text())["entries"][:40]
    assert all(r["entries"][:40] == prefix for r in records.values())
    continuations = {json.dumps(r["entries"][40:]) for r in records.values()}
    summary = json.loads((out / "summary.json").read_text())
    assert summary["distinct_continuations"] == len(continuations) > 1
    # Into the source's own folder: refused, even when told to overwrite.
    for flags in ([], ["--overwrite"], ["--resume"]):
        refused = _arena(*fork, "--out", str(run), *flags)
        assert refused.exit_code == 2 and "the record being forked" in refused.stderr
    assert _files(run) == before


def test_deterministic_bots_fork_to_one_continuation_and_are_told_so(tmp_path: Path) -> None:
    run = _sucker_run(tmp_path)
    source = run / "games" / "game-00003.json"
    out = tmp_path / "same"
    fork = ["--from", str(source), "--at", "40", "--games", "3", "--bots", "heuristic"]
    forked = _arena(*fork, "--out", str(out))
    assert forked.exit_code == 0, forked.output
    assert json.loads((out / "summary.json").read_text())["distinct_continuations"] == 1
    assert "Every forked game went the same way" in " ".join(forked.stdout.split())
