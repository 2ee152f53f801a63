"""Write a game's state as readable JSON and read it back, checked field by field.

Games whose state is made of dataclasses describe it once with type hints; a `Codec`
walks those hints both ways. Writing keeps every field under its own name (enums by
value, generators as hex text, dict keys as text); reading checks every value against its
hint and raises `BadPosition` naming the field's path (`players[1].money["Gnomes"]`), so a
hand-edited position fails clearly instead of deep inside the rules.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Mapping
from enum import Enum
from typing import Any, Union

from .errors import BadPosition
from .rng import Rng

Hint = Any


def parse_json(text: str) -> dict[str, Any]:
    """A position's JSON text as an object, or BadPosition saying where it breaks."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise BadPosition(f"the position is not valid JSON: {err}") from None
    if not isinstance(data, dict):
        raise BadPosition("a position is a JSON object")
    return data


def dumps(position: Mapping[str, Any], width: int = 88) -> str:
    """The tidy text of a position: indented, keys in the game's order, and anything that
    fits on one line kept on one line."""
    return _tidy(position, 0, width) + "\n"


def _tidy(value: Any, indent: int, width: int, lead: int = 0) -> str:
    flat = json.dumps(value, ensure_ascii=False)
    if indent + lead + len(flat) <= width or not isinstance(value, (list, dict)) or not value:
        return flat
    pad = " " * (indent + 2)
    if isinstance(value, list) and not any(isinstance(v, (list, dict)) for v in value):
        lines: list[str] = []  # plain values fill lines, as people write a long list
        for v in value:
            item = json.dumps(v, ensure_ascii=False)
            if lines and len(lines[-1]) + len(item) + 2 <= width:
                lines[-1] += " " + item + ","
            else:
                lines.append(pad + item + ",")
        return "[\n" + "\n".join(lines)[:-1] + "\n" + " " * indent + "]"
    if isinstance(value, list):
        inner = [pad + _tidy(v, indent + 2, width) for v in value]
        return "[\n" + ",\n".join(inner) + "\n" + " " * indent + "]"
    rows = []
    for k, v in value.items():
        key = json.dumps(k, ensure_ascii=False) + ": "
        rows.append(pad + key + _tidy(v, indent + 2, width, len(key)))
    return "{\n" + ",\n".join(rows) + "\n" + " " * indent + "}"


def rng_to_json(rng: Rng) -> str:
    return f"{rng.state:#018x}"


def rng_from_json(data: Any, where: str) -> Rng:
    if isinstance(data, bool):
        raise BadPosition(f"{where}: a generator state is a whole number or hex text")
    if isinstance(data, int):
        value = data
    elif isinstance(data, str):
        try:
            value = int(data, 0)
        except ValueError:
            raise BadPosition(f"{where}: {data!r} is not a generator state (hex text)") from None
    else:
        raise BadPosition(f"{where}: a generator state is a whole number or hex text")
    if not 0 <= value < 1 << 64:
        raise BadPosition(f"{where}: a generator state is 0 to 2**64-1")
    return Rng(value)


