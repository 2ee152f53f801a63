"""Exploration cards (three planet decks) and public objectives, all of our own making."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Effect(Enum):
    """What an exploration card does when revealed."""

    ATTACH = "attach"  # stays with the planet, adding resources and influence
    GOODS = "goods"  # the explorer gains trade goods
    FRAGMENT = "fragment"  # a relic fragment kept face up in the explorer's play area
    RECRUIT = "recruit"  # volunteers: infantry placed on the planet
    HAZARD = "hazard"  # one of the explorer's ground forces on the planet is destroyed


@dataclass(frozen=True, slots=True)
class ExploreCard:
    """One exploration card; `amount` is trade goods or infantry for GOODS and RECRUIT."""

    id: str
    name: str
    deck: str
    effect: Effect
    resources: int = 0
    influence: int = 0
    amount: int = 0

    def text(self) -> str:
        if self.effect is Effect.ATTACH:
            return f"attach: +{self.resources} resources, +{self.influence} influence"
        if self.effect is Effect.GOODS:
            return f"gain {self.amount} trade goods"
        if self.effect is Effect.FRAGMENT:
            return f"a {self.deck} relic fragment"
        if self.effect is Effect.RECRUIT:
            return f"place {self.amount} infantry on the planet"
        return "destroy one of your ground forces on the planet"


def _deck(deck: str, *entries: tuple[int, str, Effect, int, int, int]) -> list[ExploreCard]:
    cards: list[ExploreCard] = []
    for copies, name, effect, res, inf, amount in entries:
        for k in range(copies):
            slug = name.lower().replace(" ", "-")
            cards.append(ExploreCard(f"{slug}-{k + 1}", name, deck, effect, res, inf, amount))
    return cards


A, G, F, R, H = Effect.ATTACH, Effect.GOODS, Effect.FRAGMENT, Effect.RECRUIT, Effect.HAZARD
DECKS: dict[str, list[ExploreCard]] = {
    "cultural": _deck(
        "cultural",
        (1, "Envoy Quarter", A, 0, 2, 0),
        (1, "Oracle Grove", A, 0, 1, 0),
        (1, "Grand Archive", A, 1, 1, 0),
        (2, "Festival Market", G, 0, 0, 2),
        (2, "Local Militia", R, 0, 0, 1),
        (3, "Cultural Relic Fragment", F, 0, 0, 0),
    ),
    "hazardous": _deck(
        "hazardous",
        (1, "Deep Ore Vein", A, 2, 0, 0),
        (1, "Thermal Wells", A, 1, 0, 0),
        (1, "Survivor Enclave", A, 1, 2, 0),
        (2, "Salvage Field", G, 0, 0, 1),
        (2, "Sinkhole", H, 0, 0, 0),
        (3, "Hazardous Relic Fragment", F, 0, 0, 0),
    ),
    "industrial": _deck(
        "industrial",
        (1, "Foundry Ruins", A, 1, 1, 0),
        (1, "Orbital Crane", A, 2, 0, 0),
        (2, "Spare Parts Cache", G, 0, 0, 2),
        (2, "Worker Cooperative", R, 0, 0, 2),
        (1, "Reactor Leak", H, 0, 0, 0),
        (3, "Industrial Relic Fragment", F, 0, 0, 0),
    ),
}
CARDS: dict[str, ExploreCard] = {c.id: c for deck in DECKS.values() for c in deck}


class Goal(Enum):
    """How an objective is met."""

    PLANETS = "planets"  # control N planets outside your home system
    HOLD_RESOURCES = "hold_resources"  # planets you control total N resources
    HOLD_INFLUENCE = "hold_influence"
    SPEND_RESOURCES = "spend_resources"  # exhaust readied planets (and trade goods) for N
    SPEND_INFLUENCE = "spend_influence"
    LEGENDARY = "legendary"  # control the legendary planet
    CENTRAL = "central"  # control every planet of the central system
    TRAITS = "traits"  # control a cultural, a hazardous and an industrial planet
    FRAGMENTS = "fragments"  # hold N relic fragments


@dataclass(frozen=True, slots=True)
class Objective:
    """A public objective worth one victory point."""

    id: str
    name: str
    goal: Goal
    amount: int = 0

    def text(self) -> str:
        n = self.amount
        return {
            Goal.PLANETS: f"control {n} planets outside your home system",
            Goal.HOLD_RESOURCES: f"control planets with {n} resources in all",
            Goal.HOLD_INFLUENCE: f"control planets with {n} influence in all",
            Goal.SPEND_RESOURCES: f"spend {n} resources",
            Goal.SPEND_INFLUENCE: f"spend {n} influence",
            Goal.LEGENDARY: "control the legendary planet",
            Goal.CENTRAL: "control the central system's planet",
            Goal.TRAITS: "control a cultural, a hazardous and an industrial planet",
            Goal.FRAGMENTS: f"hold {n} relic fragments",
        }[self.goal]


OBJECTIVES: dict[str, Objective] = {
    o.id: o
    for o in (
        Objective("frontier", "Claim the Frontier", Goal.PLANETS, 3),
        Objective("treasury", "Fill the Treasury", Goal.SPEND_RESOURCES, 6),
        Objective("loyalty", "Buy Loyalty", Goal.SPEND_INFLUENCE, 6),
        Objective("holdings", "Rich Holdings", Goal.HOLD_RESOURCES, 10),
        Objective("court", "Court of Worlds", Goal.HOLD_INFLUENCE, 9),
        Objective("legend", "The Legend", Goal.LEGENDARY),
        Objective("throne", "Seat of the Old Empire", Goal.CENTRAL),
        Objective("survey", "Three Kinds of World", Goal.TRAITS),
        Objective("relics", "Relic Hunters", Goal.FRAGMENTS, 2),
        Objective("reach", "Deep Reach", Goal.PLANETS, 6),
    )
}
