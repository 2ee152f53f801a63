"""One arena game, played start to finish in whatever process runs it.

`play_game` is a top-level function of plain, picklable inputs and outputs, so the same
code runs inline, in spawned worker processes and as a Ray task. It imports nothing heavy
(no plotting, no RL), which keeps worker start-up short.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parley import games
from parley.kernel import JSON, Match, ParleyError, Rng, Rules, UnknownGame, replay
from parley.kernel.errors import BadOptions

from ..bots import Bot, Conversation, acts_anytime, decide, make_bot
from ..negotiation import promise_tally
from .scores import final_centres

_GOLDEN = 0x9E3779B97F4A7C15


def resolve_rules(ref: str, fallback: str | None = None) -> Rules[Any, Any]:
    """A game by registered name or alias, or by `package.module:attribute` import path.

    `fallback` (an import path) serves when the name is unknown here: a game registered
    at run time in the parent process is not registered in a freshly spawned worker.
    """
    if ":" not in ref:
        try:
            return games.find(ref)
        except UnknownGame:
            if fallback is None:
                raise
            return resolve_rules(fallback)
    module_name, _, attribute = ref.partition(":")
    try:
        target = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as err:
        raise BadOptions(f"cannot import game {ref!r}: {err}", text=ref) from None
    rules = target() if isinstance(target, type) else target
    if not isinstance(rules, Rules):
        raise BadOptions(f"{ref!r} is not a game's rules", text=ref)
    return rules


def import_path(rules: Rules[Any, Any]) -> str:
    """Where a worker can import a game's rules class from."""
    kind = type(rules)
    return f"{kind.__module__}:{kind.__qualname__}"


def game_seeds(seed: int, index: int) -> tuple[int, int]:
    """The game seed and the bots' seed of game `index` of an arena run with `seed`."""
    rng = Rng(seed ^ ((index + 1) * _GOLDEN))
    return rng.next64() >> 1, rng.next64() >> 1


def lineup(bots: Sequence[str], seats: int, index: int) -> tuple[str, ...]:
    """Who plays each seat in game `index`: the bot list, cycled, rotated one seat per game."""
    return tuple(bots[(seat + index) % len(bots)] for seat in range(seats))


@dataclass(frozen=True, slots=True)
class ForkPoint:
    """Start from the first `at` entries of a record instead of a fresh game."""

    record: Mapping[str, Any]
    at: int
    source: str = ""


@dataclass(frozen=True, slots=True)
class GameTask:
    """Everything a worker needs to play one game; picklable."""

    index: int
    game: str
    seats: int
    options: Mapping[str, Any]
    seed: int
    bot_seed: int
    lineup: tuple[str, ...]
    max_plies: int
    out_dir: str | None = None  # write the record here; None returns it in the result
    fork: ForkPoint | None = None
    game_class: str | None = None  # import path of the rules, for games registered at run time
    press: bool = True  # whether talking bots may send press


@dataclass(frozen=True, slots=True)
class GameResult:
    """What came of one game; the record itself is on disk or in `record`."""

    index: int
    seed: int
    lineup: tuple[str, ...]
    outcome: dict[str, JSON]
    capped: bool  # still going at the ply cap: ended by a draw the survivors agreed
    plies: int
    seconds: float
    bot_errors: dict[str, int] = field(default_factory=dict)
    path: str | None = None
    record: dict[str, JSON] | None = None
    press_sent: tuple[int, ...] = ()  # messages each seat sent
    promises: dict[str, int] = field(default_factory=dict)  # kept / broken / open, per game
    digest: str = ""  # of the record's entries: tells apart games that went differently
    # Per bot name, what bots with a `stats()` method report (model calls, tokens, cost...).
    bot_stats: dict[str, dict[str, float]] = field(default_factory=dict)
    centres: tuple[int, ...] | None = None  # Diplomacy: each seat's final supply centres

    def to_json(self) -> dict[str, JSON]:
        return {
            "index": self.index,
            "seed": self.seed,
            "players": list(self.lineup),
            "outcome": self.outcome,
            "capped": self.capped,
            "plies": self.plies,
            "seconds": round(self.seconds, 6),
            "bot_errors": dict(self.bot_errors),
            "record": self.path,
            "press_sent": list(self.press_sent),
            "promises": dict(self.promises),
            "digest": self.digest,
            "bot_stats": {k: dict(v) for k, v in self.bot_stats.items()},
            "centres": None if self.centres is None else list(self.centres),
        }

    @classmethod
    def from_json(cls, line: Mapping[str, Any]) -> GameResult:
        """A result back from its `results.jsonl` line (the record stays on disk)."""
        return cls(
            index=int(line["index"]),
            seed=int(line["seed"]),
            lineup=tuple(str(p) for p in line["players"]),
            outcome=dict(line["outcome"]),
            capped=bool(line["capped"]),
            plies=int(line["plies"]),
            seconds=float(line["seconds"]),
            bot_errors={str(k): int(v) for k, v in line["bot_errors"].items()},
            path=None if line["record"] is None else str(line["record"]),
            press_sent=tuple(int(n) for n in line["press_sent"]),
            promises={str(k): int(v) for k, v in line["promises"].items()},
            digest=str(line.get("digest", "")),
            bot_stats={
                str(k): {str(f): float(n) for f, n in v.items()}
                for k, v in (line.get("bot_stats") or {}).items()
            },
            centres=None if line.get("centres") is None else tuple(int(c) for c in line["centres"]),
        )


