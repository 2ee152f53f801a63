"""Which units go when a power owes disbands it did not order.

Two rules are offered:
* `SEED` (the game default, the seed's UC 46 and the 1971/1982 rulebooks): the unit
  farthest from the nearest of its power's home centres goes first; fleets count fleet
  moves, armies may also cross water (a convoy counts each sea as a step); at equal
  distance fleets go before armies, then alphabetically by province name.
* `Y2023` (the 2023 rulebook, under which DATC v3.1 6.J is written): units not standing on
  a supply centre go first; then the unit farthest from any centre its power owns, counting
  every border regardless of unit kind; fleets before armies; then alphabetically.
"""

from __future__ import annotations

from enum import Enum

from .map import bits
from .position import Position


class CivilDisorderRule(Enum):
    SEED = "seed"
    Y2023 = "2023"


def disorder_disbands(
    pos: Position, power: int, count: int, rule: CivilDisorderRule, gone: set[int]
) -> list[int]:
    """Provinces of the `count` units of `power` to disband, in order; `gone` are already out."""
    dip = pos.map
    mine = [p for p, u in pos.units.items() if u.power == power and p not in gone]
    if count <= 0 or not mine:
        return []
    if rule is CivilDisorderRule.Y2023:
        owned = bits([c for c, o in pos.owner.items() if o == power])
        dist = dip.distances(owned) if owned else [0] * dip.province_count

        def key_2023(p: int) -> tuple[bool, int, int, str]:
            fleet = pos.units[p].fleet
            return (
                bool(dip.centre_mask >> p & 1),
                -_far(dist[p]),
                0 if fleet else 1,
                _name(pos, p),
            )

        ranked = sorted(mine, key=key_2023)
    else:
        homes = bits(list(dip.home_centres.get(dip.powers[power], ())))
        if not homes:
            homes = bits([c for c, o in pos.owner.items() if o == power])
        anywhere = dip.distances(homes) if homes else [0] * dip.province_count
        by_sea = dip.distances(homes, fleet=True) if homes else anywhere

        def key_seed(p: int) -> tuple[int, int, str]:
            fleet = pos.units[p].fleet
            d = by_sea[p] if fleet and by_sea[p] >= 0 else anywhere[p]
            return (-_far(d), 0 if fleet else 1, _name(pos, p))

        ranked = sorted(mine, key=key_seed)
    return ranked[:count]


def _far(d: int) -> int:
    return 10_000 if d < 0 else d  # unreachable counts as farthest


def _name(pos: Position, prov: int) -> str:
    return pos.map.provinces[prov].name.lower()
