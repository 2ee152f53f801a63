"""Drawing geometry of the classical Diplomacy board, kept as data, and the writer of its JSON.

The board is authored in longitude/latitude from simplified real-world coastlines and
borders, projected (Lambert conformal conic) onto the viewBox, and enlarged where the
provinces are small (see LENSES). Every border is drawn once: a *junction* is a point
where three or more areas meet (or a border meets the map frame), an *edge* is the
polyline between two junctions, and each area's outline is its ring of junctions.
Neighbours therefore share exactly the same vertices: no gaps, no overlaps.

The JSON written (``static/maps/standard.json``), all coordinates in viewBox units:

- ``format`` (1), ``map`` ("standard"), ``viewBox`` ([0, 0, width, height]);
- ``provinces``: code -> ``kind`` (as in the map data), ``path`` (an SVG path of straight
  segments; a further subpath is a hole, such as an island or lake inside a sea or
  province, wound the other way so it shows under either fill rule), ``label`` (centre
  of the code's text), ``unit`` (centre of a unit token), ``centre`` (supply-centre
  marker, supply centres only) and ``coasts`` (fleet positions, split coasts only);
- ``decor``: land that is no province (Ireland, Sicily, ...) and inland waters (Marmara,
  Azov), each ``name``, ``kind`` ("land" or "water") and ``path``. Provinces and decor
  together tile the whole viewBox.

Rebuild with ``python -m parley.web.maps.build_standard`` (optionally give another path).
"""

from __future__ import annotations

import itertools
import json
import math
import sys
import tomllib
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

Geo = tuple[float, float]  # (longitude, latitude) in degrees
XY = tuple[float, float]  # viewBox coordinates
Ring = list[XY]

PACKAGE_DIR = Path(__file__).resolve().parents[1]
OUTPUT = PACKAGE_DIR / "static" / "maps" / "standard.json"
MAP_TOML = PACKAGE_DIR.parent / "games" / "diplomacy" / "data" / "standard.toml"

# --- projection ----------------------------------------------------------------------------
# Lambert conformal conic centred on 12°E with standard parallels 40°N and 62°N: Europe
# looks as it does in an atlas, and the north is not stretched as a plain lon/lat grid is.
CENTRAL_LON = 12.0
PARALLELS = (40.0, 62.0)
SCALE = 1450.0  # viewBox units per projected (unit-sphere) radian
ORIGIN = (-0.36, -0.35)  # projected (x, y) of the viewBox's top-left corner
WIDTH = 1200.0
HEIGHT = 1073.0


def _conic_constants() -> tuple[float, float]:
    p1, p2 = (math.radians(p) for p in PARALLELS)
    n = math.log(math.cos(p1) / math.cos(p2)) / math.log(
        math.tan(math.pi / 4 + p2 / 2) / math.tan(math.pi / 4 + p1 / 2)
    )
    f = math.cos(p1) * math.tan(math.pi / 4 + p1 / 2) ** n / n
    return n, f


_N, _F = _conic_constants()


def conic(lon: float, lat: float) -> XY:
    """Longitude/latitude in degrees to unwarped viewBox coordinates (y grows downwards)."""
    rho = _F / math.tan(math.pi / 4 + math.radians(lat) / 2) ** _N
    theta = _N * math.radians(lon - CENTRAL_LON)
    x, y = rho * math.sin(theta), -rho * math.cos(theta)
    return (x - ORIGIN[0]) * SCALE, (ORIGIN[1] - y) * SCALE


# Lenses: (centre lon, centre lat, radius in viewBox units, strength), applied in order.
# Real Europe is too slender for unit tokens where the provinces are small (Britain,
# Italy, the Balkans, the Low Countries), so, as the classical board does, those parts
# are drawn larger. Inside the radius r -> r * (1 + k * (1 - r/R)^2), which is strictly
# increasing for k < 3: the plane is stretched, never folded, so shared borders stay
# shared and nothing comes to overlap; outside the radius nothing moves.
LENSES: list[tuple[float, float, float, float]] = [
    (-2.8, 54.2, 190.0, 0.75),  # Britain
    (14.6, 41.6, 125.0, 0.6),  # central and southern Italy
    (20.5, 41.5, 110.0, 0.5),  # Albania, Serbia, Greece
    (4.8, 51.5, 100.0, 0.45),  # the Low Countries
]


def _apply_lens(p: XY, centre: XY, radius: float, k: float) -> XY:
    x, y = p
    cx, cy = centre
    r = math.hypot(x - cx, y - cy)
    if 0 < r < radius:
        f = 1 + k * (1 - r / radius) ** 2
        return cx + (x - cx) * f, cy + (y - cy) * f
    return p


def _lens_table() -> list[tuple[XY, float, float]]:
    # Each lens is centred where its place lies after the lenses before it.
    table: list[tuple[XY, float, float]] = []
    for lon, lat, radius, k in LENSES:
        centre = conic(lon, lat)
        for c, r, kk in table:
            centre = _apply_lens(centre, c, r, kk)
        table.append((centre, radius, k))
    return table


_LENS_XY = _lens_table()


def _warp(p: XY) -> XY:
    for centre, radius, k in _LENS_XY:
        p = _apply_lens(p, centre, radius, k)
    return p


def _in_lens(p: XY) -> bool:
    # Conservative: the unwarped point is tested against every lens, each widened by the
    # growth the lenses before it can cause.
    return any(math.dist(p, c) < radius * 1.6 for c, radius, _ in _LENS_XY)


def project(lon: float, lat: float) -> XY:
    """Longitude/latitude in degrees to viewBox coordinates (y grows downwards)."""
    return _warp(conic(lon, lat))


