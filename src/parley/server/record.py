"""Turning stored entries back into a match: replay one entry, snapshots, the seat draw."""

from __future__ import annotations

import functools
import hashlib
import importlib
import json
import pickle
import secrets
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import parley
from parley.kernel import Match, RecordError, Rng, Rules, apply_entry

from .store import EntryRow
from .vocab import SeedSource

_SEAT_DRAW_SALT = 0x5EA7


def snapshot_format(rules: Rules[Any, Any]) -> str:
    """A tag that changes with the code: a snapshot is used only by the code that wrote it.

    The version number alone would not do: a rules change between releases (a new reading,
    a field of the state changed) must not meet a pickle of the old state. The tag holds a
    digest of the source and data of the game's package and of the kernel.
    """
    cls = type(rules)
    python = f"{sys.version_info.major}.{sys.version_info.minor}"
    code = _code_digest(cls.__module__)
    return f"pickle/{parley.__version__}/py{python}/{cls.__module__}.{cls.__qualname__}/{code}"


@functools.cache
def _code_digest(module: str) -> str:
    """The first 12 hex digits of a hash over the files of `module`'s package and the kernel."""
    digest = hashlib.sha256()
    package = module.rpartition(".")[0] or module
    for name in sorted({package, "parley.kernel"}):
        root = Path(str(importlib.import_module(name).__file__)).parent
        for path in sorted(root.rglob("*")):
            if path.suffix in (".py", ".toml", ".json", ".c") and path.is_file():
                digest.update(str(path.relative_to(root)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def dump_snapshot(match: Match[Any, Any]) -> bytes:
    return pickle.dumps(match, protocol=pickle.HIGHEST_PROTOCOL)


def load_snapshot(data: bytes, rules: Rules[Any, Any], seq: int) -> Match[Any, Any] | None:
    """The pickled match, or None when it cannot be used (then the record is replayed)."""
    try:
        match = pickle.loads(data)  # our own rows, written by snapshot_format's exact code
    except Exception:
        return None
    if not isinstance(match, Match) or match.seq != seq or type(match.rules) is not type(rules):
        return None
    match.rules = rules  # share the registered instance, as a fresh match would
    return match


def catch_up(match: Match[Any, Any], rows: Iterable[EntryRow]) -> None:
    """Apply the stored entries `match` does not have yet, in order."""
    for row in rows:
        if row.seq < match.seq:
            continue  # e.g. the draw decision a vote already produced
        if row.seq != match.seq:
            raise RecordError(f"the record jumps from entry {match.seq} to {row.seq}")
        apply_entry(match, json.loads(row.data))


def game_seed(requested: int | None, *, as_given: bool = False) -> tuple[int, SeedSource]:
    """A new game's seed, and where it came from.

    A seed the host chose is mixed with a fresh secret of the server (a random key, used
    once and never kept): the seat draw, decks, hiding places and bots' draws are then as
    unknown to the host as to everyone else. Only the mixed seed is stored, as any seed
    is, so the game replays exactly; games stored before keep their seeds as they were.
    `as_given` (a server set up for fixed seeds: tests, demonstrations) keeps the host's
    seed, and the game says so to everyone who sees it.
    """
    if requested is None:
        return secrets.randbits(62), SeedSource.SERVER
    if as_given:
        return requested, SeedSource.HOST_FIXED
    salt = secrets.token_bytes(32)
    mixed = hashlib.blake2b(requested.to_bytes(8, "big"), key=salt, digest_size=8).digest()
    return int.from_bytes(mixed, "big") >> 2, SeedSource.HOST_MIXED  # 62 bits, as drawn


def seat_draw(seed: int, count: int) -> list[int]:
    """The seat of each lobby player (in joining order), drawn from the game's seed."""
    seats = list(range(count))
    Rng(seed ^ _SEAT_DRAW_SALT).shuffle(seats)
    return seats


def new_match(
    rules: Rules[Any, Any],
    players: Sequence[str],
    options: Mapping[str, Any],
    seed: int,
    position: Mapping[str, Any] | None = None,
) -> Match[Any, Any]:
    """A game's match at its start: its set-up, or the position it was created with."""
    if position is not None:
        return Match.from_position(rules, position, list(players))
    return Match(rules, list(players), dict(options), seed)
