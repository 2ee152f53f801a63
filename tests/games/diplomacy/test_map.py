"""The map loader: the shipped maps load, lookups work, and broken maps are refused by name."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest

from parley.games.diplomacy.map import (
    DATA_DIR,
    MapError,
    ProvinceKind,
    build_map,
    load_map,
    standard_map,
)
from parley.games.diplomacy.units import UnitKind


def _raw(name: str) -> dict[str, Any]:
    with (DATA_DIR / f"{name}.toml").open("rb") as fh:
        return tomllib.load(fh)


def test_standard_map_has_the_classical_numbers() -> None:
    dip = standard_map()
    assert len(dip.powers) == 7
    assert dip.province_count == 76  # 75 provinces and impassable Switzerland
    assert dip.centre_count == 34
    assert sum(len(h) for h in dip.home_centres.values()) == 22
    assert dip.victory_centres == 18
    assert len(dip.start_units) == 22
    assert dip.province("SWI").kind is ProvinceKind.IMPASSABLE


def test_lookups_by_code_and_coasts() -> None:
    dip = standard_map()
    stp = dip.province("stp")
    assert stp.name == "St Petersburg"
    assert [dip.locations[c].code for c in stp.coasts] == ["STP/NC", "STP/SC"]
    assert dip.location("STP/SC").province == stp.index
    assert dip.province_of("SPA/NC") == "SPA"
    with pytest.raises(KeyError, match="XYZ"):
        dip.province("XYZ")
    # Fleets follow coasts: Rome and Venice touch by land only (DATC 6.A.9).
    rom, ven = dip.loc_index["ROM"], dip.loc_index["VEN"]
    assert dip.adjacent(UnitKind.ARMY, rom, ven)
    assert not dip.adjacent(UnitKind.FLEET, rom, ven)
    # A fleet on the south coast of Spain cannot reach the Bay of Gascony side.
    assert not dip.adjacent(UnitKind.FLEET, dip.loc_index["SPA/SC"], dip.loc_index["GAS"])
    assert dip.adjacent(UnitKind.FLEET, dip.loc_index["SPA/NC"], dip.loc_index["GAS"])


def test_loading_by_name_and_by_path_give_the_same_map() -> None:
    by_name = load_map("tiny")
    by_path = load_map(DATA_DIR / "tiny.toml")
    assert by_name.powers == by_path.powers == ("NORTH", "SOUTH", "EAST")
    assert [p.code for p in by_name.provinces] == [p.code for p in by_path.provinces]
    with pytest.raises(MapError, match="no map called 'atlantis'"):
        load_map("atlantis")


def test_a_users_map_file_loads(tmp_path: Path) -> None:
    text = (DATA_DIR / "tiny.toml").read_text(encoding="utf-8").replace('"tiny"', '"mine"')
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    assert load_map(path).name == "mine"


def _expect_error(data: dict[str, Any], *fragments: str) -> None:
    with pytest.raises(MapError) as err:
        build_map(data, source="test")
    for fragment in fragments:
        assert fragment in str(err.value)


def test_asymmetric_army_adjacency_names_the_province() -> None:
    data = copy.deepcopy(_raw("standard"))
    data["provinces"]["PAR"]["army"].remove("PIC")
    _expect_error(data, "PIC", "PAR", "symmetric")


def test_asymmetric_fleet_adjacency_names_the_location() -> None:
    data = copy.deepcopy(_raw("standard"))
    data["provinces"]["SPA"]["coasts"]["NC"].remove("GAS")
    _expect_error(data, "GAS", "SPA/NC", "symmetric")


def test_split_coast_province_may_not_have_a_plain_fleet_list() -> None:
    data = copy.deepcopy(_raw("standard"))
    data["provinces"]["STP"]["fleet"] = ["BAR"]
    _expect_error(data, "province STP", "per coast")


def test_fleet_move_into_split_coast_must_name_the_coast() -> None:
    data = copy.deepcopy(_raw("standard"))
    fleet = data["provinces"]["GAS"]["fleet"]
    fleet[fleet.index("SPA/NC")] = "SPA"
    _expect_error(data, "GAS", "must name a coast")


def test_army_move_into_the_sea_is_refused() -> None:
    data = copy.deepcopy(_raw("tiny"))
    data["provinces"]["DUN"]["army"].append("GLS")
    _expect_error(data, "province DUN", "GLS")


def test_unreachable_centre_is_refused() -> None:
    data = copy.deepcopy(_raw("tiny"))
    data["provinces"]["ZZZ"] = {"name": "Lost Isle", "kind": "land", "centre": True}
    _expect_error(data, "province ZZZ", "unreachable")


def test_unknown_kind_and_bad_home_are_refused() -> None:
    data = copy.deepcopy(_raw("tiny"))
    data["provinces"]["KES"]["kind"] = "swamp"
    _expect_error(data, "province KES", "swamp")
    data = copy.deepcopy(_raw("tiny"))
    data["provinces"]["KES"]["home"] = "WEST"
    _expect_error(data, "province KES", "WEST")


def test_starting_units_must_fit_the_terrain() -> None:
    data = copy.deepcopy(_raw("standard"))
    data["units"]["FRANCE"] = ["F PAR"]
    _expect_error(data, "FRANCE", "F PAR")
    data = copy.deepcopy(_raw("standard"))
    data["units"]["RUSSIA"] = ["F STP"]
    _expect_error(data, "RUSSIA", "F STP")


def test_not_toml_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("format = = 1", encoding="utf-8")
    with pytest.raises(MapError, match="not valid TOML"):
        load_map(path)


def test_distances_count_borders() -> None:
    dip = standard_map()
    mos = dip.prov_index["MOS"]
    dist = dip.distances(1 << mos)
    assert dist[dip.prov_index["LVN"]] == 1
    assert dist[dip.prov_index["PRU"]] == 2
    assert dist[dip.prov_index["SWI"]] == -1
