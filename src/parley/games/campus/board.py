"""Campus maps as data: sectors, landmarks and adjacency, checked when they load."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from enum import Enum
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from parley.kernel import BadOptions

from .actions import Move

FEWEST_PLAYERS = 2  # every player starts on a landmark: a map needs at least this many


class Bonus(Enum):
    """What a landmark gives its holder while held."""

    ATTACK = "attack"
    DEFENCE = "defence"


@dataclass(frozen=True, slots=True)
class Sector:
    """One sector: a grid code (`A3`), a name, a short alias, maybe a landmark bonus."""

    index: int
    code: str
    name: str
    alias: str
    landmark: Bonus | None
    row: int
    col: int


class MapError(BadOptions):
    """A map file that does not describe a playable campus."""


def _short(value: Any) -> str:
    """A value from a map file, shortened for an error message."""
    text = repr(value)
    return text if len(text) <= 24 else text[:21] + "..."


def _key(text: str) -> str:
    """How names compare: case, spaces and punctuation ignored."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


class CampusMap:
    """An immutable map with everything the rules need precomputed as ints and tuples."""

    def __init__(
        self, name: str, title: str, sectors: tuple[Sector, ...], edges: set[tuple[int, int]]
    ):
        self.name = name
        self.title = title
        self.sectors = sectors
        self.size = len(sectors)
        self.codes = tuple(s.code for s in sectors)
        self.index = {s.code: s.index for s in sectors}
        adjacent: list[list[int]] = [[] for _ in sectors]
        for a, b in sorted(edges):
            adjacent[a].append(b)
            adjacent[b].append(a)
        self.adjacent: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(n)) for n in adjacent)
        self.adjacent_sets = tuple(frozenset(n) for n in self.adjacent)
        self.landmarks = tuple(s.index for s in sectors if s.landmark is not None)
        self.is_landmark = tuple(s.landmark is not None for s in sectors)
        self.attack_landmark = tuple(s.landmark is Bonus.ATTACK for s in sectors)
        self.defence_landmark = tuple(s.landmark is Bonus.DEFENCE for s in sectors)
        # Every move along an edge exists once, so legal-action lists are built by extension.
        self.moves_from: tuple[tuple[Move, ...], ...] = tuple(
            tuple(Move(self.codes[a], self.codes[b]) for b in self.adjacent[a])
            for a in range(self.size)
        )
        self.edge_count = len(edges)
        self.names: dict[str, int] = {}
        for s in sectors:
            for word in (s.code, s.name, s.alias):
                self.names[_key(word)] = s.index

    def lookup(self, word: str) -> list[int]:
        """Sectors a word may name: exact code, alias or name, else a unique name prefix."""
        key = _key(word)
        if not key:
            return []
        if key in self.names:
            return [self.names[key]]
        return sorted(
            {s.index for s in self.sectors if len(key) >= 2 and _key(s.name).startswith(key)}
        )

    def label(self, index: int) -> str:
        s = self.sectors[index]
        return f"{s.name} ({s.code})"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "title": self.title,
            "sectors": [
                {
                    "code": s.code,
                    "name": s.name,
                    "alias": s.alias,
                    "landmark": s.landmark.value if s.landmark else None,
                    "row": s.row,
                    "col": s.col,
                }
                for s in self.sectors
            ],
            "edges": [
                [self.codes[a], self.codes[b]]
                for a in range(self.size)
                for b in self.adjacent[a]
                if a < b
            ],
        }


