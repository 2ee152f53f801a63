"""A decision per game as a model reads it, from seeded positions: the examples in
docs/agents.md are written by this module, so they always show what the code shows.

    python -m parley.briefing.examples --write docs/agents.md   # rewrite the section
    python -m parley.briefing.examples --check docs/agents.md   # exit 1 when out of date
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from parley import games
from parley.kernel import Match, Rng

from . import decision_text, offline_decision

NOW = 1_800_000_000.0  # a fixed moment (2027-01-15 08:00 UTC), so the deadline reads the same
DUE = NOW + 14 * 60
START = "<!-- decision examples: written by `python -m parley.briefing.examples` -->"
END = "<!-- end of decision examples -->"
MAX_OPTIONS = 8  # the examples cut long option lists; a model gets them all

# game → heuristic steps played from seed 7 before the decision is shown
STEPS = {"diplomacy": 50, "sucker": 12, "illuminati": 12, "planets": 12, "campus": 30}


def prepared(game: str, steps: int | None = None, seed: int = 7) -> Match[Any, Any]:
    """A seeded game played by the heuristic bots for `steps` actions; still going."""
    from parley.agents.bots import decide, make_bot  # the bots are only needed here

    rules = games.find(game)
    match = Match(rules, ["bot"] * (rules.spec.default_seats or rules.spec.min_seats), {}, seed)
    bot, rng, done = make_bot("heuristic", rules), Rng(3), 0
    goal = STEPS[game] if steps is None else steps
    while not match.is_over and done < goal:
        for seat in sorted(match.turn().owing):
            if not match.is_over and seat in match.turn().owing:
                match.act(seat, decide(bot, match, seat, rng))
                done += 1
    return match


def example(game: str, messages: list[dict[str, Any]] | None = None) -> tuple[int, str]:
    """The seat that owes first in the prepared position, and its decision text."""
    match = prepared(game)
    seat = min(match.turn().owing)
    if messages is None:
        other = (seat + 1) % match.seats
        text = (
            "PRP (PCE (ENG FRA))\nshall we?" if game == "diplomacy" else "shall we work together?"
        )
        messages = [{"seat": other, "text": text, "to": [seat]}]
    d = offline_decision(
        match.rules,
        match,
        seat,
        game_id="example",
        player="my-model",
        messages=messages,
        deadline=DUE,
        attempts_left=3,
    )
    return seat, decision_text({"decision": d}, now=NOW)


def _cut(text: str) -> str:
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("Legal actions"))
    options = lines[at + 1 :]
    if len(options) <= MAX_OPTIONS:
        return text
    more = len(options) - MAX_OPTIONS
    return "\n".join([*lines[: at + 1 + MAX_OPTIONS], f"… ({more} more options)"])


def section() -> str:
    """The Markdown section: one decision per game."""
    parts = [START, ""]
    for game in sorted(STEPS):
        parts += [f"**{game}**", "", "```text", _cut(example(game)[1]), "```", ""]
    parts.append(END)
    return "\n".join(parts)


def rewrite(doc: str) -> str:
    """`doc` with its examples section replaced by a fresh one."""
    if START not in doc or END not in doc:
        raise ValueError(f"the document has no section between {START!r} and {END!r}")
    head, _, rest = doc.partition(START)
    _, _, tail = rest.partition(END)
    return head + section() + tail


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("--write", "--check"):
        print("usage: python -m parley.briefing.examples --write|--check DOC.md", file=sys.stderr)
        return 2
    path = Path(argv[1])
    doc = path.read_text(encoding="utf-8")
    fresh = rewrite(doc)
    if argv[0] == "--write":
        path.write_text(fresh, encoding="utf-8")
        return 0
    if fresh != doc:
        print(f"{path}: the decision examples are out of date; run --write", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
