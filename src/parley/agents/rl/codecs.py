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
        self._space = spaces.MultiDiscrete(np.array(sizes, dtype=np.int64))
        self._mask_space = spaces.Tuple(tuple(spaces.Box(0, 1, (n,), np.int8) for n in sizes))

    @property
    def action_space(self) -> spaces.Space[Any]:
        return self._space

    @property
    def mask_space(self) -> spaces.Space[Any]:
        return self._mask_space

    def choices(self, match: Match[Any, Any], seat: int) -> Choices:
        rules = match.rules
        legal = {rules.format(a): a for a in match.legal_actions(seat)}
        by_slot: dict[str, list[str]] = {}
        for text in legal:
            by_slot.setdefault(self.slot_of(text), []).append(text)
        return Choices(seat, legal, {"by_slot": by_slot})

    def mask(self, choices: Choices) -> tuple[Mask, ...]:
        masks = [np.zeros(len(t), np.int8) for t in self.tables]
        by_slot: dict[str, list[str]] = choices.extra["by_slot"]
        for slot, texts in by_slot.items():
            i = self._slot(slot, texts[0])
            for text in texts:
                masks[i][self._index_of(i, text)] = 1
            if self.optional(choices, slot):
                masks[i][0] = 1
        for mask in masks:
            if not mask.any():
                mask[0] = 1
        return tuple(masks)

    def empty_mask(self) -> tuple[Mask, ...]:
        masks = tuple(np.zeros(len(t), np.int8) for t in self.tables)
        for mask in masks:
            mask[0] = 1
        return masks

    def decode(self, match: Match[Any, Any], choices: Choices, action: Any) -> Any | None:
        vector = np.asarray(action).reshape(-1)
        if vector.shape != (len(self.slots),):
            return None
        by_slot: dict[str, list[str]] = choices.extra["by_slot"]
        parts: list[Any] = []
        for i, raw in enumerate(vector):
            index = int(raw)
            if not 0 <= index < len(self.tables[i]):
                return None
            slot = self.slots[i]
            if index == 0:
                if slot in by_slot and not self.optional(choices, slot):
                    return None
                continue
            part = choices.legal.get(self.tables[i][index])
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


CodecFactory = Callable[[Rules[Any, Any], int, Mapping[str, Any]], ActionCodec]