def parse_map(doc: Any, origin: str) -> CampusMap:
    """A map from its JSON document; MapError says what is wrong and where."""
    if not isinstance(doc, dict) or not isinstance(doc.get("sectors"), list):
        raise MapError(f"{origin}: a map is an object with a 'sectors' list and an 'edges' list")
    sectors: list[Sector] = []
    seen: set[str] = set()
    for i, raw in enumerate(doc["sectors"]):
        if not isinstance(raw, dict):
            raise MapError(f"{origin}: sector {i} is not an object")  # its text is not echoed
        code, name = str(raw.get("code", "")), str(raw.get("name", ""))
        alias = str(raw.get("alias", "") or code)  # optional: the code stands in for it
        if not re.fullmatch(r"[A-Z][0-9]{1,2}", code):
            raise MapError(f"{origin}: sector code {code!r} is not a letter and a number")
        if not name:
            raise MapError(f"{origin}: sector {code} has no name")
        # A sector may name itself twice (no alias, or an alias equal to its name); only
        # words shared with another sector are ambiguous.
        own = {_key(word): word for word in (code, name, alias)}
        for key, word in own.items():
            if key in seen:
                raise MapError(f"{origin}: {word!r} names two sectors")
        seen.update(own)
        kind = raw.get("landmark")
        try:
            landmark = Bonus(kind) if kind is not None else None
        except ValueError:
            raise MapError(
                f"{origin}: landmark {kind!r} of {code} is not attack or defence"
            ) from None
        sectors.append(
            Sector(i, code, name, alias, landmark, int(raw.get("row", 0)), int(raw.get("col", 0)))
        )
    index = {s.code: s.index for s in sectors}
    edges: set[tuple[int, int]] = set()
    edges_doc = doc.get("edges", [])
    if not isinstance(edges_doc, list):
        raise MapError(f"{origin}: 'edges' is a list of pairs of sector codes")
    for i, raw in enumerate(edges_doc):
        if not (isinstance(raw, list) and len(raw) == 2 and all(c in index for c in raw)):
            raise MapError(f"{origin}: edge {i} ({_short(raw)}) does not join two known sectors")
        a, b = index[raw[0]], index[raw[1]]
        if a == b:
            raise MapError(f"{origin}: edge {raw!r} joins a sector to itself")
        edges.add((min(a, b), max(a, b)))
    board = CampusMap(
        str(doc.get("name", "custom")), str(doc.get("title", "")), tuple(sectors), edges
    )
    check_map(board, origin)
    return board


def check_map(board: CampusMap, origin: str) -> None:
    """Symmetric and connected, a landmark for each of at least two players, room for the PVC.

    Whether a map has a landmark for every seat of a particular game is checked when the
    game starts (`check_seats`).
    """
    for a in range(board.size):
        for b in board.adjacent[a]:
            if a not in board.adjacent_sets[b]:
                raise MapError(f"{origin}: {board.codes[a]}–{board.codes[b]} is one-way")
    if board.size < 2:
        raise MapError(f"{origin}: a map needs at least two sectors")
    reached = {0}
    todo = [0]
    while todo:
        for n in board.adjacent[todo.pop()]:
            if n not in reached:
                reached.add(n)
                todo.append(n)
    if len(reached) != board.size:
        cut = sorted(board.codes[i] for i in set(range(board.size)) - reached)
        raise MapError(f"{origin}: not connected; cannot reach {', '.join(cut)}")
    if len(board.landmarks) < FEWEST_PLAYERS:
        raise MapError(
            f"{origin}: {len(board.landmarks)} landmark(s); every player starts on one, so a "
            f"map needs at least {FEWEST_PLAYERS}"
        )
    if board.size - len(board.landmarks) < 2:
        raise MapError(f"{origin}: the PVC needs at least two sectors that are not landmarks")


def check_seats(board: CampusMap, seats: int) -> None:
    """Every player starts on a landmark of their own: MapError unless there are enough."""
    if len(board.landmarks) < seats:
        title = board.title or board.name
        raise MapError(
            f"the {title} map has {len(board.landmarks)} landmarks, one for each player to "
            f"start on: it seats at most {len(board.landmarks)}, not {seats}"
        )


@cache
def load_map(where: str = "campus") -> CampusMap:
    """The built-in map by name, or a map file by path."""
    if where == "campus":
        text = resources.files(__package__).joinpath("data/campus.json").read_text("utf-8")
        return parse_map(json.loads(text), "campus")
    path = Path(where)
    if path.suffix != ".json" or not path.is_file():
        raise MapError(f"map {where!r} is neither 'campus' nor a readable .json file")
    try:
        doc = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError) as err:
        raise MapError(f"map file {where!r} cannot be read as JSON: {err}") from err
    return parse_map(doc, where)
