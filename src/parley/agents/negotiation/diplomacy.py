"""Diplomacy negotiators: peace, demilitarised zones and supports, in DAIDE press.

At the first decision of each movement phase the bot proposes to every neighbour it has no
deal with (a power whose units could meet its own in a province): peace, and an empty zone of the
provinces both could enter. It asks a partner at peace for a support when its own move
would attack a third power's unit next to that partner. It accepts peace and zones from
anyone but the power with the most centres, and support requests from powers at peace
with it. The `honest` policy keeps every deal: orders that would break one are replaced by
holds, and promised supports are given. The `opportunist` makes the same deals and then
orders as the plain heuristic does.

Each seat keeps a ledger (`trust.Ledger`): at its first decision after an adjudication it
looks at the board for breaches of its peace and zones (a partner's unit now where its own
unit or centre was, or inside an agreed zone). A power that broke a deal is refused and
never asked again, and the deals with it are void. A power that never answered is asked
once; a proposal refused or unanswered is not repeated word for word. The `naive` variant
(`negotiator-naive`, `opportunist-naive`) keeps the same books but trusts everyone.
"""

from __future__ import annotations

from typing import Any

from parley.games.diplomacy import daide
from parley.games.diplomacy.deals import tally
from parley.games.diplomacy.orders import Hold, Move, Order, SupportMove, order_location
from parley.games.diplomacy.phase import PhaseKind
from parley.games.diplomacy.rules import DiplomacyState, OrderSet
from parley.games.diplomacy.units import UnitKind
from parley.kernel import Match, Rules

from ..heuristics.diplomacy import DiplomacyHeuristic
from ..protocol import Decision, Reply, Say
from .trust import Ledger


class DiplomacyNegotiator:
    talks = True
    # The parts of a seat's memory worth keeping across a server restart (plain JSON).
    remembers = ("ledger", "audited_epoch")

    def __init__(self, rules: Rules[Any, Any], policy: str, naive: bool = False) -> None:
        self.name = ("negotiator" if policy == "honest" else "opportunist") + (
            "-naive" if naive else ""
        )
        self.policy = policy
        self.naive = naive
        self.heuristic = DiplomacyHeuristic(rules)

    def accepts_draw(self, decision: Decision) -> bool:
        """As the heuristic it plays by: late enough, and not ahead."""
        return self.heuristic.accepts_draw(decision)

    def choose(self, decision: Decision) -> Any:
        return _Seat(self, decision).choose()


