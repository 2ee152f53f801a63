"""How deeply a JSON text nests, measured before anything parses it.

Python's JSON parser recurses once per level of arrays and objects, and so does every walk
over a parsed value (the Unicode check, validation): a body of a thousand `[` exhausts the
stack and would surface as an unexpected error. No message of the API nests more than a
few levels, so texts nested deeper than `MAX_DEPTH` are refused where they enter the
server (HTTP bodies, both WebSockets), before any parser sees them.
"""

from __future__ import annotations

import re
from itertools import accumulate

MAX_DEPTH = 64

# A JSON string, escapes included; brackets inside strings do not nest anything.
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
# Keep only brackets, as +1 (opening) and -1 (closing) in a signed byte.
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")
_SIGNS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")


def too_deep(text: bytes | bytearray | str, limit: int = MAX_DEPTH) -> bool:
    """Whether `text`, read as JSON, nests arrays and objects more than `limit` levels deep.

    Text that is not JSON is measured the same way (the parser refuses it afterwards).
    """
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if data.count(b"[") + data.count(b"{") <= limit:
        return False  # nearly every message: no scan at all
    signs = _STRING.sub(b"", data).translate(_SIGNS, _NOT_BRACKET)
    return max(accumulate(memoryview(signs).cast("b")), default=0) > limit


def too_deep_message(what: str) -> str:
    return (
        f"{what} nests arrays and objects more than {MAX_DEPTH} levels deep; "
        "no request needs that many"
    )
