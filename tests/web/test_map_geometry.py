"""The classical board's drawing geometry agrees with the standard map data and is sound."""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

import parley
from parley.web.maps import build_standard

PACKAGE = Path(parley.__file__).resolve().parent
GEOMETRY = PACKAGE / "web" / "static" / "maps" / "standard.json"
MAP_DATA = PACKAGE / "games" / "diplomacy" / "data" / "standard.toml"

XY = tuple[float, float]
Ring = list[XY]
Box = tuple[float, float, float, float]

TOUCH = 2.0  # "sharing a border": closer than this, in viewBox units
TOKEN = re.compile(r"\s*(?:([MLHVZ])|(-?\d+(?:\.\d+)?))")


# --- loading -------------------------------------------------------------------------------
@cache
def geometry() -> dict[str, Any]:
    result: dict[str, Any] = json.loads(GEOMETRY.read_text(encoding="utf-8"))
    return result


@cache
def map_data() -> dict[str, Any]:
    with MAP_DATA.open("rb") as f:
        return tomllib.load(f)


def parse_path(d: str) -> list[Ring]:
    """Rings of an SVG path made of M, L, H, V and Z only; anything else fails."""
    tokens: list[str | float] = []
    pos = 0
    while pos < len(d.rstrip()):
        m = TOKEN.match(d, pos)
        assert m, f"unexpected path text at {pos}: {d[pos : pos + 20]!r}"
        tokens.append(m.group(1) if m.group(1) else float(m.group(2)))
        pos = m.end()
    rings: list[Ring] = []
    current: Ring = []
    command = ""
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if isinstance(token, str):
            command = token
            i += 1
            if command == "Z":
                assert len(current) >= 3, "a ring needs three points"
                rings.append(current)
                current = []
            continue
        if command in ("M", "L"):
            x, y = token, tokens[i + 1]
            assert isinstance(y, float)
            if command == "M":
                assert not current, "subpath not closed before M"
            current.append((x, y))
            command = "L"  # repeated pairs after M are lines
            i += 2
        elif command == "H":
            current.append((token, current[-1][1]))
            i += 1
        elif command == "V":
            current.append((current[-1][0], token))
            i += 1
        else:
            raise AssertionError(f"number without a command in {d[:40]!r}")
    assert not current, "path ends with an open subpath"
    assert rings, "empty path"
    return rings


@cache
def shapes() -> dict[str, list[Ring]]:
    return {code: parse_path(p["path"]) for code, p in geometry()["provinces"].items()}


@cache
def decor_shapes() -> list[list[Ring]]:
    return [parse_path(d["path"]) for d in geometry()["decor"]]


# --- plane geometry ------------------------------------------------------------------------
def contains(rings: Sequence[Ring], p: XY) -> bool:
    """Even-odd rule over all rings, as SVG draws them (holes are left out)."""
    x, y = p
    inside = False
    for ring in rings:
        for (x1, y1), (x2, y2) in zip(ring, ring[1:] + ring[:1], strict=True):
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
    return inside


def segments(rings: Sequence[Ring]) -> Iterator[tuple[XY, XY]]:
    for ring in rings:
        yield from zip(ring, ring[1:] + ring[:1], strict=True)


def segment_distance(p: XY, a: XY, b: XY) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = 0.0
    if length2:
        t = max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def boundary_distance(rings: Sequence[Ring], p: XY) -> float:
    return min(segment_distance(p, a, b) for a, b in segments(rings))


def box(rings: Sequence[Ring]) -> Box:
    xs = [x for ring in rings for x, _ in ring]
    ys = [y for ring in rings for _, y in ring]
    return min(xs), min(ys), max(xs), max(ys)


def boxes_meet(a: Box, b: Box, margin: float) -> bool:
    return not (
        a[2] + margin < b[0] or b[2] + margin < a[0] or a[3] + margin < b[1] or b[3] + margin < a[1]
    )


def shape_distance(a: Sequence[Ring], b: Sequence[Ring]) -> float:
    """Least distance between the two outlines (vertex to segment, both ways)."""
    if {p for ring in a for p in ring} & {p for ring in b for p in ring}:
        return 0.0  # a shared vertex
    best = math.inf
    for rings, other in ((a, b), (b, a)):
        for ring in rings:
            for p in ring:
                best = min(best, boundary_distance(other, p))
    return best


def shared_border_length(a: Sequence[Ring], b: Sequence[Ring]) -> float:
    """Length of a's outline that runs along b's outline."""
    total = 0.0
    for p, q in segments(a):
        mid = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
        if all(boundary_distance(b, r) < 0.5 for r in (p, mid, q)):
            total += math.dist(p, q)
    return total


