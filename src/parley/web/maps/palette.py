"""Check the Diplomacy power colours against each other, the sea and neutral land.

Every colour is compared as seen with normal vision and as simulated for the three
common dichromacies (protanopia, deuteranopia, tritanopia; the full-severity matrices of
Machado, Oliveira and Fernandes, 2009, applied in linear RGB). Distances are CIEDE2000
colour differences. Two forms of each power's colour matter on the map: the full colour
(units, supply-centre markers, arrows) and the light tint that fills its provinces.

    python -m parley.web.maps.palette          # prints the closest pairs per vision

The colours are read from the client's files, so the check runs on what players see.
"""

from __future__ import annotations

import math
import re
import sys
from dataclasses import dataclass
from pathlib import Path

STATIC = Path(__file__).resolve().parents[1] / "static"
BOARD_JS = STATIC / "js" / "diplomacy" / "board.js"
CSS = STATIC / "css" / "parley.css"

POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")

Matrix = tuple[tuple[float, float, float], ...]
SIMULATIONS: dict[str, Matrix | None] = {
    "normal": None,
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}

# The least difference the check accepts: between two powers' full colours, and between
# any two province fills (a power's tint, the sea, neutral land).
MIN_COLOURS = 12.0
MIN_FILLS = 8.0

RGB = tuple[int, int, int]


def parse_hex(text: str) -> RGB:
    value = text.lstrip("#")
    return (int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16))


def read_palette(source: str | None = None) -> tuple[list[RGB], float]:
    """The seat colours and the tint amount of province fills, from board.js."""
    text = source if source is not None else BOARD_JS.read_text(encoding="utf-8")
    found = re.search(r"const PALETTE = \[([^\]]*)\]", text)
    tint = re.search(r"const FILL_TINT = ([0-9.]+)", text)
    if not found or not tint:
        raise ValueError("board.js has no PALETTE or FILL_TINT constant")
    colours = [parse_hex(c) for c in re.findall(r'"(#[0-9a-fA-F]{6})"', found.group(1))]
    return colours, float(tint.group(1))


def read_css_colour(name: str, source: str | None = None) -> RGB:
    text = source if source is not None else CSS.read_text(encoding="utf-8")
    found = re.search(rf"--{re.escape(name)}:\s*(#[0-9a-fA-F]{{6}})", text)
    if not found:
        raise ValueError(f"parley.css has no --{name} colour")
    return parse_hex(found.group(1))


def tint(colour: RGB, amount: float) -> RGB:
    """The colour mixed towards white, as board.js fills a power's provinces."""
    r, g, b = (round(c + (255 - c) * amount) for c in colour)
    return (r, g, b)


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(c: float) -> float:
    c = min(1.0, max(0.0, c))
    return 255 * (12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055)


def simulate(colour: RGB, matrix: Matrix | None) -> tuple[float, float, float]:
    """The colour as a dichromat sees it (sRGB, 0–255), or unchanged for `None`."""
    if matrix is None:
        return (float(colour[0]), float(colour[1]), float(colour[2]))
    lin = [_linear(c) for c in colour]
    out = [sum(m * v for m, v in zip(row, lin, strict=True)) for row in matrix]
    return (_gamma(out[0]), _gamma(out[1]), _gamma(out[2]))


def lab(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = (_linear(c) for c in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def ciede2000(a: tuple[float, float, float], b: tuple[float, float, float]) -> float:
    """The CIEDE2000 difference of two Lab colours (kL = kC = kH = 1)."""
    l1, a1, b1 = a
    l2, a2, b2 = b
    c1, c2 = math.hypot(a1, b1), math.hypot(a2, b2)
    cbar = (c1 + c2) / 2
    g = 0.5 * (1 - math.sqrt(cbar**7 / (cbar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dlp = l2 - l1
    dcp = c2p - c1p
    if c1p * c2p == 0:
        dhp = 0.0
    elif abs(h2p - h1p) <= 180:
        dhp = h2p - h1p
    elif h2p - h1p > 180:
        dhp = h2p - h1p - 360
    else:
        dhp = h2p - h1p + 360
    dHp = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    lbarp = (l1 + l2) / 2
    cbarp = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hbarp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hbarp = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hbarp = (h1p + h2p + 360) / 2
    else:
        hbarp = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hbarp - 30))
        + 0.24 * math.cos(math.radians(2 * hbarp))
        + 0.32 * math.cos(math.radians(3 * hbarp + 6))
        - 0.20 * math.cos(math.radians(4 * hbarp - 63))
    )
    dtheta = 30 * math.exp(-(((hbarp - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cbarp**7 / (cbarp**7 + 25**7))
    sl = 1 + 0.015 * (lbarp - 50) ** 2 / math.sqrt(20 + (lbarp - 50) ** 2)
    sc = 1 + 0.045 * cbarp
    sh = 1 + 0.015 * cbarp * t
    rt = -math.sin(math.radians(2 * dtheta)) * rc
    return math.sqrt(
        (dlp / sl) ** 2 + (dcp / sc) ** 2 + (dHp / sh) ** 2 + rt * (dcp / sc) * (dHp / sh)
    )


@dataclass(frozen=True, slots=True)
class Closest:
    """The closest pair of one comparison under one vision."""

    vision: str
    what: str  # "colours" (the powers' full colours) or "fills" (tints, sea and land)
    first: str
    second: str
    distance: float


def closest_pairs(colours: list[RGB], fill_tint: float, sea: RGB, land: RGB) -> list[Closest]:
    """For each vision, the closest two powers' colours and the closest two map fills."""
    powers = colours[: len(POWERS)]
    out: list[Closest] = []
    for vision, matrix in SIMULATIONS.items():
        full = {POWERS[i]: lab(simulate(c, matrix)) for i, c in enumerate(powers)}
        fills = {
            f"{POWERS[i]} land": lab(simulate(tint(c, fill_tint), matrix))
            for i, c in enumerate(powers)
        }
        fills["sea"] = lab(simulate(sea, matrix))
        fills["neutral land"] = lab(simulate(land, matrix))
        for what, table in (("colours", full), ("fills", fills)):
            names = list(table)
            best: Closest | None = None
            for i, a in enumerate(names):
                for b in names[i + 1 :]:
                    d = ciede2000(table[a], table[b])
                    if best is None or d < best.distance:
                        best = Closest(vision, what, a, b, d)
            assert best is not None
            out.append(best)
    return out


def problems(pairs: list[Closest]) -> list[str]:
    """The pairs closer than the check accepts, as sentences."""
    bad = []
    for pair in pairs:
        floor = MIN_COLOURS if pair.what == "colours" else MIN_FILLS
        if pair.distance < floor:
            bad.append(
                f"{pair.vision}: {pair.first} and {pair.second} differ by "
                f"{pair.distance:.1f} (at least {floor} wanted)"
            )
    return bad


def main() -> int:
    colours, fill_tint = read_palette()
    pairs = closest_pairs(colours, fill_tint, read_css_colour("sea"), read_css_colour("land"))
    for pair in pairs:
        print(
            f"{pair.vision:<13} {pair.what:<8} closest: {pair.first} / {pair.second}"
            f"  ΔE2000 {pair.distance:.1f}"
        )
    bad = problems(pairs)
    for line in bad:
        print("too close:", line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