# --- junctions -----------------------------------------------------------------------------
# The tables below keep several points to a line; the formatter would put one per line.
# fmt: off
# Points where three or more areas meet, named region_what (e.g. gb_lwy: Liverpool, Wales
# and Yorkshire). Coordinates are (lon, lat).
JUNCTIONS: dict[str, Geo] = {
    # Britain
    "gb_cw": (-5.0, 58.6),  # Cape Wrath: CLY, NAO, NWG
    "gb_ce": (-4.1, 58.55),  # CLY/EDI on the north coast
    "gb_dh": (-3.05, 58.64),  # Duncansby Head: EDI, NWG, NTH
    "gb_cel": (-3.6, 55.45),
    "gb_cl": (-3.8, 54.85),
    "gb_ni": (-3.6, 54.45),  # NAO/IRI on Liverpool's coast
    "gb_lw": (-3.1, 53.35),
    "gb_lwy": (-1.9, 53.0),
    "gb_ely": (-2.4, 55.15),
    "gb_ey": (-1.75, 55.55),
    "gb_yl": (0.35, 52.85),
    "gb_wyl": (-1.4, 52.3),
    "gb_en": (1.45, 51.38),  # North Foreland: LON, NTH, ENG
    "gb_wl": (-2.0, 50.65),
    "gb_ie": (-5.7, 50.07),  # Land's End: WAL, IRI, ENG
    # Ireland and Iceland (not provinces)
    "ir_n": (-5.55, 54.45),
    "ir_s": (-9.8, 51.45),
    "ir_w": (-10.0, 53.9),
    "ic_s": (-15.2, 64.25),
    "ic_n": (-18.5, 66.15),
    "ic_w": (-22.7, 63.8),
    # open Atlantic
    "s_nim": (-12.0, 50.0),  # NAO, IRI, MAO
    "s_ime": (-6.2, 49.3),  # IRI, MAO, ENG
    # France and the Low Countries
    "fr_em": (-4.75, 48.4),  # Ushant: BRE, ENG, MAO
    "fr_bg": (-2.1, 47.05),
    "fr_pb": (0.15, 49.45),
    "be_pic": (2.55, 51.08),
    "be_ne": (2.9, 51.23),
    "be_bh": (3.4, 51.38),
    "nl_nh": (4.75, 52.95),
    "nl_hk": (7.2, 53.3),
    "fr_bpp": (0.8, 49.0),
    "fr_ppb": (3.0, 49.3),
    "fr_bpb": (3.9, 50.3),
    "fr_bgp": (0.5, 47.6),
    "fr_pbg": (2.5, 47.0),
    "fr_bmg": (3.8, 45.6),
    "fr_mgs": (1.5, 42.6),
    "fr_mp": (7.5, 43.78),
    "be_bbr": (6.1, 50.15),
    "be_bhr": (6.0, 51.2),
    # Iberia
    "es_gs": (-1.8, 43.38),
    "es_sp_n": (-8.87, 41.87),
    "es_pm": (-6.9, 41.0),
    "es_sp_s": (-7.4, 37.18),
    "es_mw": (-5.6, 36.0),  # Tarifa: SPA, MAO, WES
    "es_wl": (1.6, 41.2),
    "es_sm": (3.15, 42.45),
    # Germany and Denmark
    "de_hkr": (6.9, 52.3),
    "de_bmr": (7.9, 49.3),
    "de_krm": (8.9, 51.5),
    "de_kbm": (11.2, 52.2),
    "de_bms": (13.6, 51.7),
    "de_bps": (15.8, 52.4),
    "de_psw": (18.3, 52.4),
    "de_kb": (11.4, 53.95),
    "de_bp": (16.2, 54.25),
    "dk_kw": (8.65, 54.9),
    "dk_nh": (8.15, 56.0),
    "dk_ns": (8.6, 57.1),
    "dk_sw_n": (12.62, 56.04),
    "dk_sw_s": (12.8, 55.55),
    "dk_kb": (9.85, 54.8),
    # Switzerland
    "sw_bm": (7.6, 47.55),
    "sw_mt": (9.6, 47.5),
    "sw_tp": (10.2, 46.3),
    "sw_pm": (7.0, 45.95),
    "sw_mb": (6.3, 46.6),
    # Central Europe
    "cz_msb": (14.8, 50.9),
    "cz_mbt": (13.8, 48.75),
    "cz_btv": (14.9, 48.6),
    "cz_sbg": (18.6, 50.0),
    "cz_bgv": (18.3, 49.4),
    "hu_bgv": (20.8, 49.2),
    "pl_swg": (19.3, 50.6),
    "ua_wug": (24.0, 50.6),
    "ua_urg": (26.5, 48.3),
    "ro_grb": (24.5, 47.9),
    "ro_brs": (22.4, 44.6),
    "ro_rbs": (22.7, 44.2),
    "hu_bst": (19.3, 45.0),
    "at_btv": (16.6, 46.6),
    "at_ttv": (14.5, 46.8),
    # Italy
    "it_vtt": (13.3, 46.4),
    "it_ptv": (10.6, 46.0),
    "it_pvt": (10.3, 44.5),
    "it_tvr": (12.45, 43.75),
    "it_rva": (13.6, 42.6),
    "it_ran": (14.6, 41.5),
    "it_pt": (10.0, 44.0),
    "it_lt": (10.5, 42.95),
    "it_tr": (11.6, 42.3),
    "it_rn": (13.8, 41.2),
    "it_ti": (15.65, 38.15),
    "it_na": (16.8, 40.35),
    "it_ai": (18.5, 40.15),  # Otranto: APU, ADR, ION
    "it_av": (14.2, 42.45),
    "it_vt": (13.6, 45.75),
    "si_ne": (15.55, 38.27),
    "si_w": (12.45, 37.85),
    "si_s": (15.1, 36.7),
    # Balkans
    "al_ta": (19.35, 41.9),
    "al_ai": (19.4, 40.4),
    "al_ag": (20.0, 39.7),
    "al_ast": (19.9, 42.6),
    "al_asg": (20.9, 40.9),
    "gr_bgs": (22.8, 41.4),
    "gr_gb": (23.7, 40.75),
    "gr_ai": (23.2, 36.45),  # Cape Malea: GRE, ION, AEG
    "bg_rb": (28.6, 43.75),
    "bg_bc_n": (28.0, 41.95),
    "bg_bc_s": (26.05, 40.8),
    "cr_w": (23.55, 35.5),
    "cr_e": (26.3, 35.28),
    "cr_s": (25.0, 34.9),
    # Turkey
    "tr_ca": (30.6, 41.15),
    "tr_cas": (30.2, 39.9),
    "tr_cs": (26.2, 39.85),
    "tr_aa": (37.8, 41.05),
    "tr_aas": (36.5, 39.0),
    "tr_sas": (37.3, 37.5),
    "tr_sy": (35.9, 36.7),
    "tr_ae": (28.0, 36.65),
    "tr_as": (41.6, 41.6),
    # Africa and the western Mediterranean
    "af_mw": (-5.9, 35.78),
    "af_nt": (8.65, 36.95),
    "tu_wt": (9.85, 37.3),
    "tu_ti": (11.05, 37.07),
    "s_lwt": (7.6, 41.2),
    # Russia and the Baltic
    "ru_rs": (30.3, 46.3),
    "ru_urs": (29.5, 47.3),
    "ru_msu": (36.0, 51.0),
    "ru_muw": (26.5, 51.8),
    "ru_lwm": (28.5, 55.0),
    "ru_plw": (22.8, 54.6),
    "ru_slm": (28.8, 57.3),
    "ru_sl": (28.05, 59.45),
    "lv_lp": (21.05, 56.05),
    "lv_bb": (23.4, 59.25),
    "fi_fs": (27.8, 60.55),
    "sw_fb": (24.15, 65.8),
    "sw_bb": (18.8, 59.85),
    # Scandinavia
    "no_sw": (11.2, 59.05),
    "no_ns": (7.05, 58.0),
    "no_nn": (4.95, 61.0),
    "no_nb": (25.8, 71.1),  # North Cape: NWY, NWG, BAR
    "ru_ns": (30.9, 69.8),
    "no_nsf": (20.5, 69.0),
    "no_nfs": (28.9, 69.05),
    # starting points of island and inland-water outlines
    "co": (9.4, 43.0),
    "sa": (9.2, 41.25),
    "mj": (2.35, 39.6),
    "cy": (32.3, 34.95),
    "mm": (26.9, 40.5),
    "az": (35.1, 45.45),
}

# Junctions on the map frame: the side they lie on and a (lon, lat) near which the border
# meets it; the point is projected, then moved onto that side.
FRAME: dict[str, tuple[str, float, float]] = {
    "f_t_nn": ("N", -19.0, 69.5),
    "f_t_nb": ("N", 19.0, 75.5),
    "f_t_bs": ("N", 65.5, 69.6),
    "f_e_sm": ("E", 64.0, 58.5),
    "f_e_ms": ("E", 56.0, 50.5),
    "f_e_sa": ("E", 48.0, 41.3),
    "f_e_as": ("E", 45.5, 36.0),
    "f_b_sy": ("S", 34.6, 31.7),
    "f_b_ie": ("S", 22.6, 33.3),
    "f_b_tun": ("S", 10.6, 33.7),
    "f_b_nt": ("S", 8.5, 33.5),
    "f_b_naf": ("S", -9.7, 31.0),
    "f_w_nm": ("W", -17.0, 47.5),
}
CORNERS: dict[str, XY] = {
    "f_tl": (0.0, 0.0),
    "f_tr": (WIDTH, 0.0),
    "f_br": (WIDTH, HEIGHT),
    "f_bl": (0.0, HEIGHT),
}

