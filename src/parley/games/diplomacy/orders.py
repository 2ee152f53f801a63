"""Order values, and their conventional notation.

Orders name places by location code (`PAR`, `STP/SC`) so they print without a map; the
engine resolves them to ints when it adjudicates. The unit letter of the ordered unit (and
of a supported unit) may be missing: the DATC prefers that such orders stay valid (4.C.1).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from .phase import PhaseKind
from .units import UnitKind


@dataclass(frozen=True, slots=True)
class Hold:
    unit: UnitKind | None
    loc: str


@dataclass(frozen=True, slots=True)
class Move:
    unit: UnitKind | None
    loc: str
    dst: str
    via_convoy: bool = False


@dataclass(frozen=True, slots=True)
class SupportHold:
    unit: UnitKind | None
    loc: str
    target_unit: UnitKind | None
    target: str


@dataclass(frozen=True, slots=True)
class SupportMove:
    unit: UnitKind | None
    loc: str
    target_unit: UnitKind | None
    target: str
    dst: str  # a province, or a coast when the support names one


@dataclass(frozen=True, slots=True)
class Convoy:
    unit: UnitKind | None
    loc: str
    army: str  # where the convoyed army stands
    dst: str


@dataclass(frozen=True, slots=True)
class Retreat:
    unit: UnitKind | None
    loc: str
    dst: str


@dataclass(frozen=True, slots=True)
class Disband:
    unit: UnitKind | None
    loc: str


@dataclass(frozen=True, slots=True)
class Build:
    unit: UnitKind | None  # None: an army inland, a fleet when a coast is named (DATC 4.C.3)
    loc: str


@dataclass(frozen=True, slots=True)
class Waive:
    """Decline one build."""


Order = Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband | Build | Waive
MovementOrder = Hold | Move | SupportHold | SupportMove | Convoy
UnitOrder = Hold | Move | SupportHold | SupportMove | Convoy | Retreat | Disband

WAIVE = Waive()


_LETTER = {UnitKind.ARMY: "A ", UnitKind.FLEET: "F ", None: ""}


def _unit(kind: UnitKind | None, loc: str) -> str:
    return _LETTER[kind] + loc


def format_order(order: Order) -> str:
    """The canonical notation: `A PAR - BUR`, `F NTH C A LON - NWY`, `F STP/SC B`, `WAIVE`."""
    letter = _LETTER  # a dict lookup: much cheaper than Enum.value in history rendering
    if isinstance(order, Move):
        via = " VIA" if order.via_convoy else ""
        return f"{letter[order.unit]}{order.loc} - {order.dst}{via}"
    if isinstance(order, SupportMove):
        target = f"{letter[order.target_unit]}{order.target}"
        return f"{letter[order.unit]}{order.loc} S {target} - {order.dst}"
    if isinstance(order, Hold):
        return f"{letter[order.unit]}{order.loc} H"
    if isinstance(order, SupportHold):
        return f"{letter[order.unit]}{order.loc} S {letter[order.target_unit]}{order.target}"
    if isinstance(order, Convoy):
        return f"{letter[order.unit]}{order.loc} C A {order.army} - {order.dst}"
    if isinstance(order, Retreat):
        return f"{letter[order.unit]}{order.loc} R {order.dst}"
    if isinstance(order, Disband):
        return f"{letter[order.unit]}{order.loc} D"
    if isinstance(order, Build):
        return f"{letter[order.unit]}{order.loc} B"
    if isinstance(order, Waive):
        return "WAIVE"
    raise TypeError(f"not an order: {order!r}")


def order_location(order: Order) -> str | None:
    """The location of the unit an order is for (None for WAIVE)."""
    return None if isinstance(order, Waive) else order.loc


# --- parsing ------------------------------------------------------------------------------


class OrderSyntaxError(ValueError):
    """Text that cannot be read as an order; the message names the offending part and why."""

    def __init__(self, message: str, text: str) -> None:
        super().__init__(message)
        self.message = message
        self.text = text


# Token kinds after normalisation.
_UNIT, _LOC, _MOVE, _HOLD, _SUP, _CVY, _RET, _DIS, _BUILD, _WAIVE, _VIA = (
    "unit",
    "loc",
    "-",
    "H",
    "S",
    "C",
    "R",
    "D",
    "B",
    "WAIVE",
    "VIA",
)

_WORDS: dict[str, str] = {
    "a": _UNIT, "army": _UNIT, "f": _UNIT, "fleet": _UNIT,
    "-": _MOVE, "to": _MOVE, "move": _MOVE, "moves": _MOVE, "m": _MOVE, "mv": _MOVE,
    "attack": _MOVE, "attacks": _MOVE, "into": _MOVE, "goes": _MOVE,
    "h": _HOLD, "hold": _HOLD, "holds": _HOLD, "stand": _HOLD, "stands": _HOLD,
    "s": _SUP, "sup": _SUP, "supp": _SUP, "support": _SUP, "supports": _SUP,
    "supporting": _SUP,
    "c": _CVY, "cvy": _CVY, "convoy": _CVY, "convoys": _CVY, "convoying": _CVY,
    "r": _RET, "retreat": _RET, "retreats": _RET,
    "d": _DIS, "disband": _DIS, "disbands": _DIS, "remove": _DIS, "removes": _DIS,
    "destroy": _DIS,
    "b": _BUILD, "build": _BUILD, "builds": _BUILD,
    "waive": _WAIVE, "waives": _WAIVE, "pass": _WAIVE,
    "via": _VIA, "vc": _VIA,
}  # fmt: skip
# Words that carry no meaning in an order (nationality of a supported unit: DATC 4.C.5/6).
_FILLER = {
    "the", "at", "in", "of", "order", "austrian", "english", "french", "german", "italian",
    "russian", "turkish", "austria", "england", "france", "germany", "italy", "russia",
    "turkey", "unit",
}  # fmt: skip
_SEPARATORS = {"->": " - ", "=>": " - ", "→": " - ", "–": " - ", "—": " - ", ",": " "}
_COAST_WORDS = re.compile(r"\s*\b(north|south|east|west)(?:ern)?\s+coast\b")
_COAST_SUFFIX = re.compile(r"\s+(nc|sc|ec|wc)\b")


class Namer(Hashable, Protocol):
    """What the parser needs of a map: its location codes and province names."""

    @property
    def loc_index(self) -> Mapping[str, int]: ...

    @property
    def prov_index(self) -> Mapping[str, int]: ...

    @property
    def name_pattern(self) -> re.Pattern[str] | None: ...

    @property
    def name_codes(self) -> Mapping[str, str]: ...


def parse_order(text: str, places: Namer | None = None, phase: PhaseKind | None = None) -> Order:
    """An order from lenient text (`a par-bur`, `Paris to Burgundy`, `F STP/SC B`).

    With `places` (a map) full province names are understood and codes are checked; with
    `phase`, a move in a retreat phase reads as a retreat. Raises OrderSyntaxError.
    """
    if places is not None and _fast_parser is not None:
        found = _fast_parser(places, text, phase)
        if found is not None:
            return found
    return _parse_cached(text, places, phase)


FastParser = Callable[[object, str, PhaseKind | None], "Order | None"]
_fast_parser: FastParser | None = None


def set_fast_parser(parser: FastParser | None) -> None:
    """Install a reader for canonical text that answers before the lenient grammar (the
    native core does, when it is built); it returns None for text it leaves to the grammar."""
    global _fast_parser
    _fast_parser = parser


def order_words() -> list[str]:
    """Every word the grammar reads as an order word or ignores as filler."""
    return [*_WORDS, *_FILLER]


@lru_cache(maxsize=1 << 16)
def _parse_cached(text: str, places: Namer | None, phase: PhaseKind | None) -> Order:
    # Orders are immutable values, so repeated texts (bots, replays, logs) parse once.
    tokens = _tokens(text, places)
    if not tokens:
        raise OrderSyntaxError(f"empty order {text!r}", text)
    return _Grammar(text, tokens, phase).order()


def _tokens(text: str, places: Namer | None) -> list[tuple[str, str]]:
    s = text.strip().lower()
    for old, new in _SEPARATORS.items():
        s = s.replace(old, new)
    s = s.replace("(", " /").replace(")", " ").replace(".", " ").replace(":", " ")
    if places is not None and not _only_codes(s, places):
        pattern = places.name_pattern
        if pattern is not None:
            codes = places.name_codes
            s = pattern.sub(lambda m: " " + codes[_squash(m.group(0))] + " ", s)
    s = _COAST_WORDS.sub(lambda m: "/" + m.group(1)[0] + "c", s)
    s = re.sub(r"\s*(?:/\s*)+", "/", s)
    s = _COAST_SUFFIX.sub(lambda m: "/" + m.group(1), s)
    s = re.sub(r"\bvia\s+convoy\b|\bby\s+convoy\b", " via ", s)
    s = s.replace("-", " - ")
    out: list[tuple[str, str]] = []
    for word in s.split():
        kind = _WORDS.get(word)
        if kind is not None:
            if kind is _MOVE and out and out[-1][0] is _MOVE:
                continue  # "moves to"
            out.append((kind, word[0].upper() if kind is _UNIT else word))
            continue
        if word in _FILLER:
            continue
        out.append((_LOC, _location(word, text, places)))
    return out


def _only_codes(text: str, places: Namer) -> bool:
    """True when every word is a code or an order word, so names need not be searched."""
    locs = places.loc_index
    for word in text.replace("-", " ").replace("/", " /").split():
        if word in _WORDS or word in _FILLER or word.upper() in locs:
            continue
        if word.startswith("/") and len(word) <= 3:
            continue  # a coast suffix
        return False
    return True


def _squash(name: str) -> str:
    return " ".join(name.replace("-", " ").split())


def _location(word: str, text: str, places: Namer | None) -> str:
    code = word.upper()
    prov, _, coast = code.partition("/")
    if places is None:
        if (
            len(prov) == 3
            and prov.isalpha()
            and (not coast or (len(coast) == 2 and coast.isalpha()))
        ):
            return code
        raise OrderSyntaxError(
            f"cannot understand {word!r} in {text!r}: not a place or order word", text
        )
    if code in places.loc_index:
        return code
    if prov in places.prov_index:
        return prov  # an unknown or irrelevant coast is ignored (DATC 4.B.6)
    raise OrderSyntaxError(
        f"cannot understand {word!r} in {text!r}: not a province, coast or order word", text
    )


class _Grammar:
    def __init__(self, text: str, tokens: list[tuple[str, str]], phase: PhaseKind | None) -> None:
        self.text = text
        self.tokens = tokens
        self.pos = 0
        self.phase = phase

    def fail(self, why: str) -> OrderSyntaxError:
        return OrderSyntaxError(f"cannot read {self.text!r} as an order: {why}", self.text)

    def peek(self) -> str | None:
        return self.tokens[self.pos][0] if self.pos < len(self.tokens) else None

    def take(self, kind: str, what: str) -> str:
        if self.peek() != kind:
            found = self.tokens[self.pos][1] if self.pos < len(self.tokens) else "the end"
            raise self.fail(f"expected {what}, found {found!r}")
        value = self.tokens[self.pos][1]
        self.pos += 1
        return value

    def unit(self) -> tuple[UnitKind | None, str]:
        kind = UnitKind(self.take(_UNIT, "")) if self.peek() == _UNIT else None
        return kind, self.take(_LOC, "a province")

    def done(self) -> None:
        if self.pos != len(self.tokens):
            raise self.fail(f"unexpected {self.tokens[self.pos][1]!r}")

    def order(self) -> Order:
        head = self.peek()
        if head == _WAIVE:
            self.pos += 1
            self.done()
            return WAIVE
        if head in (_BUILD, _DIS):
            self.pos += 1
            kind, loc = self.unit()
            self.done()
            return Build(kind, loc) if head == _BUILD else Disband(kind, loc)
        kind, loc = self.unit()
        verb = self.peek()
        if verb is None:
            raise self.fail(f"it names {_unit(kind, loc)} but says nothing it should do")
        self.pos += 1
        order: Order
        if verb == _HOLD:
            order = Hold(kind, loc)
        elif verb == _MOVE:
            order = self.move(kind, loc)
        elif verb == _RET:
            if self.peek() == _MOVE:
                self.pos += 1
            order = Retreat(kind, loc, self.take(_LOC, "where to retreat"))
        elif verb == _DIS:
            order = Disband(kind, loc)
        elif verb == _BUILD:
            order = Build(kind, loc)
        elif verb == _SUP:
            tkind, target = self.unit()
            if self.peek() == _MOVE:
                self.pos += 1
                order = SupportMove(kind, loc, tkind, target, self.take(_LOC, "a destination"))
            else:
                if self.peek() == _HOLD:
                    self.pos += 1
                order = SupportHold(kind, loc, tkind, target)
        elif verb == _CVY:
            _, army = self.unit()
            self.take(_MOVE, "'-' and the destination of the convoyed army")
            order = Convoy(kind, loc, army, self.take(_LOC, "a destination"))
        else:
            raise self.fail(f"{self.tokens[self.pos - 1][1]!r} is not an order for a unit")
        self.done()
        return order

    def move(self, kind: UnitKind | None, loc: str) -> Order:
        dst = self.take(_LOC, "a destination")
        # A convoy path (`A YOR - NTH - BEL`) is accepted and ignored (DATC 4.A.6).
        while self.peek() == _MOVE:
            self.pos += 1
            dst = self.take(_LOC, "a destination")
        via = False
        if self.peek() == _VIA:
            self.pos += 1
            via = True
        if self.phase is PhaseKind.RETREAT:
            if via:
                raise self.fail("a retreat cannot go by convoy")
            return Retreat(kind, loc, dst)
        return Move(kind, loc, dst, via)
