"""Galaxies load from data, are checked, and another galaxy loads from a path."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from parley.games.planets import RULES, GalaxyError, builtin, load_galaxy
from parley.games.planets.galaxy import DATA_DIR, SystemKind
from parley.kernel import BadOptions, Match


def _data(name: str = "trine") -> dict[str, Any]:
    return tomllib.loads((DATA_DIR / f"{name}.toml").read_text())


def test_the_three_player_galaxy() -> None:
    galaxy = builtin("trine")
    assert len(galaxy.systems) == 19
    kinds = [s.kind for s in galaxy.systems.values()]
    assert kinds.count(SystemKind.CENTRAL) == 1
    assert kinds.count(SystemKind.HOME) == 3
    assert kinds.count(SystemKind.ASTEROIDS) == 1
    assert kinds.count(SystemKind.EMPTY) == 2
    assert galaxy.legendary() == ("Vesta",)
    assert set(galaxy.neighbours["0303"]) == {"0403", "0402", "0302", "0202", "0203", "0304"}
    assert all(len(n) <= 6 for n in galaxy.neighbours.values())
    traits = {t for p in galaxy.planets.values() for t in p.traits}
    assert traits == {"cultural", "hazardous", "industrial"}
    assert any(len(p.traits) == 2 for p in galaxy.planets.values())


def test_the_larger_galaxy_seats_four_to_six() -> None:
    galaxy = builtin("sextant")
    assert len(galaxy.systems) == 37
    homes = {n: [galaxy.home_system(s).id for s in galaxy.homes(n)] for n in (4, 5, 6)}
    assert all(len(set(h)) == n for n, h in homes.items())
    with pytest.raises(GalaxyError, match="laid out for"):
        galaxy.homes(2)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format=2), "format must be 1"),
        (lambda d: d["system"][1].update(id="12a4"), "not four digits"),
        (lambda d: d["system"][1].update(id=d["system"][2]["id"]), "listed twice"),
        (lambda d: d["system"][1].update(q=0, r=0), "same hex"),
        (lambda d: d["system"][1].update(kind="nebula"), "kind 'nebula'"),
        (lambda d: d["system"][1]["planet"][0].update(name="Axis Prime"), "named twice"),
        (lambda d: d["system"][1]["planet"][0].update(traits=["volcanic"]), "traits"),
        (lambda d: d["system"][1]["planet"][0].update(resources=12), "resources"),
        (lambda d: d["system"][1]["planet"][0].update(legendary=False), "one legendary"),
        (lambda d: d["system"][0]["planet"][0].update(traits=["cultural"]), "no traits"),
        (lambda d: d["system"][1].pop("planet"), "needs a planet"),
        (lambda d: d["system"].pop(0), "exactly one central"),
    ],
)
def test_a_broken_galaxy_is_refused_with_the_reason(change: Any, message: str) -> None:
    data = _data()
    change(data)
    with pytest.raises(GalaxyError, match=message):
        load_galaxy(data, "test")


def test_a_galaxy_cut_in_two_by_asteroids_is_refused() -> None:
    data = _data()
    for system in data["system"]:
        if system["id"] in ("0201", "0302"):
            system.update(kind="asteroids")
            system.pop("planet", None)
    with pytest.raises(GalaxyError, match="cannot be reached"):
        load_galaxy(data, "test")


def test_another_galaxy_loads_from_a_path(tmp_path: Path) -> None:
    text = (DATA_DIR / "trine.toml").read_text().replace('name = "Vesta"', 'name = "Nova Vesta"')
    path = tmp_path / "mine.toml"
    path.write_text(text)
    match: Match[Any, Any] = Match(RULES, 3, {"galaxy": str(path)}, seed=3)
    assert "Nova Vesta" in match.state.galaxy.planets
    with pytest.raises(BadOptions, match="laid out for"):
        Match(RULES, 4, {"galaxy": str(path)}, seed=3)
    with pytest.raises(BadOptions):
        Match(RULES, 3, {"galaxy": str(tmp_path / "none.toml")}, seed=3)


HAMLET = Path(__file__).parent / "data" / "hamlet.toml"


def test_a_small_galaxy_from_a_file_is_played_to_the_end() -> None:
    """Seven systems, three homes around the centre: as checked as the built-in ones."""
    from parley.kernel import ARCHIVE, Rng, replay
    from parley.kernel.conformance import play_random

    for seed in range(4):
        match: Match[Any, Any] = Match(RULES, 3, {"galaxy": str(HAMLET)}, seed=seed)
        assert len(match.state.galaxy.systems) == 7
        play_random(match, Rng(seed), 5_000)
        assert match.is_over, seed
        again = replay(RULES, json.loads(match.dumps()))
        assert again.observe(ARCHIVE) == match.observe(ARCHIVE)
    with pytest.raises(BadOptions, match="laid out for 3 players, not 4"):
        Match(RULES, 4, {"galaxy": str(HAMLET)}, seed=1)


def test_a_galaxy_path_opens_only_a_small_regular_toml_file(tmp_path: Path) -> None:
    """A path may come from a game's options: devices, directories, other files and huge
    files are refused before anything is read."""
    (tmp_path / "dir.toml").mkdir()
    big = tmp_path / "big.toml"
    big.write_text("# " + "x" * 300_000 + "\n")
    for path, message in [
        ("/dev/zero", "neither a built-in galaxy nor a readable .toml file"),
        ("/etc/passwd", "neither a built-in galaxy nor a readable .toml file"),
        (str(tmp_path / "dir.toml"), "neither a built-in galaxy nor a readable .toml file"),
        (str(tmp_path / "none.toml"), "neither a built-in galaxy nor a readable .toml file"),
        (str(big), "larger than a galaxy file may be"),
    ]:
        with pytest.raises(BadOptions, match=message):
            Match(RULES, 3, {"galaxy": path}, seed=1)
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"name = \xff")
    with pytest.raises(BadOptions, match="not a TOML galaxy file"):
        Match(RULES, 3, {"galaxy": str(bad)}, seed=1)