# --- edges ---------------------------------------------------------------------------------
# "a b": the points strictly between junctions a and b, in order from a to b. Every pair of
# consecutive junctions in an outline must be listed here (an empty list is a straight
# border). "x x" is a closed loop starting and ending at x (an island or a lake).
EDGES: dict[str, list[Geo]] = {
    # Britain: coasts
    "gb_cw gb_ce": [(-4.6, 58.58)],
    "gb_ce gb_dh": [(-3.6, 58.62)],
    "gb_dh gb_ey": [
        (-3.1, 58.4), (-3.8, 57.85), (-4.2, 57.5), (-3.3, 57.7), (-2.0, 57.7), (-1.8, 57.45),
        (-2.1, 57.1), (-2.5, 56.7), (-2.8, 56.45), (-2.6, 56.28), (-3.3, 56.02), (-2.5, 55.98),
        (-2.05, 55.85),
    ],
    "gb_ey gb_yl": [
        (-1.5, 55.1), (-1.2, 54.65), (-0.6, 54.5), (-0.08, 54.12), (-0.2, 53.9), (0.13, 53.6),
        (0.3, 53.25),
    ],
    "gb_yl gb_en": [
        (0.5, 52.95), (1.3, 52.93), (1.75, 52.6), (1.75, 52.3), (1.6, 52.05), (1.25, 51.8),
        (0.95, 51.6), (0.5, 51.5), (0.9, 51.37),
    ],
    "gb_en gb_wl": [
        (1.38, 51.13), (0.97, 50.92), (0.25, 50.74), (-0.8, 50.72), (-1.3, 50.8), (-1.6, 50.72),
    ],
    "gb_wl gb_ie": [
        (-2.45, 50.55), (-3.0, 50.68), (-3.45, 50.6), (-3.65, 50.22), (-4.2, 50.35),
        (-5.2, 49.97),
    ],
    "gb_ie gb_lw": [
        (-5.1, 50.42), (-4.5, 51.02), (-3.5, 51.2), (-2.65, 51.6), (-3.2, 51.4), (-3.9, 51.58),
        (-4.3, 51.65), (-5.1, 51.7), (-5.3, 51.88), (-4.8, 52.1), (-4.1, 52.45), (-4.1, 52.8),
        (-4.75, 52.8), (-4.4, 53.05), (-4.65, 53.3), (-4.2, 53.32), (-3.8, 53.32),
    ],
    "gb_lw gb_ni": [(-3.0, 53.45), (-3.05, 53.85), (-2.85, 54.15), (-3.25, 54.1)],
    "gb_ni gb_cl": [(-3.45, 54.75), (-3.2, 54.95)],
    "gb_cl gb_cw": [
        (-4.4, 54.73), (-4.85, 54.63), (-5.1, 54.85), (-5.0, 55.05), (-4.65, 55.45),
        (-4.9, 55.75), (-5.6, 55.3), (-5.7, 55.8), (-5.55, 56.4), (-6.2, 56.7), (-5.8, 57.0),
        (-5.75, 57.35), (-5.8, 57.8), (-5.3, 58.1), (-5.1, 58.3),
    ],
    # Britain: inland
    "gb_ce gb_cel": [(-4.4, 57.9), (-4.5, 57.3), (-4.1, 56.6), (-3.9, 56.0)],
    "gb_cel gb_cl": [],
    "gb_cel gb_ely": [(-3.1, 55.35)],
    "gb_ely gb_ey": [(-2.1, 55.3)],
    "gb_ely gb_lwy": [(-2.0, 54.5), (-1.7, 53.7)],
    "gb_lw gb_lwy": [(-2.7, 53.2)],
    "gb_lwy gb_wyl": [(-1.6, 52.7)],
    "gb_wyl gb_yl": [(-0.5, 52.6)],
    "gb_wyl gb_wl": [(-1.9, 51.6), (-2.1, 51.1)],
    # Ireland and Iceland
    "ir_n ir_s": [
        (-6.3, 54.0), (-6.1, 53.35), (-6.0, 52.95), (-6.35, 52.17), (-7.0, 52.12), (-8.3, 51.8),
        (-9.0, 51.55),
    ],
    "ir_s ir_w": [(-10.3, 51.8), (-10.45, 52.1), (-9.8, 52.6), (-9.0, 53.2), (-10.2, 53.4)],
    "ir_w ir_n": [
        (-10.0, 54.3), (-9.2, 54.2), (-8.6, 54.3), (-8.3, 54.6), (-8.55, 55.0), (-8.25, 55.15),
        (-7.4, 55.38), (-6.15, 55.22), (-5.7, 54.75),
    ],
    "ic_s ic_w": [(-16.6, 63.8), (-18.0, 63.45), (-19.0, 63.4), (-20.5, 63.7), (-21.4, 63.85)],
    "ic_w ic_n": [
        (-22.6, 64.05), (-21.9, 64.15), (-21.8, 64.4), (-22.4, 64.75), (-23.95, 64.85),
        (-23.0, 64.95), (-22.2, 65.05), (-24.0, 65.4), (-24.5, 65.5), (-24.0, 65.95),
        (-22.4, 66.45), (-21.3, 65.8), (-20.4, 65.6), (-20.1, 66.1), (-19.3, 65.85),
    ],
    "ic_n ic_s": [(-17.3, 66.15), (-16.0, 66.55), (-14.55, 66.37), (-14.9, 66.0), (-13.5, 65.27)],
    # Atlantic and northern sea borders
    "gb_ni ir_n": [],
    "ir_s s_nim": [],
    "s_nim s_ime": [],
    "s_ime gb_ie": [],
    "s_ime fr_em": [],
    "s_nim f_w_nm": [],
    "gb_cw ic_s": [(-7.5, 61.5)],
    "ic_n f_t_nn": [],
    "gb_dh no_nn": [(-1.2, 60.2)],
    "no_nb f_t_nb": [],
    "dk_ns no_ns": [],
    "nl_nh dk_nh": [],
    "gb_en be_ne": [],
    "sw_bb lv_bb": [],
    # Mediterranean sea borders
    "es_mw af_mw": [],
    "es_wl s_lwt": [],
    "it_lt s_lwt": [(9.3, 43.3), (8.1, 42.3)],
    "s_lwt tu_wt": [(8.0, 38.7)],
    "it_ti si_ne": [],
    "si_w tu_ti": [],
    "it_ai al_ai": [],
    "gr_ai cr_w": [],
    "cr_w f_b_ie": [],
    "cr_e tr_ae": [],
    # Mediterranean islands
    "cr_w cr_e": [(23.85, 35.7), (24.3, 35.5), (25.1, 35.4), (25.75, 35.32)],
    "cr_e cr_s": [(26.1, 34.95)],
    "cr_s cr_w": [(24.3, 35.1), (23.6, 35.2)],
    "si_ne si_w": [(15.25, 38.25), (14.0, 38.05), (13.35, 38.15), (12.75, 38.15)],
    "si_w si_s": [(12.6, 37.65), (13.1, 37.5), (13.6, 37.25), (14.25, 37.05)],
    "si_s si_ne": [(15.3, 37.05), (15.1, 37.5), (15.3, 37.85)],
    "co co": [
        (9.5, 42.7), (9.55, 42.1), (9.4, 41.6), (9.15, 41.38), (8.75, 41.55), (8.45, 42.0),
        (8.55, 42.5), (9.2, 42.75),
    ],
    "sa sa": [
        (9.75, 40.9), (9.7, 40.2), (9.6, 39.2), (9.0, 39.15), (8.85, 38.9), (8.3, 39.0),
        (8.35, 39.9), (8.1, 40.6), (8.5, 40.95),
    ],
    "mj mj": [(2.9, 39.9), (3.2, 39.95), (3.45, 39.65), (3.1, 39.3), (2.75, 39.5)],
    "cy cy": [
        (32.45, 35.1), (33.3, 35.35), (34.6, 35.7), (33.95, 35.15), (34.05, 34.98),
        (33.65, 34.9), (33.0, 34.65), (32.4, 34.7),
    ],
    "mm mm": [
        (27.5, 40.9), (28.0, 40.98), (28.9, 40.98), (29.8, 40.75), (29.0, 40.45), (28.0, 40.4),
        (27.3, 40.4),
    ],
    "az az": [
        (35.6, 45.4), (36.5, 45.47), (37.5, 45.75), (38.1, 46.1), (38.3, 46.7), (39.2, 47.2),
        (38.5, 47.15), (37.5, 47.05), (36.5, 46.75), (35.6, 46.5), (34.4, 46.05), (34.9, 45.85),
    ],
    # France and the Low Countries: coasts
    "fr_pb be_pic": [(1.1, 49.93), (1.6, 50.2), (1.6, 50.73), (1.85, 50.95)],
    "be_pic be_ne": [],
    "be_ne be_bh": [],
    "be_bh nl_nh": [(3.6, 51.6), (4.1, 51.95), (4.3, 52.1), (4.55, 52.45)],
    "nl_nh nl_hk": [(5.3, 53.3), (6.0, 53.45), (6.9, 53.45)],
    "fr_em fr_pb": [
        (-4.0, 48.7), (-3.0, 48.8), (-2.0, 48.65), (-1.5, 48.65), (-1.6, 49.2), (-1.9, 49.7),
        (-1.6, 49.65), (-1.2, 49.4), (-0.3, 49.3),
    ],
    "fr_bg fr_em": [
        (-2.5, 47.3), (-2.8, 47.55), (-3.1, 47.5), (-3.4, 47.7), (-4.3, 47.8), (-4.75, 48.05),
        (-4.5, 48.2),
    ],
    "es_gs fr_bg": [(-1.55, 43.45), (-1.25, 44.65), (-1.05, 45.6), (-1.2, 46.15)],
    "es_sm fr_mp": [
        (3.05, 42.8), (3.2, 43.2), (3.7, 43.4), (4.6, 43.4), (5.35, 43.3), (5.95, 43.1),
        (6.65, 43.25), (7.25, 43.65),
    ],
    # France and the Low Countries: inland
    "be_pic fr_bpb": [],
    "fr_bpb be_bbr": [(5.0, 49.9)],
    "fr_bpb fr_ppb": [],
    "fr_ppb fr_bpp": [],
    "fr_bpp fr_pb": [],
    "fr_bpp fr_bgp": [],
    "fr_bgp fr_bg": [],
    "fr_bgp fr_pbg": [],
    "fr_pbg fr_ppb": [],
    "fr_pbg fr_bmg": [],
    "fr_bmg sw_mb": [(5.2, 46.2)],
    "fr_bmg fr_mgs": [(2.8, 44.0)],
    "fr_mp sw_pm": [(7.7, 44.15), (6.9, 44.4), (6.65, 45.1), (7.0, 45.5)],
    "be_bh be_bhr": [(4.4, 51.45), (5.5, 51.3)],
    "be_bhr be_bbr": [],
    "be_bbr de_bmr": [],
    "de_hkr be_bhr": [],
    "de_hkr nl_hk": [],
    # Iberia
    "es_gs es_sp_n": [
        (-2.0, 43.32), (-2.9, 43.35), (-3.8, 43.45), (-5.85, 43.65), (-7.0, 43.55), (-7.7, 43.78),
        (-8.4, 43.37), (-9.3, 42.9), (-8.9, 42.2),
    ],
    "es_sp_n es_sp_s": [
        (-8.65, 41.15), (-8.9, 40.2), (-9.5, 38.78), (-8.9, 38.5), (-8.85, 37.95), (-8.95, 37.0),
        (-7.9, 36.98),
    ],
    "es_sp_n es_pm": [(-8.1, 42.05), (-6.5, 41.95)],
    "es_pm es_sp_s": [(-7.0, 39.65), (-7.3, 38.4), (-7.5, 37.55)],
    "es_sp_s es_mw": [(-6.9, 37.2), (-6.3, 36.5)],
    "es_mw es_wl": [
        (-5.35, 36.15), (-4.4, 36.7), (-2.5, 36.8), (-2.2, 36.72), (-1.0, 37.6), (-0.7, 37.63),
        (-0.5, 38.35), (0.2, 38.75), (-0.35, 39.45), (0.0, 39.95), (0.85, 40.7), (1.25, 41.1),
    ],
    "es_wl es_sm": [(2.2, 41.4), (3.2, 41.9), (3.3, 42.3)],
    "es_gs fr_mgs": [(-0.7, 42.85), (0.7, 42.7)],
    "fr_mgs es_sm": [(2.5, 42.4)],
    # Germany and Denmark
    "de_krm de_bmr": [],
    "de_bmr sw_bm": [(7.8, 48.5)],
    "de_krm de_hkr": [],
    "de_kb de_kbm": [(11.3, 53.0)],
    "de_kbm de_bms": [],
    "de_kbm de_krm": [],
    "de_bms de_bps": [],
    "de_bps de_psw": [],
    "de_bp de_bps": [],
    "nl_hk dk_kw": [
        (8.0, 53.6), (8.55, 53.5), (8.7, 53.85), (8.85, 54.15), (8.6, 54.4), (8.85, 54.6),
    ],
    "dk_kw dk_nh": [(8.45, 55.47), (8.1, 55.55)],
    "dk_nh dk_ns": [(8.15, 56.6)],
    "dk_ns dk_sw_n": [
        (9.95, 57.6), (10.6, 57.75), (10.55, 57.45), (10.3, 56.95), (10.9, 56.4), (10.25, 56.15),
        (11.4, 55.95), (12.3, 56.12),
    ],
    "dk_sw_n dk_sw_s": [],
    "dk_sw_s dk_kb": [(12.45, 55.3), (12.2, 54.75), (11.5, 54.6), (11.0, 54.75), (10.3, 54.9)],
    "dk_kb dk_kw": [(9.3, 54.85)],
    "dk_kb de_kb": [(10.0, 54.6), (10.15, 54.35), (10.9, 54.4), (10.85, 54.0)],
    "de_kb de_bp": [(12.1, 54.2), (13.0, 54.45), (13.4, 54.65), (14.2, 53.95), (15.55, 54.18)],
    "de_bp lv_lp": [
        (16.85, 54.6), (17.5, 54.75), (18.4, 54.8), (18.65, 54.35), (19.6, 54.45), (19.95, 54.95),
        (20.9, 55.25), (21.1, 55.7),
    ],
    # Switzerland and the Alps
    "sw_bm sw_mt": [(8.6, 47.65)],
    "sw_mt sw_tp": [(10.45, 46.85)],
    "sw_tp sw_pm": [(9.0, 45.85), (8.0, 46.1)],
    "sw_pm sw_mb": [(6.1, 46.2)],
    "sw_mb sw_bm": [(7.0, 47.3)],
    "sw_mt cz_mbt": [
        (10.5, 47.45), (11.5, 47.5), (12.2, 47.7), (13.0, 47.5), (12.9, 48.2), (13.4, 48.6),
    ],
    "sw_tp it_ptv": [],
    # Central Europe
    "cz_mbt cz_btv": [],
    "cz_btv at_ttv": [(14.7, 47.6)],
    "cz_btv cz_bgv": [(16.9, 48.7)],
    "cz_bgv hu_bgv": [],
    "cz_sbg cz_bgv": [],
    "cz_msb cz_sbg": [(16.5, 50.4)],
    "cz_msb cz_mbt": [(12.2, 50.3), (12.8, 49.4)],
    "de_bms cz_msb": [],
    "de_psw pl_swg": [],
    "pl_swg cz_sbg": [],
    "pl_swg ua_wug": [(21.5, 50.8)],
    "at_btv at_ttv": [],
    "at_ttv it_vtt": [],
    "at_btv hu_bgv": [(17.1, 47.6), (18.8, 47.8)],
    "hu_bgv ro_grb": [(22.5, 48.9)],
    "hu_bst at_btv": [(17.5, 45.85)],
    "ro_brs hu_bst": [(21.0, 44.75), (20.3, 44.8)],
    "ro_grb ro_brs": [(25.5, 47.0), (26.0, 45.8), (24.0, 45.4), (22.5, 44.9)],
    "ro_brs ro_rbs": [],
    "ro_rbs bg_rb": [(24.0, 43.7), (26.0, 43.8), (27.9, 44.1)],
    "ua_urg ro_grb": [],
    # Italy
    "fr_mp it_pt": [
        (7.8, 43.8), (8.0, 43.88), (8.5, 44.3), (8.95, 44.4), (9.5, 44.15), (9.85, 44.05),
    ],
    "it_pt it_lt": [(10.25, 43.85), (10.3, 43.55), (10.55, 43.2)],
    "it_lt it_tr": [(11.0, 42.7), (11.2, 42.4)],
    "it_tr it_rn": [(11.8, 42.1), (12.25, 41.75), (12.6, 41.45), (13.05, 41.25), (13.55, 41.2)],
    "it_rn it_ti": [
        (14.25, 40.85), (14.35, 40.6), (14.75, 40.65), (15.0, 40.2), (15.7, 39.95), (16.0, 39.35),
        (16.1, 38.95), (15.85, 38.6), (15.65, 38.3),
    ],
    "it_ti it_na": [
        (15.65, 37.95), (16.05, 37.92), (16.55, 38.4), (17.15, 38.95), (16.6, 39.6), (16.5, 39.75),
    ],
    "it_na it_ai": [(17.2, 40.45), (18.0, 40.25), (18.35, 39.8)],
    "it_ai it_av": [
        (17.95, 40.65), (16.85, 41.15), (16.3, 41.3), (15.9, 41.62), (16.2, 41.9), (15.6, 41.95),
        (15.0, 42.0),
    ],
    "it_av it_vt": [
        (13.5, 43.6), (12.6, 44.05), (12.3, 44.45), (12.55, 44.95), (12.35, 45.45), (13.0, 45.7),
    ],
    "it_vtt it_vt": [],
    "it_ptv it_vtt": [(11.5, 46.1), (12.5, 46.5)],
    "it_ptv it_pvt": [(10.5, 45.1)],
    "it_pvt it_pt": [],
    "it_pvt it_tvr": [(11.4, 44.25)],
    "it_tvr it_tr": [(12.05, 42.85)],
    "it_tvr it_rva": [],
    "it_rva it_av": [],
    "it_rva it_ran": [],
    "it_ran it_rn": [],
    "it_ran it_na": [(15.6, 40.9)],
    # Balkans
    "it_vt al_ta": [
        (13.75, 45.65), (13.6, 45.3), (13.85, 44.85), (14.1, 45.15), (14.45, 45.3), (14.9, 44.95),
        (15.2, 44.1), (15.9, 43.7), (16.45, 43.5), (17.4, 43.05), (18.1, 42.65), (18.7, 42.4),
        (19.1, 42.1),
    ],
    "al_ta al_ai": [(19.5, 41.75), (19.45, 41.3), (19.3, 40.6)],
    "al_ai al_ag": [(19.9, 40.0)],
    "al_ag gr_ai": [
        (20.75, 38.95), (21.3, 38.3), (21.1, 37.85), (21.65, 37.25), (21.7, 36.8), (22.5, 36.4),
        (22.8, 36.8),
    ],
    "gr_ai gr_gb": [
        (22.8, 37.55), (23.4, 37.4), (24.0, 37.65), (24.55, 38.0), (23.5, 39.0), (22.95, 39.35),
        (22.6, 40.0), (22.9, 40.6), (23.3, 40.25), (24.3, 40.0), (23.8, 40.6),
    ],
    "gr_gb bg_bc_s": [(24.4, 40.9), (24.9, 40.95), (25.9, 40.85)],
    "bg_bc_s tr_cs": [(26.6, 40.62), (26.2, 40.05)],
    "bg_rb bg_bc_n": [(27.95, 43.2), (27.5, 42.5), (27.75, 42.2)],
    "bg_bc_n bg_bc_s": [(26.6, 41.7)],
    "ro_rbs gr_bgs": [(22.4, 43.2), (22.4, 42.3)],
    "gr_bgs gr_gb": [(23.6, 41.3)],
    "gr_bgs al_asg": [(22.0, 41.1)],
    "al_asg al_ag": [(20.5, 40.1)],
    "al_asg al_ast": [(20.6, 41.9)],
    "al_ast al_ta": [],
    "al_ast hu_bst": [(19.3, 43.2), (19.4, 44.0)],
    # Turkey
    "bg_bc_n tr_ca": [(28.5, 41.55), (29.1, 41.22), (30.2, 41.2)],
    "tr_ca tr_aa": [
        (31.4, 41.3), (32.4, 41.8), (33.5, 42.0), (35.1, 42.05), (36.3, 41.3), (37.0, 41.15),
    ],
    "tr_aa tr_as": [(39.7, 41.0), (40.5, 41.05), (41.4, 41.4)],
    "tr_cs tr_ae": [
        (26.7, 39.3), (26.9, 38.9), (26.4, 38.65), (27.0, 38.45), (26.4, 38.3), (27.25, 37.85),
        (27.3, 37.3), (27.25, 37.0), (27.5, 36.7),
    ],
    "tr_ae tr_sy": [
        (28.6, 36.75), (29.6, 36.2), (30.7, 36.85), (32.0, 36.55), (32.8, 36.05), (33.9, 36.3),
        (34.6, 36.8), (35.5, 36.6),
    ],
    "tr_sy f_b_sy": [
        (36.15, 36.55), (35.85, 36.0), (35.8, 35.5), (35.9, 34.9), (35.8, 34.45), (35.5, 33.9),
        (35.1, 33.0), (34.9, 32.5),
    ],
    "tr_cs tr_cas": [(28.0, 39.75)],
    "tr_ca tr_cas": [(30.5, 40.5)],
    "tr_cas tr_aas": [(33.0, 39.3)],
    "tr_aa tr_aas": [(37.5, 40.0)],
    "tr_aas tr_sas": [],
    "tr_sy tr_sas": [],
    "tr_sas f_e_as": [(40.0, 37.2), (43.0, 37.3)],
    "tr_as f_e_sa": [(43.5, 41.3)],
    # Black Sea and Russia
    "ru_rs tr_as": [
        (31.0, 46.55), (31.9, 46.4), (33.6, 46.1), (33.0, 45.85), (32.5, 45.4), (33.4, 45.2),
        (33.5, 44.6), (34.3, 44.45), (35.4, 44.95), (36.0, 45.05), (36.45, 45.3), (36.9, 45.1),
        (37.8, 44.7), (39.7, 43.6), (41.0, 42.95), (41.65, 42.15),
    ],
    "ru_rs bg_rb": [(29.9, 45.9), (29.7, 45.3), (29.0, 44.8), (28.65, 44.2)],
    "f_e_ms ru_msu": [(45.0, 51.0), (40.0, 51.2)],
    "ru_msu ru_urs": [(33.5, 49.0), (31.0, 47.8)],
    "ru_urs ru_rs": [],
    "ru_msu ru_muw": [(32.0, 52.3), (29.0, 52.0)],
    "ru_muw ua_wug": [],
    "ua_wug ua_urg": [(25.5, 49.6)],
    "ua_urg ru_urs": [(28.3, 48.0)],
    "de_psw ru_plw": [(20.5, 53.4)],
    "ru_plw lv_lp": [(22.0, 55.2)],
    "ru_plw ru_lwm": [(25.5, 54.5)],
    "ru_lwm ru_muw": [(27.5, 53.0)],
    "ru_lwm ru_slm": [(29.5, 56.0)],
    "ru_slm ru_sl": [(28.2, 57.7), (27.7, 58.5)],
    "ru_slm f_e_sm": [(32.0, 58.0), (36.0, 59.0), (42.0, 60.0), (50.0, 60.0)],
    "lv_lp lv_bb": [
        (21.0, 56.5), (21.55, 57.4), (22.6, 57.75), (23.5, 57.0), (24.1, 56.97), (24.4, 57.8),
        (24.5, 58.38), (23.5, 58.6),
    ],
    "lv_bb ru_sl": [(24.8, 59.45), (26.5, 59.6)],
    "ru_sl fi_fs": [(29.1, 59.85), (30.2, 59.95), (29.5, 60.2)],
    "fi_fs sw_fb": [
        (26.9, 60.45), (25.0, 60.15), (22.9, 59.82), (22.0, 60.4), (21.4, 61.1), (21.5, 61.5),
        (21.4, 62.3), (21.6, 63.1), (23.1, 63.85), (24.4, 64.7), (25.4, 65.0), (24.5, 65.7),
    ],
    "ru_ns f_t_bs": [
        (33.0, 69.4), (35.5, 69.2), (37.5, 68.75), (39.7, 68.15), (41.2, 67.25), (40.7, 66.55),
        (39.3, 66.1), (37.0, 66.2), (34.5, 66.55), (32.6, 67.1), (33.5, 66.4), (34.6, 65.7),
        (34.8, 64.5), (36.3, 64.05), (38.0, 63.95), (37.1, 64.5), (37.0, 64.95), (38.2, 65.1),
        (40.5, 64.55), (40.3, 65.3), (41.2, 66.0), (42.3, 66.45), (44.0, 66.1), (43.7, 66.9),
        (43.3, 68.6), (45.0, 68.5), (46.3, 67.9), (48.0, 67.7), (53.0, 68.4), (55.0, 68.3),
        (58.0, 68.8), (60.5, 69.2), (63.5, 69.6),
    ],
    # Scandinavia
    "sw_fb sw_bb": [
        (22.15, 65.55), (21.2, 64.7), (20.3, 63.8), (18.3, 62.9), (17.4, 62.4), (17.3, 61.7),
        (17.2, 60.7), (18.4, 60.3),
    ],
    "sw_bb dk_sw_s": [
        (18.6, 59.25), (17.6, 58.8), (16.7, 57.9), (16.6, 57.3), (16.35, 56.65), (15.6, 56.15),
        (14.7, 56.15), (14.35, 55.55), (13.8, 55.43), (13.15, 55.35), (12.85, 55.4),
    ],
    "dk_sw_n no_sw": [(12.45, 56.3), (12.85, 56.65), (11.9, 57.6), (11.2, 58.4)],
    "no_sw no_ns": [(10.75, 59.3), (10.55, 59.8), (10.2, 59.05), (9.0, 58.55), (8.0, 58.15)],
    "no_ns no_nn": [(6.0, 58.45), (5.6, 58.95), (5.25, 59.4), (5.0, 60.4)],
    "no_nn no_nb": [
        (5.0, 61.6), (5.1, 62.2), (6.1, 62.55), (7.7, 63.1), (9.7, 63.9), (10.7, 64.5),
        (12.6, 66.2), (13.5, 67.2), (12.9, 67.9), (15.0, 68.3), (16.5, 68.8), (17.8, 69.5),
        (18.9, 69.75), (20.5, 70.1), (22.5, 70.5), (23.7, 70.8),
    ],
    "no_nb ru_ns": [(27.7, 71.05), (30.0, 70.6), (31.0, 70.3)],
    "no_sw no_nsf": [
        (11.8, 59.8), (12.6, 61.0), (12.1, 62.8), (14.0, 64.5), (15.5, 66.0), (17.9, 68.4),
    ],
    "no_nsf sw_fb": [(22.4, 68.5), (23.6, 67.5), (23.7, 66.5)],
    "no_nsf no_nfs": [(23.0, 68.7), (25.8, 69.6)],
    "no_nfs ru_ns": [],
    "no_nfs fi_fs": [
        (28.4, 68.5), (29.9, 67.6), (29.3, 66.3), (30.0, 65.2), (29.9, 63.8), (31.5, 62.9),
        (29.5, 61.5),
    ],
    # Africa
    "af_mw af_nt": [
        (-5.3, 35.9), (-4.4, 35.2), (-3.9, 35.25), (-2.95, 35.3), (-2.2, 35.1), (-0.65, 35.7),
        (1.3, 36.5), (3.05, 36.8), (5.1, 36.75), (5.75, 36.8), (6.9, 36.9), (7.75, 36.9),
    ],
    "f_b_naf af_mw": [
        (-9.25, 32.3), (-8.5, 33.25), (-7.6, 33.6), (-6.85, 34.0), (-6.6, 34.3), (-6.15, 35.2),
    ],
    "af_nt f_b_nt": [(8.4, 35.9), (8.3, 34.6)],
    "af_nt tu_wt": [(9.2, 37.15)],
    "tu_wt tu_ti": [(10.15, 37.05), (10.3, 36.8), (10.9, 36.85)],
    "tu_ti f_b_tun": [(10.6, 36.4), (10.65, 35.8), (11.05, 35.5), (10.75, 34.75), (10.1, 33.9)],
    # the frame, clockwise from the top-left corner
    "f_tl f_t_nn": [],
    "f_t_nn f_t_nb": [],
    "f_t_nb f_t_bs": [],
    "f_t_bs f_tr": [],
    "f_tr f_e_sm": [],
    "f_e_sm f_e_ms": [],
    "f_e_ms f_e_sa": [],
    "f_e_sa f_e_as": [],
    "f_e_as f_br": [],
    "f_br f_b_sy": [],
    "f_b_sy f_b_ie": [],
    "f_b_ie f_b_tun": [],
    "f_b_tun f_b_nt": [],
    "f_b_nt f_b_naf": [],
    "f_b_naf f_bl": [],
    "f_bl f_w_nm": [],
    "f_w_nm f_tl": [],
}

