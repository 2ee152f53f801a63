"""The native core: which engine runs, the compiled map tables, and interned order codes.

The pure-Python engine is the reference; the native core (`_core.c`, built when a C
compiler is present) must agree with it on every list, outcome and reason. Which one runs:
the environment variable `PARLEY_DIPLOMACY_ENGINE` (`auto`, the default: native when built;
`native`; `python`), or `set_engine` at run time.

An order code is an int: kind in bits 0-3 (`HOLD` ... `WAIVE` below), the ordered unit is a
fleet in bit 4, the supported unit is a fleet in bit 5, the unit's location in bits 6-13,
then two more locations in bits 14-21 (`a`) and 22-29 (`b`), and `VIA` in bit 30.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any, Protocol

from .map import DipMap, ProvinceKind
from .orders import (
    WAIVE,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Order,
    Retreat,
    SupportHold,
    SupportMove,
    order_words,
    set_fast_parser,
)
from .phase import PhaseKind
from .position import Dislodged, Piece
from .results import Reason
from .units import UnitKind

HOLD, MOVE, SUPPORT_HOLD, SUPPORT_MOVE, CONVOY, RETREAT, DISBAND, BUILD, WAIVE_CODE = range(9)
ENGINES = ("auto", "native", "python")
# Reasons as the core numbers them (see the R_ enum in _core.c).
REASONS = (
    Reason.MOVED, Reason.HELD, Reason.SUPPORTED, Reason.CONVOYED, Reason.BOUNCED,
    Reason.OWN_UNIT, Reason.DISLODGED, Reason.CUT, Reason.UNMATCHED, Reason.NO_CONVOY,
    Reason.CONVOY_DISRUPTED, Reason.PARADOX,
)  # fmt: skip
# Reasons an order is illegal, as the core numbers them (the I_ enum in _core.c).
ILLEGAL = (
    Reason.WRONG_PHASE, Reason.NO_UNIT, Reason.FOREIGN_UNIT, Reason.SAME_PLACE,
    Reason.UNREACHABLE, Reason.NEEDS_COAST, Reason.BAD_COAST, Reason.FLEET_CONVOYED,
    Reason.NOT_AT_SEA, Reason.NOT_ON_ROUTE, Reason.NOT_AN_ARMY, Reason.NOTHING_THERE,
    Reason.NOT_DISLODGED, Reason.RETREAT_BLOCKED,
)  # fmt: skip
SUCCESS_REASONS = frozenset({Reason.MOVED, Reason.HELD, Reason.SUPPORTED, Reason.CONVOYED})


class CoreMap(Protocol):
    """What `_core.Map` offers (typed here because the module is compiled)."""

    def movement_orders(
        self, provs: list[int], powers: list[int], fleets: list[bool], locs: list[int], who: int
    ) -> list[list[int]]: ...

    def movement_values(
        self,
        provs: list[int],
        powers: list[int],
        fleets: list[bool],
        locs: list[int],
        who: int,
        table: OrderTable,
    ) -> list[list[Order]]: ...

    def routes(self, fleets: int, src: int) -> list[tuple[int, int]]: ...

    def resolve(self, *tables: list[Any]) -> tuple[Any, ...]: ...

    def validate_values(self, *tables: Any) -> tuple[Any, ...]: ...

    def set_codes(self, codes: list[str]) -> None: ...

    def parse(self, text: str, retreat: bool) -> int: ...

    def results(self, *tables: Any) -> tuple[list[Any], list[bool]]: ...

    def retreat_check(self, *tables: Any) -> list[tuple[int, int] | int]: ...


class EngineError(ValueError):
    """An unknown engine name, or the native engine asked for but not built."""


def core_module() -> Any:
    """The compiled module, or None when it was not built."""
    return _CORE


def _load() -> Any:
    try:
        from . import _core  # type: ignore[attr-defined]
    except ImportError:
        return None
    source = Path(__file__).resolve().parent / "_core.c"
    if source.exists() and _core.SOURCE:
        digest = hashlib.sha256(source.read_bytes()).hexdigest()
        if digest != _core.SOURCE:
            # An edited _core.c whose module was not rebuilt would disagree with the code
            # beside it; the Python engine is right by definition.
            print(
                "parley: the native Diplomacy core is older than _core.c "
                "(run `pip install -e .`); using the pure-Python engine",
                file=sys.stderr,
            )
            return None
    _core.configure(Piece, Dislodged)
    return _core


_CORE = _load()
_engine = "auto"


def available() -> bool:
    """True when the native core was built for this interpreter."""
    return _CORE is not None


def set_engine(name: str) -> None:
    """Choose the engine: `auto` (native when built), `native` (or EngineError), `python`."""
    global _engine
    if name not in ENGINES:
        raise EngineError(f"unknown Diplomacy engine {name!r}: choose one of {', '.join(ENGINES)}")
    if name == "native" and _CORE is None:
        raise EngineError("the native Diplomacy core is not built (no C compiler at install?)")
    _engine = name


def engine() -> str:
    """The engine in use now: `native` or `python`."""
    return "native" if _engine != "python" and _CORE is not None else "python"


def core_map(dip: DipMap) -> CoreMap | None:
    """The map's native tables, when the native engine is in use and the map fits in it."""
    if _engine == "python" or _CORE is None:
        return None
    found = dip.derived.get("native")
    if found is None:
        found = dip.derived["native"] = compile_map(dip) or False
    return found or None  # type: ignore[return-value]


