"""Notation: lenient reading and canonical writing of every action.

Canonical forms: `activate 0203`, `pass`, `move 2 cruiser 1 carrier 2 infantry from 0102
to 0203`, `done`, `destroy cruiser`, `sustain dreadnought`, `bombard Vesta`, `bombard
none`, `commit 2 infantry 1 mech to Vesta`, `explore hazardous at Vesta`, `exhaust Vesta`,
`spend trade good`, `produce 2 infantry at Aurel`; under the full rules also `move 1 carrier
from 0102 to 0203 with 1 fighter from 0102, 2 infantry from Vesta`, `fire at blue`,
`retreat to 0204` and `stay` (the round's own actions are written further down). Reading
ignores case, extra spaces and
plurals, accepts unit abbreviations (`dread`, `inf`), `home` for the seat's home planet,
and `explore <trait>` when one planet awaits exploration.
"""

from __future__ import annotations

import re

from parley.kernel import InvalidAction, small_number

from . import actions
from .actions import (
    Action,
    Activate,
    Aim,
    Assign,
    Bombard,
    Commit,
    Done,
    Exhaust,
    Explore,
    Move,
    Pass,
    Produce,
    Retreat,
    SpendGood,
    Stay,
)
from .galaxy import TRAITS, Galaxy, builtin
from .state import COLOURS, PlanetsState
from .units import ALIASES, GROUND, ORDER

MAX_COUNT_DIGITS = 3  # no count reaches 1000; longer numbers are refused unread
EXAMPLES = (
    "activate 0203",
    "move 2 cruiser 1 carrier 2 infantry from 0102 to 0203",
    "destroy cruiser",
    "commit 2 infantry to Vesta",
    "explore hazardous at Vesta",
    "produce 2 infantry at home",
    "pass",
    "pick accord",
    "strategy accord",
    "follow accord",
    "tokens 3 3 2",
)


def format_action(action: Action) -> str:
    if isinstance(action, Activate):
        return f"activate {action.system}"
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, actions.RoundAction):
        return _format_round(action)
    if isinstance(action, Move):
        text = f"move {units_text(action.units)} from {action.source} to {action.dest}"
        return text + (f" with {cargo_text(action.cargo)}" if action.cargo else "")
    if isinstance(action, Aim | Retreat | Stay):
        return _format_forces(action)
    if isinstance(action, Done):
        return "done"
    if isinstance(action, Assign):
        return f"{'sustain' if action.sustain else 'destroy'} {action.kind}"
    if isinstance(action, Bombard):
        return f"bombard {action.planet or 'none'}"
    if isinstance(action, Commit):
        parts = (("infantry", action.infantry), ("mech", action.mech))
        return f"commit {units_text(parts)} to {action.planet}"
    if isinstance(action, Explore):
        return f"explore {action.trait} at {action.planet}"
    if isinstance(action, Exhaust):
        return f"exhaust {action.planet}"
    if isinstance(action, SpendGood):
        return "spend trade good"
    return f"produce {action.count} {action.kind} at {action.planet}"


def _format_forces(action: Aim | Retreat | Stay) -> str:
    if isinstance(action, Aim):
        name = COLOURS[action.seat] if 0 <= action.seat < len(COLOURS) else str(action.seat)
        return f"fire at {name}"
    if isinstance(action, Retreat):
        return f"retreat to {action.system}"
    return "stay"


def cargo_text(cargo: tuple[tuple[str, str, int], ...]) -> str:
    """`1 fighter from 0102, 2 infantry from Vesta`: each place once, in the order given."""
    places: dict[str, list[str]] = {}
    for place, kind, n in cargo:
        places.setdefault(place, []).append(f"{n} {kind}")
    return ", ".join(f"{' '.join(parts)} from {place}" for place, parts in places.items())


