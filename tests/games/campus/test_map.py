"""The built-in map and the loader's checks on other maps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from parley.games.campus import RULES, Bonus, CampusRules, MapError, load_map, parse_map
from parley.kernel import ARCHIVE, BadOptions, Match, Rng, replay
from parley.kernel.conformance import play_random


def test_builtin_map_shape() -> None:
    board = load_map()
    assert board.size == 30
    assert len(board.landmarks) == 8
    kinds = {board.sectors[s].landmark for s in board.landmarks}
    assert kinds == {Bonus.ATTACK, Bonus.DEFENCE}
    for a in range(board.size):
        assert board.adjacent[a], board.codes[a]
        for b in board.adjacent[a]:
            assert a in board.adjacent_sets[b]


def test_lookup_by_code_alias_name_and_prefix() -> None:
    board = load_map()
    lib = board.index["E4"]
    assert board.lookup("e4") == board.lookup("lib") == board.lookup("Library") == [lib]
    assert board.lookup("librar") == [lib]
    assert board.lookup("students union") == [board.index["F5"]]
    assert board.lookup("xyz") == []


def small(**change: Any) -> dict[str, Any]:
    doc = load_map().to_json()
    doc.update(change)
    return doc


def test_roundtrip_through_json() -> None:
    doc = load_map().to_json()
    again = parse_map(json.loads(json.dumps(doc)), "copy")
    assert again.to_json() == doc


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"edges": []}, "not connected"),
        ({"edges": [["A2", "Q9"]]}, "Q9"),
        ({"edges": [["A2", "A2"]]}, "itself"),
        ("landmarks", "needs at least 2"),
        ("duplicate", "names two sectors"),
        ("badkind", "not attack or defence"),
        ({"sectors": "x"}, "'sectors' list"),
    ],
)
def test_bad_maps_are_refused(change: Any, words: str) -> None:
    doc = load_map().to_json()
    if change == "landmarks":
        for s in doc["sectors"][:]:
            if s["landmark"] and sum(1 for t in doc["sectors"] if t["landmark"]) > 1:
                s["landmark"] = None
    elif change == "duplicate":
        doc["sectors"][1]["name"] = doc["sectors"][0]["name"]
    elif change == "badkind":
        doc["sectors"][0]["landmark"] = "beer"
    else:
        doc.update(change)
    with pytest.raises(MapError) as err:
        parse_map(doc, "test map")
    assert words in err.value.message
    assert "test map" in err.value.message


def test_one_way_adjacency_is_refused() -> None:
    from parley.games.campus.board import CampusMap, check_map

    board = load_map()
    broken = CampusMap(board.name, board.title, board.sectors, set())
    broken.adjacent = ((1,), *broken.adjacent[1:])  # A2 -> A3 without the way back
    broken.adjacent_sets = tuple(frozenset(n) for n in broken.adjacent)
    with pytest.raises(MapError, match="one-way"):
        check_map(broken, "hand-made")


def test_another_map_loads_from_a_file(tmp_path: Path) -> None:
    doc = load_map().to_json()
    doc["name"], doc["title"] = "mini", "Mini campus"
    # every landmark and four other sectors, joined in a ring
    keep = [s for s in doc["sectors"] if s["landmark"]] + [
        s for s in doc["sectors"] if not s["landmark"]
    ][:4]
    codes = [s["code"] for s in keep]
    doc["sectors"] = keep
    doc["edges"] = [[codes[i], codes[(i + 1) % len(codes)]] for i in range(len(codes))]
    path = tmp_path / "mini.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    rules = CampusRules(maps={"mini": path})
    match = Match(rules, 2, {"map": "mini"}, seed=4)
    view = match.observe(ARCHIVE)["view"]
    assert view["title"] == "Mini campus"
    assert len(view["owners"]) == 12
    play_random(match, Rng(4), 200)
    again = replay(rules, json.loads(match.dumps()))
    assert again.observe(ARCHIVE) == match.observe(ARCHIVE)


def test_missing_map_file_is_a_clear_error() -> None:
    with pytest.raises(MapError, match=r"nope\.json"):
        Match(CampusRules(maps={"gone": "nope.json"}), 2, {"map": "gone"}, seed=1)


def test_a_path_in_the_options_is_not_read() -> None:
    with pytest.raises(BadOptions, match="no map called '/etc/passwd'"):
        Match(RULES, 2, {"map": "/etc/passwd"}, seed=1)


# Two landmarks (one per player of a two-seat game), two sectors for the PVC, no aliases.
TINY = {
    "name": "tiny",
    "title": "Tiny campus",
    "sectors": [
        {"code": "A1", "name": "Gatehouse", "landmark": "attack"},
        {"code": "A2", "name": "Quad"},
        {"code": "B1", "name": "Bell Tower", "landmark": "defence"},
        {"code": "B2", "name": "Boiler Room"},
    ],
    "edges": [["A1", "A2"], ["A2", "B2"], ["B2", "B1"], ["B1", "A1"]],
}


def test_a_map_without_aliases_loads_and_names_sectors_by_code() -> None:
    board = parse_map(TINY, "tiny")
    assert board.size == 4
    assert [board.sectors[s].alias for s in range(4)] == ["A1", "A2", "B1", "B2"]
    assert board.lookup("a2") == board.lookup("Quad") == [board.index["A2"]]
    assert parse_map(board.to_json(), "again").to_json() == board.to_json()


def test_a_sector_may_repeat_its_own_name_as_its_alias() -> None:
    doc = {**TINY, "sectors": [{**TINY["sectors"][0], "alias": "gatehouse"}, *TINY["sectors"][1:]]}
    assert parse_map(doc, "tiny").lookup("gatehouse") == [0]
    clash = {**TINY, "sectors": [{**TINY["sectors"][0], "alias": "quad"}, *TINY["sectors"][1:]]}
    with pytest.raises(MapError, match="'Quad' names two sectors"):
        parse_map(clash, "tiny")


def test_a_tiny_map_from_a_file_is_played_to_the_end(tmp_path: Path) -> None:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(TINY), encoding="utf-8")
    rules = CampusRules(maps={"tiny": path})
    for seed in range(6):
        match = Match(rules, 2, {"map": "tiny", "round_limit": 30}, seed=seed)
        assert match.observe(ARCHIVE)["view"]["owners"].count(None) == 2
        play_random(match, Rng(seed), 5_000)
        assert match.is_over, seed
        again = replay(rules, json.loads(match.dumps()))
        assert again.observe(ARCHIVE) == match.observe(ARCHIVE)


def test_a_map_seats_only_as_many_players_as_it_has_landmarks(tmp_path: Path) -> None:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(TINY), encoding="utf-8")
    rules = CampusRules(maps={"tiny": path})
    with pytest.raises(MapError, match="Tiny campus map has 2 landmarks") as err:
        Match(rules, 3, {"map": "tiny"}, seed=1)
    assert "at most 2, not 3" in err.value.message
