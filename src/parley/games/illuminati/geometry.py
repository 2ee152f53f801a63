"""The power structure as geometry: cards on a grid, arrows on card sides.

A card covers 2x4 grid squares (8 positions, the seed's "Checking for Power Structure
Room"): portrait when it faces north or south, landscape when it faces east or west. The
Illuminati card sits with its top-left square at (0, 0), facing north. A group hangs on an
outward arrow of its master, its inward arrow (at its own bottom) meeting that arrow, so it
faces away from the master: its orientation follows from the side it hangs on. It may be
placed only where none of its squares is taken.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

DIRECTIONS = ("north", "east", "south", "west")
_LOCAL = {"top": 0, "right": 1, "bottom": 2, "left": 3}
_LOCAL_NAMES = ("top", "right", "bottom", "left")


def world(facing: str, side: str) -> str:
    """The compass direction of a card side, for a card facing `facing`."""
    return DIRECTIONS[(DIRECTIONS.index(facing) + _LOCAL[side]) % 4]


def local(facing: str, direction: str) -> str:
    """The card side that points in `direction`, for a card facing `facing`."""
    return _LOCAL_NAMES[(DIRECTIONS.index(direction) - DIRECTIONS.index(facing)) % 4]


def opposite(direction: str) -> str:
    return DIRECTIONS[(DIRECTIONS.index(direction) + 2) % 4]


@dataclass(frozen=True, slots=True)
class Rect:
    """Where a card lies: top-left square, width, height, and the way its top faces."""

    x: int
    y: int
    w: int
    h: int
    facing: str

    @property
    def orientation(self) -> str:
        return "portrait" if self.facing in ("north", "south") else "landscape"

    def cells(self) -> set[tuple[int, int]]:
        return {(self.x + i, self.y + j) for i in range(self.w) for j in range(self.h)}

    def child(self, direction: str) -> Rect:
        """The rectangle of a card hung on this card's arrow pointing `direction`."""
        if direction == "north":
            return Rect(self.x + self.w // 2 - 1, self.y - 4, 2, 4, "north")
        if direction == "south":
            return Rect(self.x + self.w // 2 - 1, self.y + self.h, 2, 4, "south")
        if direction == "west":
            return Rect(self.x - 4, self.y + self.h // 2 - 1, 4, 2, "west")
        return Rect(self.x + self.w, self.y + self.h // 2 - 1, 4, 2, "east")


ROOT = Rect(0, 0, 2, 4, "north")


@dataclass(frozen=True, slots=True)
class Link:
    """A card of a structure: its master and the master's side it hangs on (None for the root)."""

    parent: str | None
    side: str | None


def layout(links: Mapping[str, Link], root: str) -> dict[str, Rect]:
    """Every card's rectangle, built outward from the Illuminati card."""
    children = children_of(links)
    rects = {root: ROOT}
    stack = [root]
    while stack:
        name = stack.pop()
        rect = rects[name]
        for child in children.get(name, ()):
            side = links[child].side
            assert side is not None
            rects[child] = rect.child(world(rect.facing, side))
            stack.append(child)
    return rects


def children_of(links: Mapping[str, Link]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for name, link in links.items():
        if link.parent is not None:
            out.setdefault(link.parent, []).append(name)
    return out


def subtree(links: Mapping[str, Link], top: str) -> list[str]:
    """`top` and every card below it, masters before puppets."""
    children = children_of(links)
    order = [top]
    i = 0
    while i < len(order):
        order.extend(sorted(children.get(order[i], ())))
        i += 1
    return order


def occupied(rects: Iterable[Rect]) -> set[tuple[int, int]]:
    cells: set[tuple[int, int]] = set()
    for rect in rects:
        cells |= rect.cells()
    return cells


def free_arrows(
    links: Mapping[str, Link], rects: Mapping[str, Rect], host: str, sides: tuple[str, ...]
) -> list[str]:
    """The compass directions of `host`'s outward arrows with nothing hung on them."""
    used = {links[c].side for c in children_of(links).get(host, ())}
    facing = rects[host].facing
    return [world(facing, s) for s in sides if s not in used]


def fits(rects: Mapping[str, Rect], host: str, direction: str, ignore: Iterable[str] = ()) -> bool:
    """The room check: a card hung on `host`'s `direction` arrow overlaps no other card."""
    skip = set(ignore)
    taken = occupied(r for n, r in rects.items() if n not in skip)
    return not (rects[host].child(direction).cells() & taken)


def hang(
    links: dict[str, Link],
    root: str,
    moving: Mapping[str, Link],
    top: str,
    host: str,
    direction: str,
) -> list[str]:
    """Hang `top` (with the puppets in `moving`, which keep their sides) on `host`.

    `links` must not hold the moving cards. Cards that do not fit are left out and
    returned, masters before puppets; a puppet whose master is left out is left out too.
    """
    rects = layout(links, root)
    taken = occupied(rects.values())
    target = rects[host].child(direction)
    left_out: list[str] = []
    order = subtree(moving, top)
    if target.cells() & taken:
        return order
    links[top] = Link(host, local(rects[host].facing, direction))
    rects[top] = target
    taken |= target.cells()
    for name in order[1:]:
        link = moving[name]
        assert link.parent is not None and link.side is not None
        if link.parent not in rects or link.parent in left_out:
            left_out.append(name)
            continue
        master = rects[link.parent]
        rect = master.child(world(master.facing, link.side))
        if rect.cells() & taken:
            left_out.append(name)
            continue
        links[name] = link
        rects[name] = rect
        taken |= rect.cells()
    return left_out


def depth(links: Mapping[str, Link], name: str) -> int:
    """Cards between `name` and the Illuminati card, counting itself (1 = directly under)."""
    d = 0
    while links[name].parent is not None:
        parent = links[name].parent
        assert parent is not None
        name = parent
        d += 1
    return d


def path(links: Mapping[str, Link], name: str) -> list[str]:
    """The seed's "Power Structure Position": the Illuminati card down to `name`."""
    out = [name]
    while links[out[-1]].parent is not None:
        parent = links[out[-1]].parent
        assert parent is not None
        out.append(parent)
    return out[::-1]
