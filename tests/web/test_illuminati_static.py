"""The Illuminati web module read as text: it names no card and holds no card numbers, so
whatever it shows of the cards and the rules comes from the server."""

from __future__ import annotations

import re
from pathlib import Path

import parley
from parley.games.illuminati.engine import CARDS

MODULE = Path(parley.__file__).resolve().parent / "web" / "static" / "js" / "illuminati"


def _code(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    return re.sub(r"(^|\s)//.*$", "", text, flags=re.MULTILINE)


def test_the_module_is_there() -> None:
    names = {p.name for p in MODULE.glob("*.js")}
    assert {"index.js", "table.js", "cards.js", "structure.js", "attack.js", "manual.js"} <= names
    index = (MODULE / "index.js").read_text(encoding="utf-8")
    assert "as Renderer" in index and "manual" in index


def test_no_card_is_named_in_the_client() -> None:
    cards = [c.name for c in (*CARDS.illuminati, *CARDS.groups)] + [s.name for s in CARDS.specials]
    assert len(cards) > 90  # the scan has teeth
    problems = []
    for path in sorted(MODULE.glob("*.js")):
        code = _code(path.read_text(encoding="utf-8"))
        for name in cards:
            if name == "manual":
                continue
            if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", code):
                problems.append(f"{path.name}: {name}")
    assert not problems, problems