def _cargo(
    words: list[str], text: str, state: PlanetsState | None
) -> tuple[tuple[str, str, int], ...]:
    """`2 infantry from vesta 1 fighter from 0102` (commas already gone) as sorted triples."""
    out: list[tuple[str, str, int]] = []
    i = 0
    while i < len(words):
        if "from" not in words[i:]:
            raise _fail(text, "each load says 'from <system or planet>'")
        f = words.index("from", i)
        counts = _counts(words[i:f], text)
        i = f + 1
        if i >= len(words):
            raise _fail(text, "a system or planet is missing after 'from'")
        if re.fullmatch(r"[0-9]{3,4}", words[i]):
            place = _system(words[i], text)
            i += 1
        else:
            place, i = _planet_prefix(words, i, text, state)
        out += [(place, kind, n) for kind, n in counts]
    if len({(p, k) for p, k, _ in out}) != len(out):
        raise _fail(text, "a unit type is named twice for one place")
    return tuple(sorted(out, key=lambda c: (c[0], ORDER[c[1]])))


def _planet_prefix(
    words: list[str], i: int, text: str, state: PlanetsState | None
) -> tuple[str, int]:
    """The longest planet name starting at words[i], and where the words after it begin."""
    names = {n.lower(): n for g in _galaxies(state) for n in g.planets}
    for j in range(len(words), i, -1):
        found = names.get(" ".join(words[i:j]))
        if found is not None:
            return found, j
    raise _fail(text, f"there is no planet or system called {words[i]!r}")


def _format_round(action: actions.RoundAction) -> str:
    """The fuller round's actions: strategy cards by name, seats by colour."""
    from .strategy import card

    if isinstance(action, actions.Pick | actions.Strategic | actions.Follow):
        verb = {actions.Pick: "pick", actions.Strategic: "strategy", actions.Follow: "follow"}
        name = card(action.card).name if 1 <= action.card <= 8 else str(action.card)
        return f"{verb[type(action)]} {name}"
    if isinstance(action, actions.Decline):
        return "decline"
    if isinstance(action, actions.Tokens):
        return f"tokens {action.tactic} {action.fleet} {action.strategy}"
    if isinstance(action, actions.BuyToken):
        return "buy token"
    if isinstance(action, actions.Seal):
        return f"seal {action.system}"
    if isinstance(action, actions.Ready):
        return f"ready {action.planet}"
    if isinstance(action, actions.Appoint | actions.Grant):
        colour = _colour_name(action.seat)
        return f"speaker {colour}" if isinstance(action, actions.Appoint) else f"grant {colour}"
    if isinstance(action, actions.Place):
        return f"place {action.kind} on {action.planet}"
    if isinstance(action, actions.Lift):
        return f"lift {action.system}"
    if isinstance(action, actions.Score):
        return f"score {action.objective}"
    if isinstance(action, actions.Scrap):
        return f"remove {action.kind}"
    return "pay custodians"


def _colour_name(seat: int) -> str:
    from .state import COLOURS as NAMES

    return NAMES[seat] if 0 <= seat < len(NAMES) else str(seat)


