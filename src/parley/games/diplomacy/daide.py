"""A structured press vocabulary: the DAIDE tokens that matter for deals.

A press message may open with one DAIDE expression on its first line, with free text after
it: `PRP (PCE (ENG FRA))` proposes peace between England and France. Programs read the
expression (`parse_message`), people read it in words (`describe`). Powers are written by
their first three letters; provinces by their DAIDE codes (the map's codes, except the
English Channel `ECH` and the Gulf of Lyon `GOL`); coasts as `(STP NCS)`.

Supported: PRP, YES, REJ, BWX, CCL around arrangements PCE, ALY ... VSS, DRW, DMZ, XDO (an
order), AND, ORR and NOT. Everything else is refused with `DaideError`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Union

from .orders import (
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    Waive,
    format_order,
)
from .units import UnitKind


class DaideError(ValueError):
    """Text that is not in the supported DAIDE subset."""


# --- values ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Peace:
    powers: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Alliance:
    allies: tuple[str, ...]
    against: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Draw:
    pass


@dataclass(frozen=True, slots=True)
class Dmz:
    """None of `powers` moves into or stays in `provinces`."""

    powers: tuple[str, ...]
    provinces: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Do:
    """`power` gives `order`; `other` owns the unit it supports or convoys."""

    power: str
    order: Order
    other: str | None = None


@dataclass(frozen=True, slots=True)
class And:
    parts: tuple[Arrangement, ...]


@dataclass(frozen=True, slots=True)
class Or:
    parts: tuple[Arrangement, ...]


@dataclass(frozen=True, slots=True)
class Not:
    part: Arrangement


Arrangement = Union[Peace, Alliance, Draw, Dmz, Do, And, Or, Not]  # noqa: UP007 (recursive alias)


@dataclass(frozen=True, slots=True)
class Propose:
    arrangement: Arrangement


@dataclass(frozen=True, slots=True)
class Reply:
    """An answer to a press message: YES, REJ, BWX (no answer) or CCL (withdrawn)."""

    token: str
    press: Press


Press = Propose | Reply

REPLIES = {
    "YES": "accepts",
    "REJ": "rejects",
    "BWX": "declines to answer",
    "CCL": "withdraws",
}

# The map's codes that DAIDE spells differently.
_TO_DAIDE = {"ENG": "ECH", "LYO": "GOL"}
_FROM_DAIDE = {v: k for k, v in _TO_DAIDE.items()}
_COAST_TO_DAIDE = {"NC": "NCS", "SC": "SCS", "EC": "ECS", "WC": "WCS"}
_COAST_FROM_DAIDE = {v: k for k, v in _COAST_TO_DAIDE.items()}
_UNIT = {UnitKind.ARMY: "AMY", UnitKind.FLEET: "FLT"}
_UNIT_FROM = {v: k for k, v in _UNIT.items()}

Tree = list[Union[str, "Tree"]]


# --- powers ----------------------------------------------------------------------------------


def power_token(power: str) -> str:
    """`FRANCE` → `FRA`."""
    return power[:3].upper()


class Powers:
    """Power names of a map and their three-letter tokens."""

    def __init__(self, names: Sequence[str]) -> None:
        self.names = tuple(names)
        self._by_token = {power_token(n): n for n in names}
        if len(self._by_token) != len(self.names):
            raise DaideError("two powers share their first three letters")

    def name(self, token: str) -> str:
        try:
            return self._by_token[token]
        except KeyError:
            raise DaideError(f"{token!r} is not a power here") from None


# --- reading ---------------------------------------------------------------------------------

_TOKEN = re.compile(r"\(|\)|[A-Za-z]{3}")


def _tree(text: str) -> Tree:
    stack: list[Tree] = [[]]
    pos = 0
    for found in _TOKEN.finditer(text):
        gap = text[pos : found.start()]
        if gap.strip():
            raise DaideError(f"{gap.strip()!r} is not a DAIDE token")
        pos = found.end()
        token = found.group()
        if token == "(":
            stack.append([])
        elif token == ")":
            if len(stack) == 1:
                raise DaideError("a ')' closes nothing")
            inner = stack.pop()
            stack[-1].append(inner)
        else:
            stack[-1].append(token.upper())
    if text[pos:].strip():
        raise DaideError(f"{text[pos:].strip()!r} is not a DAIDE token")
    if len(stack) != 1:
        raise DaideError("a '(' is never closed")
    return stack[0]


def _word(node: str | Tree, what: str) -> str:
    if not isinstance(node, str):
        raise DaideError(f"expected {what}, found a bracket")
    return node


def _group(node: str | Tree, what: str) -> Tree:
    if isinstance(node, str):
        raise DaideError(f"expected a bracketed {what}, found {node}")
    return node


class _Reader:
    def __init__(self, powers: Powers) -> None:
        self.powers = powers

    def press(self, items: Tree) -> Press:
        if not items:
            raise DaideError("empty press")
        head = _word(items[0], "PRP, YES, REJ, BWX or CCL")
        if len(items) != 2:
            raise DaideError(f"{head} takes one bracketed argument")
        inner = _group(items[1], "argument")
        if head == "PRP":
            return Propose(self.arrangement(inner))
        if head in REPLIES:
            return Reply(head, self.press(inner))
        raise DaideError(f"{head} is not a press token this vocabulary knows")

    def power_list(self, node: str | Tree) -> tuple[str, ...]:
        group = _group(node, "list of powers")
        if not group:
            raise DaideError("an empty list of powers")
        return tuple(self.powers.name(_word(t, "a power")) for t in group)

    def arrangement(self, items: Tree) -> Arrangement:
        if not items:
            raise DaideError("empty arrangement")
        head = _word(items[0], "an arrangement token")
        args = items[1:]
        if head == "PCE" and len(args) == 1:
            return Peace(self.power_list(args[0]))
        if head == "ALY" and len(args) == 3 and args[1] == "VSS":
            return Alliance(self.power_list(args[0]), self.power_list(args[2]))
        if head == "DRW" and not args:
            return Draw()
        if head == "DMZ" and len(args) == 2:
            provinces = tuple(
                self.province(_word(p, "a province")) for p in _group(args[1], "list")
            )
            if not provinces:
                raise DaideError("DMZ needs at least one province")
            return Dmz(self.power_list(args[0]), provinces)
        if head == "XDO" and len(args) == 1:
            return self.order(_group(args[0], "order"))
        if head in ("AND", "ORR") and len(args) >= 2:
            parts = tuple(self.arrangement(_group(a, "arrangement")) for a in args)
            return And(parts) if head == "AND" else Or(parts)
        if head == "NOT" and len(args) == 1:
            return Not(self.arrangement(_group(args[0], "arrangement")))
        raise DaideError(f"{head} with {len(args)} argument(s) is not understood")

    def province(self, token: str) -> str:
        return _FROM_DAIDE.get(token, token)

    def location(self, node: str | Tree) -> str:
        if isinstance(node, str):
            return self.province(node)
        if len(node) != 2:
            raise DaideError("a coast is written (PROVINCE COAST)")
        prov, coast = _word(node[0], "a province"), _word(node[1], "a coast")
        if coast not in _COAST_FROM_DAIDE:
            raise DaideError(f"{coast} is not a coast")
        return f"{self.province(prov)}/{_COAST_FROM_DAIDE[coast]}"

    def unit(self, node: str | Tree) -> tuple[str, UnitKind, str]:
        group = _group(node, "unit")
        if len(group) != 3:
            raise DaideError("a unit is written (POWER AMY|FLT PROVINCE)")
        power = self.powers.name(_word(group[0], "a power"))
        kind_token = _word(group[1], "AMY or FLT")
        if kind_token not in _UNIT_FROM:
            raise DaideError(f"{kind_token} is not AMY or FLT")
        return power, _UNIT_FROM[kind_token], self.location(group[2])

    def order(self, items: Tree) -> Do:
        if len(items) == 2 and items[1] == "WVE":
            return Do(self.powers.name(_word(items[0], "a power")), Waive())
        if len(items) < 2:
            raise DaideError("an order is written (UNIT) TOKEN ...")
        power, kind, loc = self.unit(items[0])
        verb = _word(items[1], "an order token")
        rest = items[2:]
        if verb == "HLD" and not rest:
            return Do(power, Hold(kind, loc))
        if verb == "MTO" and len(rest) == 1:
            return Do(power, Move(kind, loc, self.location(rest[0])))
        if verb == "CTO" and len(rest) in (1, 3):
            return Do(power, Move(kind, loc, self.location(rest[0]), via_convoy=True))
        if verb == "SUP" and len(rest) in (1, 3):
            other, target_kind, target = self.unit(rest[0])
            if len(rest) == 1:
                return Do(power, SupportHold(kind, loc, target_kind, target), other)
            if rest[1] != "MTO":
                raise DaideError("a support of a move is written SUP (UNIT) MTO PROVINCE")
            dst = self.province(_word(rest[2], "a province"))
            return Do(power, SupportMove(kind, loc, target_kind, target, dst), other)
        if verb == "CVY" and len(rest) == 3 and rest[1] == "CTO":
            other, _, army = self.unit(rest[0])
            dst = self.province(_word(rest[2], "a province"))
            return Do(power, Convoy(kind, loc, army, dst), other)
        if verb == "RTO" and len(rest) == 1:
            return Do(power, Retreat(kind, loc, self.location(rest[0])))
        if verb in ("DSB", "REM") and not rest:
            return Do(power, Disband(kind, loc))
        if verb == "BLD" and not rest:
            return Do(power, Build(kind, loc))
        raise DaideError(f"the order token {verb} is not understood here")


def parse_press(text: str, powers: Sequence[str]) -> Press:
    """A press value from DAIDE text; DaideError when it is not in the subset."""
    return _Reader(Powers(powers)).press(_tree(text))


def parse_message(text: str, powers: Sequence[str]) -> tuple[Press | None, str]:
    """The DAIDE expression on a message's first line (if any) and the free text after it."""
    first, _, rest = text.partition("\n")
    head = first.strip().split("(", 1)[0].strip().upper()
    if head not in ("PRP", *REPLIES):
        return None, text
    try:
        return parse_press(first, powers), rest.strip()
    except DaideError:
        return None, text