# --- areas ---------------------------------------------------------------------------------
# Each province's outline as its ring of junctions (in either direction), then any holes
# (an island or lake inside it) as further rings.
PROVINCES: dict[str, list[str]] = {
    # seas
    "NAO": ["gb_cl gb_cw ic_s ic_w ic_n f_t_nn f_tl f_w_nm s_nim ir_s ir_w ir_n gb_ni"],
    "NWG": ["gb_cw gb_ce gb_dh no_nn no_nb f_t_nb f_t_nn ic_n ic_s"],
    "BAR": ["no_nb ru_ns f_t_bs f_t_nb"],
    "NTH": ["gb_dh gb_ey gb_yl gb_en be_ne be_bh nl_nh dk_nh dk_ns no_ns no_nn"],
    "SKA": ["dk_ns dk_sw_n no_sw no_ns"],
    "HEL": ["nl_nh nl_hk dk_kw dk_nh"],
    "BAL": ["dk_sw_s sw_bb lv_bb lv_lp de_bp de_kb dk_kb"],
    "BOT": ["sw_bb sw_fb fi_fs ru_sl lv_bb"],
    "ENG": ["gb_ie gb_wl gb_en be_ne be_pic fr_pb fr_em s_ime"],
    "IRI": ["gb_ni gb_lw gb_ie s_ime s_nim ir_s ir_n"],
    "MAO": ["fr_em fr_bg es_gs es_sp_n es_sp_s es_mw af_mw f_b_naf f_bl f_w_nm s_nim s_ime"],
    "WES": ["es_mw es_wl s_lwt tu_wt af_nt af_mw", "mj"],
    "LYO": ["es_wl es_sm fr_mp it_pt it_lt s_lwt"],
    "TYS": ["it_lt it_tr it_rn it_ti si_ne si_w tu_ti tu_wt s_lwt", "co", "sa"],
    "ION": ["it_ti it_na it_ai al_ai al_ag gr_ai cr_w f_b_ie f_b_tun tu_ti si_w si_s si_ne"],
    "ADR": ["it_ai it_av it_vt al_ta al_ai"],
    "AEG": ["gr_ai gr_gb bg_bc_s tr_cs tr_ae cr_e cr_w"],
    "EAS": ["cr_w cr_s cr_e tr_ae tr_sy f_b_sy f_b_ie", "cy"],
    "BLA": ["bg_rb bg_bc_n tr_ca tr_aa tr_as ru_rs"],
    # Britain
    "CLY": ["gb_cw gb_ce gb_cel gb_cl"],
    "EDI": ["gb_ce gb_dh gb_ey gb_ely gb_cel"],
    "LVP": ["gb_cel gb_ely gb_lwy gb_lw gb_ni gb_cl"],
    "YOR": ["gb_ely gb_ey gb_yl gb_wyl gb_lwy"],
    "WAL": ["gb_lwy gb_wyl gb_wl gb_ie gb_lw"],
    "LON": ["gb_wyl gb_yl gb_en gb_wl"],
    # France, Iberia, the Low Countries
    "BRE": ["fr_pb fr_em fr_bg fr_bgp fr_bpp"],
    "PIC": ["be_pic fr_pb fr_bpp fr_ppb fr_bpb"],
    "PAR": ["fr_bpp fr_bgp fr_pbg fr_ppb"],
    "BUR": ["fr_bpb fr_ppb fr_pbg fr_bmg sw_mb sw_bm de_bmr be_bbr"],
    "GAS": ["fr_bg es_gs fr_mgs fr_bmg fr_pbg fr_bgp"],
    "MAR": ["es_sm fr_mp sw_pm sw_mb fr_bmg fr_mgs"],
    "SPA": ["es_gs es_sp_n es_pm es_sp_s es_mw es_wl es_sm fr_mgs"],
    "POR": ["es_sp_n es_sp_s es_pm"],
    "BEL": ["be_bh be_ne be_pic fr_bpb be_bbr be_bhr"],
    "HOL": ["nl_nh be_bh be_bhr de_hkr nl_hk"],
    # Germany, Denmark, Switzerland
    "RUH": ["be_bbr de_bmr de_krm de_hkr be_bhr"],
    "KIE": ["nl_hk de_hkr de_krm de_kbm de_kb dk_kb dk_kw"],
    "BER": ["de_kb de_kbm de_bms de_bps de_bp"],
    "MUN": ["de_kbm de_krm de_bmr sw_bm sw_mt cz_mbt cz_msb de_bms"],
    "DEN": ["dk_kw dk_nh dk_ns dk_sw_n dk_sw_s dk_kb"],
    "SWI": ["sw_bm sw_mt sw_tp sw_pm sw_mb"],
    # Italy
    "PIE": ["fr_mp it_pt it_pvt it_ptv sw_tp sw_pm"],
    "TUS": ["it_pt it_lt it_tr it_tvr it_pvt"],
    "VEN": ["it_pvt it_tvr it_rva it_av it_vt it_vtt it_ptv"],
    "ROM": ["it_tr it_rn it_ran it_rva it_tvr"],
    "NAP": ["it_rn it_ti it_na it_ran"],
    "APU": ["it_na it_ai it_av it_rva it_ran"],
    # Austria-Hungary and the Balkans
    "TYR": ["sw_mt sw_tp it_ptv it_vtt at_ttv cz_btv cz_mbt"],
    "BOH": ["cz_msb cz_mbt cz_btv cz_bgv cz_sbg"],
    "SIL": ["de_bms cz_msb cz_sbg pl_swg de_psw de_bps"],
    "VIE": ["cz_btv at_ttv at_btv hu_bgv cz_bgv"],
    "TRI": ["it_vt al_ta al_ast hu_bst at_btv at_ttv it_vtt"],
    "BUD": ["hu_bgv at_btv hu_bst ro_brs ro_grb"],
    "GAL": ["pl_swg cz_sbg cz_bgv hu_bgv ro_grb ua_urg ua_wug"],
    "SER": ["hu_bst al_ast al_asg gr_bgs ro_rbs ro_brs"],
    "ALB": ["al_ta al_ai al_ag al_asg al_ast"],
    "GRE": ["al_ag gr_ai gr_gb gr_bgs al_asg"],
    "BUL": ["bg_rb bg_bc_n bg_bc_s gr_gb gr_bgs ro_rbs"],
    "RUM": ["ro_grb ua_urg ru_urs ru_rs bg_rb ro_rbs ro_brs"],
    # Turkey
    "CON": ["bg_bc_n tr_ca tr_cas tr_cs bg_bc_s", "mm"],
    "ANK": ["tr_ca tr_aa tr_aas tr_cas"],
    "SMY": ["tr_cs tr_cas tr_aas tr_sas tr_sy tr_ae"],
    "ARM": ["tr_aa tr_as f_e_sa f_e_as tr_sas tr_aas"],
    "SYR": ["tr_sy tr_sas f_e_as f_br f_b_sy"],
    # Russia, Poland, the Baltic
    "SEV": ["ru_rs ru_urs ru_msu f_e_ms f_e_sa tr_as", "az"],
    "UKR": ["ru_muw ru_msu ru_urs ua_urg ua_wug"],
    "WAR": ["de_psw pl_swg ua_wug ru_muw ru_lwm ru_plw"],
    "MOS": ["ru_slm ru_lwm ru_muw ru_msu f_e_ms f_e_sm"],
    "LVN": ["lv_lp ru_plw ru_lwm ru_slm ru_sl lv_bb"],
    "PRU": ["de_bp de_bps de_psw ru_plw lv_lp"],
    "STP": ["ru_ns f_t_bs f_tr f_e_sm ru_slm ru_sl fi_fs no_nfs"],
    # Scandinavia
    "FIN": ["sw_fb fi_fs no_nfs no_nsf"],
    "SWE": ["no_sw dk_sw_n dk_sw_s sw_bb sw_fb no_nsf"],
    "NWY": ["no_sw no_nsf no_nfs ru_ns no_nb no_nn no_ns"],
    # Africa
    "NAF": ["af_mw af_nt f_b_nt f_b_naf"],
    "TUN": ["af_nt tu_wt tu_ti f_b_tun f_b_nt"],
}

