"""Checks on free text from users: sizes and control characters."""

from __future__ import annotations

import re

from .errors import BadRequest

# C0 and C1 control characters, bidi overrides and other invisible format characters that
# can disguise text; newlines and tabs stay allowed where multi-line text is.
_INVISIBLE = "\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff"
_CONTROL = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{_INVISIBLE}]")
_CONTROL_ONE_LINE = re.compile(f"[\x00-\x1f\x7f-\x9f{_INVISIBLE}]")


def clean_text(value: str, field: str, max_chars: int, *, multiline: bool = True) -> str:
    """`value` unchanged if acceptable, else BadRequest naming the field and the problem."""
    if len(value) > max_chars:
        raise BadRequest(
            f"{field} may be at most {max_chars} characters, not {len(value)}", field=field
        )
    pattern = _CONTROL if multiline else _CONTROL_ONE_LINE
    found = pattern.search(value)
    if found:
        raise BadRequest(
            f"{field} contains a control character (U+{ord(found.group()):04X})", field=field
        )
    return value


def control_free(value: str, *, multiline: bool) -> bool:
    pattern = _CONTROL if multiline else _CONTROL_ONE_LINE
    return pattern.search(value) is None
