"""Diplomacy on the Parley kernel: seats are powers, and each phase is one simultaneous step.

Seat `i` plays power `i` of the map; with fewer seats than powers, the remaining powers are
in civil disorder from the start (their units hold, their owed disbands are chosen for
them). A seat's action is an order set. Every power with something to order owes one; a
submitted set stays hidden and may be replaced until the last owed power submits, which
adjudicates the phase. `apply` refuses a set holding an illegal order; the adjudicator on
its own (the JSON interface, the DATC) reports such an order and lets the unit hold.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from parley.kernel import (
    Audience,
    GameSpec,
    IllegalAction,
    InvalidAction,
    OptionNode,
    OptionSpec,
    OptionValue,
    Outcome,
    Owed,
    Rng,
    Rules,
    Setup,
    Structure,
    Turn,
    Viewer,
)
from parley.kernel.errors import BadOptions, BadPosition

from .adjustments import adjustment_counts
from .civil_disorder import CivilDisorderRule
from .legal import adjustment_orders, canonical_order, movement_orders, retreat_orders
from .map import DATA_DIR, DipMap, MapError, standard_map
from .orders import (
    Build,
    Disband,
    Order,
    OrderSyntaxError,
    format_order,
    order_location,
    parse_order,
)
from .phase import PhaseKind
from .phases import Ending, GameOptions, PhaseReport, power_name, process
from .position import Position
from .results import OrderResult
from .results import Outcome as OrderOutcome
from .serial import position_to_json, results_to_json

NO_ORDERS = "NO ORDERS"
_SPLIT = re.compile(r"[;\n]+")


@dataclass(frozen=True, slots=True)
class OrderSet:
    """One power's orders for a phase; empty means every unit keeps the default."""

    orders: tuple[Order, ...] = ()
    # The notation, computed once: logs render every past action for every viewer.
    _text: list[str] = field(default_factory=list, compare=False, repr=False)

    @property
    def text(self) -> str:
        if not self._text:
            self._text.append(
                "; ".join(format_order(o) for o in self.orders) if self.orders else NO_ORDERS
            )
        return self._text[0]


@dataclass(slots=True)
class DiplomacyState:
    """The game: a position, its options, pending submissions and what happened so far."""

    map: DipMap
    seats: int
    options: GameOptions
    position: Position
    submitted: dict[int, OrderSet] = field(default_factory=dict)
    epoch: int = 0
    last: list[dict[str, Any]] = field(default_factory=list)  # results of the last phase(s)
    phases: list[str] = field(default_factory=list)  # names of the phases adjudicated
    ending: Ending | None = None
    # (epoch, legal orders by seat, legal orders by unit province) for the current phase
    legal_cache: tuple[int, dict[int, dict[str, list[Order]]], dict[int, list[Order]]] | None = None


def _shipped_maps() -> dict[str, str]:
    """The maps shipped in `data/`, by name, with their titles (a map file names its powers;
    the other data files there, such as refusals.toml, are not maps)."""
    maps: dict[str, str] = {}
    for path in sorted(DATA_DIR.glob("*.toml")):
        with path.open("rb") as f:
            doc = tomllib.load(f)
        if "powers" in doc:
            maps[path.stem] = str(doc.get("title", path.stem))
    return maps


def _map_choices() -> tuple[str, ...]:
    """The maps shipped in `data/`: the `map` option's choices."""
    return tuple(_shipped_maps())


def _map_titles() -> tuple[str, ...]:
    """Each shipped map's title, in the order of `_map_choices`."""
    return tuple(_shipped_maps().values())


_DISORDER = {
    CivilDisorderRule.SEED: "Farthest from home first (the seed)",
    CivilDisorderRule.Y2023: "As the 2023 rulebook says (DATC 6.J)",
}


