"""An Illuminati position as JSON: the whole table at one moment, hands and deck included.

Every field of the state is written under its own name (see docs/illuminati.md); cards
are written by name, seats as numbers from 0 (Player 1). Reading checks each field's type,
then what the types cannot say: every card is a card of the set and in one place only
(specials up to their copies), every structure is a tree of arrows that fit without
overlapping, and every seat is a seat. Nothing is derived and stored, so nothing is
recomputed: the layout of a structure follows from its links.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

from parley.kernel import BadOptions, BadPosition
from parley.kernel.positions import Codec

from . import geometry as geo
from .engine import CARDS
from .state import IlluminatiState

CODEC = Codec()


def write(state: IlluminatiState) -> dict[str, Any]:
    body = CODEC.write(state)
    return {"game": "illuminati", **body}


def read(
    data: Mapping[str, Any], resolve: Callable[[Mapping[str, Any]], dict[str, Any]]
) -> IlluminatiState:
    """A state from a position, every field checked."""
    if not isinstance(data, Mapping):
        raise BadPosition("a position is a JSON object")
    body = dict(data)
    if body.pop("game", "illuminati") != "illuminati":
        raise BadPosition("game: this is not an Illuminati position")
    state: IlluminatiState = CODEC.read(body, IlluminatiState, "")
    try:
        state.options = resolve(state.options)
    except BadOptions as err:
        raise BadPosition(f"options: {err.message}") from None
    _check(state)
    return state


def _seat(value: Any, seats: int, where: str) -> None:
    if not 0 <= value < seats:
        raise BadPosition(f"{where}: {value!r} is not a seat (0–{seats - 1})")


def _check(state: IlluminatiState) -> None:
    seats = state.seats
    if not 2 <= seats <= 8:
        raise BadPosition(f"seats: Illuminati takes 2–8 seats, not {seats}")
    if len(state.players) != seats:
        raise BadPosition(f"players: expected {seats} players, got {len(state.players)}")
    _seat(state.active, seats, "active")
    _seat(state.first, seats, "first")
    for i, s in enumerate(state.winners):
        _seat(s, seats, f"winners[{i}]")
    for i, s in enumerate(state.queue):
        _seat(s, seats, f"queue[{i}]")
    places: Counter[str] = Counter()
    where_first: dict[str, str] = {}

    def put(name: str, where: str) -> None:
        if not (CARDS.is_group(name) or CARDS.is_special(name) or _is_illuminati(name)):
            raise BadPosition(f"{where}: no card called {name!r}")
        places[name] += 1
        where_first.setdefault(name, where)

    for i, name in enumerate(state.deck):
        put(name, f"deck[{i}]")
    for i, name in enumerate(state.center):
        if not CARDS.is_group(name):
            raise BadPosition(f"center[{i}]: {name!r} is not a group")
        put(name, f"center[{i}]")
    for i, name in enumerate(state.dead):
        put(name, f"dead[{i}]")
    for p_i, player in enumerate(state.players):
        at = f"players[{p_i}]"
        if player.seat != p_i:
            raise BadPosition(f"{at}.seat: expected {p_i}, got {player.seat}")
        for h_i, held in enumerate(player.hand):
            put(held.card, f"{at}.hand[{h_i}]")
            for s in held.seen_by:
                _seat(s, seats, f"{at}.hand[{h_i}].seen_by")
        if player.illuminati:
            _check_structure(player.illuminati, player.links, player.money, at)
            for name in player.links:
                put(name, f"{at}.links[{name!r}]")
        elif player.links:
            raise BadPosition(f"{at}.links: a player without an Illuminati has no structure")
    for i, pending in enumerate(state.pending):
        _seat(pending.seat, seats, f"pending[{i}].seat")
        put(pending.group, f"pending[{i}].group")
        for name in pending.puppets:
            if name != pending.group:
                put(name, f"pending[{i}].puppets[{name!r}]")
    for name, count in places.items():
        allowed = CARDS.special(name).copies if CARDS.is_special(name) else 1
        if count > allowed:
            raise BadPosition(
                f"{where_first[name]}: {name!r} is in {count} places (the set has {allowed})"
            )
    if state.attack is not None:
        _seat(state.attack.attacker_seat, seats, "attack.attacker_seat")
        if state.attack.defender is not None:
            _seat(state.attack.defender, seats, "attack.defender")
    if state.offer is not None:
        _seat(state.offer.giver, seats, "offer.giver")
        _seat(state.offer.receiver, seats, "offer.receiver")


def _is_illuminati(name: str) -> bool:
    return any(c.name == name for c in CARDS.illuminati)


def _check_structure(
    root: str, links: Mapping[str, geo.Link], money: Mapping[str, int], at: str
) -> None:
    if not _is_illuminati(root):
        raise BadPosition(f"{at}.illuminati: {root!r} is not an Illuminati card")
    if links.get(root) != geo.Link(None, None):
        raise BadPosition(f"{at}.links: the Illuminati {root!r} is the root (parent and side null)")
    for name, link in links.items():
        where = f"{at}.links[{name!r}]"
        if name == root:
            continue
        if not CARDS.is_group(name):
            raise BadPosition(f"{where}: {name!r} is not a group")
        if link.parent is None or link.parent not in links:
            raise BadPosition(f"{where}.parent: {link.parent!r} is not in this structure")
        if link.side not in CARDS.card(link.parent).sides:
            sides = ", ".join(CARDS.card(link.parent).sides) or "none"
            raise BadPosition(f"{where}.side: {link.parent} has arrows {sides}, not {link.side!r}")
        # Following masters upward must reach the root without going round in a circle.
        seen, up = {name}, link.parent
        while up != root:
            if up in seen:
                raise BadPosition(f"{where}: its masters go round in a circle")
            seen.add(up)
            up = links[up].parent  # type: ignore[assignment]
    used: set[tuple[str, str]] = set()
    for name, link in links.items():
        if link.parent is not None:
            key = (link.parent, link.side or "")
            if key in used:
                raise BadPosition(f"{at}.links[{name!r}]: two cards on one arrow of {link.parent}")
            used.add(key)
    cells = Counter(cell for rect in geo.layout(links, root).values() for cell in rect.cells())
    if any(n > 1 for n in cells.values()):
        raise BadPosition(f"{at}.links: cards of the structure overlap")
    for name, amount in money.items():
        if name not in links:
            raise BadPosition(f"{at}.money[{name!r}]: not a card of this structure")
        if amount < 0:
            raise BadPosition(f"{at}.money[{name!r}]: money is never negative")