@dataclass(slots=True)
class Progress:
    """Where a run stands, as a progress bar shows it; updated by whichever backend plays."""

    total: int
    workers: int = 0  # processes playing games (worker processes or Ray actors)
    done: int = 0
    in_flight: int = 0
    failed: int = 0  # attempts lost with their worker; each such game was played again
    nodes: dict[str, int] = field(default_factory=dict)  # Ray: finished games per node id


def record_name(index: int) -> str:
    return f"game-{index:05d}.json"


def start_match(rules: Rules[Any, Any], task: GameTask) -> Match[Any, Any]:
    if task.fork is None:
        return Match(rules, list(task.lineup), task.options, task.seed)
    prefix = dict(task.fork.record)
    prefix["entries"] = list(task.fork.record.get("entries", []))[: task.fork.at]
    match = replay(rules, prefix)
    match.players = list(task.lineup)  # the bots that play on from the fork point
    return match


def play_game(task: GameTask) -> GameResult:
    """Play one game with the task's bots until it ends or reaches the ply cap."""
    started = time.perf_counter()
    rules = resolve_rules(task.game, task.game_class)
    match = start_match(rules, task)
    bots: dict[str, Bot] = {name: make_bot(name, rules) for name in set(task.lineup)}
    rngs = [Rng(task.bot_seed).fork(seat + 1) for seat in range(match.seats)]
    errors: dict[str, int] = {}
    talk = Conversation(match, press=task.press)
    talkers = {n for n, bot in bots.items() if getattr(bot, "talks", False)}
    anytime = {n for n, bot in bots.items() if acts_anytime(bot)}
    plies = 0
    while not match.is_over and plies < task.max_plies:
        turn = match.turn()
        owing = sorted(turn.owing)
        if not owing:
            break
        for seat in owing:
            if match.is_over or seat not in match.turn().owing:
                continue
            name = task.lineup[seat]
            try:
                if name in talkers:
                    action = talk.step(bots[name], seat, rngs[seat])
                    if match.is_over or seat not in match.turn().owing:
                        continue  # its draw vote ended the game
                    if action is None:
                        raise ParleyError("an owed decision was answered with no action")
                else:
                    action = decide(bots[name], match, seat, rngs[seat])
                match.act(seat, action)
            except ParleyError:
                # A bot that answers with something illegal loses its turn to the default,
                # as a player whose orders cannot be used would.
                errors[name] = errors.get(name, 0) + 1
                if not match.is_over and seat in match.turn().owing:
                    match.act_default(seat)
            plies += 1
        plies += _out_of_turn(match, talk, task, bots, anytime, rngs, errors)
    capped = not match.is_over
    if capped:
        for seat in sorted(rules.alive(match.state)):
            if not match.is_over:
                match.vote_draw(seat, True)
    outcome = match.outcome()
    assert outcome is not None, "every surviving seat voted for the draw"
    record = match.to_json()
    _add_usage(record, bots.values())
    entries = json.dumps(record.get("entries"), sort_keys=True, separators=(",", ":"))
    digest = hashlib.sha256(entries.encode("utf-8")).hexdigest()[:16]
    path: str | None = None
    if task.out_dir is not None:
        target = Path(task.out_dir) / record_name(task.index)
        target.write_text(json.dumps(record, indent=1), encoding="utf-8")
        path = str(target)
    stats = {
        name: dict(bot.stats())  # type: ignore[attr-defined]
        for name, bot in bots.items()
        if callable(getattr(bot, "stats", None))
    }
    return GameResult(
        centres=final_centres(rules, match),
        bot_stats=stats,
        press_sent=tuple(talk.sent),
        promises=promise_tally(rules, match),
        index=task.index,
        seed=task.seed,
        lineup=task.lineup,
        outcome=outcome.to_json(),
        capped=capped,
        plies=match.ply,
        seconds=time.perf_counter() - started,
        bot_errors=errors,
        path=path,
        record=None if task.out_dir is not None else record,
        digest=digest,
    )


def _add_usage(record: dict[str, JSON], bots: Any) -> None:
    """Put the per-decision usage of bots that report it (chat models) into the record:
    `usage` (requests, tokens, cost per seat and state id) and the model's words as private
    `notes`, as the server keeps an agent's reasoning, for the dataset export."""
    usage = [e for bot in bots if callable(getattr(bot, "usage", None)) for e in bot.usage()]
    if not usage:
        return
    usage.sort(key=lambda e: (int(e["state_id"]), int(e["seat"])))
    notes = [
        {"seat": e["seat"], "state_id": e["state_id"], "text": e["reasoning"]}
        for e in usage
        if e.get("reasoning")
    ]
    record["usage"] = [{k: v for k, v in e.items() if k != "reasoning"} for e in usage]
    if notes:
        record["notes"] = [*list(record.get("notes") or []), *notes]


def _out_of_turn(
    match: Match[Any, Any],
    talk: Conversation,
    task: GameTask,
    bots: Mapping[str, Bot],
    anytime: set[str],
    rngs: Sequence[Rng],
    errors: dict[str, int],
) -> int:
    """Give bots that act out of turn one chance each; the actions they took."""
    if not anytime or match.is_over:
        return 0

    def failed(seat: int, _err: ParleyError) -> None:
        name = task.lineup[seat]
        errors[name] = errors.get(name, 0) + 1

    seats = {seat: bots[name] for seat, name in enumerate(task.lineup) if name in anytime}
    return len(talk.out_of_turn(seats, rngs, on_error=failed))
