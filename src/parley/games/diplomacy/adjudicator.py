"""Movement adjudication: Kruijswijk's guess-and-check resolver (DATC v3.1, chapter 5).

Three kinds of order carry a decision (success or failure): MOVE, SUPPORT and CONVOY. The
conditions of DATC 5.B are written as `_adjudicate` below; `resolve` finds a consistent
set of decisions by guessing inside dependency cycles and checking the guess (5.F, with
the `recursion_hits` refinement so a cycle is settled by its outermost order). A cycle with
two consistent answers, or none, gets the backup rule: a cycle of moves only is circular
movement and every move succeeds; a cycle holding convoys is a convoy paradox and, by the
Szykman rule (DATC 4.A.2), its convoying fleets fail as if they held.

Options chosen where the DATC lists alternatives (all its v3.1 preferences):
* 4.A.1 a convoy with several routes fails only when every route is disrupted: the path
  check below searches any chain of successful convoying fleets.
* 4.A.3 an army moving to an adjacent province goes by convoy only when ordered `VIA`
  or when a fleet of its own power is legally ordered to convoy it; then there is no
  fallback to the land route (`_intent`).
* 4.A.4 a convoyed attack does not cut a support aimed at its own starting province
  (`_adjudicate_support` compares provinces, however the attacker travels).
* 4.A.5 a unit dislodged by a convoyed army may retreat to that army's starting province
  (the dislodgement records no barred origin).
* 4.A.7 only a head-to-head battle (two land moves in opposite directions) removes a
  dislodged unit's power to bounce others (`_prevent`).
* 4.B.* coasts: see `legality.py`; a support may omit the coast, but a named coast must
  match the supported move (6.B.7–6.B.9, 6.B.15).
* 4.D.3 a unit with two different legal orders holds (both orders are illegal).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .convoys import ConvoyTables, tables_for
from .legality import check_convoy, check_move, check_support_move
from .map import DipMap
from .native import ILLEGAL, REASONS, CoreMap, core_map, order_table
from .orders import Convoy, Hold, Move, Order, SupportHold, SupportMove
from .position import Dislodged, Piece, Position
from .results import OrderResult, Outcome, Reason
from .units import UnitKind

HOLD, MOVE, SUPPORT, CONVOY, VOID = 0, 1, 2, 3, 4  # VOID: unmatched support/convoy (holds)


@dataclass(frozen=True, slots=True)
class MovementReport:
    """Results of every order, and the position after the moves (phase not advanced)."""

    results: list[OrderResult]
    position: Position


def adjudicate_movement(
    pos: Position,
    orders: Mapping[str, Sequence[Order]],
    convoys: ConvoyTables | None = None,
) -> MovementReport:
    """Adjudicate one movement phase. Units without a (legal) order hold."""
    return validate_movement(pos, orders, convoys).adjudicate()


def validate_movement(
    pos: Position,
    orders: Mapping[str, Sequence[Order]],
    convoys: ConvoyTables | None = None,
) -> MovementOrders:
    """The first stage: check every order's legality against the position (DATC 4.E.1) and
    settle which order each unit follows. `.adjudicate()` does the rest."""
    validated = MovementOrders(pos, orders, convoys or tables_for(pos.map))
    validated.validate()
    return validated


class MovementOrders:
    """A movement phase's orders, validated; `adjudicate` may be called more than once."""

    # Slots: attribute reads on the hot path are cheaper than through an instance dict.
    __slots__ = (
        "attack_strength", "attackers", "clashes", "cmask", "convoyed", "convoying",
        "convoys", "dip", "dloc", "dst", "entries", "fleet_at", "given_kind", "h2h",
        "hold_strength", "kind", "moves", "orders", "paradox", "path", "pieces", "pos",
        "power", "prevent_strength", "provs", "res", "slot_of", "support_count",
        "supporters", "supports", "tgt", "via",
    )  # fmt: skip

    def __init__(
        self, pos: Position, orders: Mapping[str, Sequence[Order]], convoys: ConvoyTables
    ) -> None:
        self.pos = pos
        self.dip: DipMap = pos.map
        self.orders = orders
        self.convoys = convoys

    # --- stage one: legality, and one order per unit ---------------------------------------

    def validate(self) -> None:
        core = core_map(self.dip)
        if core is not None:
            self._validate_native(core)
            return
        dip = self.dip
        units = self.pos.units
        provs = list(units)
        n = len(provs)
        # slot_of[province] is the unit's index in the per-unit lists, or -1: a list beats a
        # dict on the hot path, and the map has fewer than a hundred provinces.
        slot_of = [-1] * dip.province_count
        pieces = list(units.values())
        power = [0] * n
        fleets = 0  # seas holding a fleet, for convoy routes
        sea_mask = dip.sea_mask
        for i, p in enumerate(provs):
            slot_of[p] = i
            u = pieces[i]
            power[i] = u[0]
            if u[1] and sea_mask >> p & 1:
                fleets |= 1 << p
        kind = [HOLD] * n
        dst = [-1] * n  # move: destination province; support: destination of what it supports
        dloc = [-1] * n  # move: destination location; support-move: named coast or -1
        tgt = [-1] * n  # support/convoy: slot of the unit supported or convoyed
        via = [False] * n
        loc_index = dip.loc_index
        loc_province = dip.loc_province
        convoys = self.convoys

        entries: list[tuple[str, Order, int, Reason | None]] = []  # power, order, slot, illegal
        chosen: list[Order | None] = [None] * n
        clashes: set[int] = set()
        power_index = dip.power_index
        fleet_adj = dip.fleet_adj
        fleet_mask = dip.fleet_mask
        army_mask = dip.army_mask
        for power_name, given in self.orders.items():
            p_index = power_index.get(power_name)
            if p_index is None:
                p_index = power_index.get(power_name.upper(), -1)
            name = dip.powers[p_index] if p_index >= 0 else power_name
            for order in given:
                cls = type(order)
                if cls not in _MOVEMENT_TYPES:
                    entries.append((name, order, -1, _WRONG_PHASE))
                    continue
                loc = loc_index.get(order.loc)  # type: ignore[union-attr]
                slot = -1 if loc is None else slot_of[loc_province[loc]]
                if slot < 0:
                    entries.append((name, order, -1, _NO_UNIT))
                    continue
                piece = pieces[slot]
                if piece[0] != p_index:
                    entries.append((name, order, slot, _FOREIGN_UNIT))
                    continue
                prev = chosen[slot]
                if prev is not None:
                    entries.append((name, order, slot, None))
                    if prev != order:
                        clashes.add(slot)
                    continue
                why: Any = None
                found: Any
                # Common cases are checked inline; the rest by `legality` (same rules).
                if cls is Move:
                    d = loc_index.get(order.dst)  # type: ignore[union-attr]
                    if d is not None and not order.via_convoy:  # type: ignore[union-attr]
                        if piece[1]:
                            if d in fleet_adj[piece[2]]:
                                kind[slot] = MOVE
                                dloc[slot] = d
                                dst[slot] = loc_province[d]
                                chosen[slot] = order
                                entries.append((name, order, slot, None))
                                continue
                        else:
                            dp = loc_province[d]
                            if army_mask[provs[slot]] >> dp & 1:
                                kind[slot] = MOVE
                                dloc[slot] = dst[slot] = dp
                                chosen[slot] = order
                                entries.append((name, order, slot, None))
                                continue
                    found = check_move(dip, convoys, fleets, piece, order)  # type: ignore[arg-type]
                    if type(found) is tuple:
                        kind[slot] = MOVE
                        dloc[slot] = found[0]
                        dst[slot] = loc_province[found[0]]
                        via[slot] = found[1]
                    else:
                        why = found
                elif cls is SupportMove:
                    t = loc_index.get(order.target)  # type: ignore[union-attr]
                    d = loc_index.get(order.dst)  # type: ignore[union-attr]
                    j = -1 if t is None else slot_of[loc_province[t]]
                    dp = -1 if d is None else loc_province[d]
                    reach = fleet_mask[piece[2]] if piece[1] else army_mask[provs[slot]]
                    other = pieces[j] if j >= 0 else None
                    if (  # the plain case: supporter and supported both reach over a border
                        other is not None
                        and j != slot
                        and dp != provs[slot]
                        and dp != provs[j]
                        and dp >= 0
                        and reach >> dp & 1
                        and (
                            (
                                d in fleet_adj[other[2]]
                                if d != dp
                                else fleet_mask[other[2]] >> dp & 1
                            )
                            if other[1]
                            else army_mask[provs[j]] >> dp & 1
                        )
                    ):
                        kind[slot] = SUPPORT
                        tgt[slot] = j
                        dst[slot] = dp
                        dloc[slot] = d if other[1] and d != dp else -1  # type: ignore[assignment]
                    else:
                        found = check_support_move(dip, convoys, fleets, units, piece, order)  # type: ignore[arg-type]
                        if type(found) is tuple:
                            kind[slot] = SUPPORT
                            tgt[slot] = slot_of[found[0]]
                            dst[slot] = found[1]
                            dloc[slot] = found[2]
                        else:
                            why = found
                elif cls is SupportHold:
                    t = loc_index.get(order.target)  # type: ignore[union-attr]
                    tp = -1 if t is None else loc_province[t]
                    j = -1 if tp < 0 else slot_of[tp]
                    if j < 0 or j == slot:
                        why = _NOTHING_THERE
                    elif (
                        not (fleet_mask[piece[2]] if piece[1] else army_mask[provs[slot]]) >> tp & 1
                    ):
                        why = _UNREACHABLE
                    else:
                        kind[slot] = SUPPORT
                        tgt[slot] = j
                        dst[slot] = tp
                        dloc[slot] = -2
                elif cls is Convoy:
                    found = check_convoy(dip, convoys, fleets, units, piece, order)  # type: ignore[arg-type]
                    if type(found) is tuple:
                        kind[slot] = CONVOY
                        tgt[slot] = slot_of[found[0]]
                        dst[slot] = found[1]
                    else:
                        why = found
                entries.append((name, order, slot, why))
                if why is None:
                    chosen[slot] = order
        for slot in clashes:
            kind[slot] = HOLD
        moves, supports, convoying = [], [], []
        for i, k in enumerate(kind):
            if k == MOVE:
                moves.append(i)
            elif k == SUPPORT:
                supports.append(i)
            elif k == CONVOY:
                convoying.append(i)
        self.moves, self.supports, self.convoying = moves, supports, convoying
        self.entries = entries
        self.clashes = clashes
        self.provs, self.slot_of, self.pieces, self.power = provs, slot_of, pieces, power
        self.given_kind, self.dst, self.dloc, self.tgt, self.via = kind, dst, dloc, tgt, via

    def _validate_native(self, core: CoreMap) -> None:
        """The same checks by the native core, on order codes."""
        dip = self.dip
        units = self.pos.units
        provs = list(units)
        pieces = list(units.values())
        power = [u[0] for u in pieces]
        names: list[str] = []
        given: list[Order] = []
        entry_powers: list[int] = []
        power_index = dip.power_index
        for power_name, orders in self.orders.items():
            p_index = power_index.get(power_name)
            if p_index is None:
                p_index = power_index.get(power_name.upper(), -1)
            name = dip.powers[p_index] if p_index >= 0 else power_name
            given.extend(orders)
            names.extend([name] * len(orders))
            entry_powers.extend([p_index] * len(orders))
        kind, dst, dloc, tgt, via, self.entries, self.clashes = core.validate_values(
            provs,
            power,
            [u[1] for u in pieces],
            [u[2] for u in pieces],
            entry_powers,
            given,
            names,
            order_table(dip),
            ILLEGAL,
        )
        slot_of = [-1] * dip.province_count
        for i, p in enumerate(provs):
            slot_of[p] = i
        moves, supports, convoying = [], [], []
        for i, k in enumerate(kind):
            if k == MOVE:
                moves.append(i)
            elif k == SUPPORT:
                supports.append(i)
            elif k == CONVOY:
                convoying.append(i)
        self.moves, self.supports, self.convoying = moves, supports, convoying
        self.provs, self.slot_of, self.pieces, self.power = provs, slot_of, pieces, power
        self.given_kind, self.dst, self.dloc, self.tgt, self.via = kind, dst, dloc, tgt, via

    # --- stage two: intent to convoy, matching, resolution, results -------------------------

    def adjudicate(self) -> MovementReport:
        """Resolve the validated orders: the results, and the position after the moves."""
        core = core_map(self.dip)
        if core is not None:
            return self._adjudicate_native(core)
        dip = self.dip
        provs, slot_of, pieces, power = self.provs, self.slot_of, self.pieces, self.power
        kind = list(self.given_kind)  # unmatched supports and convoys become VOID below
        dst, dloc, tgt, via = self.dst, self.dloc, self.tgt, self.via
        n = len(provs)

        # Intent to convoy (4.A.3), then which supports and convoys match.
        convoyed = [False] * n
        cmask = [0] * n
        fleet_at: dict[int, int] = {}
        supporters: dict[int, list[int]] = {}  # slot -> slots validly supporting it
        attackers: dict[int, list[int]] = {}
        h2h = [-1] * n
        own_convoy = {(tgt[i], dst[i], power[i]) for i in self.convoying}
        army_mask = dip.army_mask
        moves = self.moves
        for i in moves:
            d = dst[i]
            if not pieces[i][1]:  # an army: by convoy?
                convoyed[i] = (
                    via[i] or not army_mask[provs[i]] >> d & 1 or (i, d, power[i]) in own_convoy
                )
            found_list = attackers.get(d)
            if found_list is None:
                attackers[d] = [i]
            else:
                found_list.append(i)
        for i in self.convoying:
            a = tgt[i]
            if kind[a] == MOVE and dst[a] == dst[i] and convoyed[a]:
                cmask[a] |= 1 << provs[i]
                fleet_at[provs[i]] = i
            else:
                kind[i] = VOID
        for i in self.supports:
            t = tgt[i]
            if dloc[i] == -2:  # support to hold
                ok = kind[t] != MOVE
            else:
                ok = (
                    kind[t] == MOVE
                    and dst[t] == dst[i]
                    and (dloc[i] < 0 or not pieces[t][1] or dloc[t] == dloc[i])
                )
            if ok:
                backing = supporters.get(t)
                if backing is None:
                    supporters[t] = [i]
                else:
                    backing.append(i)
            else:
                kind[i] = VOID
        for i in moves:
            if not convoyed[i]:
                j = slot_of[dst[i]]
                if j >= 0 and kind[j] == MOVE and dst[j] == provs[i] and not convoyed[j]:
                    h2h[i] = j

        self.kind = kind
        self.convoyed, self.cmask, self.fleet_at = convoyed, cmask, fleet_at
        self.supporters, self.attackers, self.h2h = supporters, attackers, h2h
        self._solve()
        return self._report()

    def _adjudicate_native(self, core: CoreMap) -> MovementReport:
        """The same resolution and results, with matching, decisions, reasons and the next
        position computed by the native core."""
        pieces = self.pieces
        kinds, res, beaten, reasons, whos, units, dislodged, contested = core.resolve(
            self.provs,
            self.power,
            [u[1] for u in pieces],
            [u[2] for u in pieces],
            self.given_kind,
            self.dst,
            self.dloc,
            self.tgt,
            self.via,
        )
        self.kind, self.res = kinds, res
        dip = self.dip
        names = dip.unit_names

        def name(slot: int) -> str:
            if slot < 0:
                return "?"
            piece = pieces[slot]
            return names[piece[1]][piece[2]]

        unit_names = [names[u[1]][u[2]] for u in pieces]
        results, ordered = core.results(
            self.entries, self.clashes, reasons, whos, beaten, unit_names, _RESULT_CONSTS
        )
        n = len(pieces)
        powers = dip.powers
        append = results.append
        if None in results:  # illegal orders and clashes: made here, as the Python engine does
            for k, (power_name, order, slot, why) in enumerate(self.entries):
                if results[k] is not None:
                    continue
                b = beaten[slot] if slot >= 0 else -1
                hit = None if b < 0 else name(b)
                reason = why if why is not None else Reason.DUPLICATE
                if reason is Reason.FOREIGN_UNIT:
                    detail: tuple[str, ...] = (powers[pieces[slot].power],)
                else:
                    if slot >= 0:
                        ordered[slot] = True
                    detail = _illegal_detail(order, reason)
                results[k] = OrderResult(power_name, order, Outcome.ILLEGAL, reason, detail, hit)
        holds = _holds(dip)
        for i in range(n):
            if not ordered[i]:
                piece = pieces[i]
                order = holds[piece.fleet][piece.loc]
                b = beaten[i]
                if b >= 0:
                    hit = name(b)
                    append(
                        OrderResult(
                            powers[piece.power], order, Outcome.FAILS, Reason.DISLODGED,
                            (hit,), hit, True,
                        )
                    )  # fmt: skip
                else:
                    append(_new_result((powers[piece.power], order, *_DEFAULT_HELD)))
        nxt = Position(dip, self.pos.phase, units, dict(self.pos.owner), dislodged, contested)
        return MovementReport(results, nxt)

    # --- the resolver -------------------------------------------------------------------

    def _solve(self) -> None:
        dip = self.dip
        n = len(self.provs)
        provs, power, kind, dst = self.provs, self.power, self.kind, self.dst
        convoyed, cmask, fleet_at = self.convoyed, self.cmask, self.fleet_at
        supporters, attackers, h2h = self.supporters, self.attackers, self.h2h
        unit_at = self.slot_of
        seas_near, sea_adj, sea_coasts = dip.seas_near, dip.sea_adj, dip.sea_coasts
        no_attackers: list[int] = []

        res = [False] * n
        done = [False] * n
        visited = [False] * n
        in_cycle = [False] * n
        cycle: list[int] = []
        paradox: set[int] = set()
        guess_based = False
        hits = 0

        def clear(start: int) -> None:
            for x in cycle[start:]:
                in_cycle[x] = False
            del cycle[start:]

        def backup(members: list[int]) -> None:
            convoys = [x for x in members if kind[x] == CONVOY]
            if convoys:  # Szykman: the convoying fleets of the paradox hold
                for x in convoys:
                    res[x] = False
                    done[x] = True
                    paradox.add(x)
            else:  # circular movement: all its moves succeed
                everything_moves = all(kind[x] == MOVE for x in members)
                for x in members:
                    res[x] = everything_moves
                    done[x] = True

        def resolve(i: int) -> bool:
            nonlocal guess_based, hits
            if done[i]:
                return res[i]
            if in_cycle[i]:
                guess_based = True
                return res[i]
            if visited[i]:
                cycle.append(i)
                in_cycle[i] = True
                guess_based = True
                hits += 1
                return res[i]
            visited[i] = True
            old_len = len(cycle)
            old_guess = guess_based
            old_hits = hits
            guess_based = False
            res[i] = False
            first = adjudicate(i)
            if not guess_based:
                guess_based = old_guess
                res[i] = first
                done[i] = True
                visited[i] = False
                return first
            if in_cycle[i]:
                hits -= 1
            if hits == old_hits:
                # This order is the outermost of the cycle: try the other guess.
                clear(old_len)
                res[i] = True
                second = adjudicate(i)
                hits = old_hits
                if first == second:
                    clear(old_len)
                    guess_based = old_guess
                    res[i] = first
                    done[i] = True
                    visited[i] = False
                    return first
                members = cycle[old_len:]
                if i not in members:
                    members.append(i)
                clear(old_len)
                backup(members)
                guess_based = old_guess
                visited[i] = False
                return resolve(i)
            if not in_cycle[i]:
                cycle.append(i)
                in_cycle[i] = True
            res[i] = first
            visited[i] = False
            return first

        def support_count(i: int, not_power: int = -1) -> int:
            count = 1
            for s in supporters.get(i, no_attackers):
                if power[s] != not_power and resolve(s):
                    count += 1
            return count

        def path(i: int) -> bool:
            mask = cmask[i]
            frontier = seas_near[provs[i]] & mask
            seen = frontier
            target = 1 << dst[i]
            while frontier:
                nxt = 0
                f = frontier
                while f:
                    low = f & -f
                    f ^= low
                    s = low.bit_length() - 1
                    if resolve(fleet_at[s]):
                        if sea_coasts[s] & target:
                            return True
                        nxt |= sea_adj[s]
                frontier = nxt & mask & ~seen
                seen |= frontier
            return False

        def hold_strength(p: int) -> int:
            u = unit_at[p]
            if u < 0:
                return 0
            if kind[u] == MOVE:
                return 0 if resolve(u) else 1
            return support_count(u)

        def attack_strength(i: int) -> int:
            u = unit_at[dst[i]]
            if u < 0 or (h2h[i] < 0 and kind[u] == MOVE and resolve(u)):
                return support_count(i)
            if power[u] == power[i]:
                return 0
            return support_count(i, power[u])

        def prevent_strength(k: int) -> int:
            if convoyed[k] and not path(k):
                return 0
            j = h2h[k]
            if j >= 0 and resolve(j):
                return 0
            return support_count(k)

        def adjudicate(i: int) -> bool:
            k = kind[i]
            if k == MOVE:
                if convoyed[i] and not path(i):
                    return False
                attack = attack_strength(i)
                if attack == 0:
                    return False
                j = h2h[i]
                if j >= 0:
                    if attack <= support_count(j):
                        return False
                elif attack <= hold_strength(dst[i]):
                    return False
                for other in attackers[dst[i]]:
                    if other != i and attack <= prevent_strength(other):
                        return False
                return True
            if k == SUPPORT:
                me = power[i]
                aim = dst[i]
                for a in attackers.get(provs[i], no_attackers):
                    if power[a] == me:
                        continue
                    if provs[a] != aim:
                        if not convoyed[a] or path(a):
                            return False  # cut
                    elif resolve(a):
                        return False  # dislodged by the unit it supports against
                return True
            # CONVOY: it works unless the fleet is dislodged. The attacking moves are
            # adjudicated here, not resolved, so that the cycle through a convoy stays a
            # single clean cycle (DATC 5.D, Pandin's paradox).
            me = power[i]
            for a in attackers.get(provs[i], no_attackers):
                if power[a] != me and adjudicate(a):
                    return False
            return True

        # A support or convoy nobody attacks succeeds; settle those without recursion.
        backing = [i for i in self.supports + self.convoying if kind[i] != VOID]
        for i in backing:
            if provs[i] not in attackers:
                res[i] = done[i] = True
        for i in self.moves + backing:
            if not done[i]:
                resolve(i)
        self.res = res
        self.paradox = paradox
        self.support_count = support_count
        self.hold_strength = hold_strength
        self.attack_strength = attack_strength
        self.prevent_strength = prevent_strength
        self.path = path

    # --- results and the next position ------------------------------------------------

    def _name(self, slot: int) -> str:
        piece = self.pieces[slot]
        return self.dip.unit_names[piece.fleet][piece.loc]

    def _report(self) -> MovementReport:
        dip = self.dip
        provs, pieces, kind, dst, res = self.provs, self.pieces, self.kind, self.dst, self.res
        n = len(provs)
        names = dip.unit_names
        # Who moved in where, who was dislodged by whom, and the units of the next position.
        winner: dict[int, int] = {}
        for p, movers in self.attackers.items():
            for a in movers:
                if res[a]:
                    winner[p] = a
        beaten_by = [-1] * n
        units: dict[int, Piece] = {}
        dislodged: dict[int, Dislodged] = {}
        arrivals: list[int] = []
        convoyed = self.convoyed
        for i in range(n):
            if kind[i] == MOVE and res[i]:
                arrivals.append(i)
                continue
            p = provs[i]
            b = winner.get(p, -1) if winner else -1
            if b >= 0:
                beaten_by[i] = b
                dislodged[p] = Dislodged(pieces[i], -1 if convoyed[b] else provs[b])
            else:
                units[p] = pieces[i]
        dloc = self.dloc
        for i in arrivals:
            piece = pieces[i]
            units[dst[i]] = Piece(piece[0], piece[1], dloc[i])

        results: list[OrderResult] = []
        append = results.append
        ordered = [False] * n
        powers = dip.powers
        clashes = self.clashes
        success = _SUCCESS
        tgt = self.tgt
        for power_name, order, slot, why in self.entries:
            if why is None and (not clashes or slot not in clashes):
                ordered[slot] = True
                k = kind[slot]
                b = beaten_by[slot]
                if b < 0:
                    if res[slot] or k == HOLD:  # the common case, made without a call
                        append(tuple.__new__(OrderResult, (power_name, order, *success[k])))
                        continue
                    if k == VOID:
                        piece = pieces[tgt[slot]]
                        append(
                            tuple.__new__(
                                OrderResult,
                                (power_name, order, *_UNMATCHED, (names[piece[1]][piece[2]],),
                                 None, False),
                            )
                        )  # fmt: skip
                        continue
                    append(self._result(power_name, order, slot, None))
                    continue
                append(self._result(power_name, order, slot, names[pieces[b][1]][pieces[b][2]]))
                continue
            b = beaten_by[slot] if slot >= 0 else -1
            hit = None if b < 0 else names[pieces[b].fleet][pieces[b].loc]
            reason = why if why is not None else Reason.DUPLICATE
            who: tuple[str, ...] = ()
            if reason is Reason.FOREIGN_UNIT:
                who = (powers[pieces[slot].power],)
            else:
                if slot >= 0:
                    ordered[slot] = True
                who = _illegal_detail(order, reason)
            append(OrderResult(power_name, order, Outcome.ILLEGAL, reason, who, hit))
        holds = _holds(dip)
        for i in range(n):
            if not ordered[i]:
                piece = pieces[i]
                order = holds[piece.fleet][piece.loc]
                b = beaten_by[i]
                if b >= 0:
                    hit = names[pieces[b].fleet][pieces[b].loc]
                    results.append(
                        OrderResult(
                            powers[piece.power], order, Outcome.FAILS, Reason.DISLODGED,
                            (hit,), hit, True,
                        )
                    )  # fmt: skip
                else:
                    results.append(_new_result((powers[piece.power], order, *_DEFAULT_HELD)))

        contested = 0
        prevent = self.prevent_strength
        for p, movers in self.attackers.items():
            if p in winner or p in units:
                continue
            if any(prevent(a) > 0 for a in movers):
                contested |= 1 << p
        nxt = Position(dip, self.pos.phase, units, dict(self.pos.owner), dislodged, contested)
        return MovementReport(results, nxt)

    def _result(self, power_name: str, order: Order, slot: int, hit: str | None) -> OrderResult:
        k = self.kind[slot]
        res = self.res[slot]
        if k == MOVE:
            if res:
                return OrderResult(power_name, order, Outcome.SUCCEEDS, Reason.MOVED)
            reason, who = self._why_move_failed(slot)
            return OrderResult(power_name, order, Outcome.FAILS, reason, who, hit)
        if k == SUPPORT:
            if res:
                return OrderResult(power_name, order, Outcome.SUCCEEDS, Reason.SUPPORTED)
            if hit is not None:
                return OrderResult(power_name, order, Outcome.FAILS, Reason.DISLODGED, (hit,), hit)
            cutters = tuple(
                self._name(a)
                for a in self.attackers.get(self.provs[slot], [])
                if self.power[a] != self.power[slot]
                and self.provs[a] != self.dst[slot]
                and (not self.convoyed[a] or self.path(a))
            )
            return OrderResult(power_name, order, Outcome.FAILS, Reason.CUT, cutters, hit)
        if k == CONVOY:
            if res:
                return OrderResult(power_name, order, Outcome.SUCCEEDS, Reason.CONVOYED)
            if slot in self.paradox:
                return OrderResult(power_name, order, Outcome.FAILS, Reason.PARADOX, (), hit)
            return OrderResult(
                power_name, order, Outcome.FAILS, Reason.DISLODGED, (hit or "?",), hit
            )
        if k == VOID:
            t = self.tgt[slot]
            return OrderResult(
                power_name, order, Outcome.FAILS, Reason.UNMATCHED, (self._name(t),), hit
            )
        if hit is not None:
            return OrderResult(power_name, order, Outcome.FAILS, Reason.DISLODGED, (hit,), hit)
        return OrderResult(power_name, order, Outcome.SUCCEEDS, Reason.HELD)

    def _why_move_failed(self, i: int) -> tuple[Reason, tuple[str, ...]]:
        if self.convoyed[i] and not self.path(i):
            if not self.cmask[i]:
                return Reason.NO_CONVOY, ()
            fleets = [s for s in self.fleet_at.values() if self.cmask[i] >> self.provs[s] & 1]
            if any(s in self.paradox for s in fleets):
                return Reason.PARADOX, ()
            return Reason.CONVOY_DISRUPTED, ()
        attack = self.attack_strength(i)
        d = self.dst[i]
        u = self.slot_of[d]
        if attack == 0 and u >= 0:
            # Blocked by its own side's unit; if that unit was itself stopped by a bounce
            # here, the bounce is what players need to see (DATC 6.C.3).
            full = self.support_count(i)
            bouncers = tuple(
                self._name(o)
                for o in self.attackers[d]
                if o != i and full <= self.prevent_strength(o)
            )
            if bouncers:
                return Reason.BOUNCED, bouncers
            return Reason.OWN_UNIT, (self._name(u),)
        who: list[str] = []
        j = self.h2h[i]
        if j >= 0:
            if attack <= self.support_count(j):
                who.append(self._name(j))
        elif u >= 0 and attack <= self.hold_strength(d):
            who.append(self._name(u))
        for other in self.attackers[d]:
            if other != i and attack <= self.prevent_strength(other):
                who.append(self._name(other))
        return Reason.BOUNCED, tuple(who)


