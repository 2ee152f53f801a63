"""Every action of the game, as frozen records; the notation is in notation.py."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ChooseIlluminati:
    """Take an Illuminati card at the start."""

    name: str


@dataclass(frozen=True, slots=True)
class ChooseGoal:
    """The UFOs' secret choice of another Illuminati's goal."""

    name: str


@dataclass(frozen=True, slots=True)
class Keep:
    """Keep a drawn special card face up or face down."""

    face_up: bool


@dataclass(frozen=True, slots=True)
class Pass:
    """No answer in a window; at the start of a turn with nothing done, pass for 5 MB."""


@dataclass(frozen=True, slots=True)
class Done:
    """End the turn (after acting) or a free reorganisation."""


@dataclass(frozen=True, slots=True)
class Attack:
    """Announce an attack; `spend` MB from `source` (None: the Illuminati) may come with it."""

    target: str
    attacker: str
    kind: str  # "control", "neutralize" or "destroy"
    spend: int = 0
    source: str | None = None


@dataclass(frozen=True, slots=True)
class AttackAgain:
    """Repeat a failed first attack as the second action."""


@dataclass(frozen=True, slots=True)
class Aid:
    """Add a card's transferable power to the attack being announced."""

    card: str


@dataclass(frozen=True, slots=True)
class Spend:
    """Spend money on the attack (attacker) or against it (defender); None: the Illuminati."""

    amount: int
    source: str | None = None


@dataclass(frozen=True, slots=True)
class Roll:
    """The attacker has said all it will: on to the others, or to the dice."""


@dataclass(frozen=True, slots=True)
class CallOff:
    """Call off an attack on which no money has been spent."""


@dataclass(frozen=True, slots=True)
class Privilege:
    """Make the attack privileged: Bavarian pays 5 MB (discard None) or discard a special."""

    discard: str | None = None


@dataclass(frozen=True, slots=True)
class Abolish:
    """Abolish privilege by discarding two special cards."""

    first: str
    second: str


@dataclass(frozen=True, slots=True)
class Interfere:
    """Spend MB from the Illuminati treasury for (+1 each) or against (-1 each) the attack."""

    amount: int
    against: bool = False


@dataclass(frozen=True, slots=True)
class Play:
    """Play a special card, with its target and the card it uses where it needs them."""

    card: str
    target: str | None = None
    using: str | None = None


@dataclass(frozen=True, slots=True)
class Transfer:
    """Move money between two of one's own cards."""

    amount: int
    source: str
    dest: str


@dataclass(frozen=True, slots=True)
class Move:
    """Move a group (with its puppets) onto a free arrow of another card of one's own."""

    group: str
    host: str
    direction: str


@dataclass(frozen=True, slots=True)
class Place:
    """Place a group waiting for room on a free arrow."""

    group: str
    host: str
    direction: str


@dataclass(frozen=True, slots=True)
class Release:
    """Send a group waiting for room to the uncontrolled area."""

    group: str


@dataclass(frozen=True, slots=True)
class Drop:
    """Drop a group (with its puppets) to the uncontrolled area."""

    group: str


@dataclass(frozen=True, slots=True)
class Offer:
    """Offer a group or a special card to another player; a price follows."""

    item: str
    to: int


@dataclass(frozen=True, slots=True)
class Ask:
    """The price of an offer: one of the receiver's groups, money, or nothing."""

    group: str | None = None
    money: int = 0


@dataclass(frozen=True, slots=True)
class PayMoney:
    """Give money from the Illuminati treasury to another player (who may refuse it)."""

    amount: int
    to: int


@dataclass(frozen=True, slots=True)
class Accept:
    """Accept the offer or gift put to you."""


@dataclass(frozen=True, slots=True)
class Decline:
    """Refuse the offer or gift put to you."""


@dataclass(frozen=True, slots=True)
class Lasers:
    """Orbital Mind Control Lasers, for the turn: one alignment of a group changed.

    `old` -> `new` switches an alignment (or reverses it, with the option
    `lasers=add_remove_reverse`); `old` None adds `new` (in the seed's reading, to a group
    with no alignment); `new` None removes `old` (the option's reading only).
    """

    group: str
    old: str | None
    new: str | None


@dataclass(frozen=True, slots=True)
class Recycle:
    """Recyclers: pay 5 MB from its treasury to draw an extra card."""


Action = (
    ChooseIlluminati
    | ChooseGoal
    | Keep
    | Pass
    | Done
    | Attack
    | AttackAgain
    | Aid
    | Spend
    | Roll
    | CallOff
    | Privilege
    | Abolish
    | Interfere
    | Play
    | Transfer
    | Move
    | Place
    | Release
    | Drop
    | Offer
    | Ask
    | PayMoney
    | Accept
    | Decline
    | Lasers
    | Recycle
)
