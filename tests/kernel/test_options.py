from __future__ import annotations

import pytest

from parley.kernel import BadOptions, OptionSpec, resolve_options

SPECS = (
    OptionSpec("chips", 7, "chips per player", choices=(3, 5, 7)),
    OptionSpec("year_limit", 0, "draw after this year (0: none)", minimum=0, maximum=3000),
    OptionSpec("private_press", False, "allow private channels"),
    OptionSpec("rule", "classic", "which rule", choices=("classic", "2023")),
)


def test_defaults_fill_missing_options() -> None:
    assert resolve_options(SPECS, None) == {
        "chips": 7,
        "year_limit": 0,
        "private_press": False,
        "rule": "classic",
    }


def test_text_values_are_coerced_as_typed_on_a_command_line() -> None:
    got = resolve_options(SPECS, {"chips": "5", "private_press": "yes", "year_limit": " 1910 "})
    assert got["chips"] == 5 and got["private_press"] is True and got["year_limit"] == 1910


@pytest.mark.parametrize(
    ("given", "words"),
    [
        ({"chips": 4}, ["chips", "3, 5, 7", "4"]),
        ({"chips": "many"}, ["chips", "whole number", "many"]),
        ({"private_press": 1}, ["private_press", "true or false"]),
        ({"year_limit": -1}, ["year_limit", "at least 0"]),
        ({"rule": "house"}, ["rule", "classic, 2023"]),
        ({"colour": "red"}, ["unknown option", "colour", "chips"]),
        ({"chips": True}, ["chips", "whole number"]),
    ],
)
def test_bad_options_name_the_option_and_the_value(
    given: dict[str, object], words: list[str]
) -> None:
    with pytest.raises(BadOptions) as caught:
        resolve_options(SPECS, given)
    for word in words:
        assert word in caught.value.message
