"""The Diplomacy palette, checked as players with normal and colour-blind vision see it."""

from __future__ import annotations

from parley.web.maps.palette import (
    MIN_FILLS,
    SIMULATIONS,
    closest_pairs,
    parse_hex,
    problems,
    read_css_colour,
    read_palette,
)


def test_every_power_is_told_apart_from_the_others_the_sea_and_neutral_land() -> None:
    colours, fill_tint = read_palette()
    pairs = closest_pairs(colours, fill_tint, read_css_colour("sea"), read_css_colour("land"))
    assert {p.vision for p in pairs} == set(SIMULATIONS)
    assert problems(pairs) == []


def test_the_check_catches_a_france_that_looks_like_the_sea() -> None:
    # The former palette: France's light blue, tinted for its land, was the sea's colour.
    old = [
        parse_hex(c)
        for c in ["#c8423b", "#3b4fb5", "#3d9ad6", "#676a6e", "#3f9b45", "#8e5bb6", "#e0b52b"]
    ]
    pairs = closest_pairs(old, 0.45, read_css_colour("sea"), read_css_colour("land"))
    normal = next(p for p in pairs if p.vision == "normal" and p.what == "fills")
    assert {normal.first, normal.second} == {"France land", "sea"}
    assert normal.distance < MIN_FILLS
    assert any("deuteranopia" in line for line in problems(pairs))
