"""Compact JSON text for WebSocket frames, encoded with orjson.

Every move is encoded once per distinct viewer of its game, and answers to commands once per
command: the standard library's encoder was a visible part of a move's cost. The text is
the same JSON (same keys in the same order, no spaces); only characters outside ASCII are
written as themselves rather than as `\\u` escapes. What orjson refuses (integers beyond
64 bits, text that is not valid Unicode) falls back to the standard library, as before.
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS


def compact(obj: Any) -> str:
    """`obj` as JSON text without spaces."""
    try:
        return orjson.dumps(obj, option=_OPTIONS).decode()
    except TypeError:
        return json.dumps(obj, separators=(",", ":"))
