"""Notation: lenient parsing, canonical printing.

Canonical forms name chips and players by colour; players may also be written as seat
numbers counted from 1 (red is 1), "player 2", "p2", "me". Piles and bargains are numbers.

    play red on 2        play blue new          next green
    kill yellow          kill prisoner yellow   give red to blue
    rescue blue with 2 red, green               decline
    propose to blue: red gives green to blue; blue passes to red; "together?"
    propose privately to blue, green: "meet me later"
    accept 3             reject 3               withdraw 3
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

from parley.kernel import InvalidAction, small_number

from .actions import (
    Accept,
    Action,
    ChipPromise,
    ChooseNext,
    Decline,
    GivePrisoner,
    KillFromPile,
    KillPrisoner,
    PassPromise,
    Play,
    Promise,
    Propose,
    Reject,
    Rescue,
    Withdraw,
)
from .colours import Colour, colour_named, label
from .state import Phase, SuckerState

HELP = (
    "write e.g. 'play red on 2', 'play blue new', 'next green', 'kill yellow', "
    "'kill prisoner yellow', 'give red to blue', 'rescue blue with red', 'decline', "
    "'propose to blue: red gives green to blue; blue passes to red', 'accept 3'"
)

NOTATION_HELP = """Actions are typed as written here; players are colours (or seat numbers from 1).
  play red on 2 / play blue new       play a chip onto pile 2 / onto a new pile
  next green                          choose who moves next, when it is your choice
  kill yellow                         after a capture, kill one chip of the pile
