"""Lenient parsing and canonical printing of every action.

Card names may be shortened to any unambiguous start ("gnomes", "big media", "murphy"),
in any case, with or without "the" and punctuation; seats are "Player 2", "p2" or "2".
"""

from __future__ import annotations

import re
from functools import cache

from parley.kernel import AmbiguousAction, InvalidAction, small_number

from .actions import (
    Abolish,
    Accept,
    Action,
    Aid,
    Ask,
    Attack,
    AttackAgain,
    CallOff,
    ChooseGoal,
    ChooseIlluminati,
    Decline,
    Done,
    Drop,
    Interfere,
    Keep,
    Lasers,
    Move,
    Offer,
    Pass,
    PayMoney,
    Place,
    Play,
    Privilege,
    Recycle,
    Release,
    Roll,
    Spend,
    Transfer,
)
from .cards import Alignment, load
from .geometry import DIRECTIONS

KINDS = ("control", "neutralize", "destroy")


def seat_label(seat: int) -> str:
    return f"Player {seat + 1}"


def _spend(amount: int, source: str | None) -> str:
    return f"spend {amount}" + (f" from {source}" if source else "")


def format_action(action: Action) -> str:
    match action:
        case ChooseIlluminati(name):
            return f"take {name}"
        case ChooseGoal(name):
            return f"goal {name}"
        case Keep(face_up):
            return "keep face up" if face_up else "keep face down"
        case Pass():
            return "pass"
        case Done():
            return "done"
        case Attack(target, attacker, kind, spend, source):
            text = f"attack {target} with {attacker} to {kind}"
            return text + (f", {_spend(spend, source)}" if spend else "")
        case AttackAgain():
            return "attack again"
        case Aid(name):
            return f"aid with {name}"
        case Spend(amount, source):
            return _spend(amount, source)
        case Roll():
            return "roll"
        case CallOff():
            return "call off"
        case Privilege(discard):
            return "privilege" + (f" by discarding {discard}" if discard else "")
        case Abolish(first, second):
            return f"abolish privilege by discarding {first} and {second}"
        case Interfere(amount, against):
            return f"interfere {amount}" + (" against" if against else "")
        case Play(name, target, using):
            text = f"play {name}"
            if target:
                text += f" on {target}"
            if using:
                text += f" with {using}"
            return text
        case Transfer(amount, source, dest):
            return f"give {amount} from {source} to {dest}"
        case Move(group, host, direction):
            return f"move {group} to {host} {direction}"
        case Place(group, host, direction):
            return f"place {group} on {host} {direction}"
        case Release(group):
            return f"release {group}"
        case Drop(group):
            return f"drop {group}"
        case Offer(item, to):
            return f"give {item} to {seat_label(to)}"
        case Ask(group, money):
            if group:
                return f"ask for {group}"
            return f"ask for {money} MB" if money else "ask nothing"
        case PayMoney(amount, to):
            return f"pay {amount} to {seat_label(to)}"
        case Accept():
            return "accept"
        case Decline():
            return "decline"
        case Lasers(group, None, str(new)):
            return f"lasers {group} add {new}"
        case Lasers(group, str(old), None):
            return f"lasers {group} remove {old}"
        case Lasers(group, str(old), str(new)):
            return f"lasers {group} from {old} to {new}"
        case Recycle():
            return "recycle"
    raise InvalidAction(f"{action!r} is not an Illuminati action")


def _norm(text: str) -> str:
    text = text.lower().replace("'", "").replace("&", " and ")
    text = re.sub(r"[^a-z0-9 ]+", " ", text)
    words = text.split()
    if words and words[0] == "the":
        words = words[1:]
    return " ".join(words)


@cache
def _names() -> dict[str, str]:
    cards = load()
    names = [c.name for c in (*cards.illuminati, *cards.groups)] + [s.name for s in cards.specials]
    return {_norm(n): n for n in names}


def card_name(text: str, whole: str) -> str:
    """The card a piece of text names (exactly, or by an unambiguous start)."""
    key = _norm(text)
    names = _names()
    if key in names:
        return names[key]
    starts = sorted({n for k, n in names.items() if key and k.startswith(key)})
    if len(starts) == 1:
        return starts[0]
    if not starts:
        words = sorted({n for k, n in names.items() if key and f" {key}" in f" {k}"})
        if len(words) == 1:
            return words[0]
        starts = words
    if starts:
        raise AmbiguousAction(
            f"{text.strip()!r} in {whole!r} could be {', '.join(starts)}",
            candidates=tuple(starts),
            text=whole,
        )
    raise InvalidAction(f"{text.strip()!r} in {whole!r} is no card name", text=whole)


MAX_DIGITS = 12  # no amount or seat is near a trillion; longer numbers are refused


