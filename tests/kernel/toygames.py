"""Tiny games that exercise the kernel: sequential, simultaneous with hidden bids, and a
hidden position."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from parley.kernel import (
    Audience,
    GameSpec,
    IllegalAction,
    InvalidAction,
    OptionNode,
    OptionSpec,
    Outcome,
    Owed,
    Rng,
    Rules,
    Setup,
    Structure,
    Turn,
    Viewer,
)

# --- Countdown: take 1-3 from a shared counter; who takes the last one wins ----------------


@dataclass(frozen=True)
class Take:
    amount: int


@dataclass
class CountdownState:
    seats: int
    left: int
    mover: int
    winner: int | None = None


class Countdown(Rules[CountdownState, Take]):
    spec = GameSpec(
        name="countdown",
        title="Countdown",
        summary="Take one to three from the counter; taking the last one wins.",
        min_seats=2,
        max_seats=4,
        structure=Structure.SEQUENTIAL,
        chance=True,
        hidden_information=False,
        aliases=("count",),
        options=(OptionSpec("start", 21, "the counter's first value", minimum=1, maximum=99),),
        max_plies=200,
    )

    def setup(self, setup: Setup) -> CountdownState:
        return CountdownState(
            setup.seats, int(setup.options["start"]), setup.rng.below(setup.seats)
        )

    def seat_count(self, state: CountdownState) -> int:
        return state.seats

    def turn(self, state: CountdownState) -> Turn:
        return Turn(owed=(Owed(state.mover, "take"),))

    def legal_actions(self, state: CountdownState, seat: int) -> Sequence[Take]:
        if seat != state.mover or state.winner is not None:
            return ()
        return [Take(n) for n in range(1, min(3, state.left) + 1)]

    def apply(self, state: CountdownState, seat: int, action: Take) -> None:
        if not 1 <= action.amount <= min(3, state.left):
            raise IllegalAction(f"you may take 1 to {min(3, state.left)}, not {action.amount}")
        state.left -= action.amount
        if state.left == 0:
            state.winner = seat
        state.mover = (state.mover + 1) % state.seats

    def outcome(self, state: CountdownState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome.win(state.winner, state.seats, "took the last one")

    def observe(self, state: CountdownState, viewer: Viewer) -> dict[str, object]:
        return {"left": state.left, "mover": state.mover}

    def parse(
        self, text: str, state: CountdownState | None = None, seat: int | None = None
    ) -> Take:
        found = re.fullmatch(r"\s*(?:take\s+)?(\d+)\s*", text, re.IGNORECASE)
        if not found:
            raise InvalidAction(f"{text!r} is not understood; write e.g. 'take 2'", text=text)
        return Take(int(found.group(1)))

    def format(self, action: Take) -> str:
        return f"take {action.amount}"

    def default_action(self, state: CountdownState, seat: int) -> Take:
        return Take(1)


# --- Sealed bids: every seat bids 0-5 secretly each round; highest bid scores -----------


@dataclass(frozen=True)
class Bid:
    amount: int


@dataclass
class BidState:
    seats: int
    rounds: int
    rng: Rng
    round: int = 0
    bids: dict[int, int] = field(default_factory=dict)
    scores: list[int] = field(default_factory=list)
    history: list[list[int]] = field(default_factory=list)


class SealedBids(Rules[BidState, Bid]):
    spec = GameSpec(
        name="sealed-bids",
        title="Sealed bids",
        summary="Each round everyone bids 0-5 in secret; the highest bid scores, ties by lot.",
        min_seats=2,
        max_seats=5,
        structure=Structure.SIMULTANEOUS,
        chance=True,
        hidden_information=True,
        options=(OptionSpec("rounds", 3, "rounds to play", minimum=1, maximum=20),),
        anytime_actions=True,
        max_plies=300,
    )

    def setup(self, setup: Setup) -> BidState:
        return BidState(
            setup.seats, int(setup.options["rounds"]), setup.rng, scores=[0] * setup.seats
        )

    def seat_count(self, state: BidState) -> int:
        return state.seats

    def turn(self, state: BidState) -> Turn:
        if state.round >= state.rounds:
            return Turn()
        owed = tuple(Owed(s, "bid") for s in range(state.seats) if s not in state.bids)
        return Turn(owed=owed, simultaneous=True, anytime=frozenset(state.bids))

    def legal_actions(self, state: BidState, seat: int) -> Sequence[Bid]:
        return [Bid(n) for n in range(6)] if state.round < state.rounds else []

    def apply(self, state: BidState, seat: int, action: Bid) -> None:
        if not 0 <= action.amount <= 5:
            raise IllegalAction(f"bids are 0 to 5, not {action.amount}")
        state.bids[seat] = action.amount  # a later bid in the same round replaces the earlier one
        if len(state.bids) == state.seats:
            top = max(state.bids.values())
            leaders = sorted(s for s, b in state.bids.items() if b == top)
            state.scores[state.rng.choice(leaders)] += 1
            state.history.append([state.bids[s] for s in range(state.seats)])
            state.bids = {}
            state.round += 1

    def outcome(self, state: BidState) -> Outcome | None:
        if state.round < state.rounds:
            return None
        return Outcome.by_scores(state.scores, "all rounds played")

    def observe(self, state: BidState, viewer: Viewer) -> dict[str, object]:
        view: dict[str, object] = {
            "round": state.round,
            "scores": list(state.scores),
            "history": state.history,
            "submitted": sorted(state.bids),
        }
        if viewer.omniscient:
            view["bids"] = {str(s): b for s, b in state.bids.items()}
        elif viewer.seat is not None and viewer.seat in state.bids:
            view["my_bid"] = self._token(state, viewer.seat)
        return view

    def _token(self, state: BidState, seat: int) -> str:
        return f"sealed:{state.round}:{seat}:{state.bids[seat]}"

    def secrets(self, state: BidState, seat: int) -> Collection[str]:
        return [self._token(state, seat)] if seat in state.bids else []

    def epoch(self, state: BidState) -> int:
        return state.round

    def audience(self, state: BidState, seat: int, action: Bid) -> Audience:
        return Audience(frozenset({seat}), reveal_epoch=state.round + 1)

    def parse(self, text: str, state: BidState | None = None, seat: int | None = None) -> Bid:
        found = re.fullmatch(r"\s*(?:bid\s+)?(\d+)\s*", text, re.IGNORECASE)
        if not found:
            raise InvalidAction(f"{text!r} is not a bid; write e.g. 'bid 3'", text=text)
        return Bid(int(found.group(1)))

    def format(self, action: Bid) -> str:
        return f"bid {action.amount}"

    def default_action(self, state: BidState, seat: int) -> Bid:
        return Bid(0)


# --- Deliberately broken games, to show the conformance suite catches faults --------------


class LeakyBids(SealedBids):
    """Shows every pending bid to everyone."""

    def observe(self, state: BidState, viewer: Viewer) -> dict[str, object]:
        view = super().observe(state, viewer)
        view["everyone"] = [self._token(state, s) for s in sorted(state.bids)]
        return view


class SloppyCountdown(Countdown):
    """Prints actions in a form its parser reads differently."""

    def format(self, action: Take) -> str:
        return f"take {action.amount + 1}"


class HalfApplyCountdown(Countdown):
    """Changes the state before finding the action illegal."""

    def apply(self, state: CountdownState, seat: int, action: Take) -> None:
        state.left += 100
        if not 1 <= action.amount <= min(3, state.left - 100):
            raise IllegalAction(f"you may not take {action.amount}")
        state.left -= 100
        super().apply(state, seat, action)


# --- Cups: a coin lies hidden under one of the cups; lifting it wins ---------------------


@dataclass(frozen=True)
class Lift:
    cup: int


@dataclass
class CupsState:
    seats: int
    cups: int
    coin: int
    mover: int = 0
    lifted: list[int] = field(default_factory=list)
    winner: int | None = None


class Cups(Rules[CupsState, Lift]):
    """A hidden position: only the archive knows where the coin is until it is found."""

    spec = GameSpec(
        name="cups",
        title="Cups",
        summary="Lift a cup in turn; whoever finds the coin wins.",
        min_seats=2,
        max_seats=3,
        structure=Structure.SEQUENTIAL,
        chance=True,
        hidden_information=True,
        max_plies=20,
    )

    def setup(self, setup: Setup) -> CupsState:
        return CupsState(setup.seats, 6, setup.rng.below(6))

    def seat_count(self, state: CupsState) -> int:
        return state.seats

    def turn(self, state: CupsState) -> Turn:
        return Turn() if state.winner is not None else Turn(owed=(Owed(state.mover, "lift"),))

    def legal_actions(self, state: CupsState, seat: int) -> Sequence[Lift]:
        if seat != state.mover or state.winner is not None:
            return ()
        return [Lift(c) for c in range(state.cups) if c not in state.lifted]

    def apply(self, state: CupsState, seat: int, action: Lift) -> None:
        if action.cup in state.lifted or not 0 <= action.cup < state.cups:
            raise IllegalAction(f"cup {action.cup} cannot be lifted now")
        state.lifted.append(action.cup)
        if action.cup == state.coin:
            state.winner = seat
        state.mover = (state.mover + 1) % state.seats

    def outcome(self, state: CupsState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome.win(state.winner, state.seats, "found the coin")

    def observe(self, state: CupsState, viewer: Viewer) -> dict[str, object]:
        seen = viewer.omniscient or state.winner is not None
        return {"lifted": list(state.lifted), "coin": state.coin if seen else None}

    def hidden_variant(self, state: CupsState, viewer: Viewer, rng: Rng) -> CupsState | None:
        if viewer.omniscient or state.winner is not None:
            return None
        free = [c for c in range(state.cups) if c not in state.lifted]
        return CupsState(state.seats, state.cups, rng.choice(free), state.mover, list(state.lifted))

    def parse(self, text: str, state: CupsState | None = None, seat: int | None = None) -> Lift:
        found = re.fullmatch(r"\s*(?:lift\s+)?(\d+)\s*", text, re.IGNORECASE)
        if not found:
            raise InvalidAction(f"{text!r} is not understood; write e.g. 'lift 2'", text=text)
        return Lift(int(found.group(1)))

    def format(self, action: Lift) -> str:
        return f"lift {action.cup}"

    def default_action(self, state: CupsState, seat: int) -> Lift:
        return self.legal_actions(state, seat)[0]


class PeekingCups(Cups):
    """Broken on purpose: the options tell where the coin is."""

    def options_tree(self, state: CupsState, seat: int) -> OptionNode:
        return OptionNode(
            key="root",
            label="Lift a cup",
            children=tuple(
                OptionNode(
                    key=str(a.cup),
                    label="warm" if a.cup == state.coin else "cold",
                    action=self.format(a),
                )
                for a in self.legal_actions(state, seat)
            ),
        )


class TellingCups(Cups):
    """Broken on purpose: refusing a lifted cup names the coin's cup."""

    def apply(self, state: CupsState, seat: int, action: Lift) -> None:
        if action.cup in state.lifted:
            raise IllegalAction(
                f"cup {action.cup} is up already (the coin is not under {state.coin})"
            )
        super().apply(state, seat, action)
