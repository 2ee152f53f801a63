"""Deals struck in press, and whether the orders that followed kept them.

A deal is a DAIDE proposal (`PRP (...)`) that every seat it was sent to accepted with
`YES (PRP (...))`. Its promises are checked against the order sets each party finally
submitted in every phase after the agreement:

* peace (and an alliance among its allies) is broken by a move into, or the support of a
  move into, a province where a partner's unit stands or a centre a partner owns;
* a demilitarised zone is broken by a move, retreat, build or supported move into it;
* an order (`XDO`) is kept when its power gives exactly that order in its next order set
  of the same kind of phase, broken otherwise;
* AND breaks with any part, ORR only when every part breaks; NOT and DRW are not checked.

Peace, alliances and zones still unbroken when the game ends were kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from parley.kernel import ActionEntry, Match, PressEntry

from . import daide
from .orders import Build, Disband, Move, Order, Retreat, SupportMove, Waive, format_order
from .phase import PhaseKind
from .rules import DiplomacyState, OrderSet


class Verdict(Enum):
    KEPT = "kept"
    BROKEN = "broken"
    OPEN = "open"
    UNCHECKABLE = "uncheckable"


@dataclass(frozen=True, slots=True)
class Deal:
    proposer: int
    partners: frozenset[int]
    arrangement: daide.Arrangement
    agreed_seq: int

    @property
    def parties(self) -> frozenset[int]:
        return self.partners | {self.proposer}


@dataclass(frozen=True, slots=True)
class DealCheck:
    deal: Deal
    verdict: Verdict
    detail: str = ""


def agreements(entries: Sequence[Any], powers: Sequence[str]) -> list[Deal]:
    """Every proposal in the press that all its recipients accepted, in order."""
    pending: dict[tuple[int, str], tuple[frozenset[int], set[int]]] = {}
    deals: list[Deal] = []
    for entry in entries:
        if not isinstance(entry, PressEntry) or entry.seat is None or entry.to is None:
            continue
        press, _ = daide.parse_message(entry.text, powers)
        if isinstance(press, daide.Propose):
            key = (entry.seat, daide.format_arrangement(press.arrangement))
            pending[key] = (frozenset(entry.to), set())
        elif (
            isinstance(press, daide.Reply)
            and press.token == "YES"
            and isinstance(press.press, daide.Propose)
        ):
            text = daide.format_arrangement(press.press.arrangement)
            for proposer in entry.to:
                found = pending.get((proposer, text))
                if found is None or entry.seat not in found[0]:
                    continue
                found[1].add(entry.seat)
                if found[1] >= found[0]:
                    deals.append(Deal(proposer, found[0], press.press.arrangement, entry.seq))
                    del pending[(proposer, text)]
    return deals


def _attacks(state: DiplomacyState, order: Order, victims: frozenset[int]) -> bool:
    """Whether the order moves (or helps a move) onto a victim's unit or centre."""
    if isinstance(order, Move | SupportMove):
        dip, position = state.map, state.position
        province = dip.prov_index[order.dst.split("/")[0]]
        unit = position.units.get(province)
        return (unit is not None and unit.power in victims) or position.owner.get(
            province
        ) in victims
    return False


def _enters(order: Order, provinces: frozenset[str]) -> bool:
    if isinstance(order, Move | SupportMove | Retreat):
        return order.dst.split("/")[0] in provinces
    return isinstance(order, Build) and order.loc.split("/")[0] in provinces


