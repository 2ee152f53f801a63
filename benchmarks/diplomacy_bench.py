"""Parley's Diplomacy engine side by side with the `diplomacy` package, on the same workload.

    .venv/bin/python benchmarks/diplomacy_bench.py            # full run (a few minutes)
    .venv/bin/python benchmarks/diplomacy_bench.py --quick    # a smaller run

Two workloads, each run on both engines in one invocation:

(a) complete games: every power orders every unit uniformly at random from the engine's
    own legal-order lists (adjustments: one random legal order per build or disband owed),
    from Spring 1901 until a solo victory or the end of `--year-limit`; phases per second,
    legal-order generation, order submission and adjudication included.
(b) dense positions with many supports and convoys. Positions come from random Parley
    games; order sets are drawn so that most supports and convoys match a move or hold
    (coordinated random orders). The very same positions and order texts go to both
    engines, best of `--repeat` passes. Two figures: validation and resolution together
    (`diplomacy`: `Game.set_orders` then `Game.process`; Parley: `phases.process`), and
    resolution alone on orders validated beforehand (`Game.process` against
    `phases.process_validated`). Setting up the position is not timed on either side.

Times are CPU time of the process (`time.process_time`), so that other work on a shared
machine disturbs the comparison less than wall-clock time would; the engines take turns
over `--rounds` rounds for the same reason. In (b) the garbage collector is paused while
the adjudication calls are timed, on both sides, as `timeit` does.

The `diplomacy` package (AGPL) is never a dependency of Parley: it is installed on demand
into `.bench-venv/` and run there in a subprocess that receives the workload as JSON.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BENCH_VENV = ROOT / ".bench-venv"
PACKAGE = "diplomacy==1.1.2"


# --- the `diplomacy` package side (runs inside .bench-venv; imports no Parley) -----------


def _their_games(seeds: list[int], year_limit: int) -> dict[str, float]:
    from diplomacy import Game  # type: ignore[import-not-found]

    phases = 0
    start = time.process_time()
    for seed in seeds:
        rng = random.Random(seed)
        game = Game()
        while not game.is_game_done and int(game.get_current_phase()[1:5]) <= year_limit:
            possible = game.get_all_possible_orders()
            for power in game.powers:
                locations = game.get_orderable_locations(power)
                orders = [rng.choice(possible[loc]) for loc in locations if possible[loc]]
                game.set_orders(power, orders)
            game.process()
            phases += 1
    seconds = time.process_time() - start
    return {"phases": phases, "seconds": seconds}


def _their_adjudication(cases: list[dict[str, Any]], repeat: int) -> dict[str, float]:
    from diplomacy import Game

    def positions() -> list[Any]:
        games = []
        for case in cases:
            game = Game()
            game.clear_units()
            game.clear_centers()
            for power, units in case["units"].items():
                game.set_units(power, units)
            for power, centres in case["centres"].items():
                game.set_centers(power, centres)
            game.set_current_phase(case["phase"])
            games.append(game)
        return games

    given = accepted = 0
    best = whole = float("inf")
    for _ in range(repeat):
        # Validation and resolution together: set_orders checks, process resolves.
        games = positions()
        gc.collect()
        gc.disable()  # as timeit does, on both sides
        start = time.process_time()
        for game, case in zip(games, cases, strict=True):
            for power, orders in case["orders"].items():
                game.set_orders(power, orders)
            game.process()
        whole = min(whole, time.process_time() - start)
        gc.enable()
        # Resolution alone, on orders set beforehand.
        games = positions()
        for game, case in zip(games, cases, strict=True):
            for power, orders in case["orders"].items():
                game.set_orders(power, orders)
                given += len(orders)
                accepted += len(game.get_orders(power))
        gc.collect()
        gc.disable()
        start = time.process_time()
        for game in games:
            game.process()
        best = min(best, time.process_time() - start)
        gc.enable()
    given //= repeat
    accepted //= repeat
    return {
        "phases": len(cases),
        "seconds": best,
        "with_validation": whole,
        "given": given,
        "accepted": accepted,
    }


def _their_side() -> None:
    job = json.load(sys.stdin)
    out = {
        "games": _their_games(job["seeds"], job["year_limit"]),
        "adjudication": _their_adjudication(job["cases"], job["repeat"]),
    }
    json.dump(out, sys.stdout)


# --- the Parley side ------------------------------------------------------------------


def _our_games(seeds: list[int], year_limit: int) -> dict[str, float]:
    from parley.games.diplomacy.map import standard_map
    from parley.games.diplomacy.phases import GameOptions, process
    from parley.games.diplomacy.position import Position

    dip = standard_map()
    options = GameOptions(year_limit=year_limit)
    phases = 0
    start = time.process_time()
    for seed in seeds:
        rng = random.Random(seed)
        pos = Position.initial(dip)
        while True:
            report = process(pos, _random_orders(pos, rng), options)
            phases += 1
            if report.ending is not None:
                break
            pos = report.position
    seconds = time.process_time() - start
    return {"phases": phases, "seconds": seconds}


def _random_orders(pos: Any, rng: random.Random) -> dict[str, list[Any]]:
    """Uniformly random legal orders for every unit (or owed adjustment) of a position."""
    from parley.games.diplomacy.adjustments import adjustment_counts
    from parley.games.diplomacy.legal import adjustment_orders, movement_orders, retreat_orders
    from parley.games.diplomacy.phase import PhaseKind

    powers = pos.map.powers
    orders: dict[str, list[Any]] = {}
    if pos.phase.kind is PhaseKind.MOVEMENT:
        for prov, legal in movement_orders(pos).items():
            orders.setdefault(powers[pos.units[prov].power], []).append(rng.choice(legal))
    elif pos.phase.kind is PhaseKind.RETREAT:
        for prov, legal in retreat_orders(pos).items():
            owner = powers[pos.dislodged[prov].piece.power]
            orders.setdefault(owner, []).append(rng.choice(legal))
    else:
        owed = adjustment_counts(pos)
        for p, power in enumerate(powers):
            legal = adjustment_orders(pos, power)
            if legal:
                orders[power] = [rng.choice(legal) for _ in range(abs(owed[p]))]
    return orders


def _dense_cases(count: int, seed: int) -> tuple[list[Any], list[dict[str, Any]]]:
    """Movement positions from random games, each with a coordinated order set: two in five
    units move or hold, fleets on the routes of convoyed moves convoy them, and every other
    unit supports one of those orders when it legally can."""
    from parley.games.diplomacy.convoys import tables_for
    from parley.games.diplomacy.legal import movement_orders
    from parley.games.diplomacy.map import standard_map
    from parley.games.diplomacy.orders import Convoy, Move, format_order
    from parley.games.diplomacy.phase import PhaseKind
    from parley.games.diplomacy.phases import GameOptions, process
    from parley.games.diplomacy.position import Position
    from parley.games.diplomacy.serial import position_to_json
    from parley.games.diplomacy.units import UnitKind

    dip = standard_map()
    tables = tables_for(dip)
    rng = random.Random(seed)
    ours: list[Any] = []
    theirs: list[dict[str, Any]] = []
    while len(ours) < count:
        pos = Position.initial(dip)
        for _ in range(rng.randint(8, 40)):
            report = process(pos, _random_orders(pos, rng), GameOptions())
            if report.ending is not None:
                break
            pos = report.position
        if pos.phase.kind is not PhaseKind.MOVEMENT or len(pos.units) < 18:
            continue
        legal = movement_orders(pos)
        units = pos.units
        code = {p: dip.provinces[p].code for p in range(dip.province_count)}
        fleets = sum(1 << p for p, u in units.items() if u.fleet and dip.sea_mask >> p & 1)
        chosen: dict[int, Any] = {}
        provs = list(units)
        rng.shuffle(provs)
        for p in provs[: len(provs) * 2 // 5]:
            moves = [o for o in legal[p] if isinstance(o, Move)]
            chosen[p] = rng.choice(moves) if moves and rng.random() < 0.8 else legal[p][0]
        for p, order in list(chosen.items()):
            if not isinstance(order, Move) or units[p].fleet:
                continue
            d = dip.prov_index[order.dst]
            if order.via_convoy or not dip.army_mask[p] >> d & 1:
                seas = tables.reach(fleets, p).get(d, 0)
                for sea in range(dip.province_count):
                    if seas >> sea & 1 and sea not in chosen:
                        chosen[sea] = Convoy(UnitKind.FLEET, code[sea], code[p], code[d])

        for p in provs:
            if p not in chosen:
                matching = [o for o in legal[p] if _backs(dip, chosen, o)]
                chosen[p] = rng.choice(matching) if matching else rng.choice(legal[p])
        by_power: dict[str, list[Any]] = {}
        for p, order in chosen.items():
            by_power.setdefault(dip.powers[units[p].power], []).append(order)
        ours.append((pos, by_power))
        as_json = position_to_json(pos)
        theirs.append(
            {
                "phase": as_json["phase"],
                "units": as_json["units"],
                "centres": as_json["centres"],
                "orders": {pw: [format_order(o) for o in os] for pw, os in by_power.items()},
            }
        )
    return ours, theirs


def _backs(dip: Any, chosen: dict[int, Any], order: Any) -> bool:
    """True when `order` supports an order already chosen (a hold, or that very move)."""
    from parley.games.diplomacy.orders import Move, SupportHold, SupportMove

    if not isinstance(order, (SupportHold, SupportMove)):
        return False
    target = chosen.get(dip.prov_index[order.target.split("/")[0]])
    if isinstance(order, SupportHold):
        return target is not None and not isinstance(target, Move)
    return isinstance(target, Move) and target.dst.split("/")[0] == order.dst.split("/")[0]


def _our_adjudication(cases: list[Any], repeat: int) -> dict[str, float]:
    """Best-of-`repeat` CPU time: resolving validated orders (as `Game.process` resolves
    orders `Game.set_orders` validated), and, for reference, validation included."""
    from parley.games.diplomacy.adjudicator import validate_movement
    from parley.games.diplomacy.phases import process, process_validated
    from parley.games.diplomacy.results import Outcome

    best = whole = float("inf")
    for _ in range(repeat):
        validated = [validate_movement(pos, orders) for pos, orders in cases]
        gc.collect()
        gc.disable()  # as timeit does, on both sides
        start = time.process_time()
        for orders in validated:
            process_validated(orders)
        best = min(best, time.process_time() - start)
        start = time.process_time()
        for pos, orders in cases:
            process(pos, orders)
        whole = min(whole, time.process_time() - start)
        gc.enable()
    illegal = given = 0
    for pos, orders in cases:
        for r in process(pos, orders).results:
            if not r.defaulted:
                given += 1
                illegal += r.outcome is Outcome.ILLEGAL
    return {
        "phases": len(cases),
        "seconds": best,
        "with_validation": whole,
        "given": given,
        "illegal": illegal,
    }


def _ensure_bench_venv() -> Path:
    python = BENCH_VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    probe = [str(python), "-c", "import diplomacy"]
    if python.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return python
    print(f"setting up {BENCH_VENV.name}/ with {PACKAGE} (only for this benchmark) ...")
    subprocess.run([sys.executable, "-m", "venv", str(BENCH_VENV)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", PACKAGE], check=True)
    return python


def _best(kept: dict[str, float], new: dict[str, float]) -> dict[str, float]:
    """Each timing's best over the rounds (the counts are the same every round)."""
    if not kept:
        return dict(new)
    return {
        k: min(v, new[k]) if k in ("seconds", "with_validation") else v for k, v in kept.items()
    }