# Land that is not a province, and inland waters, drawn for recognition only.
DECOR: list[tuple[str, str, str]] = [
    ("Iceland", "land", "ic_s ic_w ic_n"),
    ("Ireland", "land", "ir_n ir_s ir_w"),
    ("Corsica", "land", "co"),
    ("Sardinia", "land", "sa"),
    ("Sicily", "land", "si_ne si_w si_s"),
    ("Mallorca", "land", "mj"),
    ("Crete", "land", "cr_w cr_e cr_s"),
    ("Cyprus", "land", "cy"),
    ("Sea of Marmara", "water", "mm"),
    ("Sea of Azov", "water", "az"),
]

# --- anchors -------------------------------------------------------------------------------
# Fleet positions on split coasts, (lon, lat): each near its own stretch of coast.
COAST_ANCHORS: dict[str, dict[str, Geo]] = {
    "SPA": {"NC": (-5.6, 43.1), "SC": (-1.3, 38.2)},
    "STP": {"NC": (36.5, 68.2), "SC": (30.6, 60.4)},
    "BUL": {"EC": (27.35, 42.85), "SC": (25.2, 41.15)},
}
# Hand-placed anchors, (lon, lat), where the automatic placement is poor.
# The big eastern provinces get their tokens near their cities, not deep in the steppe.
ANCHOR_OVERRIDES: dict[str, dict[str, Geo]] = {
    "MOS": {"unit": (37.0, 55.4)},
    "STP": {"unit": (34.0, 63.0)},
    "SEV": {"unit": (34.2, 45.2)},
    "ARM": {"unit": (40.5, 39.4)},
    "SYR": {"unit": (37.6, 35.4)},
}

