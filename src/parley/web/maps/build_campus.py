"""Drawing geometry of the Campus Conquest map, generated from the game's map data.

Every sector is a pointy-topped hexagon placed by its `row` and `col` (odd rows shifted
half a hexagon right), so neighbours on the grid share an edge exactly. Grid cells without a
sector become decor: water inside the map (the lake), lawn on its rim.

The JSON written (``static/maps/<name>.json``), coordinates in viewBox units:

- ``format`` (1), ``map``, ``title``, ``viewBox`` ([0, 0, width, height]);
- ``sectors``: code -> ``name``, ``path`` (the hexagon), ``label`` (the name's anchor),
  ``unit`` (the unit token's centre), ``mark`` (the landmark or PVC marker's centre) and
  ``landmark`` (``attack``, ``defence`` or null, for the marker's shape only);
- ``decor``: list of ``kind`` (``water`` or ``lawn``), ``name`` and ``path``.

Rebuild with ``python -m parley.web.maps.build_campus`` (optionally a map file and an
output path).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

from parley.games.campus import CampusMap, load_map

PACKAGE_DIR = Path(__file__).resolve().parents[1]
RADIUS = 58.0  # centre to corner
MARGIN = 14.0
WIDTH_STEP = math.sqrt(3) * RADIUS
HEIGHT_STEP = 1.5 * RADIUS


def centre(row: int, col: int) -> tuple[float, float]:
    x = MARGIN + WIDTH_STEP / 2 + col * WIDTH_STEP + (WIDTH_STEP / 2 if row % 2 else 0.0)
    y = MARGIN + RADIUS + row * HEIGHT_STEP
    return round(x, 1), round(y, 1)


def hexagon(cx: float, cy: float, radius: float = RADIUS) -> str:
    points = []
    for k in range(6):
        angle = math.radians(60 * k - 90)
        points.append(f"{cx + radius * math.cos(angle):.1f},{cy + radius * math.sin(angle):.1f}")
    return "M" + " L".join(points) + " Z"


def geometry(board: CampusMap) -> dict[str, Any]:
    rows = max(s.row for s in board.sectors) + 1
    cols = max(s.col for s in board.sectors) + 1
    width = 2 * MARGIN + cols * WIDTH_STEP + WIDTH_STEP / 2
    height = 2 * MARGIN + 2 * RADIUS + (rows - 1) * HEIGHT_STEP
    sectors: dict[str, Any] = {}
    taken = set()
    for s in board.sectors:
        cx, cy = centre(s.row, s.col)
        taken.add((s.row, s.col))
        sectors[s.code] = {
            "name": s.name,
            "path": hexagon(cx, cy),
            "label": [cx, round(cy - RADIUS * 0.42, 1)],
            "unit": [cx, round(cy + RADIUS * 0.12, 1)],
            "mark": [round(cx + RADIUS * 0.5, 1), round(cy - RADIUS * 0.05, 1)],
            "landmark": s.landmark.value if s.landmark else None,
        }
    decor = []
    for row in range(rows):
        for col in range(cols):
            if (row, col) in taken:
                continue
            inner = 0 < row < rows - 1 and 0 < col < cols - 1
            decor.append(
                {
                    "kind": "water" if inner else "lawn",
                    "name": "Fern Lake" if inner else "lawn",
                    "path": hexagon(*centre(row, col)),
                }
            )
    return {
        "format": 1,
        "map": board.name,
        "title": board.title,
        "viewBox": [0, 0, round(width, 1), round(height, 1)],
        "sectors": sectors,
        "decor": decor,
    }


def main(argv: list[str]) -> None:
    board = load_map(argv[0] if argv else "campus")
    out = Path(argv[1]) if len(argv) > 1 else PACKAGE_DIR / "static" / "maps" / f"{board.name}.json"
    out.write_text(json.dumps(geometry(board), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}")


if __name__ == "__main__":
    main(sys.argv[1:])
