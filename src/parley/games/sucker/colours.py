"""The chip colours. Seat i owns colour i, so a colour also names its player."""

from __future__ import annotations

from enum import IntEnum


class Colour(IntEnum):
    """A chip colour, in seat order: red is seat 0 (number 1 in notation)."""

    RED = 0
    BLUE = 1
    GREEN = 2
    YELLOW = 3
    PURPLE = 4
    ORANGE = 5

    @property
    def label(self) -> str:
        """The lower-case name used in notation."""
        return self.name.lower()

    @property
    def title(self) -> str:
        return self.name.capitalize()


MAX_COLOURS = len(Colour)
COLOURS: tuple[Colour, ...] = tuple(Colour)
"""Colours by index, without the enum's lookup cost."""

_NAMES: dict[str, Colour] = {}
for _colour in Colour:
    _NAMES[_colour.label] = _colour
    _NAMES[_colour.label + "s"] = _colour  # "2 reds"
    _NAMES[_colour.label[0]] = _colour  # r, b, g, y, p, o are all distinct


def colour_named(word: str) -> Colour | None:
    """The colour a word names (full name, plural or initial), or None."""
    return _NAMES.get(word.lower())


LABELS: tuple[str, ...] = tuple(c.label for c in Colour)
TITLES: tuple[str, ...] = tuple(c.title for c in Colour)


def label(index: int) -> str:
    """The notation name of colour (or seat) `index`."""
    return LABELS[index]