def _parse_round(
    verb: str, rest: list[str], text: str, state: PlanetsState | None, seat: int | None
) -> Action | None:
    """The fuller round's actions, or None when `verb` starts none of them."""
    from .cards import OBJECTIVES
    from .state import COLOURS as NAMES
    from .strategy import BY_NAME

    def _card(words: list[str]) -> int:
        word = " ".join(words)
        if word.isdigit() and len(word) == 1 and 1 <= int(word) <= 8:
            return int(word)
        if word in BY_NAME:
            return BY_NAME[word].number
        raise _fail(text, f"{word!r} is not a strategy card: {', '.join(BY_NAME)} (or 1–8)")

    def _seat(words: list[str]) -> int:
        if len(words) != 1 or words[0] not in NAMES:
            raise _fail(text, f"{' '.join(words)!r} is not a player's colour")
        return NAMES.index(words[0])

    if verb in ("pick", "take") and rest:
        return actions.Pick(_card(rest))
    if verb == "strategy" and rest:
        return actions.Strategic(_card(rest))
    if verb == "follow" and rest:
        return actions.Follow(_card(rest))
    if verb == "decline" and len(rest) <= 1:
        return actions.Decline()
    if verb == "tokens":
        counts = [small_number(w, 2) for w in rest]
        if len(counts) != 3 or any(n is None for n in counts):
            raise _fail(text, "write 'tokens <tactic> <fleet> <strategy>', three counts")
        t, f, s = (n or 0 for n in counts)
        return actions.Tokens(t, f, s)
    if verb == "buy" and rest in (["token"], ["tokens"], ["a", "token"], ["1", "token"]):
        return actions.BuyToken()
    if verb == "seal" and len(rest) == 1:
        return actions.Seal(_system(rest[0], text))
    if verb == "ready" and rest:
        return actions.Ready(_planet(rest, text, state, seat))
    if verb == "speaker" and rest:
        return actions.Appoint(_seat(rest))
    if verb == "grant" and rest:
        return actions.Grant(_seat(rest))
    if verb == "place" and "on" in rest:
        o = rest.index("on")
        kind = _unit(" ".join(rest[:o]) or "?", text)
        return actions.Place(kind, _planet(rest[o + 1 :], text, state, seat))
    if verb == "lift" and len(rest) == 1:
        return actions.Lift(_system(rest[0], text))
    if verb == "score" and len(rest) == 1:
        if rest[0] not in OBJECTIVES:
            raise _fail(text, f"{rest[0]!r} is not an objective: {', '.join(OBJECTIVES)}")
        return actions.Score(rest[0])
    if verb in ("remove", "scrap") and len(rest) == 1:
        return actions.Scrap(_unit(rest[0], text))
    if verb == "pay" and rest in (["custodians"], ["the", "custodians"], ["toll"]):
        return actions.PayToll()
    return None


def units_text(units: tuple[tuple[str, int], ...]) -> str:
    return " ".join(f"{n} {k}" for k, n in sorted(units, key=lambda u: ORDER[u[0]]) if n)


def _fail(text: str, why: str) -> InvalidAction:
    examples = "; ".join(f"'{e}'" for e in EXAMPLES)
    shown = repr(text) if len(text) <= 80 else repr(text[:80] + "…")  # never echo a flood
    return InvalidAction(f"{shown} is not understood: {why}. Examples: {examples}", text=text)


def _galaxies(state: PlanetsState | None) -> list[Galaxy]:
    return [state.galaxy] if state is not None else [builtin("trine"), builtin("sextant")]


def _planet(words: list[str], text: str, state: PlanetsState | None, seat: int | None) -> str:
    wanted = " ".join(words).strip().lower()
    if not wanted:
        raise _fail(text, "a planet name is missing")
    if wanted == "home" and state is not None and seat is not None and 0 <= seat < state.seats:
        return state.galaxy.systems[state.homes[seat]].planets[0]
    for galaxy in _galaxies(state):
        for name in galaxy.planets:
            if name.lower() == wanted:
                return name
    raise _fail(text, f"there is no planet called {' '.join(words)!r}")


def _system(word: str, text: str) -> str:
    if not re.fullmatch(r"[0-9]{3,4}", word):  # not \d: it matches other scripts' digits
        raise _fail(text, f"{word!r} is not a system number like 0203")
    return word.zfill(4)


def _unit(word: str, text: str) -> str:
    kind = ALIASES.get(word)
    if kind is None:
        raise _fail(text, f"{word!r} is not a unit type")
    return kind


def _counts(words: list[str], text: str) -> tuple[tuple[str, int], ...]:
    """`2 cruiser 1 carrier` (a missing count is 1) as (type, count) pairs in table order."""
    out: dict[str, int] = {}
    i = 0
    while i < len(words):
        n = 1
        if words[i].isdigit():
            count = small_number(words[i], MAX_COUNT_DIGITS)
            if count is None:
                raise _fail(text, f"{words[i][:20]!r} is not a count (digits 0-9, at most 999)")
            n = count
            i += 1
        if i >= len(words):
            raise _fail(text, "a count without a unit type")
        kind = _unit(words[i], text)
        if kind in out:
            raise _fail(text, f"{kind} is named twice")
        out[kind] = n
        i += 1
    if not out:
        raise _fail(text, "no units are named")
    return tuple(sorted(((k, n) for k, n in out.items() if n), key=lambda u: ORDER[u[0]]))