def _broken(
    arr: daide.Arrangement, state: DiplomacyState, power: int, orders: OrderSet
) -> str | None:
    """Why these orders of `power` break the arrangement, or None."""
    dip = state.map
    if isinstance(arr, daide.Peace | daide.Alliance):
        members = arr.powers if isinstance(arr, daide.Peace) else arr.allies
        group = frozenset(dip.power_index[p] for p in members)
        if power not in group:
            return None
        for order in orders.orders:
            if _attacks(state, order, group - {power}):
                return f"{dip.powers[power]} ordered {format_order(order)}"
        return None
    if isinstance(arr, daide.Dmz):
        if dip.powers[power] not in arr.powers:
            return None
        zone = frozenset(arr.provinces)
        for order in orders.orders:
            if _enters(order, zone):
                return f"{dip.powers[power]} ordered {format_order(order)}"
        return None
    if isinstance(arr, daide.And):
        for part in arr.parts:
            why = _broken(part, state, power, orders)
            if why:
                return why
        return None
    if isinstance(arr, daide.Or):
        reasons = [_broken(part, state, power, orders) for part in arr.parts]
        return reasons[0] if all(reasons) else None
    return None


def _checkable(arr: daide.Arrangement) -> bool:
    if isinstance(arr, daide.And | daide.Or):
        return any(_checkable(p) for p in arr.parts)
    return not isinstance(arr, daide.Not | daide.Draw)


def deal_report(match: Match[DiplomacyState, Any]) -> list[DealCheck]:
    """Every deal of `match`, each kept, broken, open or not checkable."""
    rules = match.rules
    state: DiplomacyState = match.start_state()  # its position, or its set-up
    powers = list(state.map.powers)
    deals = agreements(match.entries, powers)
    verdicts: dict[int, DealCheck] = {}
    for i, deal in enumerate(deals):
        if not _checkable(deal.arrangement):
            verdicts[i] = DealCheck(deal, Verdict.UNCHECKABLE)
    # Orders count as finally submitted for their phase: judge them when the phase ends.
    latest: dict[int, tuple[OrderSet, int]] = {}
    epoch = state.epoch

    def judge(snapshot: DiplomacyState) -> None:
        kind = snapshot.position.phase.kind
        for power, (orders, seq) in latest.items():
            for i, deal in enumerate(deals):
                if i in verdicts or seq < deal.agreed_seq or power not in deal.parties:
                    continue
                arr = deal.arrangement
                if isinstance(arr, daide.Do):
                    order_kind = _phase_of(arr.order)
                    if dip_power(snapshot, arr.power) != power or order_kind not in (kind, None):
                        continue
                    kept = arr.order in orders.orders
                    verdicts[i] = DealCheck(
                        deal,
                        Verdict.KEPT if kept else Verdict.BROKEN,
                        "" if kept else f"{arr.power} did not order {format_order(arr.order)}",
                    )
                    continue
                why = _broken(arr, snapshot, power, orders)
                if why:
                    verdicts[i] = DealCheck(deal, Verdict.BROKEN, why)

    before = rules.clone(state)
    for entry in match.entries:
        if not isinstance(entry, ActionEntry):
            continue
        latest[entry.seat] = (entry.action, entry.seq)
        rules.apply(state, entry.seat, entry.action)
        if state.epoch != epoch:
            judge(before)
            latest.clear()
            epoch = state.epoch
            before = rules.clone(state)
    over = match.is_over
    return [
        verdicts.get(i, DealCheck(deal, Verdict.KEPT if over else Verdict.OPEN))
        for i, deal in enumerate(deals)
    ]


def dip_power(state: DiplomacyState, name: str) -> int:
    return state.map.power_index[name]


def _phase_of(order: Order) -> PhaseKind | None:
    """The kind of phase an order belongs to; None for a disband (retreat or adjustment)."""
    if isinstance(order, Retreat):
        return PhaseKind.RETREAT
    if isinstance(order, Build | Waive):
        return PhaseKind.ADJUSTMENT
    return None if isinstance(order, Disband) else PhaseKind.MOVEMENT


def tally(match: Match[DiplomacyState, Any]) -> dict[str, int]:
    """Deals kept, broken and still open (not-checkable ones left out)."""
    counts = {"kept": 0, "broken": 0, "open": 0}
    for check in deal_report(match):
        if check.verdict is not Verdict.UNCHECKABLE:
            counts[check.verdict.value] += 1
    return counts