# fmt: on

LABEL_ROOM = 8.0  # clearance wanted around a label's text
TEXT_HALF_WIDTH = 10.0  # half the width of a three-letter label
MARKER_ROOM = 6.0  # clearance wanted around a supply-centre marker
UNIT_ROOM = 11.0  # least clearance wanted around a unit token
UNIT_LABEL_GAP = 16.0  # least distance from the unit token to the label (see _text_gap)
MARKER_GAP = 14.0  # least distance from the centre marker to the unit
ROOM_CAP = 24.0  # clearance beyond this is not worth more
MAX_LENS_SEGMENT = 10.0  # longest straight piece inside a lens, before warping


# --- building ------------------------------------------------------------------------------
def _round(p: XY) -> XY:
    return (round(p[0], 1), round(p[1], 1))


def _frame_point(side: str, lon: float, lat: float) -> XY:
    x, y = conic(lon, lat)
    if side == "N":
        return (x, 0.0)
    if side == "S":
        return (x, HEIGHT)
    if side == "E":
        return (WIDTH, y)
    return (0.0, y)


def junction_xy(name: str) -> XY:
    """The viewBox position of a junction."""
    return _round(_warp(_unwarped_junction(name)))


def _unwarped_junction(name: str) -> XY:
    if name in CORNERS:
        return CORNERS[name]
    if name in FRAME:
        return _frame_point(*FRAME[name])
    return conic(*JUNCTIONS[name])