_KIND = {False: UnitKind.ARMY, True: UnitKind.FLEET}
_WRONG_PHASE, _NO_UNIT, _FOREIGN_UNIT = Reason.WRONG_PHASE, Reason.NO_UNIT, Reason.FOREIGN_UNIT
_NOTHING_THERE, _UNREACHABLE = Reason.NOTHING_THERE, Reason.UNREACHABLE
# The tail of a successful result by order kind: outcome, reason, who, dislodged_by, defaulted.
_SUCCESS: dict[int, tuple[Outcome, Reason, tuple[str, ...], None, bool]] = {
    HOLD: (Outcome.SUCCEEDS, Reason.HELD, (), None, False),
    MOVE: (Outcome.SUCCEEDS, Reason.MOVED, (), None, False),
    SUPPORT: (Outcome.SUCCEEDS, Reason.SUPPORTED, (), None, False),
    CONVOY: (Outcome.SUCCEEDS, Reason.CONVOYED, (), None, False),
}
_RESULT_CONSTS = (OrderResult, Outcome.SUCCEEDS, Outcome.FAILS, REASONS, "?")
_DEFAULT_HELD = (Outcome.SUCCEEDS, Reason.HELD, (), None, True)
_UNMATCHED = (Outcome.FAILS, Reason.UNMATCHED)