Whenever the rules allow, in your turn or out of it:
  propose to blue: red gives green to blue; blue passes to red; "together?"
                                      a bargain: promises (chips given, the move
                                      passed) and a note
  propose privately to blue, green: "meet me later"
  accept 3 / reject 3 / withdraw 3    answer or take back bargain #3
  kill prisoner yellow                kill a prisoner you hold
  give red to blue                    give a prisoner to another player
  rescue blue with 2 red, green       rescue a player who has the move but no chips
  decline                             refuse to rescue"""

# --- printing --------------------------------------------------------------------------------


@lru_cache(maxsize=8192)
def format_action(action: Action) -> str:
    """The canonical notation of `action` (cached: records print every action twice)."""
    if isinstance(action, Play):
        where = "new" if action.pile is None else f"on {action.pile}"
        return f"play {label(action.chip)} {where}"
    if isinstance(action, ChooseNext):
        return f"next {label(action.player)}"
    if isinstance(action, KillFromPile):
        return f"kill {label(action.chip)}"
    if isinstance(action, KillPrisoner):
        return f"kill prisoner {label(action.chip)}"
    if isinstance(action, GivePrisoner):
        return f"give {label(action.chip)} to {label(action.to)}"
    if isinstance(action, Rescue):
        return f"rescue {label(action.target)} with {format_chips(action.chips)}"
    if isinstance(action, Decline):
        return "decline"
    if isinstance(action, Propose):
        return format_proposal(action)
    if isinstance(action, Accept):
        return f"accept {action.bargain}"
    if isinstance(action, Reject):
        return f"reject {action.bargain}"
    if isinstance(action, Withdraw):
        return f"withdraw {action.bargain}"
    raise TypeError(f"not a So Long Sucker action: {action!r}")


def format_chips(chips: Sequence[Colour]) -> str:
    """`2 red, green`: colours in seat order, a count only when above one."""
    counts = Counter(chips)
    return ", ".join(f"{counts[c]} {c.label}" if counts[c] > 1 else c.label for c in sorted(counts))


def format_promise(term: Promise) -> str:
    if isinstance(term, ChipPromise):
        count = f"{term.count} " if term.count != 1 else ""
        return f"{label(term.giver)} gives {count}{label(term.chip)} to {label(term.to)}"
    return f"{label(term.chooser)} passes to {label(term.to)}"


def format_proposal(action: Propose) -> str:
    head = "propose privately to " if action.private else "propose to "
    parts = [format_promise(t) for t in action.terms]
    if action.note:
        parts.append(f'"{action.note}"')
    return head + ", ".join(label(s) for s in action.to) + ": " + "; ".join(parts)


# --- reading ---------------------------------------------------------------------------------

_FILLER = {"the", "a", "an", "chip", "chips", "please", "my", "one", "piece"}
_NUMBER_WORDS = {"two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "seven": "7"}
_SELF = {"me", "myself", "self", "i"}
_PLAY = {"play", "lay", "put", "place", "drop", "add"}
_NEXT = {"next", "choose", "pick", "select", "nominate"}
_KILL = {"kill", "execute", "destroy", "discard", "eliminate"}
_GIVE = {"give", "transfer", "send", "hand"}
_RESCUE = {"rescue", "save", "help"}
_DECLINE = {"decline", "no", "pass", "refuse", "nope", "rescue", "not", "dont", "wont", "i"}
_PROPOSE = {"propose", "offer", "bargain", "deal", "suggest"}
_ACCEPT = {"accept", "yes", "agree", "ok", "okay", "take"}
_REJECT = {"reject", "no", "refuse", "decline", "deny"}
_WITHDRAW = {"withdraw", "cancel", "retract", "revoke"}
_BARGAIN_WORDS = {"bargain", "deal", "offer", "proposal", "number"}


_MAX_DIGITS = 9  # no count, pile or seat comes near; longer runs are refused, not converted


def _tokens(text: str) -> list[str]:
    low = text.lower()
    # Only the digits 0-9 are numbers: int() would also read other scripts' digits.
    low = re.sub(r"\b(?:player|seat|p)\s*\.?\s*#?\s*([0-9]+)", r" seat \1 ", low)
    low = low.replace("don't", "dont").replace("won't", "wont")
    words = re.findall(r"[a-z]+|[0-9]+", low)
    if any(w.isdigit() and small_number(w, _MAX_DIGITS) is None for w in words):
        raise _invalid(text, "a number too long")
    return [_NUMBER_WORDS.get(w, w) for w in words if w not in _FILLER]


def _invalid(text: str, why: str = "") -> InvalidAction:
    reason = f" ({why})" if why else ""
    shown = text if len(text) <= 80 else text[:77] + "..."
    return InvalidAction(f"{shown!r} is not understood{reason}; {HELP}", text=text)


class _Reader:
    """One parse: the text, its words, and the context that resolves "me" and "kill"."""

    def __init__(self, text: str, state: SuckerState | None, seat: int | None) -> None:
        self.text = text
        self.state = state
        self.seat = seat
        self.you: int | None = None  # the sole addressee of a proposal

    def fail(self, why: str = "") -> InvalidAction:
        return _invalid(self.text, why)

    def player(self, words: list[str], i: int) -> tuple[int, int] | None:
        """A player named at words[i]: (seat, index after it), or None."""
        if i >= len(words):
            return None
        word = words[i]
        if word == "seat" and i + 1 < len(words) and words[i + 1].isdigit():
            return self._numbered(words[i + 1]), i + 2
        if word.isdigit():
            return self._numbered(word), i + 1
        colour = colour_named(word)
        if colour is not None:
            return int(colour), i + 1
        if word in _SELF:
            if self.seat is None:
                raise self.fail(f"{word!r} needs to know who is acting")
            return self.seat, i + 1
        if word == "you" and self.you is not None:
            return self.you, i + 1
        return None

    def only_player(self, words: list[str]) -> int:
        found = self.player(words, 0)
        if found is None or found[1] != len(words):
            raise self.fail("name one player, by colour or number")
        return found[0]

    def _numbered(self, digits: str) -> int:
        number = int(digits)
        if number < 1:
            raise self.fail("players are numbered from 1")
        return number - 1

    def chips(self, words: list[str]) -> list[Colour]:
        """Chips like `2 red green` or `red x2 and green`."""
        out: list[Colour] = []
        count: int | None = None
        for word in words:
            if word in ("and", "x", "with", "prisoner", "prisoners"):
                continue
            if word.isdigit():
                if count is not None:
                    raise self.fail("two counts in a row")
                count = int(word)
                if count < 1:
                    raise self.fail("counts start at 1")
                continue
            colour = colour_named(word)
            if colour is None:
                raise self.fail(f"{word!r} is not a chip colour")
            out.extend([colour] * (count if count is not None else 1))
            count = None
        if count is not None:
            # "red x2" or "red 2": a trailing count multiplies the last colour
            if not out:
                raise self.fail("a count needs a colour")
            out.extend([out[-1]] * (count - 1))
        return out

    def one_chip(self, words: list[str]) -> Colour:
        chips = self.chips(words)
        if len(chips) != 1:
            raise self.fail("name exactly one chip colour")
        return chips[0]


def parse_action(text: str, state: SuckerState | None = None, seat: int | None = None) -> Action:
    """An action from lenient text; InvalidAction if it cannot be read."""
    if not isinstance(text, str) or not text.strip():
        raise _invalid(str(text), "empty")
    reader = _Reader(text, state, seat)
    head = re.match(r"\s*([a-zA-Z]+)", text)
    if head and head.group(1).lower() in _PROPOSE:
        return _proposal(reader)
    words = _tokens(text)
    if not words:
        raise reader.fail()
    answer = _bargain_answer(words)
    if answer is not None:
        return answer
    verb, rest = words[0], words[1:]
    if set(words) <= _DECLINE:
        return Decline()
    if verb in _KILL:
        return _kill(reader, rest)
    if verb in _RESCUE:
        return _rescue(reader, rest)
    if "move" in words or verb in _NEXT or words[-1] == "next" or verb == "pass":
        return _next(reader, words)
    if verb in _GIVE:
        return _give(reader, rest)
    if verb in _PLAY or colour_named(verb) is not None or verb == "off":
        return _play(reader, words)
    raise reader.fail()


def _bargain_answer(words: list[str]) -> Action | None:
    """`accept 3`, `reject bargain #3`, `withdraw deal 3`..."""
    if len(words) < 2 or not words[-1].isdigit():
        return None
    verbs = [w for w in words[:-1] if w not in _BARGAIN_WORDS]
    if len(verbs) != 1:
        return None
    number = int(words[-1])
    if verbs[0] in _ACCEPT:
        return Accept(number)
    if verbs[0] in _REJECT:
        return Reject(number)
    if verbs[0] in _WITHDRAW:
        return Withdraw(number)
    return None


def _play(reader: _Reader, words: list[str]) -> Play:
    new = False
    pile: int | None = None
    chip: Colour | None = None
    for word in words:
        if word in _PLAY or word in ("on", "onto", "to", "pile", "in", "into", "top", "of"):
            continue
        if word in ("new", "off", "fresh", "start", "empty"):
            new = True
        elif word.isdigit():
            if pile is not None:
                raise reader.fail("two pile numbers")
            pile = int(word)
        elif (colour := colour_named(word)) is not None:
            if chip is not None:
                raise reader.fail("play one chip at a time")
            chip = colour
        else:
            raise reader.fail(f"{word!r} is not part of a move")
    if chip is None:
        raise reader.fail("say which colour to play")
    if new == (pile is not None):
        raise reader.fail("say a pile number or 'new'")
    return Play(chip, pile)


def _next(reader: _Reader, words: list[str]) -> ChooseNext:
    rest = [
        w
        for w in words
        if w not in _NEXT and w not in ("pass", "to", "move", "give", "goes", "is", "player")
    ]
    return ChooseNext(reader.only_player(rest))


def _kill(reader: _Reader, words: list[str]) -> KillFromPile | KillPrisoner:
    prisoner = any(w in ("prisoner", "prisoners") for w in words)
    from_pile = any(w in ("pile", "captured", "capture") for w in words)
    rest = [
        w
        for w in words
        if w not in ("prisoner", "prisoners", "pile", "captured", "capture", "from", "out", "of")
    ]
    chip = reader.one_chip(rest)
    if prisoner and from_pile:
        raise reader.fail("a kill is from the captured pile or of a prisoner, not both")
    if prisoner:
        return KillPrisoner(chip)
    if from_pile:
        return KillFromPile(chip)
    state, seat = reader.state, reader.seat
    if state is not None and seat is not None:
        owes_kill = state.phase is Phase.KILL and state.capturer == seat
        return KillFromPile(chip) if owes_kill else KillPrisoner(chip)
    return KillFromPile(chip)


def _give(reader: _Reader, words: list[str]) -> GivePrisoner:
    if "to" not in words:
        raise reader.fail("say to whom: 'give red to blue'")
    cut = len(words) - 1 - words[::-1].index("to")
    chips = reader.chips([w for w in words[:cut] if w not in ("prisoner", "prisoners")])
    if len(chips) != 1:
        raise reader.fail("a transfer gives one prisoner; give again for more")
    return GivePrisoner(chips[0], reader.only_player(words[cut + 1 :]))


def _rescue(reader: _Reader, words: list[str]) -> Rescue:
    state = reader.state
    asked_target = state.holder if state is not None and state.phase is Phase.RESCUE else None
    target: int | None = None
    if "with" in words:
        cut = words.index("with")
        before, chip_words = words[:cut], words[cut + 1 :]
        if before:
            target = reader.only_player(before)
    else:
        found = reader.player(words, 0)
        chip_words = words
        named_first = found is not None and len(words) > found[1]
        if found is not None and named_first and (state is None or found[0] == asked_target):
            target, chip_words = found[0], words[found[1] :]
    if target is None:
        if asked_target is None:
            raise reader.fail("say whom to rescue: 'rescue blue with red'")
        target = asked_target
    chips = reader.chips(chip_words)
    if not chips:
        raise reader.fail("say which prisoners to give")
    return Rescue(target, tuple(chips))


# --- proposals ---------------------------------------------------------------------------

_GIVES = {"give", "gives", "transfer", "transfers", "send", "sends", "hand", "hands"}
_PASSES = {
    "pass",
    "passes",
    "next",
    "choose",
    "chooses",
    "pick",
    "picks",
    "select",
    "selects",
    "nominate",
    "nominates",
}
_TERM_FILLER = {"will", "move", "prisoner", "prisoners", "then", "shall", "promise", "promises"}


def _proposal(reader: _Reader) -> Propose:
    text = reader.text.replace("\u201c", '"').replace("\u201d", '"')
    body = re.sub(r"^\s*[a-zA-Z]+", "", text, count=1)
    note = ""
    quoted = re.search(r'"([^"]*)"', body)
    if quoted:
        note = quoted.group(1)
        body = body[: quoted.start()] + ";" + body[quoted.end() :]
    if '"' in body:
        raise reader.fail("a note is one double-quoted text without quotes inside")
    head, _, terms_text = body.partition(":" if ":" in body else ";")
    head_words = _tokens(head)
    private = any(w in ("privately", "private", "secretly", "secret") for w in head_words)
    to_words = [
        w
        for w in head_words
        if w not in ("to", "privately", "private", "secretly", "secret", "publicly", "public")
        and w not in ("and", "with")
    ]
    addressees: list[int] = []
    i = 0
    while i < len(to_words):
        found = reader.player(to_words, i)
        if found is None:
            raise reader.fail(f"{to_words[i]!r} is not a player")
        addressees.append(found[0])
        i = found[1]
    if not addressees:
        raise reader.fail("say whom the bargain is put to: 'propose to blue: ...'")
    reader.you = addressees[0] if len(set(addressees)) == 1 else None
    terms: list[Promise] = []
    for piece in re.split(r"[;,]|\band\b", terms_text):
        words = [w for w in _tokens(piece) if w not in _TERM_FILLER]
        if words:
            terms.append(_promise(reader, words))
    return Propose(tuple(addressees), tuple(terms), note, private)


def _promise(reader: _Reader, words: list[str]) -> Promise:
    found = reader.player(words, 0)
    if found is None or found[1] >= len(words):
        raise reader.fail("a promise starts with who promises: 'red gives green to blue'")
    who, i = found
    verb, rest = words[i], words[i + 1 :]
    if verb in _GIVES:
        if "to" not in rest:
            raise reader.fail("say to whom the chips go")
        cut = len(rest) - 1 - rest[::-1].index("to")
        chips = reader.chips(rest[:cut])
        if not chips or len(set(chips)) != 1:
            raise reader.fail("a chip promise names one colour (and a count)")
        return ChipPromise(who, chips[0], len(chips), reader.only_player(rest[cut + 1 :]))
    if verb in _PASSES:
        rest = [w for w in rest if w not in ("to", "next", "player")]
        return PassPromise(who, reader.only_player(rest))
    raise reader.fail(f"{verb!r}: a promise gives chips or passes the move")


def parse_chips(text: str) -> list[Colour]:
    """Chips written as in a rescue: `2 red, green`."""
    return _Reader(text, None, None).chips(_tokens(text))


def parse_player(text: str, seat: int | None = None) -> int:
    """A player by colour or 1-based number (or `me`, given the acting seat)."""
    return _Reader(text, None, seat).only_player(_tokens(text))
