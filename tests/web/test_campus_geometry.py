"""The campus drawing matches the rules' map: same sectors, and neighbours share an edge."""

from __future__ import annotations

import json
import re
from pathlib import Path

from parley.games.campus import load_map
from parley.web.maps.build_campus import geometry

DRAWN = Path(__file__).resolve().parents[2] / "src/parley/web/static/maps/campus.json"


def corners(path: str) -> set[tuple[float, float]]:
    return {(float(x), float(y)) for x, y in re.findall(r"(-?[\d.]+),(-?[\d.]+)", path)}


def test_the_file_is_what_the_generator_writes() -> None:
    assert json.loads(DRAWN.read_text(encoding="utf-8")) == geometry(load_map())


def test_drawn_neighbours_are_the_rules_neighbours() -> None:
    board = load_map()
    drawn = json.loads(DRAWN.read_text(encoding="utf-8"))
    assert list(drawn["sectors"]) == list(board.codes)  # the observation's order
    shapes = {code: corners(g["path"]) for code, g in drawn["sectors"].items()}
    for a in range(board.size):
        for b in range(a + 1, board.size):
            shared = sum(
                1
                for p in shapes[board.codes[a]]
                for q in shapes[board.codes[b]]
                if abs(p[0] - q[0]) + abs(p[1] - q[1]) < 0.5  # corners rounded to 0.1
            )
            touching = shared == 2  # hexagons sharing a side share two corners
            assert touching == (b in board.adjacent_sets[a]), (board.codes[a], board.codes[b])


def test_landmarks_are_marked() -> None:
    board = load_map()
    drawn = json.loads(DRAWN.read_text(encoding="utf-8"))["sectors"]
    for s in board.sectors:
        assert drawn[s.code]["landmark"] == (s.landmark.value if s.landmark else None)