class Codec:
    """Dataclass states to JSON and back; `skip` leaves fields out (shared data, derived
    fields) that the caller supplies on reading through `given`."""

    def __init__(self, skip: Mapping[type, frozenset[str]] | None = None) -> None:
        self.skip = dict(skip or {})
        self._hints: dict[type, dict[str, Hint]] = {}

    # --- writing ----------------------------------------------------------------------

    def write(self, value: Any) -> Any:
        if value is None or isinstance(value, (bool, int, float, str)):
            return value
        if isinstance(value, Enum):
            return value.value
        if isinstance(value, Rng):
            return rng_to_json(value)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            skip = self.skip.get(type(value), frozenset())
            return {
                f.name: self.write(getattr(value, f.name))
                for f in dataclasses.fields(value)
                if f.name not in skip
            }
        if isinstance(value, Mapping):
            return {self._key(k): self.write(v) for k, v in value.items()}
        if isinstance(value, (frozenset, set)):
            return sorted((self.write(v) for v in value), key=repr)
        if isinstance(value, (list, tuple)):
            return [self.write(v) for v in value]
        raise TypeError(f"cannot write {type(value).__name__} in a position")

    @staticmethod
    def _key(key: Any) -> str:
        if isinstance(key, Enum):
            return str(key.value)
        if isinstance(key, (str, int)) and not isinstance(key, bool):
            return str(key)
        raise TypeError(f"cannot write a key of type {type(key).__name__}")

    # --- reading ----------------------------------------------------------------------

    def read(
        self, data: Any, hint: Hint, where: str, given: Mapping[str, Any] | None = None
    ) -> Any:
        """`data` as a value of type `hint`; `given` supplies skipped fields of a dataclass."""
        origin: Any = typing.get_origin(hint)
        args = typing.get_args(hint)
        if hint is Any:
            _check_json(data, where)
            return data
        if hint is type(None) or hint is None:
            if data is not None:
                raise BadPosition(f"{where}: expected null, got {_show(data)}")
            return None
        if origin in (Union, types.UnionType):
            if data is None and type(None) in args:
                return None
            choices = [a for a in args if a is not type(None)]
            if len(choices) == 1:
                return self.read(data, choices[0], where)
            return self._read_union(data, choices, where)
        if hint is bool:
            if not isinstance(data, bool):
                raise BadPosition(f"{where}: expected true or false, got {_show(data)}")
            return data
        if hint is int:
            if isinstance(data, bool) or not isinstance(data, int):
                raise BadPosition(f"{where}: expected a whole number, got {_show(data)}")
            return data
        if hint is float:
            if isinstance(data, bool) or not isinstance(data, (int, float)):
                raise BadPosition(f"{where}: expected a number, got {_show(data)}")
            return float(data)
        if hint is str:
            if not isinstance(data, str):
                raise BadPosition(f"{where}: expected text, got {_show(data)}")
            return data
        if isinstance(hint, type) and issubclass(hint, Enum):
            try:
                return hint(data)
            except ValueError:
                known = ", ".join(repr(m.value) for m in hint)
                raise BadPosition(f"{where}: {_show(data)} is not one of {known}") from None
        if isinstance(hint, type) and issubclass(hint, Rng):
            return rng_from_json(data, where)
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            return self._read_dataclass(data, hint, where, given or {})
        if origin in (list, tuple, frozenset, set) or hint in (list, tuple):
            if not isinstance(data, list):
                raise BadPosition(f"{where}: expected a list, got {_show(data)}")
            if origin is tuple and args and not (len(args) == 2 and args[1] is Ellipsis):
                if len(data) != len(args):
                    raise BadPosition(f"{where}: expected {len(args)} items, got {len(data)}")
                return tuple(
                    self.read(d, a, f"{where}[{i}]")
                    for i, (d, a) in enumerate(zip(data, args, strict=True))
                )
            item = args[0] if args else Any
            items = [self.read(d, item, f"{where}[{i}]") for i, d in enumerate(data)]
            if origin is tuple or hint is tuple:
                return tuple(items)
            if origin is frozenset:
                return frozenset(items)
            if origin is set:
                return set(items)
            return items
        if origin is dict or hint is dict:
            if not isinstance(data, dict):
                raise BadPosition(f"{where}: expected an object, got {_show(data)}")
            key_hint, value_hint = args if args else (str, Any)
            out = {}
            for k, v in data.items():
                key = self._read_key(k, key_hint, where)
                out[key] = self.read(v, value_hint, f"{where}[{k!r}]")
            return out
        raise TypeError(f"{where}: no reader for {hint!r}")

    def _read_key(self, key: str, hint: Hint, where: str) -> Any:
        if hint is int:
            try:
                return int(key)
            except ValueError:
                raise BadPosition(f"{where}: key {key!r} is not a whole number") from None
        if isinstance(hint, type) and issubclass(hint, Enum):
            return self.read(key, hint, f"{where} key")
        return key

    def _read_union(self, data: Any, choices: list[Hint], where: str) -> Any:
        # Dataclass alternatives are told apart by their fields.
        if isinstance(data, dict):
            for choice in choices:
                if isinstance(choice, type) and dataclasses.is_dataclass(choice):
                    names = {f.name for f in dataclasses.fields(choice)}
                    if set(data) == names:
                        return self._read_dataclass(data, choice, where, {})
        errors = []
        for choice in choices:
            try:
                return self.read(data, choice, where)
            except BadPosition as err:
                errors.append(err.message)
        raise BadPosition(
            errors[0] if len(errors) == 1 else f"{where}: {_show(data)} fits none of its forms"
        )

    def hints(self, cls: type) -> dict[str, Hint]:
        if cls not in self._hints:
            self._hints[cls] = typing.get_type_hints(cls)
        return self._hints[cls]

    def _read_dataclass(self, data: Any, cls: type, where: str, given: Mapping[str, Any]) -> Any:
        if not isinstance(data, dict):
            raise BadPosition(f"{where or cls.__name__}: expected an object, got {_show(data)}")
        skip = self.skip.get(cls, frozenset())
        hints = self.hints(cls)
        fields = {f.name: f for f in dataclasses.fields(cls) if f.init}
        unknown = sorted(set(data) - (set(fields) - skip))
        if unknown:
            known = ", ".join(n for n in fields if n not in skip)
            raise BadPosition(f"{_join(where, unknown[0])}: no such field (known: {known})")
        kwargs: dict[str, Any] = {}
        for name, f in fields.items():
            if name in skip:
                if name in given:
                    kwargs[name] = given[name]
                continue
            if name in data:
                kwargs[name] = self.read(data[name], hints[name], _join(where, name))
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise BadPosition(f"{_join(where, name)}: missing")
        try:
            return cls(**kwargs)
        except TypeError as err:
            raise BadPosition(f"{where or cls.__name__}: {err}") from None