# --- writing ---------------------------------------------------------------------------------


def _powers(powers: Sequence[str]) -> str:
    return "(" + " ".join(power_token(p) for p in powers) + ")"


def _province(code: str) -> str:
    return _TO_DAIDE.get(code, code)


def _location(code: str) -> str:
    prov, _, coast = code.partition("/")
    if coast:
        return f"({_province(prov)} {_COAST_TO_DAIDE[coast]})"
    return _province(prov)


def _unit(power: str, kind: UnitKind | None, loc: str) -> str:
    if kind is None:
        raise DaideError(f"DAIDE needs the unit type of the unit at {loc}")
    return f"({power_token(power)} {_UNIT[kind]} {_location(loc)})"


def _order(do: Do) -> str:
    order, power = do.order, do.power
    if isinstance(order, Waive):
        return f"({power_token(power)} WVE)"
    other = do.other or power
    unit = _unit(power, order.unit, order.loc)
    if isinstance(order, Hold):
        return f"({unit} HLD)"
    if isinstance(order, Move):
        verb = "CTO" if order.via_convoy else "MTO"
        return f"({unit} {verb} {_location(order.dst)})"
    if isinstance(order, SupportHold):
        return f"({unit} SUP {_unit(other, order.target_unit, order.target)})"
    if isinstance(order, SupportMove):
        target = _unit(other, order.target_unit, order.target)
        return f"({unit} SUP {target} MTO {_province(order.dst.split('/')[0])})"
    if isinstance(order, Convoy):
        army = _unit(other, UnitKind.ARMY, order.army)
        return f"({unit} CVY {army} CTO {_province(order.dst)})"
    if isinstance(order, Retreat):
        return f"({unit} RTO {_location(order.dst)})"
    if isinstance(order, Disband):
        return f"({unit} DSB)"
    return f"({unit} BLD)"


