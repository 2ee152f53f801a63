"""Differential check: the native core against the pure-Python engine on random cases.

Each case is a random position (units scattered over the map, random owners; movement,
retreat or adjustment phase) and a random order set: mostly legal orders, with supports and
convoys that match other orders, plus illegal, foreign, duplicate and missing ones. Both
engines list the legal orders and process the phase; the lists, every result (outcome,
reason, names) and the next position must be equal, dict order included.

    python -m parley.games.diplomacy.differential --count 100000 --seed 1
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from . import batch, native
from .legal import legal_orders, movement_orders
from .map import DipMap, standard_map
from .orders import (
    Convoy,
    Disband,
    Move,
    Order,
    OrderSyntaxError,
    Retreat,
    SupportHold,
    SupportMove,
    format_order,
    parse_order,
)
from .phase import Phase, PhaseKind, Season
from .phases import GameOptions, PhaseReport, process
from .position import Dislodged, Piece, Position
from .units import UnitKind


@contextmanager
def engine(name: str) -> Iterator[None]:
    """Run the block on one engine, then go back to the one chosen before."""
    before = native.engine()
    native.set_engine(name)
    try:
        yield
    finally:
        native.set_engine(before)


def random_position(dip: DipMap, rng: random.Random) -> Position:
    """Units on a random share of the provinces, random centre owners, a random phase."""
    n_powers = len(dip.powers)
    density = rng.uniform(0.15, 0.7)
    provinces = list(range(dip.province_count))
    rng.shuffle(provinces)
    units: dict[int, Piece] = {}
    for p in provinces:
        if rng.random() >= density:
            continue
        piece = _random_piece(dip, rng, p, rng.randrange(n_powers))
        if piece is not None:
            units[p] = piece
    owner = {
        c: rng.randrange(n_powers)
        for c in range(dip.province_count)
        if dip.centre_mask >> c & 1 and rng.random() < 0.8
    }
    roll = rng.random()
    year = rng.randint(1901, 1910)
    if roll < 0.7:
        season = Season.SPRING if rng.random() < 0.5 else Season.FALL
        return Position(dip, Phase(season, year, PhaseKind.MOVEMENT), units, owner)
    if roll < 0.85:
        return _retreat_position(dip, rng, units, owner, year)
    return Position(dip, Phase(Season.WINTER, year, PhaseKind.ADJUSTMENT), units, owner)


def _random_piece(dip: DipMap, rng: random.Random, prov: int, power: int) -> Piece | None:
    spots: list[tuple[bool, int]] = []
    if dip.army_can_stand[prov]:
        spots.append((False, prov))
    coasts = dip.provinces[prov].coasts
    for loc in coasts or (prov,):
        if dip.fleet_can_stand[loc]:
            spots.append((True, loc))
    if not spots:
        return None
    fleet, loc = rng.choice(spots)
    return Piece(power, fleet, loc)


def _retreat_position(
    dip: DipMap, rng: random.Random, units: dict[int, Piece], owner: dict[int, int], year: int
) -> Position:
    dislodged: dict[int, Dislodged] = {}
    for p in list(units):
        if rng.random() < 0.15:
            attacker = [q for q in range(dip.province_count) if dip.any_adj[p] >> q & 1]
            came = rng.choice(attacker) if attacker and rng.random() < 0.8 else -1
            dislodged[p] = Dislodged(units[p], came)
            other = _random_piece(dip, rng, p, rng.randrange(len(dip.powers)))
            if other is not None and rng.random() < 0.9:
                units[p] = other
            else:
                del units[p]
    contested = 0
    for p in range(dip.province_count):
        if p not in units and rng.random() < 0.05:
            contested |= 1 << p
    season = Season.SPRING if rng.random() < 0.5 else Season.FALL
    phase = Phase(season, year, PhaseKind.RETREAT)
    return Position(dip, phase, units, owner, dislodged, contested)


def random_orders(pos: Position, rng: random.Random) -> dict[str, list[Order]]:
    """Mostly legal orders, coordinated so supports and convoys often match, with some
    illegal, foreign, duplicate and missing ones."""
    dip = pos.map
    powers = dip.powers
    codes = [loc.code for loc in dip.locations]
    with engine("python"):
        if pos.phase.kind is PhaseKind.ADJUSTMENT:
            return _adjustment_orders(pos, rng)
        legal = legal_orders(pos)
    if pos.phase.kind is PhaseKind.MOVEMENT:
        units = pos.units
    else:
        units = {p: away.piece for p, away in pos.dislodged.items()}
    owner_of = {loc: powers[units[dip.loc_province[dip.loc_index[loc]]].power] for loc in legal}
    everything = [o for orders in legal.values() for o in orders]
    out: dict[str, list[Order]] = {}
    chosen: dict[str, Order] = {}
    locs = list(legal)
    rng.shuffle(locs)
    lead = locs[: len(locs) * 2 // 5]
    for loc in lead:
        moves = [o for o in legal[loc] if isinstance(o, (Move, Retreat))]
        chosen[loc] = rng.choice(moves) if moves and rng.random() < 0.8 else legal[loc][0]
    for loc in locs[len(lead) :]:
        backing = [o for o in legal[loc] if _backs(dip, chosen, o)]
        if backing and rng.random() < 0.7:
            chosen[loc] = rng.choice(backing)
        else:
            chosen[loc] = rng.choice(legal[loc])
    for loc in locs:
        roll = rng.random()
        if roll < 0.05:
            continue  # no order: the default applies
        order = chosen[loc]
        power = owner_of[loc]
        if roll < 0.10 and everything:
            order = rng.choice(everything)  # someone else's unit, maybe
        elif roll < 0.15:
            order = _wild(dip, rng, codes, loc)
        elif roll < 0.18:
            power = rng.choice(powers)
        elif roll < 0.21:  # an order for some other place, a unit there or not
            order = _wild(dip, rng, codes, rng.choice(codes))
        out.setdefault(power, []).append(order)
        if rng.random() < 0.03:
            out[power].append(rng.choice(legal[loc]))  # a second order for the unit
    return out


def _adjustment_orders(pos: Position, rng: random.Random) -> dict[str, list[Order]]:
    dip = pos.map
    out: dict[str, list[Order]] = {}
    for power in dip.powers:
        legal = legal_orders(pos, power).get(power, [])
        mine: list[Order] = [rng.choice(legal) for _ in range(rng.randint(0, 4))] if legal else []
        if rng.random() < 0.2:
            p = rng.randrange(dip.province_count)
            loc = dip.provinces[p].code
            mine.append(Disband(rng.choice([UnitKind.ARMY, UnitKind.FLEET]), loc))
        if mine:
            out[power] = mine
    return out


def _wild(dip: DipMap, rng: random.Random, codes: list[str], loc: str) -> Order:
    """An order for the unit that is quite likely illegal."""
    unit = rng.choice([UnitKind.ARMY, UnitKind.FLEET, None])
    a, b = rng.choice(codes), rng.choice(codes)
    if rng.random() < 0.05:
        a = "ZZZ"  # no such place
    roll = rng.random()
    if roll < 0.3:
        return Move(unit, loc, a, rng.random() < 0.2)
    if roll < 0.5:
        return SupportMove(unit, loc, rng.choice([UnitKind.ARMY, None]), a, b)
    if roll < 0.65:
        return SupportHold(unit, loc, None, a)
    if roll < 0.8:
        return Convoy(unit, loc, a, b)
    return Retreat(unit, loc, a)


def _backs(dip: DipMap, chosen: dict[str, Order], order: Order) -> bool:
    if isinstance(order, SupportHold):
        target = chosen.get(_own_loc(dip, order.target, chosen))
        return target is not None and not isinstance(target, Move)
    if isinstance(order, SupportMove):
        target = chosen.get(_own_loc(dip, order.target, chosen))
        return isinstance(target, Move) and target.dst.split("/")[0] == order.dst.split("/")[0]
    if isinstance(order, Convoy):
        target = chosen.get(order.army)
        return isinstance(target, Move) and target.dst == order.dst
    return False


def _own_loc(dip: DipMap, code: str, chosen: dict[str, Order]) -> str:
    if code in chosen:
        return code
    prov = code.split("/")[0]
    for loc in chosen:
        if loc.split("/")[0] == prov:
            return loc
    return code


def snapshot(report: PhaseReport) -> tuple[Any, ...]:
    """Everything a phase produced, as plain values that compare with dict order."""
    pos = report.position
    return (
        report.phase,
        [tuple(r) for r in report.results],
        [(ph, [tuple(r) for r in rs]) for ph, rs in report.auto],
        report.ending,
        pos.phase,
        list(pos.units.items()),
        list(pos.owner.items()),
        list(pos.dislodged.items()),
        pos.contested,
    )


def compare(pos: Position, orders: dict[str, list[Order]]) -> list[str]:
    """Where the engines differ on this case (empty when they agree)."""
    found: dict[str, tuple[Any, Any]] = {}
    for name in ("python", "native"):
        with engine(name):
            legal = [legal_orders(pos), *(legal_orders(pos, pw) for pw in pos.map.powers)]
            moves = list(movement_orders(pos).items()) if _movement(pos) else []
            report = snapshot(process(pos.copy(), orders))
            found[name] = ((legal, moves), report)
    problems = []
    if not parse_agrees(pos, orders):
        problems.append("parsed orders differ")
    if found["python"][0] != found["native"][0]:
        problems.append("legal orders differ")
    if found["python"][1] != found["native"][1]:
        problems.append("phase results differ")
    return problems


def parse_agrees(pos: Position, orders: dict[str, list[Order]]) -> bool:
    """The core's reader and the Python grammar read the orders' text alike (or both
    refuse it with the same message), written canonically, in lower case, without unit
    letters, and cut short."""
    texts: list[str] = []
    for given in orders.values():
        for order in given:
            text = format_order(order)
            words = text.split()
            texts += [text, text.lower(), " ".join(w for w in words if w not in ("A", "F"))]
            texts.append(" ".join(words[:-1]))
    seen: dict[str, list[object]] = {}
    for name in ("python", "native"):
        with engine(name):
            out: list[object] = []
            for text in texts:
                try:
                    out.append(parse_order(text, pos.map, pos.phase.kind))
                except OrderSyntaxError as error:
                    out.append(str(error))
            seen[name] = out
    return seen["python"] == seen["native"]


def _movement(pos: Position) -> bool:
    return pos.phase.kind is PhaseKind.MOVEMENT


def run(count: int, seed: int, report: Callable[[str], None] = print) -> int:
    """Check `count` random cases from `seed`, and a native game per hundred cases; returns
    how many disagreed."""
    dip = standard_map()
    rng = random.Random(seed)
    bad = 0
    for number in range(count):
        pos = random_position(dip, rng)
        orders = random_orders(pos, rng)
        problems = compare(pos, orders)
        if number % 100 == 0:
            problems += game_course(seed * 1_000_003 + number, 80)
        if problems:
            bad += 1
            if bad <= 10:
                report(f"case {number} (seed {seed}): {', '.join(problems)}")
        if (number + 1) % 5000 == 0:
            report(f"seed {seed}: {number + 1} of {count} cases checked, {bad} disagreed")
    return bad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--workers", type=int, default=1, help="processes, each with its own share and seed"
    )
    args = parser.parse_args(argv)
    if not native.available():
        print("the native core is not built: nothing to compare", file=sys.stderr)
        return 2
    start = time.perf_counter()
    workers = max(1, args.workers)
    shares = [args.count // workers + (i < args.count % workers) for i in range(workers)]
    seeds = [args.seed if workers == 1 else args.seed * 1000 + i for i in range(workers)]
    if workers == 1:
        bad = run(args.count, args.seed)
    else:
        with multiprocessing.Pool(workers) as pool:
            bad = sum(pool.starmap(run, zip(shares, seeds, strict=True)))
    seconds = time.perf_counter() - start
    print(
        f"{args.count} cases, seeds {', '.join(map(str, seeds))}: {bad} disagreed ({seconds:.0f} s)"
    )
    return 1 if bad else 0


# --- the batched API (native games) against `phases.process` ------------------------------


def _owner_of_code(pos: Position, code: int) -> int:
    dip = pos.map
    kind = code & 15
    if kind == native.WAIVE_CODE:
        return code >> 14 & 255
    prov = dip.loc_province[code >> 6 & 255]
    if pos.phase.kind is PhaseKind.RETREAT:
        return pos.dislodged[prov].piece.power
    if kind == native.BUILD:
        home = dip.provinces[prov].home
        return dip.power_index[home] if home is not None else 0
    return pos.units[prov].power


def _plain(pos: Position) -> tuple[Any, ...]:
    return (pos.phase, dict(pos.units), dict(pos.owner), dict(pos.dislodged), pos.contested)


def game_course(seed: int, phases: int, options: GameOptions | None = None) -> list[str]:
    """Play a random game on a native game object and replay every phase through
    `phases.process` on the Python engine; the problems found (empty when they agree)."""
    dip = standard_map()
    options = options or GameOptions()
    rng = random.Random(seed)
    table = native.order_table(dip)
    game = batch.new_game(Position.initial(dip), options)
    problems: list[str] = []
    for number in range(phases):
        pos = batch.position_of(game, dip)
        where = f"seed {seed} phase {number} ({pos.phase})"
        codes: list[int] = []
        with engine("python"):
            for p, power in enumerate(dip.powers):
                mine = game.legal(p)
                theirs = legal_orders(pos, power)
                if pos.phase.kind is PhaseKind.ADJUSTMENT:
                    ours = [table[c] for c in mine[0]] if mine else []
                    if ours != theirs.get(power, []):
                        problems.append(f"{where}: adjustment orders of {power} differ")
                    owed = abs(game.owed()[p])
                    codes.extend(rng.choice(mine[0]) for _ in range(owed) if mine)
                    continue
                ours_sets = sorted(sorted(map(repr, (table[c] for c in unit))) for unit in mine)
                their_sets = sorted(sorted(map(repr, unit)) for unit in theirs.values())
                if ours_sets != their_sets:
                    problems.append(f"{where}: legal orders of {power} differ")
                codes.extend(rng.choice(unit) for unit in mine if rng.random() < 0.95)
            orders: dict[str, list[Order]] = {}
            for code in codes:
                orders.setdefault(dip.powers[_owner_of_code(pos, code)], []).append(table[code])
            report = process(pos.copy(), orders, options)
        ended = game.step(codes)
        if _plain(batch.position_of(game, dip)) != _plain(report.position):
            problems.append(f"{where}: next positions differ")
        if ended != (report.ending is not None):
            problems.append(f"{where}: one engine ended the game, the other did not")
        elif ended and report.ending is not None:
            winner = report.ending.winner
            if game.winner != (-1 if winner is None else dip.power_index[winner]):
                problems.append(f"{where}: winners differ")
        if ended or problems:
            break
    return problems


if __name__ == "__main__":
    raise SystemExit(main())
