"""Declared game options: a schema with defaults, validated once at setup."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import BadOptions

OptionValue = bool | int | str


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a game; its type is the type of its default.

    `label` names it in a few words and `help` says in one line what it does, for every form
    and client alike. `offered` lists the values a form names when the option is open to
    others too (a map or galaxy the server was given, a file from the command line).
    `choice_labels` says each of `choices` (or of `offered`) in words, in the same order.
    """

    name: str
    default: OptionValue
    help: str
    choices: tuple[OptionValue, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    label: str = ""
    choice_labels: tuple[str, ...] = ()
    offered: tuple[OptionValue, ...] = ()

    def __post_init__(self) -> None:
        listed = self.choices or self.offered
        if self.choice_labels and len(self.choice_labels) != len(listed):
            raise ValueError(f"option {self.name!r}: one label for each of {listed!r}")

    @property
    def title(self) -> str:
        """The label, or the name in words when the game gave none."""
        return self.label or self.name.replace("_", " ").capitalize()

    def coerce(self, value: Any) -> OptionValue:
        """The value as this option's type, or BadOptions naming the option and the value."""
        kind = type(self.default)
        if isinstance(value, str) and kind is not str:
            value = _from_text(self.name, value, kind)
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise BadOptions(f"option {self.name!r} takes a whole number, not {value!r}")
        if kind is bool and not isinstance(value, bool):
            raise BadOptions(f"option {self.name!r} takes true or false, not {value!r}")
        if kind is str and not isinstance(value, str):
            raise BadOptions(f"option {self.name!r} takes text, not {value!r}")
        if self.choices and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise BadOptions(f"option {self.name!r} must be one of {allowed}; got {value!r}")
        if isinstance(value, int) and not isinstance(value, bool):
            if self.minimum is not None and value < self.minimum:
                raise BadOptions(
                    f"option {self.name!r} must be at least {self.minimum}; got {value}"
                )
            if self.maximum is not None and value > self.maximum:
                raise BadOptions(
                    f"option {self.name!r} must be at most {self.maximum}; got {value}"
                )
        return value  # type: ignore[no-any-return]

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "name": self.name,
            "type": type(self.default).__name__,
            "default": self.default,
            "help": self.help,
            "label": self.title,
        }
        if self.choices:
            out["choices"] = list(self.choices)
        if self.offered:
            out["offered"] = list(self.offered)
        if self.choice_labels:
            listed = self.choices or self.offered
            out["choice_labels"] = {
                str(value): text for value, text in zip(listed, self.choice_labels, strict=True)
            }
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


def _from_text(name: str, text: str, kind: type) -> OptionValue:
    raw = text.strip().lower()
    if kind is bool:
        if raw in ("1", "true", "yes", "on"):
            return True
        if raw in ("0", "false", "no", "off"):
            return False
        raise BadOptions(f"option {name!r} takes true or false, not {text!r}")
    try:
        return int(raw)
    except ValueError:
        raise BadOptions(f"option {name!r} takes a whole number, not {text!r}") from None


def resolve_options(
    specs: tuple[OptionSpec, ...], given: Mapping[str, Any] | None
) -> dict[str, OptionValue]:
    """Every declared option with its value: given ones checked, missing ones defaulted."""
    given = dict(given or {})
    by_name = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        known = ", ".join(sorted(by_name)) or "none"
        raise BadOptions(f"unknown option(s) {', '.join(unknown)}; this game takes: {known}")
    return {
        name: spec.coerce(given[name]) if name in given else spec.default
        for name, spec in by_name.items()
    }


def parse_option_pairs(pairs: list[str] | tuple[str, ...]) -> dict[str, str]:
    """`name=value` words (a command line's options) as a dict; values stay text."""
    out: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise BadOptions(f"options are written name=value, not {pair!r}")
        out[key.strip()] = value.strip()
    return out
