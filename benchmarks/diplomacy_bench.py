"""Parley's Diplomacy engines side by side with the `diplomacy` package, on the same workload.

    .venv/bin/python benchmarks/diplomacy_bench.py            # full run (a few minutes)
    .venv/bin/python benchmarks/diplomacy_bench.py --quick    # a smaller run

Parley runs three ways, all in this process, switched with `native.set_engine`:
* `python`: the pure-Python engine (the reference) through the public API: order values
  from `legal.movement_orders`, `phases.process`;
* `native`: the very same API calls with the native core underneath;
* `batch`: the batched API (`batch.new_game`): the position lives in the core, orders are
  int codes, `Game.legal(power)` and `Game.step(codes)`; for search and self-play.

Workloads, each run on every engine in one invocation:

(a) complete games: every power orders every unit uniformly at random from the engine's
    own legal-order lists (adjustments: one random legal order per build or disband owed),
    from Spring 1901 until a solo victory or the end of `--year-limit`; phases per second,
    legal-order generation, order submission and adjudication included. Every side works
    from its own legal lists: order values (Parley python/native), codes (batch), order
    strings (`diplomacy`).
(b) dense positions with many supports and convoys. Positions come from random Parley
    games; order sets are drawn so that most supports and convoys match a move or hold
    (coordinated random orders). The very same positions and order texts go to every
    engine, best of `--repeat` passes. Three figures:
    - from text: parsing, validation and resolution (`diplomacy`: `Game.set_orders` with
      the strings, then `Game.process`; Parley: `parse_order` on each string, then
      `phases.process`; the Python parser's cache is emptied before each pass);
    - pre-parsed: Parley given order values, so validation and resolution only;
    - resolution alone on orders validated beforehand (`Game.process` after `set_orders`,
      against `phases.process_validated`).
    Setting up the position is not timed on any side.
(c) legal orders of one power in mid-game positions (movement phases of random games,
    every power in turn): microseconds per call, `legal_orders(pos, power)` for Parley's
    python and native engines, `Game.legal(power)` for batch. (The `diplomacy` package has
    no per-power call, so it is not in this row.)

Times are CPU time of the process (`time.process_time`), so that other work on a shared
machine disturbs the comparison less than wall-clock time would; the engines take turns
over `--rounds` rounds for the same reason. In (b) the garbage collector is paused while
the adjudication calls are timed, on every side, as `timeit` does. The load average is
printed with the figures.

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


def _our_games(seeds: list[int], year_limit: int, engine: str) -> dict[str, float]:
    from parley.games.diplomacy import native
    from parley.games.diplomacy.map import standard_map
    from parley.games.diplomacy.phases import GameOptions, process
    from parley.games.diplomacy.position import Position

    if engine == "batch":
        return _batch_games(seeds, year_limit)
    native.set_engine(engine)
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


def _batch_games(seeds: list[int], year_limit: int) -> dict[str, float]:
    from parley.games.diplomacy import batch
    from parley.games.diplomacy.map import standard_map
    from parley.games.diplomacy.phases import GameOptions
    from parley.games.diplomacy.position import Position

    dip = standard_map()
    first = Position.initial(dip)
    options = GameOptions(year_limit=year_limit)
    powers = range(len(dip.powers))
    phases = 0
    start = time.process_time()
    for seed in seeds:
        choice = random.Random(seed).choice
        game = batch.new_game(first, options)
        while True:
            if game.phase[2] == 2:  # adjustments: one random legal order per one owed
                owed = game.owed()
                codes = []
                for p in powers:
                    legal = game.legal(p)
                    if legal:
                        codes += [choice(legal[0]) for _ in range(abs(owed[p]))]
            else:
                codes = [choice(unit) for unit in game.legal()]
            phases += 1
            if game.step(codes):
                break
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


def _our_adjudication(
    cases: list[Any], texts: list[Any], repeat: int, engine: str
) -> dict[str, float]:
    """Best-of-`repeat` CPU time: from text, from order values, and resolving orders
    validated beforehand (as `Game.process` resolves orders `Game.set_orders` validated)."""
    from parley.games.diplomacy import native
    from parley.games.diplomacy.adjudicator import validate_movement
    from parley.games.diplomacy.map import standard_map
    from parley.games.diplomacy.orders import _parse_cached, parse_order
    from parley.games.diplomacy.phase import PhaseKind
    from parley.games.diplomacy.phases import process, process_validated
    from parley.games.diplomacy.results import Outcome

    native.set_engine(engine)
    dip = standard_map()
    movement = PhaseKind.MOVEMENT
    best = whole = text = float("inf")
    for _ in range(repeat):
        validated = [validate_movement(pos, orders) for pos, orders in cases]
        _parse_cached.cache_clear()  # each pass reads the text afresh
        gc.collect()
        gc.disable()  # as timeit does, on every side
        start = time.process_time()
        for (pos, _), given in zip(cases, texts, strict=True):
            process(
                pos,
                {pw: [parse_order(t, dip, movement) for t in ts] for pw, ts in given.items()},
            )
        text = min(text, time.process_time() - start)
        start = time.process_time()
        for orders in validated:
            process_validated(orders)
        best = min(best, time.process_time() - start)
        start = time.process_time()
        for pos, orders in cases:
            process(pos, orders)
        whole = min(whole, time.process_time() - start)
        gc.enable()
    illegal = given_count = 0
    for pos, orders in cases:
        for r in process(pos, orders).results:
            if not r.defaulted:
                given_count += 1
                illegal += r.outcome is Outcome.ILLEGAL
    return {
        "phases": len(cases),
        "seconds": best,
        "with_validation": whole,
        "from_text": text,
        "given": given_count,
        "illegal": illegal,
    }


def _mid_game(count: int, seed: int) -> list[Any]:
    """Movement positions of random games between 1903 and 1908."""
    from parley.games.diplomacy.map import standard_map
    from parley.games.diplomacy.phase import PhaseKind
    from parley.games.diplomacy.phases import GameOptions, process
    from parley.games.diplomacy.position import Position

    dip = standard_map()
    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        pos = Position.initial(dip)
        while pos.phase.year < 1909:
            report = process(pos, _random_orders(pos, rng), GameOptions())
            if report.ending is not None:
                break
            pos = report.position
            if pos.phase.kind is PhaseKind.MOVEMENT and pos.phase.year >= 1903:
                found.append(pos)
    return found[:count]


def _legal_one_power(positions: list[Any], engine: str, repeat: int) -> float:
    """Best microseconds per call over `repeat` passes: legal orders of one power."""
    from parley.games.diplomacy import batch, native
    from parley.games.diplomacy.legal import legal_orders

    calls = 0
    best = float("inf")
    if engine == "batch":
        games = [batch.new_game(pos) for pos in positions]
        powers = range(len(positions[0].map.powers))
        for _ in range(repeat):
            start = time.process_time()
            for game in games:
                for p in powers:
                    game.legal(p)
            best = min(best, time.process_time() - start)
        calls = len(games) * len(powers)
        return 1e6 * best / calls
    native.set_engine(engine)
    names = positions[0].map.powers
    for _ in range(repeat):
        start = time.process_time()
        for pos in positions:
            for name in names:
                legal_orders(pos, name)
        best = min(best, time.process_time() - start)
    calls = len(positions) * len(names)
    return 1e6 * best / calls


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
    timed = ("seconds", "with_validation", "from_text")
    return {k: min(v, new[k]) if k in timed else v for k, v in kept.items()}


ENGINES = ("python", "native", "batch")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="random games per engine")
    parser.add_argument("--year-limit", type=int, default=1920, help="last year played")
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
    from parley.games.diplomacy import native
    from parley.games.diplomacy.orders import format_order

    if not native.available():
        raise SystemExit("the native core is not built: run `pip install -e .` with a C compiler")
    seeds = [args.seed + i for i in range(args.games)]
    python = _ensure_bench_venv()

    native.set_engine("python")
    ours_cases, their_cases = _dense_cases(args.positions, args.seed)
    texts = [
        {pw: [format_order(o) for o in os] for pw, os in orders.items()} for _, orders in ours_cases
    ]
    middle = _mid_game(max(20, args.positions // 4), args.seed + 1)
    # The engines take turns, round by round, so a change in the machine's load touches
    # all alike; (a) adds up every round, (b) and (c) keep each side's best.
    rounds = max(1, min(args.rounds, args.games))
    chunks = [seeds[i::rounds] for i in range(rounds)]
    games = {name: {"phases": 0.0, "seconds": 0.0} for name in (*ENGINES, "diplomacy")}
    adjudication: dict[str, dict[str, float]] = {name: {} for name in ENGINES}
    their_adj: dict[str, float] = {}
    legal_us = dict.fromkeys(ENGINES, float("inf"))
    loads = [_load()]
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
        their_adj = _best(their_adj, theirs["adjudication"])
        games["diplomacy"]["phases"] += theirs["games"]["phases"]
        games["diplomacy"]["seconds"] += theirs["games"]["seconds"]
        for name in ENGINES:
            print(f"{name} ...", end=" ", flush=True)
            part = _our_games(chunk, args.year_limit, name)
            games[name]["phases"] += part["phases"]
            games[name]["seconds"] += part["seconds"]
            if name != "batch":
                adjudication[name] = _best(
                    adjudication[name], _our_adjudication(ours_cases, texts, args.repeat, name)
                )
            legal_us[name] = min(legal_us[name], _legal_one_power(middle, name, args.repeat))
        native.set_engine("auto")
        loads.append(_load())
        print(flush=True)
    _report(args, games, adjudication, their_adj, legal_us, loads, len(middle))


def _load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "unknown"


def _report(
    args: argparse.Namespace,
    games: dict[str, dict[str, float]],
    adjudication: dict[str, dict[str, float]],
    theirs: dict[str, float],
    legal_us: dict[str, float],
    loads: list[str],
    middle: int,
) -> None:
    def rate(entry: Mapping[str, float], key: str = "seconds") -> float:
        return entry["phases"] / entry[key]

    base = rate(games["diplomacy"])
    print()
    print(f"{'workload':<40}{'python':>10}{'native':>10}{'batch':>10}{'diplomacy':>11}")
    row = [rate(games[name]) for name in (*ENGINES, "diplomacy")]
    print(f"{'(a) random games, phases/s':<40}" + "".join(f"{v:>10,.0f}" for v in row[:3])
          + f"{row[3]:>11,.0f}")  # fmt: skip
    print(f"{'    vs diplomacy':<40}" + "".join(f"{v / base:>9.1f}x" for v in row[:3]))
    dense = [
        ("(b) dense from text, phases/s", "from_text", "with_validation"),
        ("(b) dense pre-parsed, phases/s", "with_validation", None),
        ("(b') dense resolve only, phases/s", "seconds", "seconds"),
    ]
    for title, key, their_key in dense:
        mine = [rate(adjudication[name], key) for name in ("python", "native")]
        other = rate(theirs, their_key) if their_key else None
        line = f"{title:<40}" + "".join(f"{v:>10,.0f}" for v in mine) + f"{'-':>10}"
        line += f"{other:>11,.0f}" if other else f"{'-':>11}"
        print(line)
        if other:
            print(f"{'    vs diplomacy':<40}" + "".join(f"{v / other:>9.1f}x" for v in mine))
    print(
        f"{'(c) legal orders, one power, us/call':<40}"
        + "".join(f"{legal_us[name]:>10.1f}" for name in ENGINES)
        + f"{'-':>11}"
    )
    print()
    print(
        "(a) phases played: "
        + ", ".join(
            f"{name} {games[name]['phases']:.0f} in {games[name]['seconds']:.2f}s"
            for name in (*ENGINES, "diplomacy")
        )
        + f"; games {args.games}, Spring 1901 to {args.year_limit}"
    )
    cases = adjudication["python"]
    per_phase = cases["given"] / cases["phases"]
    print(
        f"(b) {cases['phases']:.0f} positions, {per_phase:.1f} orders each; "
        f"the diplomacy package accepted {theirs['accepted']:.0f}/{theirs['given']:.0f} "
        f"orders, Parley found {cases['illegal']:.0f} illegal"
    )
    print(f"(c) {middle} movement positions from 1903 to 1908, each of 7 powers")
    print(f"load average (1, 5, 15 min) before and after each round: {'; '.join(loads)}")


if __name__ == "__main__":
    main()
