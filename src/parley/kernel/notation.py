"""Reading numbers in action text, the same way in every game."""

from __future__ import annotations


def small_number(word: str, max_digits: int) -> int | None:
    """`word` as a whole number, or None when it is not one a game could mean.

    Only the digits 0-9 count (`int()` and `str.isdigit()` also take other scripts' digits
    and superscripts), and a number longer than `max_digits` digits, leading zeros aside, is
    refused unread: converting thousands of digits raises in Python.
    """
    if not (word.isascii() and word.isdigit()) or len(word.lstrip("0")) > max_digits:
        return None
    return int(word)