def _checked_rate(entry: Mapping[str, float]) -> float:
    return entry["phases"] / entry["with_validation"]


def _rate(entry: Mapping[str, float]) -> float:
    return entry["phases"] / entry["seconds"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="random games per engine")
    parser.add_argument("--year-limit", type=int, default=1930, help="last year played")
    parser.add_argument("--positions", type=int, default=200, help="dense positions")
    parser.add_argument("--repeat", type=int, default=3, help="passes over the positions")
    parser.add_argument("--rounds", type=int, default=3, help="turns each engine takes")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--quick", action="store_true", help="3 games, 60 positions")
    parser.add_argument("--side", choices=["diplomacy"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side == "diplomacy":
        _their_side()
        return
    if args.quick:
        args.games, args.positions, args.repeat, args.rounds = 3, 60, 2, 1
    sys.path.insert(0, str(ROOT / "src"))
    seeds = [args.seed + i for i in range(args.games)]
    python = _ensure_bench_venv()

    ours_cases, their_cases = _dense_cases(args.positions, args.seed)
    # The engines take turns, round by round, so a change in the machine's load touches
    # both alike; (a) adds up every round, (b) keeps each side's best pass.
    rounds = max(1, min(args.rounds, args.games))
    chunks = [seeds[i::rounds] for i in range(rounds)]
    their_games = {"phases": 0.0, "seconds": 0.0}
    our_games = {"phases": 0.0, "seconds": 0.0}
    their_adj: dict[str, float] = {}
    our_adj: dict[str, float] = {}
    for number, chunk in enumerate(chunks, start=1):
        print(f"round {number}/{rounds}: diplomacy package ...", end=" ", flush=True)
        job = {
            "seeds": chunk,
            "year_limit": args.year_limit,
            "cases": their_cases,
            "repeat": args.repeat,
        }
        done = subprocess.run(
            [str(python), str(Path(__file__).resolve()), "--side", "diplomacy"],
            input=json.dumps(job),
            capture_output=True,
            text=True,
            check=True,
        )
        theirs = json.loads(done.stdout)
        print("parley ...", flush=True)
        ours = _our_games(chunk, args.year_limit)
        ours_adj = _our_adjudication(ours_cases, args.repeat)
        for total, part in ((their_games, theirs["games"]), (our_games, ours)):
            total["phases"] += part["phases"]
            total["seconds"] += part["seconds"]
        their_adj = _best(their_adj, theirs["adjudication"])
        our_adj = _best(our_adj, ours_adj)

    rows = [
        ("(a) random games, phases/s", _rate(our_games), _rate(their_games)),
        (
            "(b) dense: validate + resolve, phases/s",
            _checked_rate(our_adj),
            _checked_rate(their_adj),
        ),
        ("(b') dense: resolve only, phases/s", _rate(our_adj), _rate(their_adj)),
    ]
    print()
    print(f"{'workload':<36}{'parley':>12}{'diplomacy':>12}{'ratio':>9}")
    for name, mine, other in rows:
        print(f"{name:<36}{mine:>12,.0f}{other:>12,.0f}{mine / other:>8.1f}x")
    print()
    print(
        f"(a) phases played: parley {our_games['phases']:.0f} in {our_games['seconds']:.1f}s, "
        f"diplomacy {their_games['phases']:.0f} in {their_games['seconds']:.1f}s"
    )
    per_phase = our_adj["given"] / len(ours_cases)
    ours_us = 1e6 * our_adj["with_validation"] / our_adj["phases"]
    their_us = 1e6 * their_adj["with_validation"] / their_adj["phases"]
    print(
        f"(b) {len(ours_cases)} positions, {per_phase:.1f} orders each, validate + resolve: "
        f"parley {ours_us:.0f} us/phase, diplomacy {their_us:.0f} us/phase"
    )
    print(
        f"    orders the diplomacy package accepted: {their_adj['accepted']:.0f}/"
        f"{their_adj['given']:.0f}; illegal for parley: {our_adj['illegal']:.0f}"
    )


if __name__ == "__main__":
    main()