def _new_result(fields: tuple[Any, ...]) -> OrderResult:
    """An OrderResult from all seven fields, skipping the named tuple's Python-level
    constructor (this is on the hot path of every adjudication)."""
    return tuple.__new__(OrderResult, fields)


def _holds(dip: DipMap) -> tuple[tuple[Hold, ...], tuple[Hold, ...]]:
    """The hold order of an unordered army or fleet at each location, made once per map."""
    found = dip.derived.get("holds")
    if found is None:
        found = dip.derived["holds"] = (
            tuple(Hold(UnitKind.ARMY, loc.code) for loc in dip.locations),
            tuple(Hold(UnitKind.FLEET, loc.code) for loc in dip.locations),
        )
    return found  # type: ignore[return-value]


_MOVEMENT_TYPES = frozenset({Hold, Move, SupportHold, SupportMove, Convoy})


def _illegal_detail(order: Order, reason: Reason) -> tuple[str, ...]:
    """What an illegal order's message names: the place it could not reach or use."""
    if reason in (Reason.UNREACHABLE, Reason.BAD_COAST, Reason.NEEDS_COAST):
        target = getattr(order, "dst", None)
        return (target,) if isinstance(target, str) else ()
    if reason in (Reason.NOTHING_THERE, Reason.NOT_AN_ARMY):
        target = getattr(order, "target", None) or getattr(order, "army", None)
        return (target,) if isinstance(target, str) else ()
    return ()