def _edge_polyline(key: str) -> list[XY]:
    """One edge from its first junction to its last, in viewBox units.

    Segments that cross a lens are cut into short pieces before warping, so they follow
    the warped plane instead of cutting across it as straight chords.
    """
    a, b = key.split()
    points = [_unwarped_junction(a), *(conic(*g) for g in EDGES[key]), _unwarped_junction(b)]
    fine: list[XY] = [points[0]]
    for p, q in itertools.pairwise(points):
        pieces = 1
        if _in_lens(p) or _in_lens(q) or _in_lens(((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)):
            pieces = max(1, math.ceil(math.dist(p, q) / MAX_LENS_SEGMENT))
        fine.extend(
            (p[0] + (q[0] - p[0]) * i / pieces, p[1] + (q[1] - p[1]) * i / pieces)
            for i in range(1, pieces + 1)
        )
    line = [junction_xy(a), *(_round(_warp(p)) for p in fine[1:-1]), junction_xy(b)]
    # Rounding can make neighbouring pieces coincide; keep one of each.
    return [p for i, p in enumerate(line) if i == 0 or p != line[i - 1]]


def _edge_points(a: str, b: str) -> list[XY]:
    """Points from junction a up to (not including) junction b along their shared edge."""
    forward, backward = f"{a} {b}", f"{b} {a}"
    if forward in EDGES and backward in EDGES and a != b:
        raise ValueError(f"edge {a}-{b} is listed in both directions")
    if forward in EDGES:
        line = _edge_polyline(forward)
    elif backward in EDGES:
        line = list(reversed(_edge_polyline(backward)))
    else:
        raise ValueError(f"no edge between {a} and {b}")
    return line[:-1]


def _ring_edges(ring: str) -> Iterator[tuple[str, str]]:
    names = ring.split()
    for i, a in enumerate(names):
        yield a, names[(i + 1) % len(names)]


def ring_points(ring: str) -> Ring:
    """The outline of one ring of junctions as viewBox points (not repeating the first)."""
    points: Ring = []
    for a, b in _ring_edges(ring):
        points.extend(_edge_points(a, b))
    return points


def signed_area(ring: Sequence[XY]) -> float:
    """Shoelace area; positive when the ring runs clockwise on screen (y down)."""
    return 0.5 * sum(
        ring[i][0] * ring[(i + 1) % len(ring)][1] - ring[(i + 1) % len(ring)][0] * ring[i][1]
        for i in range(len(ring))
    )


def _oriented(rings: list[Ring]) -> list[Ring]:
    # Outer ring clockwise, holes anticlockwise: holes show under both SVG fill rules.
    out: list[Ring] = []
    for i, ring in enumerate(rings):
        clockwise = signed_area(ring) > 0
        out.append(ring if clockwise == (i == 0) else list(reversed(ring)))
    return out


def _fmt(v: float) -> str:
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def svg_path(rings: Sequence[Ring]) -> str:
    """An SVG path of straight segments: one closed subpath per ring."""
    parts = []
    for ring in rings:
        head, *rest = ring
        segs = " ".join(f"L {_fmt(x)} {_fmt(y)}" for x, y in rest)
        parts.append(f"M {_fmt(head[0])} {_fmt(head[1])} {segs} Z")
    return " ".join(parts)


def contains(rings: Sequence[Sequence[XY]], p: XY) -> bool:
    """Even-odd point-in-polygon over all rings (holes excluded)."""
    x, y = p
    inside = False
    for ring in rings:
        n = len(ring)
        for i in range(n):
            (x1, y1), (x2, y2) = ring[i], ring[(i + 1) % n]
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
    return inside


def _segment_distance(p: XY, a: XY, b: XY) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length2 = dx * dx + dy * dy
    t = (
        0.0
        if length2 == 0
        else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / length2))
    )
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