def neighbours() -> set[frozenset[str]]:
    """Province pairs adjacent for armies or fleets (coasts folded into their province)."""
    pairs: set[frozenset[str]] = set()
    for code, info in map_data()["provinces"].items():
        lists = [info.get("army", []), info.get("fleet", []), *info.get("coasts", {}).values()]
        for names in lists:
            for name in names:
                pairs.add(frozenset((code, name.split("/")[0])))
    return pairs


# --- the file agrees with the map data -----------------------------------------------------
def test_header() -> None:
    doc = geometry()
    assert doc["format"] == 1
    assert doc["map"] == map_data()["name"] == "standard"
    x, y, w, h = doc["viewBox"]
    assert (x, y) == (0, 0)
    assert 1000 <= w <= 1400 and 800 <= h <= 1200


def test_every_province_has_an_entry_and_no_other() -> None:
    assert set(geometry()["provinces"]) == set(map_data()["provinces"])
    assert len(geometry()["provinces"]) == 76


def test_kinds_are_copied_from_the_map() -> None:
    for code, info in map_data()["provinces"].items():
        assert geometry()["provinces"][code]["kind"] == info["kind"], code


def test_centre_markers_exactly_for_supply_centres() -> None:
    with_marker = {c for c, p in geometry()["provinces"].items() if "centre" in p}
    centres = {c for c, info in map_data()["provinces"].items() if info.get("centre")}
    assert with_marker == centres
    assert len(centres) == 34


def test_coast_anchors_exactly_for_split_coasts() -> None:
    for code, info in map_data()["provinces"].items():
        entry = geometry()["provinces"][code]
        assert set(entry.get("coasts", {})) == set(info.get("coasts", {})), code
    split = {c for c, p in geometry()["provinces"].items() if "coasts" in p}
    assert split == {"BUL", "SPA", "STP"}


def test_every_starting_unit_has_a_place_to_stand() -> None:
    provinces = geometry()["provinces"]
    for units in map_data()["units"].values():
        for unit in units:
            _, location = unit.split()
            code, _, coast = location.partition("/")
            assert "unit" in provinces[code]
            if coast:
                assert coast in provinces[code]["coasts"]


# --- paths ---------------------------------------------------------------------------------
def test_paths_use_only_straight_commands_and_numbers() -> None:
    for code, entry in geometry()["provinces"].items():
        assert re.fullmatch(r"[MLHVZ0-9.\s-]+", entry["path"]), code
        assert parse_path(entry["path"])
    for entry in geometry()["decor"]:
        assert re.fullmatch(r"[MLHVZ0-9.\s-]+", entry["path"]), entry["name"]
        assert entry["kind"] in ("land", "water")


def test_parser_rejects_curves() -> None:
    with pytest.raises(AssertionError):
        parse_path("M 0 0 C 1 1 2 2 3 3 Z")
    assert parse_path("M 0 0 H 10 V 10 L 0 10 Z") == [[(0, 0), (10, 0), (10, 10), (0, 10)]]


def test_paths_lie_inside_the_view_box() -> None:
    _, _, w, h = geometry()["viewBox"]
    for rings in [*shapes().values(), *decor_shapes()]:
        for x, y in (p for ring in rings for p in ring):
            assert 0 <= x <= w and 0 <= y <= h, (x, y)


# --- anchors -------------------------------------------------------------------------------
def anchors(entry: dict[str, Any]) -> Iterator[tuple[str, XY]]:
    for key in ("label", "unit", "centre"):
        if key in entry:
            yield key, (entry[key][0], entry[key][1])
    for coast, point in entry.get("coasts", {}).items():
        yield coast, (point[0], point[1])


def test_every_anchor_lies_inside_its_own_province() -> None:
    for code, entry in geometry()["provinces"].items():
        for name, point in anchors(entry):
            assert contains(shapes()[code], point), f"{code} {name} {point}"


def test_units_have_room_for_a_token() -> None:
    # A token of radius 9 fits around every unit point; anchors keep off the borders.
    for code, entry in geometry()["provinces"].items():
        rings = shapes()[code]
        unit = (entry["unit"][0], entry["unit"][1])
        assert boundary_distance(rings, unit) >= 10, code
        for name, point in anchors(entry):
            assert boundary_distance(rings, point) >= 2.5, f"{code} {name}"


def test_markers_labels_and_units_do_not_sit_on_each_other() -> None:
    for code, entry in geometry()["provinces"].items():
        unit, label = entry["unit"], entry["label"]
        assert math.dist(unit, label) >= 12, code
        if "centre" in entry:
            assert math.dist(entry["centre"], unit) >= 8, code


