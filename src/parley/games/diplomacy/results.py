"""What happened to each order: an outcome, a reason code, and a message for people."""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from .orders import Order, format_order


class Outcome(Enum):
    SUCCEEDS = "succeeds"
    FAILS = "fails"  # understood and allowed, but did not work
    ILLEGAL = "illegal"  # not accepted at all; the unit acts as if unordered


class Reason(Enum):
    """Why an order ended as it did. Values are stable machine-readable tags."""

    # succeeded
    MOVED = "moved"
    HELD = "held"
    SUPPORTED = "supported"
    CONVOYED = "convoyed"
    RETREATED = "retreated"
    DISBANDED = "disbanded"
    BUILT = "built"
    WAIVED = "waived"
    # failed
    BOUNCED = "bounced"
    OWN_UNIT = "own_unit"  # would dislodge a unit of its own power
    DISLODGED = "dislodged"
    CUT = "cut"
    UNMATCHED = "unmatched"  # supported/convoyed unit was not ordered to match
    NO_CONVOY = "no_convoy"  # no fleet ordered to convoy it
    CONVOY_DISRUPTED = "convoy_disrupted"
    PARADOX = "paradox"  # a convoy held by the Szykman rule
    RETREAT_BOUNCED = "retreat_bounced"
    # illegal
    TOO_MANY = "too_many"  # beyond the builds or disbands owed
    NO_UNIT = "no_unit"
    FOREIGN_UNIT = "foreign_unit"
    WRONG_PHASE = "wrong_phase"
    DUPLICATE = "duplicate"
    SAME_PLACE = "same_place"
    UNREACHABLE = "unreachable"
    NEEDS_COAST = "needs_coast"
    BAD_COAST = "bad_coast"
    FLEET_CONVOYED = "fleet_convoyed"
    NOT_AT_SEA = "not_at_sea"
    NOT_ON_ROUTE = "not_on_route"
    NOT_AN_ARMY = "not_an_army"
    NOTHING_THERE = "nothing_there"
    NOT_DISLODGED = "not_dislodged"
    RETREAT_BLOCKED = "retreat_blocked"
    NOT_HOME_CENTRE = "not_home_centre"
    NOT_OWNED = "not_owned"
    OCCUPIED = "occupied"
    WRONG_TERRAIN = "wrong_terrain"


_SUCCESS_TEXT = {
    Reason.MOVED: "moved",
    Reason.HELD: "held",
    Reason.SUPPORTED: "support given",
    Reason.CONVOYED: "convoy carried out",
    Reason.RETREATED: "retreated",
    Reason.DISBANDED: "disbanded",
    Reason.BUILT: "built",
    Reason.WAIVED: "build waived",
}

_FAIL_TEXT = {
    Reason.BOUNCED: "bounced with {who}",
    Reason.OWN_UNIT: "cannot dislodge {who} of its own power",
    Reason.DISLODGED: "dislodged by {who}",
    Reason.CUT: "support cut by {who}",
    Reason.UNMATCHED: "no matching order by {who}",
    Reason.NO_CONVOY: "no convoy route",
    Reason.CONVOY_DISRUPTED: "convoy disrupted",
    Reason.PARADOX: "convoy paradox: the convoy holds (Szykman rule)",
    Reason.RETREAT_BOUNCED: "retreat bounced with {who}; disbanded",
}

_ILLEGAL_TEXT = {
    Reason.NO_UNIT: "no unit there",
    Reason.FOREIGN_UNIT: "the unit belongs to {who}",
    Reason.WRONG_PHASE: "not an order for this phase",
    Reason.DUPLICATE: "the unit has another order; it holds",
    Reason.SAME_PLACE: "a unit cannot move to where it is",
    Reason.UNREACHABLE: "cannot reach {who}",
    Reason.NEEDS_COAST: "the destination needs a coast ({who})",
    Reason.BAD_COAST: "cannot reach that coast",
    Reason.FLEET_CONVOYED: "only armies can be convoyed",
    Reason.NOT_AT_SEA: "only fleets at sea can convoy",
    Reason.NOT_ON_ROUTE: "the fleet is on no convoy route for that army",
    Reason.NOT_AN_ARMY: "{who} is not an army",
    Reason.NOTHING_THERE: "no unit to support or convoy at {who}",
    Reason.NOT_DISLODGED: "the unit is not dislodged",
    Reason.RETREAT_BLOCKED: "cannot retreat to {who}",
    Reason.NOT_HOME_CENTRE: "not a home supply centre",
    Reason.NOT_OWNED: "the centre is not owned",
    Reason.OCCUPIED: "the province is occupied",
    Reason.WRONG_TERRAIN: "that unit cannot be there",
    Reason.TOO_MANY: "one too many: {who}",
}


class OrderResult(NamedTuple):
    """The result of one order. `who` names the other side (units or places) of the reason.

    A named tuple rather than a frozen dataclass: every adjudication makes one per order,
    and this is the cheapest immutable record Python offers.
    """

    power: str
    order: Order
    outcome: Outcome
    reason: Reason
    who: tuple[str, ...] = ()
    dislodged_by: str | None = None
    defaulted: bool = False  # no order was given; the engine applied the default

    @property
    def succeeded(self) -> bool:
        return self.outcome is Outcome.SUCCEEDS

    @property
    def message(self) -> str:
        who = " and ".join(self.who)
        if self.outcome is Outcome.SUCCEEDS:
            text = _SUCCESS_TEXT[self.reason]
        elif self.outcome is Outcome.FAILS:
            text = _FAIL_TEXT.get(self.reason, self.reason.value).format(who=who)
        else:
            text = "illegal: " + _ILLEGAL_TEXT.get(self.reason, self.reason.value).format(who=who)
        if self.dislodged_by is not None and self.reason is not Reason.DISLODGED:
            text += f"; dislodged by {self.dislodged_by}"
        return text

    def __str__(self) -> str:
        return f"{format_order(self.order)}: {self.message}"
