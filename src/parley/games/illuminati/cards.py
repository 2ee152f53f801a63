"""The card data: loaded once from data/cards.toml into frozen records."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from enum import Enum
from functools import cache
from importlib import resources
from typing import Any


class Alignment(Enum):
    """The ten alignments a group may have."""

    GOVERNMENT = "Government"
    COMMUNIST = "Communist"
    LIBERAL = "Liberal"
    CONSERVATIVE = "Conservative"
    PEACEFUL = "Peaceful"
    VIOLENT = "Violent"
    STRAIGHT = "Straight"
    WEIRD = "Weird"
    CRIMINAL = "Criminal"
    FANATIC = "Fanatic"


class AttackKind(Enum):
    CONTROL = "control"
    NEUTRALIZE = "neutralize"
    DESTROY = "destroy"


@dataclass(frozen=True, slots=True)
class Bonus:
    """+value when the card carrying it attacks, of a kind, some targets or an alignment."""

    attack: str  # an AttackKind value or "any"
    value: int
    targets: tuple[str, ...] = ()
    target_alignment: Alignment | None = None

    def applies(
        self, kind: AttackKind, target: str, target_alignments: frozenset[Alignment]
    ) -> bool:
        if self.attack not in ("any", kind.value):
            return False
        if self.targets and target not in self.targets:
            return False
        return self.target_alignment is None or self.target_alignment in target_alignments


@dataclass(frozen=True, slots=True)
class Goal:
    """An Illuminati's special goal as data (see data/cards.toml)."""

    kind: str
    at_least: int = 0
    alignment: Alignment | None = None


@dataclass(frozen=True, slots=True)
class Card:
    """An Illuminati or group card. Illuminati have no resistance and four arrows."""

    name: str
    illuminati: bool
    power: int
    transferable: int
    resistance: int
    income: int
    alignments: frozenset[Alignment]
    arrows: int
    ability: str
    bonuses: tuple[Bonus, ...] = ()
    hook: str = ""
    goal: str = ""
    check: Goal | None = None
    immune_from: frozenset[Alignment] = frozenset()
    resist_value: int | None = None
    resist_against: frozenset[Alignment] = frozenset()
    treat_as: Alignment | None = None
    treat_when: Alignment | None = None
    treat_attack: str = ""

    @property
    def sides(self) -> tuple[str, ...]:
        """Outward arrows on the card's own sides (its inward arrow is at its bottom)."""
        if self.illuminati:
            return ("top", "right", "bottom", "left")
        return {0: (), 1: ("top",), 2: ("left", "right"), 3: ("top", "left", "right")}[self.arrows]


@dataclass(frozen=True, slots=True)
class Special:
    name: str
    timing: str
    text: str
    copies: int = 1


class CardSet:
    """The whole card set, with look-ups by name."""

    def __init__(
        self,
        illuminati: tuple[Card, ...],
        groups: tuple[Card, ...],
        specials: tuple[Special, ...],
        opposites: frozenset[tuple[Alignment, Alignment]],
    ) -> None:
        self.illuminati = illuminati
        self.groups = groups
        self.specials = specials
        self.opposites = opposites
        self._cards = {c.name: c for c in (*illuminati, *groups)}
        self._specials = {s.name: s for s in specials}

    def card(self, name: str) -> Card:
        return self._cards[name]

    def special(self, name: str) -> Special:
        return self._specials[name]

    def is_group(self, name: str) -> bool:
        card = self._cards.get(name)
        return card is not None and not card.illuminati

    def is_special(self, name: str) -> bool:
        return name in self._specials

    def deck(self) -> list[str]:
        """The draw deck: every group and every physical special card."""
        return [g.name for g in self.groups] + [
            s.name for s in self.specials for _ in range(s.copies)
        ]


def _alignments(names: list[str]) -> frozenset[Alignment]:
    return frozenset(Alignment(n) for n in names)


def _goal(raw: dict[str, Any]) -> Goal:
    return Goal(
        kind=raw["kind"],
        at_least=int(raw.get("at_least", 0)),
        alignment=Alignment(raw["alignment"]) if "alignment" in raw else None,
    )


def _card(raw: dict[str, Any], illuminati: bool) -> Card:
    bonuses = tuple(
        Bonus(
            attack=b["attack"],
            value=int(b["value"]),
            targets=tuple(b.get("target", ())),
            target_alignment=Alignment(b["target_alignment"]) if "target_alignment" in b else None,
        )
        for b in raw.get("bonus", ())
    )
    resist = raw.get("resist", {})
    treat = raw.get("treat_as", {})
    return Card(
        name=raw["name"],
        illuminati=illuminati,
        power=int(raw["power"]),
        transferable=int(raw["transferable"]),
        resistance=int(raw.get("resistance", 0)),
        income=int(raw["income"]),
        alignments=_alignments(raw.get("alignments", [])),
        arrows=4 if illuminati else int(raw["arrows"]),
        ability=raw.get("ability", ""),
        bonuses=bonuses,
        hook=raw.get("hook", ""),
        goal=raw.get("goal", ""),
        check=_goal(raw["check"]) if "check" in raw else None,
        immune_from=_alignments(raw.get("immune_from", [])),
        resist_value=int(resist["value"]) if resist else None,
        resist_against=_alignments(resist.get("attacker_alignment", [])),
        treat_as=Alignment(treat["alignment"]) if treat else None,
        treat_when=Alignment(treat["when_target_alignment"]) if treat else None,
        treat_attack=treat.get("attack", ""),
    )


@cache
def load() -> CardSet:
    """The standard card set."""
    text = resources.files(__package__).joinpath("data/cards.toml").read_text("utf-8")
    raw = tomllib.loads(text)
    opposites: set[tuple[Alignment, Alignment]] = set()
    for a, b in raw["opposites"]:
        opposites.add((Alignment(a), Alignment(b)))
        opposites.add((Alignment(b), Alignment(a)))
    return CardSet(
        illuminati=tuple(_card(c, True) for c in raw["illuminati"]),
        groups=tuple(_card(c, False) for c in raw["group"]),
        specials=tuple(
            Special(s["name"], s["timing"], s["text"], int(s.get("copies", 1)))
            for s in raw["special"]
        ),
        opposites=frozenset(opposites),
    )


def alignment_bonus(
    attacker: frozenset[Alignment],
    target: frozenset[Alignment],
    opposites: frozenset[tuple[Alignment, Alignment]],
) -> int:
    """The seed's "Alignment Lookup": +4 per shared alignment, -4 per opposite pair.

    Two Fanatic cards count as opposite, not alike; Criminal has no opposite.
    """
    total = 0
    for a in attacker:
        if a in target:
            total += -4 if a is Alignment.FANATIC else 4
        for b in target:
            if (a, b) in opposites:
                total -= 4
    return total