def _join(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name


def _check_json(data: Any, where: str) -> None:
    if data is None or isinstance(data, (bool, int, float, str)):
        return
    if isinstance(data, list):
        for i, d in enumerate(data):
            _check_json(d, f"{where}[{i}]")
        return
    if isinstance(data, dict):
        for k, v in data.items():
            if not isinstance(k, str):
                raise BadPosition(f"{where}: keys are text")
            _check_json(v, f"{where}[{k!r}]")
        return
    raise BadPosition(f"{where}: {type(data).__name__} is not JSON")


def _show(data: Any) -> str:
    text = json.dumps(data) if _is_plain(data) else repr(data)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_plain(data: Any) -> bool:
    try:
        json.dumps(data)
    except (TypeError, ValueError):
        return False
    return True


def check_usable(rules: Any, state: Any) -> None:
    """BadPosition unless the rules can show and play `state`.

    The last check of a read position: a value may fit its field's type and still not fit
    the game (a logged event of another shape, a result with odd parts). Whatever would
    break a view or the legal actions is refused here, in one clear error, instead of
    later in front of a player.
    """
    from .errors import ParleyError
    from .game import ARCHIVE, SPECTATOR, Viewer

    try:
        seats = rules.seat_count(state)
        rules.turn(state)
        rules.outcome(state)
        for viewer in (ARCHIVE, SPECTATOR, *(Viewer.of(s) for s in range(seats))):
            json.dumps(rules.observe(state, viewer))
        for seat in range(seats):
            rules.legal_actions(state, seat)
    except ParleyError:
        raise
    except (ArithmeticError, AttributeError, IndexError, KeyError, TypeError, ValueError) as err:
        raise BadPosition(
            f"the position does not hold together ({type(err).__name__}: {err}); "
            "check the fields the others depend on"
        ) from None