def format_arrangement(arr: Arrangement) -> str:
    if isinstance(arr, Peace):
        return f"PCE {_powers(arr.powers)}"
    if isinstance(arr, Alliance):
        return f"ALY {_powers(arr.allies)} VSS {_powers(arr.against)}"
    if isinstance(arr, Draw):
        return "DRW"
    if isinstance(arr, Dmz):
        return f"DMZ {_powers(arr.powers)} ({' '.join(_province(p) for p in arr.provinces)})"
    if isinstance(arr, Do):
        return f"XDO {_order(arr)}"
    if isinstance(arr, And | Or):
        head = "AND" if isinstance(arr, And) else "ORR"
        return head + "".join(f" ({format_arrangement(p)})" for p in arr.parts)
    return f"NOT ({format_arrangement(arr.part)})"


def format_press(press: Press) -> str:
    """Canonical DAIDE text: `PRP (PCE (ENG FRA))`."""
    if isinstance(press, Propose):
        return f"PRP ({format_arrangement(press.arrangement)})"
    return f"{press.token} ({format_press(press.press)})"


def format_message(press: Press, free_text: str = "") -> str:
    """A press message: the expression on the first line, free text after it."""
    text = format_press(press)
    return f"{text}\n{free_text}" if free_text else text


# --- in words --------------------------------------------------------------------------------


def _names(powers: Sequence[str]) -> str:
    titled = [p.title() for p in powers]
    if len(titled) == 1:
        return titled[0]
    return ", ".join(titled[:-1]) + " and " + titled[-1]


def describe_arrangement(arr: Arrangement, places: Mapping[str, str] | None = None) -> str:
    """An arrangement in words; `places` maps province codes to names."""

    def place(code: str) -> str:
        return (places or {}).get(code, code)

    if isinstance(arr, Peace):
        return f"peace between {_names(arr.powers)}"
    if isinstance(arr, Alliance):
        return f"an alliance of {_names(arr.allies)} against {_names(arr.against)}"
    if isinstance(arr, Draw):
        return "a draw"
    if isinstance(arr, Dmz):
        where = _names([place(p) for p in arr.provinces])
        verb = "stays" if len(arr.provinces) == 1 else "stay"
        return f"{where} {verb} empty of {_names(arr.powers)}'s units"
    if isinstance(arr, Do):
        return f"{arr.power.title()} orders {format_order(arr.order)}"
    if isinstance(arr, And):
        return "; ".join(describe_arrangement(p, places) for p in arr.parts)
    if isinstance(arr, Or):
        return "either " + ", or ".join(describe_arrangement(p, places) for p in arr.parts)
    return f"not ({describe_arrangement(arr.part, places)})"


def describe(press: Press, sender: str, places: Mapping[str, str] | None = None) -> str:
    """A press value in words: `France proposes: peace between England and France`."""
    if isinstance(press, Propose):
        return f"{sender.title()} proposes: {describe_arrangement(press.arrangement, places)}"
    inner = press.press
    what = (
        describe_arrangement(inner.arrangement, places)
        if isinstance(inner, Propose)
        else (format_press(inner))
    )
    return f"{sender.title()} {REPLIES[press.token]}: {what}"