def _int(digits: str, whole: str) -> int:
    """A number written in the action; absurdly long ones are refused, not converted."""
    number = small_number(digits, MAX_DIGITS)
    if number is None:
        raise InvalidAction(
            f"{digits[:20]!r} in {whole[:60]!r} is not a number (digits 0-9, at most "
            f"{MAX_DIGITS} of them)",
            text=whole,
        )
    return number


def _seat(text: str, whole: str) -> int:
    m = re.fullmatch(r"\s*(?:player|p)?\s*(\d+)\s*", text.lower())
    if not m or _int(m.group(1), whole) < 1:
        raise InvalidAction(
            f"{text.strip()!r} in {whole!r} is no seat; write e.g. 'Player 2'", text=whole
        )
    return _int(m.group(1), whole) - 1


def _direction(text: str, whole: str) -> str:
    word = text.strip().lower()
    for d in DIRECTIONS:
        if word in (d, d[0]):
            return d
    raise InvalidAction(
        f"{text.strip()!r} in {whole!r} is no direction (north, east, south, west)", text=whole
    )


def _alignment(text: str, whole: str) -> str:
    """An alignment by its name or an unambiguous start ("gov", "wei")."""
    key = text.strip().lower()
    found = [a.value for a in Alignment if key and a.value.lower().startswith(key)]
    exact = [a.value for a in Alignment if a.value.lower() == key]
    if exact or len(found) == 1:
        return (exact or found)[0]
    if found:
        raise AmbiguousAction(
            f"{text.strip()!r} in {whole!r} could be {', '.join(found)}",
            candidates=tuple(found),
            text=whole,
        )
    raise InvalidAction(
        f"{text.strip()!r} in {whole!r} is no alignment ({', '.join(a.value for a in Alignment)})",
        text=whole,
    )


def _lasers(t: str, whole: str) -> Action | None:
    """`lasers G from A to B` (switch), `lasers G to B` (a group with no alignment),
    `lasers G add B`, `lasers G remove A`, `lasers G reverse A` (to its opposite)."""
    m = re.fullmatch(r"lasers?(?: switch)? (.+?)(?: from (\S+))? to (\S+)", t, re.I)
    if m:
        group = card_name(m.group(1), whole)
        old = _alignment(m.group(2), whole) if m.group(2) else None
        new = _alignment(m.group(3), whole)
        if old == new:
            raise InvalidAction(
                f"{whole!r} switches {old} to {old}, which changes nothing; "
                "name another alignment to switch to",
                text=whole,
            )
        return Lasers(group, old, new)
    m = re.fullmatch(r"lasers? (.+) (add|remove|reverse) (\S+)", t, re.I)
    if m:
        group, verb = card_name(m.group(1), whole), m.group(2).lower()
        alignment = _alignment(m.group(3), whole)
        if verb == "add":
            return Lasers(group, None, alignment)
        if verb == "remove":
            return Lasers(group, alignment, None)
        opp = next((b for a, b in load().opposites if a.value == alignment), None)
        if opp is None:
            raise InvalidAction(
                f"{whole!r}: {alignment} has no opposite alignment to reverse to", text=whole
            )
        return Lasers(group, alignment, opp.value)
    if re.match(r"lasers?\b", t, re.I):
        raise InvalidAction(
            f"{whole!r} is not understood; write e.g. 'lasers Texas from Violent to Peaceful' "
            "(or, with the option lasers=add_remove_reverse, 'lasers Texas add Weird', "
            "'lasers Texas remove Violent', 'lasers Texas reverse Violent')",
            text=whole,
        )
    return None


_AMOUNT = r"(\d+)\s*(?:mb|megabucks)?"

HELP = (
    "write e.g. 'attack Big Media with Gnomes to control, spend 3', 'aid with Pentagon', "
    "'interfere 4', 'play Murphy's Law', 'give 5 from Gnomes to Texas', 'pass' or 'done'"
)


