"""What a negotiating seat remembers of the others: broken promises, silence, refusals.

The ledger lives in the seat's memory (`decision.memory["ledger"]`) as plain JSON, so the
server can keep it in its database and hand it back after a restart. Seats are keyed by
name (a power, a colour) as the game spells them.

* A seat that broke a promise to this one is not trusted again: its proposals are refused,
  nothing is proposed to it, and the deals with it are void (the bot stops holding back).
* A seat that has never answered is asked once; after that it is not asked again until it
  says something (a bot that cannot talk would otherwise get the same offer every phase).
* A proposal a seat refused, or left unanswered, is not sent to it again word for word.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

KEY = "ledger"
UNANSWERED_LIMIT = 1  # offers left unanswered by a seat that never spoke before it is dropped
REMEMBERED_OFFERS = 32  # offers kept per seat, oldest dropped first


class Ledger:
    """A view over the JSON ledger in a seat's memory (changes are written through)."""

    def __init__(self, memory: MutableMapping[str, Any], trusting: bool = False) -> None:
        self.data: dict[str, Any] = memory.setdefault(KEY, {})
        for part in ("broken", "unanswered", "offers"):
            self.data.setdefault(part, {})
        self.data.setdefault("answered", [])
        self.data.setdefault("breaches", [])
        # A trusting seat keeps the books (they are reported) but never acts on a breach.
        self.trusting = trusting

    # --- what happened ---------------------------------------------------------------------

    def broke(self, who: str, why: str, when: str = "") -> None:
        """`who` broke a promise made to this seat."""
        broken: dict[str, int] = self.data["broken"]
        broken[who] = broken.get(who, 0) + 1
        breaches: list[dict[str, str]] = self.data["breaches"]
        breaches.append({"who": who, "why": why, "when": when})
        del breaches[:-REMEMBERED_OFFERS]

    def heard(self, who: str) -> None:
        """`who` said something to this seat: it answers, so it may be asked again."""
        answered: list[str] = self.data["answered"]
        if who not in answered:
            answered.append(who)
        self.data["unanswered"].pop(who, None)

    def offered(self, who: str, text: str) -> None:
        """This seat proposed `text` to `who`."""
        offers: list[str] = self.data["offers"].setdefault(who, [])
        if text not in offers:
            offers.append(text)
            del offers[:-REMEMBERED_OFFERS]
        if who not in self.data["answered"]:
            unanswered: dict[str, int] = self.data["unanswered"]
            unanswered[who] = unanswered.get(who, 0) + 1

    # --- what follows ----------------------------------------------------------------------

    def trusted(self, who: str) -> bool:
        return self.trusting or not self.data["broken"].get(who, 0)

    def betrayers(self) -> set[str]:
        return set() if self.trusting else set(self.data["broken"])

    def silent(self, who: str) -> bool:
        """Asked before and never answered anything."""
        return (
            who not in self.data["answered"]
            and self.data["unanswered"].get(who, 0) >= UNANSWERED_LIMIT
        )

    def worth_asking(self, who: str, text: str) -> bool:
        """Whether to propose `text` to `who` now."""
        if not self.trusted(who) or self.silent(who):
            return False
        return text not in self.data["offers"].get(who, [])

    def answered_offer(self, who: str, text: str, accepted: bool) -> None:
        """`who` answered this seat's offer; an accepted one may be made again later."""
        self.heard(who)
        if accepted:
            offers: list[str] = self.data["offers"].get(who, [])
            if text in offers:
                offers.remove(text)