class DiplomacyRules(Rules[DiplomacyState, OrderSet]):
    spec = GameSpec(
        name="diplomacy",
        title="Diplomacy",
        summary=(
            "Seven great powers of 1901 Europe give secret orders at once; support decides "
            "every battle. Own 18 of the 34 supply centres to win."
        ),
        min_seats=2,
        max_seats=7,
        default_seats=7,
        structure=Structure.SIMULTANEOUS,
        chance=False,
        hidden_information=True,
        aliases=("dip",),
        options=(
            OptionSpec(
                "map",
                "standard",
                "the map to play on",
                choices=_map_choices(),
                label="Map",
                choice_labels=_map_titles(),
            ),
            OptionSpec(
                "civil_disorder",
                CivilDisorderRule.SEED.value,
                "which units go when a power owes disbands it did not order",
                choices=tuple(r.value for r in CivilDisorderRule),
                label="Unordered disbands",
                choice_labels=tuple(_DISORDER[r] for r in CivilDisorderRule),
            ),
            OptionSpec(
                "year_limit",
                0,
                "0 for no limit; else the game is drawn when this year is over",
                minimum=0,
                maximum=9999,
                label="Last year",
            ),
        ),
        composite_actions=True,
        anytime_actions=True,
        max_plies=3000,
    )

    # --- setting up --------------------------------------------------------------------

    def setup(self, setup: Setup) -> DiplomacyState:
        try:
            dip = standard_map(str(setup.options.get("map", "standard")))
        except MapError as err:
            raise BadOptions(str(err)) from err
        if setup.seats > len(dip.powers):
            raise BadOptions(
                f"the {dip.name} map has {len(dip.powers)} powers; {setup.seats} seats is too many"
            )
        options = GameOptions(
            civil_disorder=CivilDisorderRule(str(setup.options.get("civil_disorder", "seed"))),
            year_limit=int(setup.options.get("year_limit", 0)),
        )
        return DiplomacyState(dip, setup.seats, options, Position.initial(dip))

    def seat_count(self, state: DiplomacyState) -> int:
        return state.seats

    def write_position(self, state: DiplomacyState) -> dict[str, Any]:
        from . import game_position

        return game_position.write(state)

    def read_position(self, data: Mapping[str, Any]) -> DiplomacyState:
        from parley.kernel.positions import check_usable

        from . import game_position

        state = game_position.read(self, data)
        needed = self._needs_orders(state)
        if needed and set(needed) <= set(state.submitted):
            raise BadPosition("submitted: every power owing orders has submitted (adjudicate)")
        check_usable(self, state)
        return state

    def check_submission(self, state: DiplomacyState, seat: int, action: OrderSet) -> None:
        """IllegalAction unless `seat` may submit `action` now (as `apply` checks it)."""
        if seat not in self._needs_orders(state):
            raise IllegalAction(
                f"{self._power(state, seat)} has nothing to order in {state.position.phase}"
            )
        self._check(state, seat, action)

    def seat_names(self, seats: int, options: Mapping[str, OptionValue]) -> list[str]:
        dip = standard_map(str(options.get("map", "standard")))
        return list(dip.powers[:seats])

    def seat_labels(self, seats: int, options: Mapping[str, OptionValue]) -> list[str]:
        """Powers as people read them ("France"); `seat_names`, the map and the notation
        keep "FRANCE"."""
        return [power_name(p) for p in self.seat_names(seats, options)]

    def clone(self, state: DiplomacyState) -> DiplomacyState:
        return DiplomacyState(
            state.map,
            state.seats,
            state.options,
            state.position.copy(),
            dict(state.submitted),
            state.epoch,
            list(state.last),
            list(state.phases),
            state.ending,
            state.legal_cache,
        )

    # --- whose turn ----------------------------------------------------------------------

    def _needs_orders(self, state: DiplomacyState) -> list[int]:
        """Seats whose power has something to order this phase."""
        if state.ending is not None:
            return []
        pos = state.position
        kind = pos.phase.kind
        if kind is PhaseKind.MOVEMENT:
            busy = {u.power for u in pos.units.values()}
        elif kind is PhaseKind.RETREAT:
            busy = {d.piece.power for d in pos.dislodged.values()}
        else:
            busy = {p for p, n in enumerate(adjustment_counts(pos)) if n}
        return sorted(s for s in busy if s < state.seats)

    def turn(self, state: DiplomacyState) -> Turn:
        needed = self._needs_orders(state)
        prompt = state.position.phase.long_name
        owed = tuple(Owed(s, "orders", prompt) for s in needed if s not in state.submitted)
        return Turn(owed=owed, simultaneous=True, anytime=frozenset(state.submitted))

    def epoch(self, state: DiplomacyState) -> int:
        return state.epoch

    def alive(self, state: DiplomacyState) -> frozenset[int]:
        pos = state.position
        centres = pos.centre_counts()
        units = pos.unit_counts()
        return frozenset(s for s in range(state.seats) if centres[s] or units[s])

    # --- legal orders --------------------------------------------------------------------

    def legal_orders(self, state: DiplomacyState, seat: int) -> dict[str, list[Order]]:
        """Legal orders of the seat's power: by unit location, or under the power's name
        in an adjustment phase. Cached until the phase changes."""
        cache = state.legal_cache
        if cache is None or cache[0] != state.epoch:
            cache = state.legal_cache = (state.epoch, {}, self._all_orders(state))
        found = cache[1].get(seat)
        if found is None:
            found = cache[1][seat] = self._legal_orders(state, seat, cache[2])
        return found

    def _all_orders(self, state: DiplomacyState) -> dict[int, list[Order]]:
        kind = state.position.phase.kind
        if kind is PhaseKind.MOVEMENT:
            return movement_orders(state.position)
        if kind is PhaseKind.RETREAT:
            return retreat_orders(state.position)
        return {}

    def _legal_orders(
        self, state: DiplomacyState, seat: int, by_prov: dict[int, list[Order]]
    ) -> dict[str, list[Order]]:
        if seat not in self._needs_orders(state):
            return {}
        pos = state.position
        kind = pos.phase.kind
        if kind is PhaseKind.ADJUSTMENT:
            power = state.map.powers[seat]
            return {power: adjustment_orders(pos, power)}
        if kind is PhaseKind.MOVEMENT:
            locs = {p: u.loc for p, u in pos.units.items() if u.power == seat}
        else:
            locs = {p: d.piece.loc for p, d in pos.dislodged.items() if d.piece.power == seat}
        codes = state.map.locations
        return {codes[locs[p]].code: by_prov[p] for p in sorted(locs)}

    def legal_actions(self, state: DiplomacyState, seat: int) -> Sequence[OrderSet]:
        return [
            OrderSet((order,))
            for orders in self.legal_orders(state, seat).values()
            for order in orders
        ]

    def combine(self, state: DiplomacyState, seat: int, parts: Sequence[OrderSet]) -> OrderSet:
        return OrderSet(tuple(order for part in parts for order in part.orders))

    def random_action(self, state: DiplomacyState, seat: int, rng: Rng) -> OrderSet:
        legal = self.legal_orders(state, seat)
        if not legal:
            raise IllegalAction(f"{self._power(state, seat)} has nothing to order now")
        if state.position.phase.kind is not PhaseKind.ADJUSTMENT:
            return OrderSet(tuple(rng.choice(orders) for orders in legal.values()))
        owed = abs(adjustment_counts(state.position)[seat])
        pool = list(next(iter(legal.values())))
        picked: list[Order] = []
        used: set[str] = set()
        while len(picked) < owed and pool:
            order = pool.pop(rng.below(len(pool)))
            where = "" if not isinstance(order, (Build, Disband)) else order.loc.split("/")[0]
            if where and where in used:
                continue
            used.add(where)
            picked.append(order)
        return OrderSet(tuple(picked))

    def options_tree(self, state: DiplomacyState, seat: int) -> OptionNode:
        legal = self.legal_orders(state, seat)
        if state.position.phase.kind is PhaseKind.ADJUSTMENT:
            orders = next(iter(legal.values()), [])
            owed = abs(adjustment_counts(state.position)[seat])
            word = "Build" if orders and not isinstance(orders[0], Disband) else "Disband"
            children = tuple(
                _group(f"{word.lower()}{i + 1}", f"{word} {i + 1}", orders) for i in range(owed)
            )
        else:
            children = tuple(
                _group(loc, _unit_label(orders[0]), orders) for loc, orders in legal.items()
            )
        label = f"{self._power(state, seat)}: {state.position.phase.long_name}"
        return OptionNode(key="root", label=label, children=children, each=True)

    def default_action(self, state: DiplomacyState, seat: int) -> OrderSet:
        return OrderSet()

    # --- acting --------------------------------------------------------------------------

    def apply(self, state: DiplomacyState, seat: int, action: OrderSet) -> None:
        if seat not in self._needs_orders(state):
            raise IllegalAction(
                f"{self._power(state, seat)} has nothing to order in {state.position.phase}",
                reason="not_your_turn",
            )
        self._check(state, seat, action)
        state.submitted[seat] = action
        if set(self._needs_orders(state)) <= set(state.submitted):
            self._adjudicate(state)

    def _check(self, state: DiplomacyState, seat: int, action: OrderSet) -> None:
        """Refuse the set unless every order is one the legal lists offer (web play: DATC
        6.B.7), each unit has one order, and builds or disbands stay within what is owed."""
        if not action.orders:
            return
        power = self._power(state, seat)
        legal = self.legal_orders(state, seat)
        phase = state.position.phase

        def refuse(order: Order, why: str) -> IllegalAction:
            text = format_order(order)
            return IllegalAction(
                f"{power} cannot order {text} in {phase}: {why}",
                text=text,
                state_id=state.epoch,
                reason=_order_reason(why),
            )

        everything = next(iter(legal.values()), []) if phase.kind is PhaseKind.ADJUSTMENT else []
        for order in action.orders:
            where = order_location(order) or ""
            offered = everything or legal.get(where, [])
            if order not in offered:
                raise refuse(order, self._why_illegal(state, power, order))
        if phase.kind is not PhaseKind.ADJUSTMENT:
            seen: set[str] = set()
            for order in action.orders:
                where = order_location(order) or ""
                if where in seen:
                    raise refuse(order, f"{where} already has an order in this set")
                seen.add(where)
            return
        report = process(state.position, {power: list(action.orders)}, state.options)
        for result in report.results:
            if not result.defaulted and result.outcome is OrderOutcome.ILLEGAL:
                raise refuse(result.order, result.message.removeprefix("illegal: "))

    def _why_illegal(self, state: DiplomacyState, power: str, order: Order) -> str:
        report = process(state.position, {power: [order]}, state.options)
        for result in report.results:
            if not result.defaulted and result.outcome is OrderOutcome.ILLEGAL:
                return result.message.removeprefix("illegal: ")
        return "not one of the legal orders now (write it as the legal-order list does)"

    def _adjudicate(self, state: DiplomacyState) -> None:
        """Resolve the phase; then resolve, with no orders, phases where only powers without
        a seat have something to order (civil disorder), until a seat owes orders again."""
        dip = state.map
        orders = {
            dip.powers[s]: list(action.orders) for s, action in sorted(state.submitted.items())
        }
        state.last = []
        while True:
            report: PhaseReport = process(state.position, orders, state.options)
            state.last.append(_phase_json(report.phase.name, report.results))
            state.last.extend(_phase_json(ph.name, res) for ph, res in report.auto)
            state.phases.append(report.phase.name)
            state.phases.extend(ph.name for ph, _ in report.auto)
            state.position = report.position
            state.ending = report.ending
            orders = {}
            if state.ending is not None or self._needs_orders(state):
                break
        state.submitted = {}
        state.epoch += 1

    def audience(self, state: DiplomacyState, seat: int, action: OrderSet) -> Audience:
        return Audience(frozenset({seat}), reveal_epoch=state.epoch + 1)

    # --- the end -------------------------------------------------------------------------

    def outcome(self, state: DiplomacyState) -> Outcome | None:
        ending = state.ending
        if ending is None:
            return None
        index = state.map.power_index
        if ending.winner is not None and index[ending.winner] < state.seats:
            return Outcome.win(index[ending.winner], state.seats, ending.reason)
        sharing = [index[p] for p in ending.powers if index[p] < state.seats]
        return Outcome.shared(sharing, state.seats, ending.reason)

    # --- seeing --------------------------------------------------------------------------

    def observe(self, state: DiplomacyState, viewer: Viewer) -> dict[str, Any]:
        view: dict[str, Any] = {
            "map": state.map.name,
            "position": position_to_json(state.position),
            "adjustments": dict(
                zip(state.map.powers, adjustment_counts(state.position), strict=True)
            )
            if state.position.phase.kind is PhaseKind.ADJUSTMENT
            else {},
            "submitted": [state.map.powers[s] for s in sorted(state.submitted)],
            "last": state.last,
            "phases": list(state.phases),
            "ended": None
            if state.ending is None
            else {
                "winner": state.ending.winner,
                "draw": list(state.ending.powers) if state.ending.winner is None else [],
                "reason": state.ending.reason,
            },
        }
        if viewer.omniscient:
            view["pending"] = {
                state.map.powers[s]: self._token(state, s) for s in sorted(state.submitted)
            }
        elif viewer.seat is not None and viewer.seat in state.submitted:
            view["my_orders"] = self._token(state, viewer.seat)
        return view

    def _token(self, state: DiplomacyState, seat: int) -> str:
        orders = self.format(state.submitted[seat])
        return f"orders of {self._power(state, seat)} for {state.position.phase}: {orders}"

    def secrets(self, state: DiplomacyState, seat: int) -> Collection[str]:
        return [self._token(state, seat)] if seat in state.submitted else []

    def render(self, observation: Mapping[str, Any]) -> str:
        pos = observation["position"]
        lines = [f"{pos['phase']} on the {observation['map']} map"]
        for power, units in pos["units"].items():
            centres = pos["centres"].get(power, [])
            lines.append(f"  {power:<8} {len(centres):>2} centres: {', '.join(units) or '-'}")
        for phase in observation.get("last", []):
            lines.append(f"Results of {phase['phase']}:")
            for power, results in phase["results"].items():
                for r in results:
                    lines.append(f"  {power:<8} {r['order']}: {r['message']}")
        return "\n".join(lines)

    # --- notation ------------------------------------------------------------------------

    def parse(
        self, text: str, state: DiplomacyState | None = None, seat: int | None = None
    ) -> OrderSet:
        raw = text.strip()
        if not raw or raw.upper() == NO_ORDERS:
            return OrderSet()
        dip = state.map if state is not None else standard_map()
        phase = state.position.phase.kind if state is not None else None
        orders: list[Order] = []
        for part in _SPLIT.split(raw):
            if not part.strip():
                continue
            try:
                order = parse_order(part, dip, phase)
            except OrderSyntaxError as err:
                raise InvalidAction(err.message, text=part) from None
            orders.append(canonical_order(state.position, order) if state is not None else order)
        return OrderSet(tuple(orders))

    def format(self, action: OrderSet) -> str:
        return action.text

    def action_to_json(self, action: OrderSet) -> Any:
        return self.format(action)

    def _power(self, state: DiplomacyState, seat: int) -> str:
        if 0 <= seat < len(state.map.powers):
            return power_name(state.map.powers[seat])  # "France", as the pages spell it
        return f"seat {seat}"


def _group(key: str, label: str, orders: Sequence[Order]) -> OptionNode:
    """An option-tree node offering alternative orders (one unit's, or one build's)."""
    leaves = tuple(
        OptionNode(key=str(i), label=format_order(o), action=format_order(o))
        for i, o in enumerate(orders)
    )
    return OptionNode(key=key, label=label, children=leaves)


def _unit_label(order: Order) -> str:
    text = format_order(order)
    return " ".join(text.split()[:2])


def _phase_json(phase: str, results: list[OrderResult]) -> dict[str, Any]:
    return {"phase": phase, "results": results_to_json(results)}


def _order_reason(why: str) -> str:
    """The reason tag of an order the adjudicator calls illegal, from its words."""
    if "adjacent" in why or "reach" in why or "convoy" in why:
        return "not_reachable"
    if "no unit" in why or "belongs to" in why or "not yours" in why:
        return "not_held"
    if "build" in why or "disband" in why:
        return "no_room" if "no " in why or "vacant" in why else "forbidden"
    return "forbidden"
