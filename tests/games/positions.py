"""Shared checks for the games' position formats (each game's test_position.py uses them)."""

from __future__ import annotations

import json
from typing import Any

from parley.kernel import ARCHIVE, SPECTATOR, Match, Rng, Rules, Viewer, replay
from parley.kernel.conformance import option_sets, random_step, seat_counts
from parley.kernel.positions import dumps


def random_match(rules: Rules[Any, Any], seed: int, plies: int) -> Match[Any, Any]:
    """A match after up to `plies` random legal actions (seat count and options by seed)."""
    counts, sets = seat_counts(rules), option_sets(rules)
    match = Match(rules, counts[seed % len(counts)], sets[seed % len(sets)], seed=seed)
    rng = Rng(seed * 31 + 7)
    for _ in range(plies):
        if match.is_over or not random_step(match, rng):
            break
    return match


def views(rules: Rules[Any, Any], state: Any) -> str:
    seats = rules.seat_count(state)
    viewers = [ARCHIVE, SPECTATOR, *(Viewer.of(s) for s in range(seats))]
    seen = [rules.observe(state, v) for v in viewers]
    legal = [sorted(rules.format(a) for a in rules.legal_actions(state, s)) for s in range(seats)]
    return json.dumps([seen, legal, rules.turn(state).to_json()], sort_keys=True, default=str)


def check_round_trip(rules: Rules[Any, Any], seed: int, plies: int) -> None:
    """Written, read back and written again, a position is the same text, the same game for
    every viewer, and plays on exactly as the original: the same random actions lead to
    the same positions, dice included."""
    match = random_match(rules, seed, plies)
    position = rules.write_position(match.state)
    text = dumps(position)
    state = rules.read_position(json.loads(text))
    assert rules.write_position(state) == position, f"seed {seed}: the position changed"
    assert views(rules, state) == views(rules, match.state), f"seed {seed}: views differ"
    # Play on from both, the same random actions.
    twin = Match.from_position(rules, json.loads(text), match.players)
    a, b = Rng(seed), Rng(seed)
    for _ in range(25):
        if match.is_over:
            break
        went = random_step(match, a)
        assert random_step(twin, b) == went
        if not went:
            break
    assert rules.write_position(twin.state) == rules.write_position(match.state), seed
    # The record of a match from a position starts with it and replays from it.
    again = replay(rules, json.loads(json.dumps(twin.to_json())))
    assert rules.write_position(again.state) == rules.write_position(twin.state), seed


def doc_example(game: str) -> dict[str, Any]:
    """The position shown in docs/<game>.md's "Positions" section."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / f"{game}.md").read_text("utf-8")
    section = text.split("\n## Positions\n", 1)[1]
    block = section.split("```json\n", 1)[1].split("\n```", 1)[0]
    data: dict[str, Any] = json.loads(block)
    return data


def check_doc_example(rules: Rules[Any, Any]) -> None:
    """The doc's example reads, writes back the same, and a match starts from it."""
    example = doc_example(rules.spec.name)
    state = rules.read_position(example)
    assert rules.write_position(rules.read_position(rules.write_position(state))) == (
        rules.write_position(state)
    )
    # Every field the example shows is one the game writes (nothing stale in the doc).
    written = rules.write_position(state)
    assert set(example) <= set(written), set(example) - set(written)
    match = Match.from_position(rules, example)
    assert match.turn().owed, "the example is a position where someone has to decide"
