"""Fixed-size action spaces over a game's actions, with masks of what is legal now.

RL libraries want an integer action from a space that never changes size. A codec maps
between those integers and kernel actions through a table of every notation the game can
ever produce for a given seat count and options:

* `FlatCodec`: one `Discrete(n)` index per decision, for games that take one elementary
  action at a time.
* `SlotCodec`: a `MultiDiscrete` vector with one index per *slot* (for Diplomacy, a slot
  is a place a unit can stand, and its index picks that unit's order). Index 0 of every
  slot is "no part"; the chosen parts are combined with `Rules.combine`.

A table is per game data: a game's RL module builds it from its map or its pieces, so an
index means the same action in every process and every run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from gymnasium import spaces

from parley.kernel import Match, ParleyError, Rules

Mask = np.ndarray[Any, np.dtype[np.int8]]


class CodecError(ValueError):
    """A legal action the codec's table does not list: the table is incomplete."""


@dataclass(slots=True)
class Choices:
    """A seat's legal actions at one moment, by notation (computed once per decision)."""

    seat: int
    legal: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)


class ActionCodec(Protocol):
    """Integers (or integer vectors) to kernel actions and back, with legality masks."""

    @property
    def action_space(self) -> spaces.Space[Any]: ...

    @property
    def mask_space(self) -> spaces.Space[Any]: ...

    def choices(self, match: Match[Any, Any], seat: int) -> Choices: ...

    def mask(self, choices: Choices) -> Mask | tuple[Mask, ...]:
        """1 where an index is legal now (a tuple of per-slot masks for slot codecs)."""

    def empty_mask(self) -> Mask | tuple[Mask, ...]:
        """The mask of a seat that has nothing to decide."""

    def decode(self, match: Match[Any, Any], choices: Choices, action: Any) -> Any | None:
        """The kernel action an index means, or None when it is not legal now."""

    def encode(self, match: Match[Any, Any], seat: int, action: Any) -> Any:
        """The index (or vector) of a legal kernel action; CodecError if the table lacks it."""


ActionKey = Callable[[Match[Any, Any], Any], str]


def notation(match: Match[Any, Any], action: Any) -> str:
    """An action's table key: its canonical notation."""
    return match.rules.format(action)


class FlatCodec:
    """One Discrete index per elementary action, from a fixed table of action keys.

    The key of an action is its notation unless `key` says otherwise: a game whose
    notation names things that come and go (pile or bargain numbers) keys them by their
    place on the table instead, so the table stays finite.
    """

    def __init__(self, table: Sequence[str], key: ActionKey = notation) -> None:
        if len(set(table)) != len(table):
            raise ValueError("an action table lists each action once")
        if not table:
            raise ValueError("an action table needs at least one action")
        self.table = tuple(table)
        self.index = {text: i for i, text in enumerate(self.table)}
        self.key = key
        self._space = spaces.Discrete(len(self.table))
        self._mask_space = spaces.Box(0, 1, (len(self.table),), np.int8)

    @property
    def action_space(self) -> spaces.Space[Any]:
        return self._space

    @property
    def mask_space(self) -> spaces.Space[Any]:
        return self._mask_space

    def choices(self, match: Match[Any, Any], seat: int) -> Choices:
        return Choices(seat, {self.key(match, a): a for a in match.legal_actions(seat)})

    def mask(self, choices: Choices) -> Mask:
        mask = np.zeros(len(self.table), np.int8)
        for text in choices.legal:
            mask[self._index_of(text)] = 1
        return mask

    def empty_mask(self) -> Mask:
        return np.zeros(len(self.table), np.int8)

    def decode(self, match: Match[Any, Any], choices: Choices, action: Any) -> Any | None:
        index = int(action)
        if not 0 <= index < len(self.table):
            return None
        return choices.legal.get(self.table[index])

    def encode(self, match: Match[Any, Any], seat: int, action: Any) -> int:
        return self._index_of(self.key(match, action))

    def _index_of(self, text: str) -> int:
        try:
            return self.index[text]
        except KeyError:
            raise CodecError(f"the action table has no entry for legal action {text!r}") from None


NONE = ""  # index 0 of every slot: this slot contributes no part


