"""Each game played to its end in a pseudo-terminal: every table event shows, "Game over" once.

The human answers every owed prompt with the first action `options` lists (Diplomacy:
`done`, so the units hold). The record is saved, replayed here one entry at a time, and
every event the human's seat could see after each action must be on the screen, in order,
in play and again in `parley replay`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.terminal_pty import Pty, play_to_the_end

from parley import games
from parley.kernel import ActionEntry, Viewer, replay
from parley.terminal import EVENT_READERS


@pytest.fixture
def terms() -> Iterator[list[Pty]]:
    opened: list[Pty] = []
    yield opened
    for term in opened:
        term.close()


def events_seen(record: dict[str, Any], seat: int) -> list[str]:
    """Every table event `seat` saw, action by action, from the observation of its seat."""
    rules = games.find(record["game"])
    reader = EVENT_READERS[rules.spec.name]
    told: list[str] = []
    count = [0]

    def step(match: Any, entry: Any) -> None:
        if not isinstance(entry, ActionEntry):
            return
        tail, total = reader(rules.observe(match.state, Viewer.of(seat)))
        fresh = min(total - count[0], len(tail))
        assert fresh >= 0
        told.extend(tail[len(tail) - fresh :])
        count[0] = total

    match = replay(rules, record, on_step=step)
    assert match.is_over
    return told


def in_order(text: str, events: list[str]) -> None:
    """Every event is printed as a `·` line, in the order it happened."""
    at = 0
    for event in events:
        first = event.splitlines()[0]
        found = text.find(f"· {first}\n", at)
        assert found >= 0, f"event not shown (after offset {at}): {first!r}"
        at = found + 1


def play(terms: list[Pty], tmp_path: Path, *args: str) -> tuple[str, list[str]]:
    record = tmp_path / "game.json"
    term = Pty("play", *args, "--save", str(record), columns=200)
    terms.append(term)
    play_to_the_end(term)
    term.expect(r"Record saved")
    assert term.finish() == 0
    text = term.text
    assert "Traceback" not in text
    assert text.count("Game over") == 1, text[-3000:]
    events = events_seen(json.loads(record.read_text()), 0)
    in_order(text, events)
    # Replayed as the same seat, the record tells the same events, and the end once.
    again = Pty("replay", str(record), "--seat", "1", columns=200)
    terms.append(again)
    assert again.finish() == 0
    assert again.text.count("Game over") == 1 and "Traceback" not in again.text
    in_order(again.text, events)
    return text, events


def test_campus_tells_your_own_battles_and_your_elimination(
    terms: list[Pty], tmp_path: Path
) -> None:
    text, events = play(terms, tmp_path, "campus", "--seed", "1", "--bots", "heuristic")
    assert len(events) > 100
    # The human's own battle, with its dice, and their own capture and elimination.
    assert re.search(r"· Ash attacks [^\n]+: attack \d\+\d=\d+ \(level \d\) against defence", text)
    assert re.search(r"· Ash captures the unowned ", text)
    assert "· Ash has lost every sector and is out of the game" in text
    assert "You (Ash) are defeated" in text
    # The others' eliminations, told after the human was out, and the end.
    others = re.findall(r"· (\w+) has lost every sector and is out of the game \((\w+)\)", text)
    assert {loser for loser, _ in others} - {"Ash"}
    winner = re.search(r"· (\w+) wins the campus!\nFinal board:", text)
    assert winner is not None
    assert re.search(
        rf"Game over: [^\n]+\nFinal ranks:\n  1\. {winner.group(1)} \(bot \d\) — winner", text
    )


def test_planet_control_tells_every_combat_and_its_dice(terms: list[Pty], tmp_path: Path) -> None:
    # The compact game, whose seed-1 game holds both kinds of combat and a shared draw; the
    # full rules' whole game in the terminal is tests/games/planets' own terminal test.
    text, events = play(
        terms, tmp_path, "planets", "-o", "rules=compact", "--seed", "1", "--bots", "heuristic"
    )
    # More events than any observation keeps (20): the tail alone would lose some.
    assert len(events) > 200
    assert re.search(r"· space combat at \S+: \w+ rolls \[\d+(, \d+)*\]", text)
    assert re.search(r"· ground combat on [^:\n]+: \w+ rolls \[\d+(, \d+)*\]", text)
    assert re.search(r"· [^\n]*destroyed", text)
    assert re.search(r"· Green scores ", text)
    assert "shares the draw" in text


def test_illuminati_tells_every_attack_its_dice_and_who_is_out(
    terms: list[Pty], tmp_path: Path
) -> None:
    text, events = play(terms, tmp_path, "illuminati", "--seed", "1", "--bots", "heuristic")
    assert len(events) > 12 * 5  # the observation keeps the last 12 lines
    assert re.search(r"· Player \d attacks [^\n]+ with [^\n]+ to control\n", text)
    assert re.search(r"· the dice show \d\+\d=\d+; -?\d+ or less was needed\n", text)
    assert re.search(r"· Player \d takes control of ", text)
    assert re.search(r"· Player \d controls no group after three turns and is out\n", text)


def test_so_long_sucker_tells_captures_kills_and_defeats(terms: list[Pty], tmp_path: Path) -> None:
    text, events = play(terms, tmp_path, "sls", "--seed", "1", "--bots", "heuristic")
    assert len(events) > 50
    assert re.search(r"· \w+ captures pile \d+ \([a-z ]+\) and must kill one chip of it\n", text)
    assert re.search(r"· \w+ kills \w+ and takes the rest\n", text)
    assert re.search(r"Game over: [^\n]+\n", text)


def test_diplomacy_tells_every_phase_and_the_draw(terms: list[Pty], tmp_path: Path) -> None:
    text, events = play(
        terms, tmp_path, "dip", "--seat", "1", "-o", "year_limit=1902", "--seed", "1"
    )
    phases = re.findall(r"· Results of (\w+):\n", text)
    assert phases[:4] == ["S1901M", "F1901M", "W1901A", "S1902M"], phases
    assert len(phases) == len(events) >= 5
    # The adjudication's battles: moves, bounces, and each power's own results.
    assert re.search(r"\n  FRANCE   \S[^\n]*: (moved|bounced|held)", text)
    assert re.search(r": bounced", text)
    assert re.search(r"Game over: the year limit 1902 was reached\.\nFinal ranks:\n", text)
    assert "AUSTRIA (you) — shares the draw" in text
