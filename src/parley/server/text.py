"""Checks on free text from users: sizes, control characters, valid Unicode."""

from __future__ import annotations

import re

from .errors import BadRequest

# C0 and C1 control characters, bidi overrides and other invisible format characters that
# can disguise text; newlines and tabs stay allowed where multi-line text is.
_INVISIBLE = "\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff"
_CONTROL = re.compile(f"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f{_INVISIBLE}]")
# A one-line field also refuses every character that breaks a line anywhere: besides the
# C0 and C1 ones (LF, VT, FF, CR, FS, GS, RS, NEL, which `str.splitlines` splits on), the
# line and paragraph separators U+2028 and U+2029, which would end a mail header's line.
LINE_BREAKS = "\n\x0b\x0c\r\x1c\x1d\x1e\x85\u2028\u2029"
_CONTROL_ONE_LINE = re.compile(f"[\x00-\x1f\x7f-\x9f\u2028\u2029{_INVISIBLE}]")


def clean_text(value: str, field: str, max_chars: int, *, multiline: bool = True) -> str:
    """`value` unchanged if acceptable, else BadRequest naming the field and the problem."""
    if len(value) > max_chars:
        raise BadRequest(
            f"{field} may be at most {max_chars} characters, not {len(value)}", field=field
        )
    if not servable(value):
        raise BadRequest(unservable_message(field), field=field)
    pattern = _CONTROL if multiline else _CONTROL_ONE_LINE
    found = pattern.search(value)
    if found:
        raise BadRequest(f"{field} contains {describe(found.group())}", field=field)
    return value


def describe(char: str) -> str:
    """What a refused character is, for an error message."""
    kind = "a line break" if char in LINE_BREAKS else "a control character"
    return f"{kind} (U+{ord(char):04X})"


def first_refused(value: str, *, multiline: bool) -> str | None:
    """The first character of `value` that the field refuses, if any."""
    found = (_CONTROL if multiline else _CONTROL_ONE_LINE).search(value)
    return found.group() if found else None


def control_free(value: str, *, multiline: bool) -> bool:
    pattern = _CONTROL if multiline else _CONTROL_ONE_LINE
    return pattern.search(value) is None


# Lone surrogates (U+D800–U+DFFF) pass JSON's `\uD800` escapes and Python strings, but are
# not Unicode text: they cannot be encoded to UTF-8, so a record holding one could never be
# served back. They are refused where text enters the server, whatever the field.
_SURROGATE = re.compile("[\ud800-\udfff]")
# What a body holding one must contain: a `\uD8xx`-`\uDFxx` escape or its raw CESU bytes.
# Bodies without this (nearly all) are not parsed a second time.
SURROGATE_HINT = re.compile(rb"\\u[dD][89a-fA-F]|\xed[\xa0-\xbf]")


def unservable_field(value: object, path: str = "") -> str | None:
    """The path (`a.b.0`) of the first string in a JSON value that is not valid Unicode."""
    if isinstance(value, str):
        return path if _SURROGATE.search(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            here = f"{path}.{_printable(key)}" if path else _printable(key)
            if isinstance(key, str) and _SURROGATE.search(key):
                return here
            found = unservable_field(item, here)
            if found is not None:
                return found
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found = unservable_field(item, f"{path}.{i}" if path else str(i))
            if found is not None:
                return found
    return None


def check_servable(value: object, path: str = "") -> None:
    """BadRequest naming the field when `value` holds text that is not valid Unicode."""
    found = unservable_field(value, path)
    if found is not None:
        raise BadRequest(unservable_message(found), field=found)


def unservable_message(field: str) -> str:
    where = field or "the body"
    return f"{where} is not valid Unicode text (it holds a lone surrogate, U+D800 to U+DFFF)"


def servable(text: str) -> bool:
    return _SURROGATE.search(text) is None


def _printable(key: object) -> str:
    return str(key).encode("utf-8", "backslashreplace").decode("utf-8")
