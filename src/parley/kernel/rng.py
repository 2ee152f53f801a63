"""A small seeded random generator whose whole state is one integer.

Games keep one inside their state and draw from it only in the rules, so the same seed and
the same actions replay bit for bit on any Python version (the stdlib generator's
derived methods are not promised to stay stable across versions).

Every draw may carry a label saying who draws and what for ("attack roll by Player 1").
A plain `Rng` ignores it; a `Script` checks it against the results it was given, so a
scenario, a puzzle or a test sets the dice, draws and shuffles of a game in the order the
rules make them, and learns clearly when the rules draw more, less or something else.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, MutableSequence, Sequence
from typing import Any, NamedTuple, TypeVar

from .errors import ParleyError

T = TypeVar("T")

_MASK64 = (1 << 64) - 1


class Rng:
    """SplitMix64: fast, well distributed, trivially serialisable."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = seed & _MASK64

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def below(self, n: int, label: str = "") -> int:
        """Uniform integer in [0, n), unbiased (rejection sampling)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def randint(self, low: int, high: int, label: str = "") -> int:
        """Uniform integer in [low, high], both ends included (a die: randint(1, 6))."""
        return low + self.below(high - low + 1)

    def random(self, label: str = "") -> float:
        """Uniform float in [0, 1)."""
        return (self.next64() >> 11) / float(1 << 53)

    def choice(self, items: Sequence[T], label: str = "") -> T:
        if not items:
            raise IndexError("choice() from an empty sequence")
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T], label: str = "") -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def fork(self, salt: int) -> Rng:
        """An independent generator derived from this one's state and a salt."""
        return Rng(self.state ^ ((salt * 0xD1B54A32D192ED03) & _MASK64))

    def copy(self) -> Rng:
        return Rng(self.state)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and other.state == self.state

    def __hash__(self) -> int:
        return hash(self.state)

    def __repr__(self) -> str:
        return f"Rng(state={self.state:#x})"


class ChanceError(ParleyError):
    """A scripted draw that does not fit: the script ran out, was left unused, or disagrees."""

    code = "chance"


class Draw(NamedTuple):
    """One scripted result: `label` must occur in the draw's label ("" matches any draw).

    `value` is what the draw returns: the number for `below` and `randint`, the float for
    `random`, the item for `choice`, and for `shuffle` the whole new order (a list holding
    the same items), or None to leave the order as it is.
    """

    label: str
    value: Any


def as_draws(items: Iterable[Any]) -> list[Draw]:
    """Draws from `Draw`s, `[label, value]` pairs or bare values (which match any label)."""
    out: list[Draw] = []
    for i, item in enumerate(items):
        if isinstance(item, Draw):
            out.append(item)
        elif isinstance(item, (list, tuple)) and len(item) == 2 and isinstance(item[0], str):
            out.append(Draw(item[0], item[1]))
        elif isinstance(item, Mapping):
            if set(item) - {"label", "value"} or "value" not in item:
                raise ChanceError(f"scripted draw {i + 1} needs 'value' (and may have 'label')")
            out.append(Draw(str(item.get("label", "")), item["value"]))
        else:
            out.append(Draw("", item))
    return out


class Script(Rng):
    """A generator that returns given results in order instead of drawing them.

    Strict: a draw with no result left, a result whose label does not match or whose value
    the draw cannot return raises `ChanceError`; `finish()` raises if results are left.
    `drawn` lists every draw made so far as (the draw's label, the value given).
    """

    __slots__ = ("drawn", "draws")

    def __init__(self, draws: Iterable[Any], seed: int = 0) -> None:
        super().__init__(seed)
        self.draws: list[Draw] = as_draws(draws)
        self.drawn: list[tuple[str, Any]] = []

    @property
    def left(self) -> int:
        """How many scripted results are not used yet."""
        return len(self.draws)

    def finish(self) -> None:
        """Raise ChanceError unless every scripted result was used."""
        if self.draws:
            rest = ", ".join(_show(d) for d in self.draws[:5])
            more = f" and {len(self.draws) - 5} more" if len(self.draws) > 5 else ""
            raise ChanceError(
                f"{len(self.draws)} scripted result(s) left unused after {len(self.drawn)} "
                f"draw(s): {rest}{more}"
            )

    def _next(self, label: str, wants: str) -> Any:
        what = f"draw {len(self.drawn) + 1} ({label or 'unlabelled'}: {wants})"
        if not self.draws:
            raise ChanceError(f"the script ran out at {what}")
        draw = self.draws[0]
        if draw.label and draw.label.casefold() not in label.casefold():
            raise ChanceError(f"the script expected {_show(draw)} at {what}")
        return draw.value

    def _take(self, label: str, value: Any) -> None:
        self.draws.pop(0)
        self.drawn.append((label, value))

    def _number(self, low: int, high: int, label: str) -> int:
        wants = f"a whole number {low}–{high}"
        value = self._next(label, wants)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ChanceError(
                f"scripted result {value!r} for draw {len(self.drawn) + 1} "
                f"({label or 'unlabelled'}) is not {wants}"
            )
        self._take(label, value)
        return value

    def below(self, n: int, label: str = "") -> int:
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        return self._number(0, n - 1, label)

    def randint(self, low: int, high: int, label: str = "") -> int:
        return self._number(low, high, label)

    def random(self, label: str = "") -> float:
        wants = "a number from 0 up to 1"
        value = self._next(label, wants)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < 1:
            raise ChanceError(f"scripted result {value!r} ({label or 'unlabelled'}) is not {wants}")
        self._take(label, float(value))
        return float(value)

    def choice(self, items: Sequence[T], label: str = "") -> T:
        if not items:
            raise IndexError("choice() from an empty sequence")
        wants = "one of " + ", ".join(repr(x) for x in list(items)[:8])
        value = self._next(label, wants)
        for item in items:
            if item == value:
                self._take(label, item)
                return item
        raise ChanceError(f"scripted result {value!r} ({label or 'unlabelled'}) is not {wants}")

    def shuffle(self, items: MutableSequence[T], label: str = "") -> None:
        value = self._next(label, f"an order of {len(items)} items")
        if value is None:
            self._take(label, None)
            return
        order = list(value) if isinstance(value, (list, tuple)) else None
        if order is None or not _same_items(order, list(items)):
            raise ChanceError(
                f"scripted order for draw {len(self.drawn) + 1} ({label or 'unlabelled'}) is "
                f"not a rearrangement of the {len(items)} items {list(items)[:8]!r}..."
            )
        # Take the given items' own objects, in the scripted order.
        pool = list(items)
        result = [pool.pop(pool.index(x)) for x in order]
        items[:] = result
        self._take(label, order)

    def copy(self) -> Script:
        twin = Script(self.draws, self.state)
        twin.drawn = list(self.drawn)
        return twin

    def __repr__(self) -> str:
        return f"Script(left={len(self.draws)}, drawn={len(self.drawn)})"


def _same_items(a: list[Any], b: list[Any]) -> bool:
    rest = list(b)
    for x in a:
        if x not in rest:
            return False
        rest.remove(x)
    return not rest


def _show(draw: Draw) -> str:
    return f"{draw.value!r}" + (f" for {draw.label!r}" if draw.label else "")