def test_split_coast_anchors_sit_by_their_own_coast() -> None:
    # For a neighbour reached from one coast only, that coast's anchor is the nearer one.
    for code, info in map_data()["provinces"].items():
        coasts: dict[str, list[str]] = info.get("coasts", {})
        points = geometry()["provinces"][code].get("coasts", {})
        for coast, reach in coasts.items():
            others = {n for c, r in coasts.items() if c != coast for n in r}
            for name in set(reach) - others:
                target = shapes()[name.split("/")[0]]
                mine = boundary_distance(target, tuple(points[coast]))
                for other in set(coasts) - {coast}:
                    theirs = boundary_distance(target, tuple(points[other]))
                    assert mine < theirs, f"{code}/{coast} is not the coast nearest {name}"


# --- topology ------------------------------------------------------------------------------
def test_army_neighbours_share_a_border() -> None:
    for code, info in map_data()["provinces"].items():
        for other in info.get("army", []):
            gap = shape_distance(shapes()[code], shapes()[other])
            assert gap < TOUCH, f"{code} and {other} are {gap:.1f} apart"


def test_fleet_neighbours_share_a_border() -> None:
    for code, info in map_data()["provinces"].items():
        reach = [*info.get("fleet", []), *(n for r in info.get("coasts", {}).values() for n in r)]
        for location in reach:
            other = location.split("/")[0]
            gap = shape_distance(shapes()[code], shapes()[other])
            assert gap < TOUCH, f"{code} and {other} are {gap:.1f} apart"


def test_only_neighbours_share_a_border() -> None:
    # Provinces may meet at a corner, but a border of any length means adjacency.
    adjacent = neighbours()
    codes = sorted(c for c, p in geometry()["provinces"].items() if p["kind"] != "impassable")
    boxes = {c: box(shapes()[c]) for c in codes}
    for a, b in combinations(codes, 2):
        if frozenset((a, b)) in adjacent or not boxes_meet(boxes[a], boxes[b], 1.0):
            continue
        length = shared_border_length(shapes()[a], shapes()[b])
        assert length < 3.0, f"{a} and {b} share {length:.1f} units of border but are not adjacent"


def test_switzerland_borders_only_land() -> None:
    swi = shapes()["SWI"]
    touching = {
        code
        for code, rings in shapes().items()
        if code != "SWI" and shape_distance(swi, rings) < TOUCH
    }
    assert touching == {"BUR", "MAR", "MUN", "PIE", "TYR"}


def sample_points(step: float) -> Iterator[XY]:
    _, _, w, h = geometry()["viewBox"]
    # Offsets keep samples off the 0.1-unit grid the outlines are drawn on.
    y = step / 2 + 0.037
    while y < h:
        x = step / 2 + 0.053
        while x < w:
            yield (x, y)
            x += step
        y += step


def test_areas_tile_the_board_without_overlap() -> None:
    # Every sampled point lies in exactly one province or decoration: no gaps, no overlaps,
    # seas fill the water between coasts.
    areas = [(code, rings) for code, rings in shapes().items()]
    areas += [
        (d["name"], rings) for d, rings in zip(geometry()["decor"], decor_shapes(), strict=True)
    ]
    boxes = [box(rings) for _, rings in areas]
    count = 0
    for p in sample_points(7.0):
        hits = [
            name
            for (name, rings), (x0, y0, x1, y1) in zip(areas, boxes, strict=True)
            if x0 <= p[0] <= x1 and y0 <= p[1] <= y1 and contains(rings, p)
        ]
        assert len(hits) == 1, f"{p} lies in {hits}"
        count += 1
    assert count > 20000


def test_land_and_sea_are_where_the_map_says() -> None:
    # A few well-known places fall in the right province on the drawn board.
    places = {
        "PAR": (2.35, 48.85),
        "LON": (-0.13, 51.5),
        "MOS": (37.6, 55.75),
        "ROM": (12.5, 41.9),
        "CON": (28.6, 41.25),
        "VIE": (16.37, 48.2),
        "BER": (13.4, 52.5),
        "NTH": (3.0, 56.0),
        "BLA": (34.0, 43.0),
        "ION": (18.5, 37.0),
        "SPA": (-3.7, 40.4),
        "NWY": (9.0, 60.5),
        "EDI": (-3.3, 56.6),
        "TUN": (9.5, 35.5),
        "SEV": (34.0, 45.2),
        "ADR": (15.0, 43.0),
    }
    for code, (lon, lat) in places.items():
        x, y = build_standard.project(lon, lat)
        hits = [c for c, rings in shapes().items() if contains(rings, (x, y))]
        assert hits == [code], f"({lon}, {lat}) lies in {hits}, not {code}"


# --- the generator -------------------------------------------------------------------------
def test_the_file_is_what_the_generator_writes() -> None:
    assert build_standard.render(build_standard.build()) == GEOMETRY.read_text(encoding="utf-8")