def compile_map(dip: DipMap) -> CoreMap | None:
    if dip.province_count > 128 or len(dip.locations) > 255 or len(dip.powers) > 16:
        return None  # too big for the core's masks: the Python engine serves this map
    kinds = {ProvinceKind.LAND: 0, ProvinceKind.COAST: 1, ProvinceKind.SEA: 2}
    core: CoreMap = _CORE.Map(
        dip.province_count,
        len(dip.powers),
        list(dip.loc_province),
        [loc.coast is not None for loc in dip.locations],
        list(dip.army_can_stand),
        list(dip.fleet_can_stand),
        [kinds.get(p.kind, 3) for p in dip.provinces],
        [p.centre for p in dip.provinces],
        [dip.power_index.get(p.home or "", -1) for p in dip.provinces],
        [list(p.coasts) for p in dip.provinces],
        [list(adj) for adj in dip.army_adj],
        [list(adj) for adj in dip.fleet_adj],
    )
    # Codes that are also order words are left to the Python parser, which reads words first.
    words = set(order_words())
    core.set_codes([loc.code if loc.code.lower() not in words else "" for loc in dip.locations])
    return core


def parse_fast(places: object, text: str, phase: PhaseKind | None) -> Order | None:
    """The order of canonical text read by the core, or None (the Python parser reads it)."""
    if not isinstance(places, DipMap):
        return None
    core = core_map(places)
    if core is None:
        return None
    code = core.parse(text, phase is PhaseKind.RETREAT)
    return None if code < 0 else order_table(places)[code]


# --- order codes ---------------------------------------------------------------------------


class OrderTable(dict[int, Order]):
    """Order values by code for one map, made on first use and shared after, and the way
    back: codes of order values, remembered by identity (legal lists hand out the same
    objects again and again) with the order kept alive so its id stays its own."""

    def __init__(self, dip: DipMap) -> None:
        super().__init__()
        self.codes = [loc.code for loc in dip.locations]
        self.loc_index = dip.loc_index
        self.by_id: dict[int, tuple[Order, int]] = {}

    def __missing__(self, code: int) -> Order:
        order = self[code] = decode(self.codes, code)
        self.by_id[id(order)] = (order, code)
        return order

    def code(self, order: Order) -> int:
        """The code of an order value (unknown places get location 255)."""
        found = self.by_id.get(id(order))
        if found is not None and found[0] is order:
            return found[1]
        code = _encode_order(self.loc_index, order)
        if len(self.by_id) > _ID_LIMIT:
            self.by_id = {id(o): (o, c) for c, o in self.items()}
        self.by_id[id(order)] = (order, code)
        return code


