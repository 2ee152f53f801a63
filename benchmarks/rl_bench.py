"""Steps per second of every RL form of each game, with random legal actions.

For each game: the AEC environment (seat actions/s), the Parallel environment (steps/s: a
Diplomacy phase, or one action of a sequential game), the vector environment (game-steps/s
over --envs games), the OpenSpiel bridge (actions/s, where it carries the game), a bare
kernel loop of the same random games for scale, and PettingZoo's own
`performance_benchmark` run on the AEC environment (it prints turns/s over 5 s of wall
time and samples masks itself: with Diplomacy's flat per-unit mask it draws one index for
the whole set, which the environment refuses and replaces by the default orders, so its
Diplomacy figure measures default play). CPU time (`time.process_time`) unless noted.

    .venv/bin/python benchmarks/rl_bench.py [--seconds 3] [--envs 8] [--games sucker diplomacy]
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


def pettingzoo_rate(game: str) -> float:
    from pettingzoo.test import performance_benchmark

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        performance_benchmark(ParleyAEC(game, mask_format="flat"))
    found = re.search(r"([0-9.]+) turns per second", out.getvalue())
    return float(found.group(1)) if found else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--envs", type=int, default=8)
    parser.add_argument("--games", nargs="*", default=["sucker", "diplomacy"])
    parser.add_argument("--no-pettingzoo", action="store_true")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    print("| game | form | steps/s |")
    print("|---|---|---:|")
    for game in args.games:
        rows: list[tuple[str, float | None]] = [
            ("bare kernel loop (steps)", bare_rate(game, args.seconds)),
            ("AEC (seat actions)", aec_rate(game, args.seconds)),
            ("Parallel, tuple masks (steps)", parallel_rate(game, args.seconds, "tuple")),
            ("Parallel, flat mask (steps)", parallel_rate(game, args.seconds, "flat")),
            (f"vector, {args.envs} games (game-steps)", vector_rate(game, args.seconds, args.envs)),
            ("OpenSpiel bridge (actions)", openspiel_rate(game, args.seconds)),
        ]
        if not args.no_pettingzoo:
            rows.append(
                ("PettingZoo performance_benchmark on AEC (turns, wall)", pettingzoo_rate(game))
            )
        for form, rate in rows:
            shown = "n/a" if rate is None else f"{rate:,.0f}"
            print(f"| {game} | {form} | {shown} |")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
