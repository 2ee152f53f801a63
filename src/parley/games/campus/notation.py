"""Lenient notation in (`move A3 to Library`, `a3-lib`, `pass`, `pick 42`), canonical out."""

from __future__ import annotations

import re

from parley.kernel import AmbiguousAction, InvalidAction, small_number

from .actions import NO_PICK, PASS, Action, Move, Pass, Pick
from .board import CampusMap

PASS_WORDS = {"pass", "end", "endturn", "done", "stop"}
NO_PICK_WORDS = {"none", "nothing", "abstain", "skip", "-"}
HELP = "write e.g. 'move A3 to Library', 'a3-lib', 'pass', 'pick 42' or 'pick none'"
MAX_PICK_DIGITS = 6  # longer numbers are refused unread


def _quoted(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:40] + "…")


def format_action(action: Action) -> str:
    if isinstance(action, Move):
        return f"move {action.src} to {action.dst}"
    if isinstance(action, Pass):
        return "pass"
    return "pick none" if action.value is None else f"pick {action.value}"


def parse_action(text: str, board: CampusMap) -> Action:
    if not isinstance(text, str):
        raise InvalidAction(f"expected notation text, got {text!r}; {HELP}")
    words = text.strip().lower()
    plain = re.sub(r"\s+", "", words)
    if plain in PASS_WORDS:
        return PASS
    pick = re.fullmatch(r"(?:pick|choose|guess|bid)?\s*:?\s*(\S+)", words)
    if words.startswith(("pick", "choose", "guess", "bid", "no pick")) or (
        pick is not None and pick.group(1).isdigit()  # any digits: refused below if odd
    ):
        return _parse_pick(text, words)
    return _parse_move(text, words, board)


def _parse_pick(text: str, words: str) -> Pick:
    if words in ("no pick", "nopick"):
        return NO_PICK
    rest = re.sub(r"^(pick|choose|guess|bid)\s*:?\s*", "", words).strip()
    if rest in NO_PICK_WORDS:
        return NO_PICK
    pick = small_number(rest, MAX_PICK_DIGITS)
    if pick is not None:
        return Pick(pick)
    raise InvalidAction(
        f"{_quoted(text)}: a pick is a whole number from 0 to 100 (digits 0-9), or 'none'",
        text=text,
    )


def _parse_move(text: str, words: str, board: CampusMap) -> Move:
    body = re.sub(r"^(move|mv|m|go|attack|take)\s+", "", words).strip()
    parts = re.split(r"\s*(?:->|→|–|\bto\b|\binto\b|-|>|,)\s*", body, maxsplit=1)
    if len(parts) == 2:
        src, dst = _sector(text, parts[0], board), _sector(text, parts[1], board)
        return Move(board.codes[src], board.codes[dst])
    tokens = body.split()
    found: list[tuple[int, int]] = []
    for cut in range(1, len(tokens)):
        left, right = board.lookup(" ".join(tokens[:cut])), board.lookup(" ".join(tokens[cut:]))
        found.extend((a, b) for a in left for b in right)
    if len(found) == 1:
        src, dst = found[0]
        return Move(board.codes[src], board.codes[dst])
    if found:
        options = tuple(
            sorted({format_action(Move(board.codes[a], board.codes[b])) for a, b in found})
        )
        raise AmbiguousAction(
            f"{text!r} could mean {', '.join(options)}", candidates=options, text=text
        )
    raise InvalidAction(f"{text!r} is not understood; {HELP}", text=text)


def _sector(text: str, word: str, board: CampusMap) -> int:
    found = board.lookup(word)
    if len(found) == 1:
        return found[0]
    if found:
        names = ", ".join(board.label(i) for i in found)
        raise AmbiguousAction(
            f"{word!r} in {text!r} could be {names}",
            candidates=tuple(board.codes[i] for i in found),
            text=text,
        )
    raise InvalidAction(f"{text!r}: no sector called {word!r}; {HELP}", text=text)
