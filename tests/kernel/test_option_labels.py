"""Every option of every game speaks in words: a label, one line of help, and each of its
choices (or the maps and galaxies a form offers) named; the catalogue serves them."""

from __future__ import annotations

import pytest

from parley.games import all_rules
from parley.kernel.options import OptionSpec

SPECS = [(r.spec.name, o) for r in all_rules() for o in r.spec.options]


@pytest.mark.parametrize(("game", "option"), SPECS, ids=[f"{g}-{o.name}" for g, o in SPECS])
def test_every_option_has_a_label_one_line_of_help_and_words_for_its_choices(
    game: str, option: OptionSpec
) -> None:
    assert option.label and "_" not in option.label, f"{game}.{option.name}: no label"
    assert "\n" not in option.help and 0 < len(option.help) <= 100, f"{game}.{option.name}"
    out = option.to_json()
    assert out["label"] == option.label
    listed = option.choices or option.offered
    if listed:
        words = out.get("choice_labels")
        assert isinstance(words, dict) and set(words) == {str(v) for v in listed}
        assert all(text and text != value for value, text in words.items())
    if isinstance(option.default, str):
        assert listed, f"{game}.{option.name}: a text option names its values for forms"
        assert option.default in listed


def test_maps_and_galaxies_are_offered_by_name() -> None:
    options = {(g, o.name): o.to_json() for g, o in SPECS}
    assert options["diplomacy", "map"]["choice_labels"] == {
        "standard": "Standard (classical) map",
        "tiny": "Tiny test map",
    }
    assert options["campus", "map"]["offered"] == ["campus"]
    assert set(options["planets", "galaxy"]["offered"]) == {"auto", "trine", "sextant"}


def test_a_choice_label_per_choice_or_none() -> None:
    with pytest.raises(ValueError, match="one label for each"):
        OptionSpec("x", "a", "help", choices=("a", "b"), choice_labels=("A",))
    assert OptionSpec("some_thing", 1, "help").to_json()["label"] == "Some thing"