class SlotCodec:
    """A MultiDiscrete vector: one index per slot, each into that slot's own table.

    `slot_of` names the slot of an elementary action's notation. Every decision's legal
    parts are grouped by slot; a slot's "no part" index is legal only when the slot has
    no legal part, or when `optional(choices, slot)` says the part may be left out.
    `split` turns a combined action back into its parts, for `encode`. When a decision
    takes at most n parts (Diplomacy's builds), `choices` puts n in `extra["limit"]` and
    parts beyond it are dropped, in slot order, since a mask per slot cannot say so.

    Internally the slot tables are laid end to end in one flat table (slot i's entries at
    `offsets[i]:offsets[i+1]`, its "no part" first), so a mask is one array fill; `mask`
    cuts it into the per-slot tuple Gymnasium's `MultiDiscrete` takes, and `flat_mask`
    gives it whole (see `FlatMasks`).
    """

    def __init__(
        self,
        slots: Sequence[str],
        tables: Mapping[str, Sequence[str]],
        slot_of: Callable[[str], str],
        *,
        optional: Callable[[Choices, str], bool] | None = None,
        split: Callable[[Any], Sequence[Any]] | None = None,
    ) -> None:
        self.slots = tuple(slots)
        self.slot_index = {s: i for i, s in enumerate(self.slots)}
        self.tables: tuple[tuple[str, ...], ...] = tuple(
            (NONE, *tables.get(s, ())) for s in self.slots
        )
        self.index = [{t: i for i, t in enumerate(table)} for table in self.tables]
        self.slot_of = slot_of
        self.optional = optional or (lambda choices, slot: False)
        self.split = split
        sizes = [len(t) for t in self.tables]
        self.offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        self.total = int(self.offsets[-1])
        self.slot_of_flat = np.repeat(np.arange(len(sizes), dtype=np.int64), sizes)
        # A notation's place in the flat table (notations of different slots never clash:
        # the slot is read from the notation).
        self.flat_index: dict[str, int] = {}
        for i, table in enumerate(self.tables):
            base = int(self.offsets[i])
            for k, text in enumerate(table[1:], 1):
                self.flat_index.setdefault(text, base + k)
        self._space = spaces.MultiDiscrete(np.array(sizes, dtype=np.int64))
        self._mask_space = spaces.Tuple(tuple(spaces.Box(0, 1, (n,), np.int8) for n in sizes))
        self._flat_mask_space = spaces.Box(0, 1, (self.total,), np.int8)
        self._empty = np.zeros(self.total, np.int8)
        self._empty[self.offsets[:-1]] = 1
        self._sizes = sizes
        self._starts = self.offsets[:-1].tolist()
        self._bounds = list(zip(self._starts, self.offsets[1:].tolist(), strict=True))
        self._slices = [slice(a, b) for a, b in self._bounds]
        self.slot_of_flat_list: list[int] = self.slot_of_flat.tolist()

    @property
    def action_space(self) -> spaces.Space[Any]:
        return self._space

    @property
    def mask_space(self) -> spaces.Space[Any]:
        return self._mask_space

    @property
    def flat_mask_space(self) -> spaces.Box:
        return self._flat_mask_space

    def choices(self, match: Match[Any, Any], seat: int) -> Choices:
        rules = match.rules
        legal = {rules.format(a): a for a in match.legal_actions(seat)}
        flat = self.flat_indices(list(legal))
        return Choices(
            seat,
            legal,
            {"flat": flat, "parts": dict(zip(flat.tolist(), legal.values(), strict=True))},
        )

    def flat_indices(self, texts: list[str]) -> np.ndarray[Any, np.dtype[np.int64]]:
        """The flat table index of each notation (CodecError for one the table lacks)."""
        found = list(map(self.flat_index.get, texts))
        if None in found:
            found = [self._flat_of(text) for text in texts]
        return np.array(found, np.int64)

    def _flat_of(self, text: str) -> int:
        index = self.flat_index.get(text)
        if index is None:
            slot = self.slot_of(text)
            i = self._slot(slot, text)
            return int(self.offsets[i]) + self._index_of(i, text)
        return index

    def by_slot(self, choices: Choices) -> dict[str, list[str]]:
        """The legal parts' notations, by slot name."""
        out: dict[str, list[str]] = {}
        for text in choices.legal:
            out.setdefault(self.slot_of(text), []).append(text)
        return out

    def _open_slots(self, choices: Choices) -> np.ndarray[Any, np.dtype[np.bool_]]:
        """Per slot: True where "no part" is legal (worked out once per decision)."""
        found: np.ndarray[Any, np.dtype[np.bool_]] | None = choices.extra.get("open")
        if found is not None:
            return found
        flat: np.ndarray[Any, Any] = choices.extra["flat"]
        open_ = np.ones(len(self.slots), np.bool_)
        open_[self.slot_of_flat[flat]] = False
        for i in np.flatnonzero(~open_).tolist():
            if self.optional(choices, self.slots[i]):
                open_[i] = True
        choices.extra["open"] = open_
        return open_

    def flat_mask(self, choices: Choices) -> Mask:
        """The whole mask as one array over the flat table."""
        mask = np.zeros(self.total, np.int8)
        mask[choices.extra["flat"]] = 1
        mask[self.offsets[:-1][self._open_slots(choices)]] = 1
        return mask

    def mask(self, choices: Choices) -> tuple[Mask, ...]:
        return self._cut(self.flat_mask(choices))

    def _cut(self, flat: Mask) -> tuple[Mask, ...]:
        """Per-slot views of a flat mask (slicing beats `np.split` by far here)."""
        return tuple(map(flat.__getitem__, self._slices))

    def empty_flat_mask(self) -> Mask:
        return self._empty.copy()

    def empty_mask(self) -> tuple[Mask, ...]:
        return self._cut(self.empty_flat_mask())

    def decode(self, match: Match[Any, Any], choices: Choices, action: Any) -> Any | None:
        vector = np.asarray(action).reshape(-1)
        if vector.shape != (len(self.slots),):
            return None
        if not np.issubdtype(vector.dtype, np.integer):
            if not np.all(np.mod(vector, 1) == 0):
                return None
            vector = vector.astype(np.int64)
        # Plain Python over ~100 slots beats a dozen small numpy calls per decision.
        open_ = self._open_slots(choices).tolist()
        parts_by_flat: Mapping[int, Any] = choices.extra["parts"]
        parts: list[Any] = []
        for i, index in enumerate(vector.tolist()):
            if index == 0:
                if not open_[i]:
                    return None
                continue
            if not 0 < index < self._sizes[i]:
                return None
            part = parts_by_flat.get(self._starts[i] + index)
            if part is None:
                return None
            parts.append(part)
        limit = choices.extra.get("limit")
        if limit is not None:
            del parts[int(limit) :]
        try:
            return match.rules.combine(match.state, choices.seat, parts)
        except ParleyError:
            return None  # parts each legal but not together (e.g. too many builds)

    def encode(self, match: Match[Any, Any], seat: int, action: Any) -> np.ndarray[Any, Any]:
        if self.split is None:
            raise CodecError("this codec cannot split a combined action into its parts")
        vector = np.zeros(len(self.slots), np.int64)
        for part in self.split(action):
            text = match.rules.format(part)
            i = self._slot(self.slot_of(text), text)
            vector[i] = self._index_of(i, text)
        return vector

    def _slot(self, slot: str, text: str) -> int:
        try:
            return self.slot_index[slot]
        except KeyError:
            raise CodecError(f"no slot {slot!r} for legal action {text!r}") from None

    def _index_of(self, slot: int, text: str) -> int:
        try:
            return self.index[slot][text]
        except KeyError:
            raise CodecError(
                f"slot {self.slots[slot]!r} has no table entry for legal action {text!r}"
            ) from None


