"""The one way every game reads a number typed in an action."""

from __future__ import annotations

import pytest

from parley.kernel import small_number


@pytest.mark.parametrize(
    ("word", "expected"),
    [("0", 0), ("42", 42), ("007", 7), ("000000000999", 999), ("1000", None)],
)
def test_numbers_up_to_the_digits_allowed(word: str, expected: int | None) -> None:
    assert small_number(word, 3) == expected


@pytest.mark.parametrize("word", ["٣", "²", "４２", "", "-1", "1.5", "1e3", " 1", "9" * 5000])
def test_what_is_no_number(word: str) -> None:
    assert small_number(word, 6) is None
