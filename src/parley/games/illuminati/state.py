"""The state of a game of Illuminati: mutable, owned by the rules."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from parley.kernel import OptionValue, Rng

from .geometry import Link


class Phase(Enum):
    CHOOSE = "choose"  # players take Illuminati cards in seat order
    GOAL = "goal"  # the UFOs choose a goal in secret
    START = "start"  # Senate Investigating Committee, then Market Manipulation
    KEEP = "keep"  # a drawn special: face up or face down
    MAIN = "main"  # the active player's actions
    ATTACK = "attack"  # the attacker announces: aid, money, privilege, roll or call off
    REACT = "react"  # the others in turn: money, interference, specials, privilege
    AFTER_ROLL = "after_roll"  # Assassination, Murphy's Law
    SECRETS = "secrets"  # answer a special card with Secrets Man Was Not Meant to Know
    PLACE = "place"  # groups waiting for room
    PRICE = "price"  # the giver names the price of an offer
    ANSWER = "answer"  # the receiver accepts or declines
    REORGANIZE = "reorganize"  # Gnomes, Bermuda Triangle, White Collar Crime
    CONFIRM = "confirm"  # a move would lose cards: the mover accepts or declines
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Held:
    """A special card in a hand; `seen_by` are other seats that know it (Computer Espionage)."""

    card: str
    face_up: bool
    decided: bool = True
    seen_by: frozenset[int] = frozenset()


@dataclass
class Player:
    seat: int
    illuminati: str = ""
    links: dict[str, Link] = field(default_factory=dict)
    money: dict[str, int] = field(default_factory=dict)
    hand: list[Held] = field(default_factory=list)
    eliminated: bool = False
    turns: int = 0
    destroyed: int = 0
    goal: str = ""  # the UFOs' chosen Illuminati, whose goal they pursue
    notes: list[str] = field(default_factory=list)

    def groups(self) -> list[str]:
        return [n for n in self.links if n != self.illuminati]


@dataclass
class AttackState:
    attacker_seat: int
    attacker: str
    target: str
    kind: str
    defender: int | None
    whispering: bool = False
    aids: list[str] = field(default_factory=list)
    attack_money: int = 0
    defend_group_money: int = 0
    defend_illuminati_money: int = 0
    interference: int = 0
    privileged: bool = False
    abolished: bool = False
    interferers: list[int] = field(default_factory=list)  # seats that played Interference
    committed: bool = False
    opened: bool = False  # the others have had their say at least once
    spent_since_window: bool = False
    round_activity: bool = False
    roll: int | None = None
    dice: tuple[int, int] | None = None
    changed_by: str = ""  # Assassination or Murphy's Law
    repeat: bool = False
    answers: list[tuple[int, str]] = field(default_factory=list)  # (seat, notation) in order


@dataclass
class Pending:
    """A group waiting for room in a seat's structure (only on `host` when it is set)."""

    seat: int
    group: str
    host: str | None = None
    puppets: dict[str, Link] = field(default_factory=dict)  # the group's own link is ignored
    money: dict[str, int] = field(default_factory=dict)


@dataclass
class Offer:
    giver: int
    receiver: int
    item: str  # a group or a special card; empty for money
    money: int = 0  # money given (a gift of money)
    price_group: str | None = None
    price_money: int = 0
    priced: bool = False


@dataclass(frozen=True)
class PendingMove:
    """A move of a group that would lose cards, waiting for its mover's yes or no.

    `lost` are the cards that would not fit (the group itself or puppets, masters first);
    `back` is the phase the answer returns to (the turn or a free reorganisation).
    """

    seat: int
    group: str
    host: str
    direction: str
    lost: tuple[str, ...]
    back: Phase


@dataclass
class PendingPlay:
    """A special card played and waiting for Secrets Man Was Not Meant to Know."""

    seat: int
    card: str
    target: str | None
    using: str | None


@dataclass
class IlluminatiState:
    seats: int
    options: dict[str, OptionValue]
    rng: Rng
    players: list[Player]
    deck: list[str]  # the top card is the last
    center: list[str] = field(default_factory=list)
    dead: list[str] = field(default_factory=list)
    phase: Phase = Phase.CHOOSE
    active: int = 0
    first: int = 0
    round: int = 1
    turn_number: int = 0
    queue: list[int] = field(default_factory=list)
    # Seats that have had their say in each window still open (a window interrupted by
    # Secrets keeps its own), in order: told to everyone, as the queue is.
    answered: dict[Phase, list[int]] = field(default_factory=dict)
    resume: list[tuple[Phase, list[int]]] = field(default_factory=list)
    # the active player's turn
    actions_used: int = 0
    acted: bool = False
    used: dict[str, int] = field(default_factory=dict)
    privilege_used: bool = False
    recycled: bool = False
    lasered: bool = False
    lasers: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)  # old, new
    offers_made: int = 0
    last_failed: tuple[str, str, str, tuple[str, ...]] | None = None
    market: bool = False
    reorganize: str = ""  # "money", "groups" or "wcc"
    reorganize_moves: int = 0
    after_reorganize: str = ""  # "end" or "main"
    attack: AttackState | None = None
    pending: list[Pending] = field(default_factory=list)
    offer: Offer | None = None
    playing: PendingPlay | None = None
    moving: PendingMove | None = None
    # The bank (the seed's "Bank's Total Money"): it has no limit and no starting sum, so it
    # keeps what it has paid out (income, specials, passes) and received (money spent,
    # treasuries of lost groups); money on the table is always paid out minus received.
    bank_paid: int = 0
    bank_received: int = 0
    # The last attack resolved (its terms, dice and result), kept until the next one.
    last_attack: dict[str, Any] | None = None
    dice: tuple[int, int] | None = None
    log: list[str] = field(default_factory=list)
    log_count: int = 0  # lines ever logged (`log` keeps the latest)
    winners: list[int] = field(default_factory=list)
    reason: str = ""


def clone(state: IlluminatiState) -> IlluminatiState:
    """An independent copy (records inside are frozen, so copying containers suffices)."""
    a = state.attack
    return replace(
        state,
        options=dict(state.options),
        rng=state.rng.copy(),
        players=[
            replace(
                p, links=dict(p.links), money=dict(p.money), hand=list(p.hand), notes=list(p.notes)
            )
            for p in state.players
        ],
        deck=list(state.deck),
        center=list(state.center),
        dead=list(state.dead),
        queue=list(state.queue),
        answered={phase: list(seats) for phase, seats in state.answered.items()},
        resume=[(phase, list(q)) for phase, q in state.resume],
        used=dict(state.used),
        lasers=dict(state.lasers),
        attack=None
        if a is None
        else replace(
            a, aids=list(a.aids), interferers=list(a.interferers), answers=list(a.answers)
        ),
        pending=[replace(p, puppets=dict(p.puppets), money=dict(p.money)) for p in state.pending],
        offer=None if state.offer is None else replace(state.offer),
        playing=None if state.playing is None else replace(state.playing),
        log=list(state.log),
        winners=list(state.winners),
    )