class _Seat:
    """One decision of one seat, with what the seat remembers of its deals."""

    def __init__(self, bot: DiplomacyNegotiator, decision: Decision) -> None:
        self.policy = bot.policy
        self.heuristic = bot.heuristic
        self.decision = decision
        memory = decision.memory
        self.deals: list[tuple[frozenset[str], daide.Arrangement]] = memory.setdefault("deals", [])
        self.asked: dict[str, daide.Arrangement] = memory.setdefault("asked", {})
        self.promised: list[Order] = memory.setdefault("promised", [])
        self.memory = memory
        self.ledger = Ledger(memory, trusting=bot.naive)

    # --- keeping the books ---------------------------------------------------------------

    def _audit(self, state: DiplomacyState, me: str) -> None:
        """Once per adjudication: note the partners whose units broke a deal since this
        seat last looked, then void every deal with a power it no longer trusts."""
        if self.memory.get("audited_epoch") == state.epoch:
            return
        dip, position = state.map, state.position
        seat = dip.power_index[me]
        before: dict[str, Any] | None = self.memory.get("snapshot")
        if before is not None:
            mine = set(before["units"]) | set(before["centres"])
            others: dict[int, int] = before["others"]
            for parties, arr in self.deals:
                if me not in parties:
                    continue
                for prov, unit in sorted(position.units.items()):
                    who = dip.powers[unit.power]
                    if who == me or who not in parties or others.get(prov) == unit.power:
                        continue  # only a unit that arrived since this seat last looked
                    code = dip.provinces[prov].code
                    if prov in mine and _peace_with(arr, who):
                        why = f"moved into {code}, held by {me}"
                    elif code in _zones(arr, who):
                        why = f"moved into {code}, agreed empty"
                    else:
                        continue
                    key = f"{who}:{code}:{state.epoch}"
                    if key not in self.memory.setdefault("breaches_seen", set()):
                        self.memory["breaches_seen"].add(key)
                        self.ledger.broke(who, why, str(position.phase))
        self.memory["snapshot"] = {
            "units": [p for p, u in position.units.items() if u.power == seat],
            "centres": [p for p, owner in position.owner.items() if owner == seat],
            "others": {p: u.power for p, u in position.units.items() if u.power != seat},
        }
        self.memory["audited_epoch"] = state.epoch
        betrayers = self.ledger.betrayers()
        if betrayers:
            self.deals[:] = [(ps, a) for ps, a in self.deals if not (ps & betrayers)]
            for key, arr in list(self.asked.items()):
                if isinstance(arr, daide.Do) and arr.power in betrayers:
                    del self.asked[key]

    # --- reading press -------------------------------------------------------------------

    def _read(self, decision: Decision, me: str, leader: str | None) -> list[Say]:
        state: DiplomacyState = decision.state
        powers = list(state.map.powers)
        replies: list[Say] = []
        for entry in decision.inbox:
            if entry.get("type") != "press" or entry.get("seat") is None:
                continue
            sender = powers[int(entry["seat"])]
            self.ledger.heard(sender)
            press, _ = daide.parse_message(str(entry["text"]), powers)
            if isinstance(press, daide.Propose):
                accept = self.ledger.trusted(sender) and self._acceptable(
                    press.arrangement, me, sender, leader, state
                )
                token = "YES" if accept else "REJ"
                replies.append(
                    Say(daide.format_press(daide.Reply(token, press)), (int(entry["seat"]),))
                )
                if accept:
                    self._agree(press.arrangement, {me, sender})
            elif isinstance(press, daide.Reply) and isinstance(press.press, daide.Propose):
                key = daide.format_arrangement(press.press.arrangement)
                self.ledger.answered_offer(sender, key, press.token == "YES")
                if press.token == "YES" and key in self.asked and self.ledger.trusted(sender):
                    self._agree(self.asked.pop(key), {me, sender})
        return replies

    def _acceptable(
        self,
        arr: daide.Arrangement,
        me: str,
        sender: str,
        leader: str | None,
        state: DiplomacyState,
    ) -> bool:
        if isinstance(arr, daide.And):
            return all(self._acceptable(p, me, sender, leader, state) for p in arr.parts)
        if isinstance(arr, daide.Peace | daide.Dmz):
            return sender != leader
        if isinstance(arr, daide.Do):
            at_peace = any(
                sender in parties and me in parties and isinstance(a, daide.Peace)
                for parties, a in self.deals
            )
            # Only a support it can give in this very phase, and that breaks no other deal.
            legal = {o for part in self.decision.legal for o in part.orders}
            return (
                arr.power == me
                and at_peace
                and isinstance(arr.order, SupportMove)
                and state.position.phase.kind is PhaseKind.MOVEMENT
                and arr.order in legal
                and not self._breaks(arr.order, state, me)
            )
        return False

    def _breaks(self, order: Order, state: DiplomacyState, me: str) -> bool:
        """Whether the order breaks a peace or a zone this seat agreed to."""
        if not isinstance(order, Move | SupportMove):
            return False
        dip, position = state.map, state.position
        friends = self._friends(me, dip)
        zones = {
            prov
            for _, arr in self.deals
            if isinstance(arr, daide.Dmz) and me in arr.powers
            for prov in arr.provinces
        }
        dst = order.dst.split("/")[0]
        province = dip.prov_index[dst]
        unit = position.units.get(province)
        attacks = (unit is not None and unit.power in friends) or (
            position.owner.get(province) in friends
        )
        return attacks or dst in zones

    def _agree(self, arr: daide.Arrangement, parties: set[str]) -> None:
        if isinstance(arr, daide.And):
            for part in arr.parts:
                self._agree(part, parties)
            return
        if isinstance(arr, daide.Do):
            self.promised.append(arr.order)
            return
        self.deals.append((frozenset(parties), arr))

    # --- proposing -----------------------------------------------------------------------

    def _proposals(self, decision: Decision, me: str, leader: str | None) -> list[Say]:
        state: DiplomacyState = decision.state
        dip, position = state.map, state.position
        reach: dict[int, int] = {}  # power -> provinces its units could enter
        where: dict[int, int] = {}  # power -> provinces its units stand in
        for prov, unit in position.units.items():
            reach[unit.power] = reach.get(unit.power, 0) | dip.reach_mask_of(unit.fleet, unit.loc)
            where[unit.power] = where.get(unit.power, 0) | (1 << prov)
        seat = decision.seat
        occupied = sum(1 << p for p in position.units)
        dealt = {p for parties, _ in self.deals for p in parties}
        out: list[Say] = []
        for other in sorted(reach):
            name = dip.powers[other]
            if other == seat or name in dealt or name == leader:
                continue
            contested = reach.get(seat, 0) & reach[other]
            touching = (reach.get(seat, 0) & where[other]) or (reach[other] & where.get(seat, 0))
            if not (contested or touching):
                continue
            pair = tuple(sorted((me, name)))
            shared = reach.get(seat, 0) & reach[other] & ~occupied
            zone = tuple(
                sorted(
                    dip.provinces[q].code for q in range(dip.province_count) if (shared >> q) & 1
                )
            )[:3]
            parts: list[daide.Arrangement] = [daide.Peace(pair)]
            if zone:
                parts.append(daide.Dmz(pair, zone))
            arr: daide.Arrangement = parts[0] if len(parts) == 1 else daide.And(tuple(parts))
            key = daide.format_arrangement(arr)
            if not self.ledger.worth_asking(name, key):
                continue  # broke its word, never answers, or refused this very offer
            self.ledger.offered(name, key)
            self.asked[key] = arr
            out.append(Say(daide.format_press(daide.Propose(arr)), (other,)))
        return out

    def _support_requests(self, decision: Decision, action: OrderSet) -> list[Say]:
        """Ask a partner at peace to support a move onto a third power's unit."""
        state: DiplomacyState = decision.state
        dip, position = state.map, state.position
        me = dip.powers[decision.seat]
        friends = self._friends(me, dip)
        out: list[Say] = []
        for order in action.orders:
            if len(out) >= 2:
                break
            if not isinstance(order, Move):
                continue
            target = dip.prov_index[order.dst.split("/")[0]]
            victim = position.units.get(target)
            if victim is None or victim.power in friends or victim.power == decision.seat:
                continue
            for prov, unit in sorted(position.units.items()):
                if unit.power not in friends or prov == target:
                    continue
                if not (dip.reach_mask_of(unit.fleet, unit.loc) >> target) & 1:
                    continue
                kind = UnitKind.FLEET if unit.fleet else UnitKind.ARMY
                support = SupportMove(
                    kind, dip.locations[unit.loc].code, order.unit, order.loc, order.dst
                )
                ask = daide.Do(dip.powers[unit.power], support, me)
                key = daide.format_arrangement(ask)
                if not self.ledger.worth_asking(dip.powers[unit.power], key):
                    continue
                self.ledger.offered(dip.powers[unit.power], key)
                self.asked[key] = ask
                out.append(Say(daide.format_press(daide.Propose(ask)), (unit.power,)))
                break
        return out

    def _friends(self, me: str, dip: Any) -> set[int]:
        return {
            dip.power_index[p]
            for parties, arr in self.deals
            if isinstance(arr, daide.Peace) and me in parties
            for p in parties
            if p != me
        }

    # --- ordering ------------------------------------------------------------------------

    def choose(self) -> Any:
        decision = self.decision
        state: DiplomacyState = decision.state
        dip = state.map
        me = dip.powers[decision.seat]
        centres: dict[int, int] = {}
        for owner in state.position.owner.values():
            centres[owner] = centres.get(owner, 0) + 1
        rivals = {p: n for p, n in centres.items() if p != decision.seat}
        leader = dip.powers[max(rivals, key=lambda p: rivals[p])] if rivals else None
        self._audit(state, me)
        press = self._read(decision, me, leader) if decision.press else []
        kind = state.position.phase.kind
        if (
            decision.press
            and kind is PhaseKind.MOVEMENT
            and state.epoch != self.memory.get("proposed_epoch")
        ):
            self.memory["proposed_epoch"] = state.epoch
            press += self._proposals(decision, me, leader)
        action: OrderSet = self.heuristic.choose(decision)
        if kind is PhaseKind.MOVEMENT:
            if decision.press:
                press += self._support_requests(decision, action)
            if self.policy == "honest":
                action = self._keep_deals(decision, action)
        return Reply(action, tuple(press))

    def _keep_deals(self, decision: Decision, action: OrderSet) -> OrderSet:
        """Holds instead of orders that break a deal; promised supports given, once."""
        state: DiplomacyState = decision.state
        me = state.map.powers[decision.seat]
        legal = {order for part in decision.legal for order in part.orders}
        promised = {order_location(o): o for o in self.promised if o in legal}
        self.promised.clear()
        kept: list[Order] = []
        for order in action.orders:
            if order_location(order) in promised:
                kept.append(promised.pop(order_location(order)))
                continue
            if isinstance(order, Move | SupportMove) and self._breaks(order, state, me):
                kept.append(Hold(order.unit, order.loc))
                continue
            kept.append(order)
        return OrderSet(tuple(kept))


def _peace_with(arr: daide.Arrangement, power: str) -> bool:
    """Whether `arr` holds a peace (or alliance) that binds `power`."""
    if isinstance(arr, daide.And):
        return any(_peace_with(part, power) for part in arr.parts)
    if isinstance(arr, daide.Peace):
        return power in arr.powers
    return isinstance(arr, daide.Alliance) and power in arr.allies


def _zones(arr: daide.Arrangement, power: str) -> set[str]:
    """The provinces `power` agreed to keep out of in `arr`."""
    if isinstance(arr, daide.And):
        return {code for part in arr.parts for code in _zones(part, power)}
    if isinstance(arr, daide.Dmz) and power in arr.powers:
        return set(arr.provinces)
    return set()


def make(rules: Rules[Any, Any], policy: str, naive: bool = False) -> DiplomacyNegotiator:
    return DiplomacyNegotiator(rules, policy, naive)


def promises(match: Match[Any, Any]) -> dict[str, int]:
    return tally(match)