def parse_action(text: str) -> Action:
    whole = text
    t = " ".join(text.strip().split())
    low = t.lower().rstrip(".")
    simple: dict[str, Action] = {
        "pass": Pass(),
        "done": Done(),
        "end": Done(),
        "end turn": Done(),
        "roll": Roll(),
        "call off": CallOff(),
        "calloff": CallOff(),
        "attack again": AttackAgain(),
        "accept": Accept(),
        "yes": Accept(),
        "decline": Decline(),
        "no": Decline(),
        "keep face up": Keep(True),
        "face up": Keep(True),
        "keep face down": Keep(False),
        "face down": Keep(False),
        "privilege": Privilege(None),
        "recycle": Recycle(),
        "ask nothing": Ask(),
        "ask for nothing": Ask(),
        "free": Ask(),
    }
    if low in simple:
        return simple[low]
    m = re.fullmatch(r"(?:take|choose) (.+)", t, re.I)
    if m:
        return ChooseIlluminati(card_name(m.group(1), whole))
    m = re.fullmatch(r"goal (.+)", t, re.I)
    if m:
        return ChooseGoal(card_name(m.group(1), whole))
    m = re.fullmatch(
        r"attack (.+?) with (.+?) to (control|neutrali[sz]e|destroy)(?:\s*,?\s*spend "
        + _AMOUNT
        + r"(?: from (.+))?)?",
        t,
        re.I,
    )
    if m:
        kind = m.group(3).lower().replace("neutralise", "neutralize")
        spend = _int(m.group(4), whole) if m.group(4) else 0
        if m.group(4) and spend < 1:
            raise InvalidAction(f"{whole!r}: spend at least 1 MB, or leave the spending out")
        source = card_name(m.group(5), whole) if m.group(5) else None
        return Attack(
            card_name(m.group(1), whole), card_name(m.group(2), whole), kind, spend, source
        )
    m = re.fullmatch(r"aid(?: with)? (.+)", t, re.I)
    if m:
        return Aid(card_name(m.group(1), whole))
    m = re.fullmatch(r"spend " + _AMOUNT + r"(?: from (.+))?", t, re.I)
    if m:
        return Spend(_int(m.group(1), whole), card_name(m.group(2), whole) if m.group(2) else None)
    m = re.fullmatch(r"privilege (?:by )?discarding (.+)", t, re.I)
    if m:
        return Privilege(card_name(m.group(1), whole))
    m = re.fullmatch(r"abolish(?: privilege)? (?:by )?discarding (.+?) and (.+)", t, re.I)
    if m:
        first, second = sorted((card_name(m.group(1), whole), card_name(m.group(2), whole)))
        return Abolish(first, second)
    m = re.fullmatch(r"interfere (?:(for|against) )?" + _AMOUNT + r"(?: (for|against))?", t, re.I)
    if m:
        side = (m.group(1) or m.group(3) or "for").lower()
        return Interfere(_int(m.group(2), whole), side == "against")
    m = re.fullmatch(r"play (.+?)(?: on (.+?))?(?: with (.+))?", t, re.I)
    if m:
        name = card_name(m.group(1), whole)
        target = m.group(2)
        if target and re.fullmatch(r"\s*(?:player|p)\s*\d+\s*", target, re.I):
            target = seat_label(_seat(target, whole))
        elif target:
            target = card_name(target, whole)
        using = card_name(m.group(3), whole) if m.group(3) else None
        return Play(name, target, using)
    m = re.fullmatch(r"(?:give|transfer|move) " + _AMOUNT + r" from (.+?) to (.+)", t, re.I)
    if m:
        return Transfer(
            _int(m.group(1), whole), card_name(m.group(2), whole), card_name(m.group(3), whole)
        )
    m = re.fullmatch(r"(?:pay|give) " + _AMOUNT + r" to (.+)", t, re.I)
    if m:
        return PayMoney(_int(m.group(1), whole), _seat(m.group(2), whole))
    m = re.fullmatch(r"(?:give|offer) (.+) to ((?:player|p)?\s*\d+)", t, re.I)
    if m:
        return Offer(card_name(m.group(1), whole), _seat(m.group(2), whole))
    m = re.fullmatch(r"move (.+) (?:to|on|onto) (.+) (north|east|south|west|n|e|s|w)", t, re.I)
    if m:
        return Move(
            card_name(m.group(1), whole),
            card_name(m.group(2), whole),
            _direction(m.group(3), whole),
        )
    m = re.fullmatch(r"place (.+) (?:on|onto|to) (.+) (north|east|south|west|n|e|s|w)", t, re.I)
    if m:
        return Place(
            card_name(m.group(1), whole),
            card_name(m.group(2), whole),
            _direction(m.group(3), whole),
        )
    m = re.fullmatch(r"release (.+)", t, re.I)
    if m:
        return Release(card_name(m.group(1), whole))
    m = re.fullmatch(r"drop (.+)", t, re.I)
    if m:
        return Drop(card_name(m.group(1), whole))
    m = re.fullmatch(r"ask (?:for )?" + _AMOUNT, t, re.I)
    if m:
        return Ask(money=_int(m.group(1), whole))
    m = re.fullmatch(r"ask (?:for )?(.+)", t, re.I)
    if m:
        return Ask(group=card_name(m.group(1), whole))
    lasers = _lasers(t, whole)
    if lasers is not None:
        return lasers
    raise InvalidAction(f"{whole!r} is not understood; {HELP}", text=whole)
