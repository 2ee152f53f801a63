"""Convoy routes over the fleets on the board.

A route is a chain of sea provinces, each holding a fleet, from the army's coast to the
destination coast. A fleet may legally convoy an army only if it lies on a *minimal* route
(one with no shortcut, so no fleet of it is superfluous): the DATC calls a convoy order
illegal when its fleet is not necessary for any route (4.E.1, case 6.G.19). A chain of
seas is minimal exactly when it is chordless, which lets a depth-first search prune early.
"""

from __future__ import annotations

from .map import DipMap

_CACHE_LIMIT = 20_000  # about ten megabytes of routes at most


class ConvoyTables:
    """Memoised route searches for one map; positions repeat a lot in self-play."""

    __slots__ = ("_cache", "map")

    def __init__(self, dip: DipMap) -> None:
        self.map = dip
        self._cache: dict[tuple[int, int], dict[int, int]] = {}

    def reach(self, fleets: int, src: int) -> dict[int, int]:
        """Destinations an army in `src` could be convoyed to through `fleets` (a bitmask of
        sea provinces holding fleets), each with the seas lying on some minimal route."""
        key = (fleets, src)
        found = self._cache.get(key)
        if found is None:
            if len(self._cache) > _CACHE_LIMIT:
                self._cache.clear()
            found = _minimal_routes(self.map, fleets, src)
            self._cache[key] = found
        return found

    def possible(self, fleets: int, src: int, dst: int) -> bool:
        """True when some chain of fleets joins `src` to `dst`."""
        return dst in self.reach(fleets, src)


def _minimal_routes(dip: DipMap, fleets: int, src: int) -> dict[int, int]:
    out: dict[int, int] = {}
    start = dip.seas_near[src] & fleets
    if not start:
        return out
    sea_adj = dip.sea_adj
    sea_coasts = dip.sea_coasts
    not_src = ~(1 << src)
    stack: list[tuple[int, int, int, int]] = []
    bit = start
    while bit:
        low = bit & -bit
        bit ^= low
        # (last sea, seas on the path, seas barred from the path, coasts touched before last)
        stack.append((low.bit_length() - 1, low, start | low, 0))
    while stack:
        node, path, barred, touched = stack.pop()
        landing = sea_coasts[node] & ~touched & not_src
        while landing:
            low = landing & -landing
            landing ^= low
            dst = low.bit_length() - 1
            out[dst] = out.get(dst, 0) | path
        # Extend without chords: the next sea must touch no earlier sea and not the source,
        # and no earlier sea may touch a later landing.
        nxt = sea_adj[node] & fleets & ~barred
        if nxt:
            barred2 = barred | sea_adj[node]
            touched2 = touched | sea_coasts[node]
            while nxt:
                low = nxt & -nxt
                nxt ^= low
                stack.append((low.bit_length() - 1, path | low, barred2 | low, touched2))
    return out


def tables_for(dip: DipMap) -> ConvoyTables:
    """The shared route cache of a map."""
    found = dip.derived.get("convoys")
    if found is None:
        found = dip.derived["convoys"] = ConvoyTables(dip)
    return found  # type: ignore[return-value]
