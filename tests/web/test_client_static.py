"""The web client's files, read as text: no game rules in the JavaScript, nothing fetched
from outside, nothing inserted as markup."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import parley

STATIC = Path(parley.__file__).resolve().parent / "web" / "static"
MAPS = Path(parley.__file__).resolve().parent / "games" / "diplomacy" / "data"
CLIENT = [p for p in STATIC.rglob("*") if p.is_file() and "maps" not in p.relative_to(STATIC).parts]
SCRIPTS = [p for p in CLIENT if p.suffix == ".js"]
SVG_NAMESPACE = "http://www.w3.org/2000/svg"  # a name, never fetched


def _map_words() -> tuple[set[str], set[str]]:
    provinces: set[str] = set()
    powers: set[str] = set()
    for path in MAPS.glob("*.toml"):
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        provinces |= set(data.get("provinces", {}))
        powers |= set(data.get("powers", []))
    return provinces, powers


def _code(text: str) -> str:
    """The script without its comments (which may quote notation as examples)."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    text = re.sub(r"^\s*//.*$", "", text, flags=re.MULTILINE)
    return re.sub(r"\s//\s.*$", "", text, flags=re.MULTILINE)


def _literals(text: str) -> list[str]:
    pairs = re.findall(r"""(?:"([^"\\\n]*)"|'([^'\\\n]*)')""", _code(text))
    return [a or b for a, b in pairs]


def test_the_client_is_there() -> None:
    names = {p.relative_to(STATIC).as_posix() for p in CLIENT}
    assert "index.html" in names
    assert "css/parley.css" in names
    assert {"js/main.js", "js/diplomacy/board.js", "js/sucker/table.js", "js/chat.js"} <= names
    assert len(SCRIPTS) >= 10


def test_no_script_holds_map_data_or_rule_tables() -> None:
    provinces, powers = _map_words()
    assert {"PAR", "BUR", "LON"} <= provinces and "FRANCE" in powers  # the scan has teeth
    problems = []
    for path in SCRIPTS:
        text = _code(path.read_text(encoding="utf-8"))
        where = path.relative_to(STATIC)
        for literal in _literals(text):
            if literal in provinces:
                problems.append(f"{where}: province code {literal!r} as a value")
            if literal in powers:
                problems.append(f"{where}: power name {literal!r} as a value")
        if re.search(r"""["'][A-Z]{3}["']\s*[,:]\s*\[?\s*["'][A-Z]{3}["']""", text):
            problems.append(f"{where}: a table of province codes")
        for token in (
            r"adjacen",
            r"\bneighbou?rs?\b\s*[:=(\[]",
            r"\b(?:isLegal|legalMoves|validMoves|canMoveTo|canSupport|canConvoy)\b",
            r"\b(?:army|fleet)\s*:\s*\[",
            r"victory_centres|centresToWin|\bhome_?centres?\s*[:=]",
            r"\brebound|givenBy|given_by\b",
        ):
            if re.search(token, text, re.IGNORECASE):
                problems.append(f"{where}: rule-like token /{token}/")
    assert not problems, "\n".join(problems)


def test_the_scan_catches_a_planted_rule() -> None:
    planted = 'const ADJ = { "PAR": ["BUR", "PIC"] }; function isLegal(o) { return true; }'
    provinces, _ = _map_words()
    assert any(lit in provinces for lit in _literals(planted))
    assert re.search(r"""["'][A-Z]{3}["']\s*[,:]\s*\[?\s*["'][A-Z]{3}["']""", planted)


def test_nothing_is_fetched_from_outside() -> None:
    problems = []
    for path in CLIENT:
        if path.suffix not in (".js", ".css", ".html"):
            continue
        text = path.read_text(encoding="utf-8").replace(SVG_NAMESPACE, "")
        for pattern in (
            r"https?://",
            r"(?<![:\w])//[a-z0-9.-]+\.[a-z]{2,}/",
            r"@import",
            r"@font-face",
        ):
            for m in re.finditer(pattern, text, re.IGNORECASE):
                problems.append(f"{path.relative_to(STATIC)}: {text[m.start() : m.start() + 60]!r}")
    assert not problems, "\n".join(problems)


def test_page_references_are_local_files() -> None:
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    refs = re.findall(r"""(?:src|href)="([^"#]+)\"""", html)
    assert refs
    for ref in refs:
        if ref.startswith("data:"):
            continue
        assert ref.startswith("/static/"), ref
        assert (STATIC / ref.removeprefix("/static/")).is_file(), ref
    for path in SCRIPTS:
        for spec in re.findall(r"""^import .* from "([^"]+)";""", path.read_text(), re.MULTILINE):
            assert spec.startswith("."), f"{path.name} imports {spec}"
            assert (path.parent / spec).resolve().is_file(), f"{path.name} imports {spec}"


def test_text_never_goes_in_as_markup() -> None:
    for path in SCRIPTS:
        text = path.read_text(encoding="utf-8")
        for sink in (
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
            "eval(",
            "new Function",
        ):
            assert sink not in text, f"{path.relative_to(STATIC)} uses {sink}"