def _parse_forces(verb: str, rest: list[str], text: str) -> Action:
    if verb == "stay" and not rest:
        return Stay()
    if verb == "retreat" and len(rest) == 2 and rest[0] == "to":
        return Retreat(_system(rest[1], text))
    if verb in ("fire", "aim") and len(rest) == 2 and rest[0] == "at":
        if rest[1] not in COLOURS:
            raise _fail(text, f"{rest[1]!r} is not a player's colour")
        return Aim(COLOURS.index(rest[1]))
    raise _fail(text, "write 'fire at <colour>', 'retreat to <system>' or 'stay'")


def parse_action(text: str, state: PlanetsState | None = None, seat: int | None = None) -> Action:
    words = re.sub(r"[,;:.]", " ", text).lower().split()
    if not words:
        raise _fail(text, "it is empty")
    verb, rest = words[0], words[1:]
    if verb == "pass" and not rest:
        return Pass()
    if verb in ("done", "end") and len(rest) <= 1:
        return Done()
    if verb == "activate" and len(rest) == 1:
        return Activate(_system(rest[0], text))
    if verb == "move":
        if "from" not in rest or "to" not in rest:
            raise _fail(text, "a move says 'from <system> to <system>'")
        f, t = rest.index("from"), rest.index("to")
        cargo: tuple[tuple[str, str, int], ...] = ()
        if "with" in rest:
            w = rest.index("with")
            cargo = _cargo(rest[w + 1 :], text, state)
            rest = rest[:w]
        if not f < t == f + 2 == len(rest) - 2:
            raise _fail(text, "a move reads 'move <units> from <system> to <system>'")
        source, dest = _system(rest[f + 1], text), _system(rest[t + 1], text)
        return Move(source, _counts(rest[:f], text), dest, cargo)
    if verb in ("fire", "aim", "retreat", "stay"):
        return _parse_forces(verb, rest, text)
    if verb in ("destroy", "sustain", "hit") and len(rest) == 1:
        return Assign(_unit(rest[0], text), verb == "sustain")
    if verb == "bombard" and rest:
        if rest in (["none"], ["nothing"], ["no"]):
            return Bombard(None)
        return Bombard(_planet(rest, text, state, seat))
    if verb == "commit":
        if "to" not in rest:
            raise _fail(text, "a commit says 'to <planet>'")
        t = rest.index("to")
        counts = dict(_counts(rest[:t], text))
        if set(counts) - set(GROUND):
            raise _fail(text, "only infantry and mechs are committed")
        planet = _planet(rest[t + 1 :], text, state, seat)
        return Commit(planet, counts.get("infantry", 0), counts.get("mech", 0))
    if verb == "explore" and rest:
        trait = rest[0]
        if trait not in TRAITS:
            raise _fail(text, f"{trait!r} is not a deck: cultural, hazardous or industrial")
        if len(rest) == 1:
            waiting = state.explore_queue if state is not None else []
            options = (
                [p for p in waiting if trait in state.galaxy.planets[p].traits] if state else []
            )
            if len(options) != 1:
                raise _fail(text, "say which planet: 'explore <trait> at <planet>'")
            return Explore(trait, options[0])
        if rest[1] != "at":
            raise _fail(text, "write 'explore <trait> at <planet>'")
        return Explore(trait, _planet(rest[2:], text, state, seat))
    if verb == "exhaust" and rest:
        return Exhaust(_planet(rest, text, state, seat))
    if verb == "spend" and rest in (["trade", "good"], ["trade", "goods"], ["1", "trade", "good"]):
        return SpendGood()
    if verb in ("produce", "build") and "at" in rest:
        a = rest.index("at")
        made = _counts(rest[:a], text)
        if len(made) != 1:
            raise _fail(text, "produce one unit type at a time")
        kind, n = made[0]
        return Produce(kind, n, _planet(rest[a + 1 :], text, state, seat))
    found = _parse_round(verb, rest, text, state, seat)
    if found is not None:
        return found
    raise _fail(text, f"{verb!r} does not start any action here")
