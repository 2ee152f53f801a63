"""Steps per second of every RL form of each game, with random legal actions, and of
PettingZoo's own environments in the same run.

For each game: the AEC environment (seat actions/s), the Parallel environment (steps/s: a
Diplomacy phase, or one action of a sequential game), the vector environment (game-steps/s
over --envs games), the OpenSpiel bridge (actions/s, where it carries the game), a bare
kernel loop of the same random games for scale, and PettingZoo's own
`performance_benchmark` run on the AEC environment (its random masked play for 5 s of wall
time; it samples masks itself: with Diplomacy's flat per-unit mask it draws one index for
the whole set, which the environment refuses and replaces by the default orders, so its
Diplomacy figure measures default play). Then the same `performance_benchmark` on
PettingZoo's own games (classic, butterfly, and MPE from `mpe2`), for a side-by-side
figure on the same machine. `performance_benchmark` is timed both ways: the turns per
wall-clock second it prints, and turns per CPU second of the process (its steps counted,
its CPU time measured around it); every other figure is CPU time (`time.process_time`).

PettingZoo's games need packages Parley does not use (pygame, rlcard, chess, pymunk,
mpe2); they are the `bench` extra, for benchmarking only:

    .venv/bin/pip install -e ".[bench]"
    .venv/bin/python benchmarks/rl_bench.py [--seconds 3] [--envs 8] [--games sucker diplomacy]

A PettingZoo game whose packages are missing is listed as not installed, with the reason.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import time
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from parley import games
from parley.agents.rl import ParleyAEC, ParleyParallel, vector_env
from parley.kernel import Match, Rng

warnings.simplefilter("ignore")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # pygame greets on import otherwise


def timed(body: Callable[[], int], seconds: float) -> float:
    """Run `body` (which returns the steps it took) until `seconds` of CPU time pass."""
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        steps += body()
    return steps / (time.process_time() - start)


def aec_rate(game: str, seconds: float) -> float:
    env = ParleyAEC(game)
    env.reset(seed=1)
    rng = np.random.default_rng(1)

    def play() -> int:
        steps = 0
        for agent in env.agent_iter():
            _, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(env.sample_legal(agent, rng=rng))
            steps += 1
            if steps >= 200:
                return steps
        env.reset()
        return steps

    return timed(play, seconds)


def parallel_rate(game: str, seconds: float, mask_format: str) -> float:
    env = ParleyParallel(game, mask_format=mask_format)  # type: ignore[arg-type]
    _, infos = env.reset(seed=1)
    rng = np.random.default_rng(1)
    state = {"infos": infos}

    def play() -> int:
        for _ in range(50):
            infos = state["infos"]
            actions = {a: env.sample_legal(a, rng=rng) for a in env.agents if infos[a]["acting"]}
            _, _, _, _, state["infos"] = env.step(actions)
            if not env.agents:
                _, state["infos"] = env.reset()
        return 50

    return timed(play, seconds)


def vector_rate(game: str, seconds: float, envs: int) -> float:
    venv = vector_env(game, envs)
    venv.reset(seed=1)
    rng = np.random.default_rng(1)

    def play() -> int:
        venv.step(venv.sample_legal(rng))
        return envs

    return timed(play, seconds)


def bare_rate(game: str, seconds: float) -> float:
    """The kernel alone: the same kind of random games, no environment."""
    rules = games.find(game)
    rng = Rng(1)
    options = {"year_limit": 1930} if game == "diplomacy" else {}
    holder: dict[str, Any] = {"match": Match(rules, rules.spec.default_seats or 2, options, 1)}

    def play() -> int:
        match = holder["match"]
        steps = 0
        for _ in range(50):
            if match.is_over or match.ply >= rules.spec.max_plies:
                match = holder["match"] = Match(rules, match.seats, options, steps + 7)
            owing = sorted(match.turn().owing)
            for seat in owing:
                match.act(seat, rules.random_action(match.state, seat, rng))
            steps += 1
        return steps

    return timed(play, seconds)


def openspiel_rate(game: str, seconds: float) -> float | None:
    try:
        from parley.agents import openspiel as bridge
    except ImportError:
        return None
    if bridge.bridge_reason(games.find(game)) is not None:
        return None
    spiel = bridge.load(game)
    rng = np.random.default_rng(1)
    holder = {"state": spiel.new_initial_state()}

    def play() -> int:
        state = holder["state"]
        for _ in range(50):
            if state.is_terminal():
                state = holder["state"] = spiel.new_initial_state()
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.integers(len(outcomes)))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.integers(len(legal)))])
        return 50

    return timed(play, seconds)


def performance(env: Any) -> tuple[float, float]:
    """PettingZoo's `performance_benchmark` on `env`: (turns per CPU second, turns per
    wall-clock second as it prints them)."""
    from pettingzoo.test import performance_benchmark

    counted = [0]
    step = env.step

    def counting(action: Any) -> None:
        counted[0] += 1
        step(action)

    env.step = counting  # count its turns without changing its loop
    out = io.StringIO()
    started = time.process_time()
    with contextlib.redirect_stdout(out):
        performance_benchmark(env)
    cpu = counted[0] / (time.process_time() - started)
    found = re.search(r"([0-9.]+) turns per second", out.getvalue())
    return cpu, float(found.group(1)) if found else float("nan")


def pettingzoo_rate(game: str) -> tuple[float, float]:
    return performance(ParleyAEC(game, mask_format="flat"))


# PettingZoo's own games: (row name, module, constructor arguments).
PETTINGZOO_GAMES: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("classic/tictactoe_v3", "pettingzoo.classic.tictactoe_v3", {}),
    ("classic/connect_four_v3", "pettingzoo.classic.connect_four_v3", {}),
    ("classic/rps_v2", "pettingzoo.classic.rps_v2", {}),
    ("classic/leduc_holdem_v4", "pettingzoo.classic.leduc_holdem_v4", {}),
    ("classic/texas_holdem_v4", "pettingzoo.classic.texas_holdem_v4", {}),
    ("classic/texas_holdem_no_limit_v6", "pettingzoo.classic.texas_holdem_no_limit_v6", {}),
    ("classic/chess_v6", "pettingzoo.classic.chess_v6", {}),
    ("classic/go_v5", "pettingzoo.classic.go_v5", {}),
    ("butterfly/pistonball_v6", "pettingzoo.butterfly.pistonball_v6", {}),
    ("butterfly/cooperative_pong_v6", "pettingzoo.butterfly.cooperative_pong_v6", {}),
    (
        "butterfly/knights_archers_zombies_v11",
        "pettingzoo.butterfly.knights_archers_zombies_v11",
        {},
    ),
    ("mpe2/simple_spread_v3", "mpe2.simple_spread_v3", {}),
    ("mpe2/simple_tag_v3", "mpe2.simple_tag_v3", {}),
)


def pettingzoo_games(names: list[str] | None) -> list[tuple[str, str]]:
    """Rows for PettingZoo's own games: (name, 'CPU | wall') or (name, why not run)."""
    import importlib

    rows: list[tuple[str, str]] = []
    for name, module, kwargs in PETTINGZOO_GAMES:
        if names and not any(n in name for n in names):
            continue
        try:
            env = importlib.import_module(module).env(**kwargs)
        except Exception as err:  # a missing optional package: say so, time the rest
            rows.append((name, f"not installed ({type(err).__name__}: {str(err)[:60]}) | "))
            continue
        cpu, wall = performance(env)
        env.close()
        rows.append((name, f"{cpu:,.0f} | {wall:,.0f}"))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument(
        "--games", nargs="*", default=["sucker", "diplomacy", "campus", "illuminati", "planets"]
    )
    parser.add_argument("--no-pettingzoo", action="store_true")
    parser.add_argument(
        "--pettingzoo-games",
        nargs="*",
        default=None,
        help="Only PettingZoo games whose name contains one of these (default: all).",
    )
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    forms = [
        "bare kernel loop",
        "AEC",
        "Parallel, tuple",
        "Parallel, flat",
        f"vector, {args.envs} games",
        "OpenSpiel bridge",
    ]
    if not args.no_pettingzoo:
        forms += ["`performance_benchmark` on AEC (CPU)", "(wall)"]
    print("| game | " + " | ".join(forms) + " |")
    print("|---|" + "---:|" * len(forms))
    for game in args.games:
        rates: list[float | None] = [
            bare_rate(game, args.seconds),
            aec_rate(game, args.seconds),
            parallel_rate(game, args.seconds, "tuple"),
            parallel_rate(game, args.seconds, "flat"),
            vector_rate(game, args.seconds, args.envs),
            openspiel_rate(game, args.seconds),
        ]
        if not args.no_pettingzoo:
            rates += pettingzoo_rate(game)
        shown = ["n/a" if rate is None else f"{rate:,.0f}" for rate in rates]
        print(f"| {game} | " + " | ".join(shown) + " |", flush=True)
    if not args.no_pettingzoo:
        print(f"\nload average before PettingZoo's games: {os.getloadavg()[0]:.2f}")
        print("| PettingZoo game | turns/s (CPU) | turns/s (wall) |")
        print("|---|---:|---:|")
        for name, shown_rate in pettingzoo_games(args.pettingzoo_games):
            print(f"| {name} | {shown_rate} |", flush=True)
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