class FlatMasks:
    """A slot codec whose mask is one flat array instead of a tuple per slot.

    The action is the same per-slot index vector; slot i's mask entries are
    `offsets[i]:offsets[i+1]`, its "no part" first. One array is what a learner that
    scores every order of every unit at once (and `sample_legal`) wants.
    """

    def __init__(self, codec: SlotCodec) -> None:
        self.codec = codec
        self.offsets = codec.offsets

    @property
    def action_space(self) -> spaces.Space[Any]:
        return self.codec.action_space

    @property
    def mask_space(self) -> spaces.Space[Any]:
        return self.codec.flat_mask_space

    def choices(self, match: Match[Any, Any], seat: int) -> Choices:
        return self.codec.choices(match, seat)

    def mask(self, choices: Choices) -> Mask:
        return self.codec.flat_mask(choices)

    def empty_mask(self) -> Mask:
        return self.codec.empty_flat_mask()

    def decode(self, match: Match[Any, Any], choices: Choices, action: Any) -> Any | None:
        return self.codec.decode(match, choices, action)

    def encode(self, match: Match[Any, Any], seat: int, action: Any) -> Any:
        return self.codec.encode(match, seat, action)


def sample_choices(codec: ActionCodec, choices: Choices, rng: np.random.Generator) -> Any:
    """A uniformly random legal action index (or vector) straight from a seat's choices.

    The same draw as `sample_legal` on the seat's mask, without building or scanning it.
    """
    inner = codec.codec if isinstance(codec, FlatMasks) else codec
    if isinstance(inner, SlotCodec):
        # Plain Python over the few legal parts: cheaper than any numpy pipeline here.
        # Slots without a legal part can only take "no part" (index 0), so they are left
        # at 0; a slot with parts draws among them, plus "no part" where that is allowed.
        busy: dict[int, list[int]] = {}
        slot_of = inner.slot_of_flat_list
        for flat in choices.extra["flat"].tolist():
            busy.setdefault(slot_of[flat], []).append(flat)
        open_ = inner._open_slots(choices)
        starts = inner._starts
        vector = [0] * len(inner.slots)
        draws = rng.random(len(busy)).tolist()
        for (i, options), draw in zip(busy.items(), draws, strict=True):
            pool = [*options, starts[i]] if open_[i] else options
            vector[i] = pool[int(draw * len(pool))] - starts[i]
        return np.array(vector, np.int64)
    if isinstance(inner, FlatCodec):
        keys = list(choices.legal)
        if not keys:
            raise ValueError("the seat has no legal action")
        return inner.index[keys[int(rng.integers(len(keys)))]]
    return sample_legal(codec.mask(choices), rng)