_ID_LIMIT = 200_000
_NOWHERE = 255
_CLASS_KIND: dict[type, int] = {
    Hold: HOLD, Move: MOVE, SupportHold: SUPPORT_HOLD, SupportMove: SUPPORT_MOVE,
    Convoy: CONVOY, Retreat: RETREAT, Disband: DISBAND, Build: BUILD,
}  # fmt: skip
_NO_LETTER = 1 << 31  # the order gives no unit letter
_NO_TARGET_LETTER = 1 << 32  # a support that gives no letter for the supported unit


def _encode_order(loc_index: dict[str, int], order: Order) -> int:
    kind = _CLASS_KIND.get(type(order))
    if kind is None:
        return WAIVE_CODE
    o: Any = order
    code = kind | loc_index.get(o.loc, _NOWHERE) << 6
    if o.unit is None:
        code |= _NO_LETTER
    elif o.unit is UnitKind.FLEET:
        code |= 1 << 4
    if kind in (MOVE, RETREAT):
        code |= loc_index.get(o.dst, _NOWHERE) << 14
        if kind == MOVE and o.via_convoy:
            code |= 1 << 30
    elif kind in (SUPPORT_HOLD, SUPPORT_MOVE):
        code |= loc_index.get(o.target, _NOWHERE) << 14
        if o.target_unit is None:
            code |= _NO_TARGET_LETTER
        elif o.target_unit is UnitKind.FLEET:
            code |= 1 << 5
        if kind == SUPPORT_MOVE:
            code |= loc_index.get(o.dst, _NOWHERE) << 22
    elif kind == CONVOY:
        code |= loc_index.get(o.army, _NOWHERE) << 14 | loc_index.get(o.dst, _NOWHERE) << 22
    return code


def order_table(dip: DipMap) -> OrderTable:
    found = dip.derived.get("order_codes")
    if found is None:
        found = dip.derived["order_codes"] = OrderTable(dip)
    return found  # type: ignore[return-value]


_KIND = (UnitKind.ARMY, UnitKind.FLEET)


def decode(codes: list[str], code: int) -> Order:
    """The order value of a code, with location codes from `codes`."""
    kind = code & 15
    unit = None if code & _NO_LETTER else _KIND[code >> 4 & 1]
    here = codes[code >> 6 & 255]
    a = code >> 14 & 255
    b = code >> 22 & 255
    if kind == HOLD:
        return Hold(unit, here)
    if kind == MOVE:
        return Move(unit, here, codes[a], bool(code >> 30 & 1))
    target = None if code & _NO_TARGET_LETTER else _KIND[code >> 5 & 1]
    if kind == SUPPORT_HOLD:
        return SupportHold(unit, here, target, codes[a])
    if kind == SUPPORT_MOVE:
        return SupportMove(unit, here, target, codes[a], codes[b])
    if kind == CONVOY:
        return Convoy(unit, here, codes[a], codes[b])
    if kind == RETREAT:
        return Retreat(unit, here, codes[a])
    if kind == DISBAND:
        return Disband(unit, here)
    if kind == BUILD:
        return Build(unit, here)
    if kind == WAIVE_CODE:
        return WAIVE
    raise ValueError(f"not an order code: {code}")


def encode(kind: int, fleet: bool, loc: int, a: int = 0, b: int = 0, *, target_fleet: bool = False,
           via: bool = False) -> int:  # fmt: skip
    """The code of an order from its parts (locations as indices)."""
    return kind | fleet << 4 | target_fleet << 5 | loc << 6 | a << 14 | b << 22 | via << 30


def _initial_engine() -> None:
    name = os.environ.get("PARLEY_DIPLOMACY_ENGINE", "auto").strip().lower() or "auto"
    if name not in ENGINES:
        raise EngineError(f"PARLEY_DIPLOMACY_ENGINE={name!r}: choose one of {', '.join(ENGINES)}")
    set_engine(name)


_initial_engine()
set_fast_parser(parse_fast)