class _Area:
    """One province's rings, with the searches used to place its anchors."""

    def __init__(self, rings: list[Ring]) -> None:
        self.rings = rings
        xs = [p[0] for p in rings[0]]
        ys = [p[1] for p in rings[0]]
        self.box = (min(xs), min(ys), max(xs), max(ys))
        self.area = abs(signed_area(rings[0]))
        self.step = min(9.0, max(3.0, math.sqrt(self.area) / 14))  # search grid spacing
        self._grid: list[XY] | None = None
        n = len(rings[0])
        self.centroid = (sum(xs) / n, sum(ys) / n)
        # Border segments bucketed by grid cell, each in every cell within ROOM_CAP of it,
        # so a capped clearance only looks at the segments near the point.
        self.cells: dict[tuple[int, int], list[tuple[XY, XY]]] = {}
        for ring in rings:
            for i, a in enumerate(ring):
                b = ring[(i + 1) % len(ring)]
                for cell in self._cells_near(a, b):
                    self.cells.setdefault(cell, []).append((a, b))

    @staticmethod
    def _cells_near(a: XY, b: XY) -> Iterator[tuple[int, int]]:
        x0 = math.floor((min(a[0], b[0]) - ROOM_CAP) / ROOM_CAP)
        x1 = math.floor((max(a[0], b[0]) + ROOM_CAP) / ROOM_CAP)
        y0 = math.floor((min(a[1], b[1]) - ROOM_CAP) / ROOM_CAP)
        y1 = math.floor((max(a[1], b[1]) + ROOM_CAP) / ROOM_CAP)
        for i in range(x0, x1 + 1):
            for j in range(y0, y1 + 1):
                yield (i, j)

    def clearance(self, p: XY) -> float:
        """Distance from p to the nearest border, or ROOM_CAP when none is that near."""
        near = self.cells.get((math.floor(p[0] / ROOM_CAP), math.floor(p[1] / ROOM_CAP)), [])
        return min([ROOM_CAP, *(_segment_distance(p, a, b) for a, b in near)])

    def room(self, p: XY, half_width: float = 0.0) -> float:
        """Clearance left around p, or around a text of half_width centred on p; 0 outside."""
        if not contains(self.rings, p):
            return 0.0
        room = self.clearance(p)
        for side in ((p[0] - half_width, p[1]), (p[0] + half_width, p[1])) if half_width else ():
            # Inside the clear disc around p the sides are inside too; else look.
            if room <= half_width and not contains(self.rings, side):
                return 0.0
            room = min(room, self.clearance(side))
        return room

    def grid(self) -> list[XY]:
        """Points inside the area on a grid fine enough for its size."""
        if self._grid is None:
            step = self.step
            x0, y0, x1, y1 = self.box
            points = [
                (x0 + (i + 0.5) * step, y0 + (j + 0.5) * step)
                for j in range(int((y1 - y0) / step))
                for i in range(int((x1 - x0) / step))
            ]
            self._grid = [p for p in points if contains(self.rings, p)]
        return self._grid

    def best(
        self, score: Callable[[XY], float | None], bound: Callable[[XY], float] | None = None
    ) -> XY | None:
        """The inside point maximising score (None: not allowed): coarse grid, then finer.

        bound, if given, is never below score; points it rules out are not scored.
        """
        step = self.step
        candidates = self.grid()
        best: tuple[float, XY] | None = None
        for rounds in range(2):
            for p in candidates:
                if best is not None and bound is not None and bound(p) <= best[0]:
                    continue
                if rounds and not contains(self.rings, p):
                    continue
                s = score(p)
                if s is not None and (best is None or s > best[0]):
                    best = (s, p)
            if best is None:
                return None
            cx, cy = best[1]
            fine = step / 5
            candidates = [
                (cx + i * fine, cy + j * fine) for i in range(-5, 6) for j in range(-5, 6)
            ]
        return None if best is None else _round(best[1])


def _text_gap(p: XY, q: XY) -> float:
    # Labels are wider than tall: horizontal distance counts for less.
    return math.hypot((p[0] - q[0]) / 1.7, p[1] - q[1])


def _anchors(code: str, rings: list[Ring], centre: bool) -> dict[str, XY]:
    area = _Area(rings)
    overrides = {k: _round(project(*g)) for k, g in ANCHOR_OVERRIDES.get(code, {}).items()}
    unit = overrides.get("unit") or area.best(
        # As much room as can be had, then as central as can be.
        lambda p: area.clearance(p) - 0.02 * math.dist(p, area.centroid),
        lambda p: ROOM_CAP - 0.02 * math.dist(p, area.centroid),
    )
    if unit is None:
        raise ValueError(f"{code}: no room for a unit")

    def find_label(at: XY, gap: float, need: float) -> XY | None:
        def score(p: XY) -> float | None:
            if _text_gap(p, at) < gap:
                return None
            room = area.room(p, TEXT_HALF_WIDTH)
            return None if room < need else min(room, LABEL_ROOM) - 0.05 * math.dist(p, at)

        return area.best(score, lambda p: LABEL_ROOM - 0.05 * math.dist(p, at))

    label = overrides.get("label") or find_label(unit, UNIT_LABEL_GAP, 5.0)
    if label is None and "unit" not in overrides:
        # A small province: move the unit off its middle to make room for the label.
        pairs = []
        for at in area.grid():
            if area.clearance(at) >= UNIT_ROOM and (found := find_label(at, 13.0, 5.0)):
                room = min(area.clearance(at), UNIT_ROOM + 3) + min(area.room(found, 10), 8)
                pairs.append((room, at, found))
        if pairs:
            _, unit, label = max(pairs)
    # Rather a label close to the unit than one whose text runs over a border.
    for gap, need in ((13.0, 4.0), (11.0, 3.0), (0.0, 0.0)):
        label = label or find_label(unit, gap, need)
    if label is None:
        raise ValueError(f"{code}: no room for a label")
    result = {"label": label, "unit": unit}
    if not centre:
        return result

    def marker_score(gap: float) -> Callable[[XY], float | None]:
        def score(p: XY) -> float | None:
            if math.dist(p, unit) < gap or _text_gap(p, label) < gap * 0.7:
                return None
            return min(area.room(p), MARKER_ROOM) - 0.05 * math.dist(p, unit)

        return score

    marker = overrides.get("centre")
    for gap in (MARKER_GAP, MARKER_GAP * 0.6, 0.0):
        marker = marker or area.best(
            marker_score(gap), lambda p: MARKER_ROOM - 0.05 * math.dist(p, unit)
        )
    if marker is None:
        raise ValueError(f"{code}: no room for a supply-centre marker")
    result["centre"] = marker
    return result


def _check_lenses() -> None:
    # The lenses must stretch, never fold, and must leave the frame where it is.
    for lon, lat, _, k in LENSES:
        if not 0 <= k < 3:
            raise ValueError(f"lens at ({lon}, {lat}) would fold the plane")
    for name in [*FRAME, *CORNERS]:
        x, y = junction_xy(name)
        if not (x in (0.0, WIDTH) or y in (0.0, HEIGHT)):
            raise ValueError(f"a lens moves frame point {name} off the frame")


def _check_edges_used() -> None:
    # Each edge borders exactly two areas, except the frame, which borders one.
    uses: dict[frozenset[str] | str, int] = {}
    rings = [r for rs in PROVINCES.values() for r in rs] + [r for _, _, r in DECOR]
    for ring in rings:
        for a, b in _ring_edges(ring):
            key: frozenset[str] | str = a if a == b else frozenset((a, b))
            uses[key] = uses.get(key, 0) + 1
    for name in EDGES:
        a, b = name.split()
        key = a if a == b else frozenset((a, b))
        on_frame = a.startswith("f_") and b.startswith("f_")
        want = 1 if on_frame else 2
        if uses.get(key, 0) != want:
            raise ValueError(f"edge {name} borders {uses.get(key, 0)} areas, not {want}")


def load_map() -> dict[str, Any]:
    """The standard map's TOML data."""
    with MAP_TOML.open("rb") as f:
        return tomllib.load(f)


def build() -> dict[str, Any]:
    """The board geometry, as the JSON document the web client reads."""
    _check_lenses()
    _check_edges_used()
    data = load_map()
    toml_provinces: dict[str, Any] = data["provinces"]
    if set(toml_provinces) != set(PROVINCES):
        missing = set(toml_provinces) ^ set(PROVINCES)
        raise ValueError(f"provinces differ from the map data: {sorted(missing)}")
    provinces: dict[str, Any] = {}
    for code in sorted(PROVINCES):
        info = toml_provinces[code]
        rings = _oriented([ring_points(r) for r in PROVINCES[code]])
        entry: dict[str, Any] = {"kind": info["kind"], "path": svg_path(rings)}
        for key, point in _anchors(code, rings, bool(info.get("centre"))).items():
            entry[key] = list(point)
        if "coasts" in info:
            anchors = COAST_ANCHORS[code]
            if set(anchors) != set(info["coasts"]):
                raise ValueError(f"{code}: coast anchors differ from the map's coasts")
            entry["coasts"] = {c: list(_round(project(*anchors[c]))) for c in sorted(anchors)}
        provinces[code] = entry
    decor = [
        {"name": name, "kind": kind, "path": svg_path(_oriented([ring_points(ring)]))}
        for name, kind, ring in DECOR
    ]
    return {
        "format": 1,
        "map": data["name"],
        "viewBox": [0, 0, int(WIDTH), int(HEIGHT)],
        "provinces": provinces,
        "decor": decor,
    }


def render(doc: dict[str, Any]) -> str:
    """The JSON text written to disk (stable key order, one province per block)."""
    return json.dumps(doc, indent=1, sort_keys=True) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Write the JSON file (or the path given as the only argument)."""
    args = list(sys.argv[1:] if argv is None else argv)
    target = Path(args[0]) if args else OUTPUT
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(render(build()), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