def _per_slot(
    legal: np.ndarray[Any, Any], bounds: np.ndarray[Any, Any], rng: np.random.Generator
) -> Any:
    """One uniform pick per slot from sorted legal flat indices."""
    slot = np.searchsorted(bounds, legal, side="right") - 1
    starts = np.flatnonzero(np.diff(slot, prepend=-1))
    if starts.size != bounds.size - 1:
        raise ValueError("every slot of a slot mask allows at least its 'no part' index")
    counts = np.diff(starts, append=legal.size)
    chosen = legal[starts + (rng.random(starts.size) * counts).astype(np.int64)]
    return (chosen - bounds[:-1]).astype(np.int64)


def sample_legal(
    mask: Mask | Sequence[Mask],
    rng: np.random.Generator | None = None,
    *,
    offsets: np.ndarray[Any, Any] | None = None,
) -> Any:
    """A uniformly random legal action for a mask, without Gymnasium's per-slot loop.

    A 1-D mask alone is a `Discrete` one (an int back); a tuple of per-slot masks, or a
    flat mask with its slot `offsets`, is a `MultiDiscrete` one: one independent uniform
    legal index per slot, drawn in one vectorised pass (an int64 vector back).
    """
    generator = rng if rng is not None else np.random.default_rng()
    if isinstance(mask, tuple | list):
        sizes = [len(m) for m in mask]
        offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        flat = np.concatenate(mask)
    else:
        flat = np.asarray(mask)
        if offsets is None:
            legal = np.flatnonzero(flat)
            if legal.size == 0:
                raise ValueError("the mask allows no action")
            return int(legal[generator.integers(legal.size)])
    # flatnonzero is sorted, so each slot's legal entries are contiguous.
    return _per_slot(np.flatnonzero(flat), np.asarray(offsets, np.int64), generator)


CodecFactory = Callable[[Rules[Any, Any], int, Mapping[str, Any]], ActionCodec]
