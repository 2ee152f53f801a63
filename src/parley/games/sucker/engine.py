"""The table rules: moves, captures, who moves next, rescue rounds, defeat and the end.

`apply` validates an action fully before it changes anything, so an action either applies
whole or raises IllegalAction with the state untouched; the flow functions below it
(`give_move`, `start_rescue`, `defeat`, `settle`) only ever run on a checked action.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from parley.kernel import IllegalAction

from .actions import (
    Accept,
    Action,
    ChipPromise,
    ChooseNext,
    Decline,
    GivePrisoner,
    KillFromPile,
    KillPrisoner,
    PassPromise,
    Play,
    Propose,
    Reject,
    Rescue,
    Withdraw,
)
from .colours import COLOURS, TITLES, Colour, label
from .state import Bargain, CaptureRule, Phase, SuckerState, last_capture

STALL_LIMIT = 64
"""Turn changes in a row without a chip played or killed or a player defeated: a draw.

Honest play never needs more than seats + 2 of them (a choice, a rescue round and its
answers); only prisoners passed back and forth around the player with the move can loop.
"""

MAX_OPEN_BARGAINS = 3
"""Unanswered proposals one player may have on the table at once."""

AGREED_SHOWN = 10
"""Agreed bargains the state keeps for the table to see; the record keeps them all."""

MAX_NOTE = 280

RECENT = 12
"""Public table events the state keeps for the players to read; the record keeps all."""


def move_bound(seats: int, chips: int) -> int:
    """An upper bound on the chips played in one game, from a potential that every move lowers.

    With N chips, a = chips still in play and h = chips in hands, a move without capture
    lowers h by one and a capture kills a chip and returns at most N - 2 to a hand, so
    (N + 1) * a + h falls by at least one per move; it starts at N * (N + 2).
    """
    total = seats * chips
    return total * (total + 2)


# --- the flow of the move --------------------------------------------------------------


def note(state: SuckerState, text: str) -> None:
    """Remember a public table event (the newest last), as a sentence: capitalised."""
    text = text[:1].upper() + text[1:]
    state.recent = (*state.recent[1 - RECENT :], text)
    # Tagged with the action that caused it (counted from 1), so a log can place it.
    state.recent_actions = (*state.recent_actions[1 - RECENT :], state.applied + 1)
    state.noted += 1


def _name(seat: int) -> str:
    return TITLES[seat]


def give_move(state: SuckerState, to: int, giver: int) -> None:
    """`giver` gives `to` the move; a chipless `to` starts a rescue round."""
    if to != giver:
        state.given_by[to] = giver
    state.holder = to
    state.choices = ()
    if state.held(to):
        state.phase = Phase.MOVE
    else:
        start_rescue(state, to, giver)


def start_rescue(state: SuckerState, target: int, anchor: int) -> None:
    """Ask the survivors holding prisoners, in seat order after `anchor`, to rescue `target`."""
    state.phase = Phase.RESCUE
    state.holder = target
    state.anchor = anchor
    state.asked = -1
    state.stall += 1
    if any(s != target and state.alive[s] and state.prisoners(s) for s in range(state.seats)):
        note(state, f"{_name(target)} has the move but no chips: who will rescue?")
    _ask_from(state, 1)  # with nobody to ask, the defeat is told at once


def _position(state: SuckerState, seat: int) -> int:
    """Where `seat` comes in the current rescue round's order (1 to seats, anchor last)."""
    return (seat - state.anchor - 1) % state.seats + 1


def _ask_from(state: SuckerState, position: int) -> None:
    for k in range(position, state.seats + 1):
        seat = (state.anchor + k) % state.seats
        if seat != state.holder and state.alive[seat] and state.prisoners(seat):
            state.asked = seat
            return
    defeat(state, state.holder)


def defeat(state: SuckerState, seat: int) -> None:
    """`seat` withdraws; the move rebounds to whoever gave it (cascading)."""
    state.alive[seat] = False
    state.defeated.append(seat)
    state.stall = 0
    state.asked = -1
    for bargain in list(state.bargains.values()):
        if seat in bargain.parties:
            del state.bargains[bargain.id]
    living = state.survivors()
    if len(living) == 1:
        state.winner = living[0]
        state.phase = Phase.OVER
        note(
            state,
            f"{_name(seat)} is out of chips and defeated; "
            f"{_name(living[0])} is the last survivor and wins",
        )
        return
    back = rebound_target(state, seat)
    note(state, f"{_name(seat)} is out of chips and defeated; the move rebounds to {_name(back)}")
    state.holder = back
    state.choices = ()
    if state.held(back):
        state.phase = Phase.MOVE
    else:
        start_rescue(state, back, seat)


def rebound_target(state: SuckerState, seat: int) -> int:
    """Who gave `seat` the move, skipping givers defeated since; else the next survivor."""
    seen = {seat}
    giver = state.given_by[seat]
    while giver is not None and not state.alive[giver] and giver not in seen:
        seen.add(giver)
        giver = state.given_by[giver]
    if giver is not None and state.alive[giver]:
        return giver
    for k in range(1, state.seats):
        other = (seat + k) % state.seats
        if state.alive[other]:
            return other
    raise AssertionError("rebound with nobody left")  # defeat() ends the game first


def after_play(state: SuckerState, mover: int, pile: tuple[int, ...]) -> None:
    """Who moves after a chip that captured nothing."""
    living = state.survivors()
    present = set(pile)
    absent = [s for s in living if s not in present]
    if not absent:
        # Every surviving colour is in the pile: the owner of the colour whose most
        # recent chip lies deepest moves (not the owner of the bottom chip).
        highest: dict[int, int] = {}
        for depth, colour in enumerate(pile):
            highest[colour] = depth
        deepest = min(living, key=highest.__getitem__)
        note(state, f"every colour is in the pile: {_name(deepest)} moves (deepest last chip)")
        give_move(state, deepest, mover)
    elif len(absent) == 1:
        note(state, f"only {label(absent[0])} is absent: {_name(absent[0])} moves")
        give_move(state, absent[0], mover)
    else:
        state.phase = Phase.NEXT
        state.holder = mover
        # Listed clockwise from the mover, so the default choice is the next seat round.
        state.choices = tuple(sorted(absent, key=lambda s: (s - mover - 1) % state.seats))


def settle(state: SuckerState) -> None:
    """Bring the owed decision up to date after chips changed hands out of turn."""
    if state.phase is Phase.MOVE and not state.held(state.holder):
        giver = state.given_by[state.holder]
        start_rescue(state, state.holder, state.holder if giver is None else giver)
    elif state.phase is Phase.RESCUE:
        if state.held(state.holder):
            state.phase = Phase.MOVE  # someone gave the chipless player a chip anyway
            state.asked = -1
        elif not state.prisoners(state.asked):
            _ask_from(state, _position(state, state.asked) + 1)


def check_stall(state: SuckerState) -> None:
    if state.phase is not Phase.OVER and state.stall >= STALL_LIMIT:
        state.drawn = True
        state.phase = Phase.OVER
        note(state, f"{STALL_LIMIT} turn changes without progress: the game is drawn")


# --- actions ------------------------------------------------------------------------------


def apply(state: SuckerState, seat: int, action: Action) -> None:
    """Check `action` for `seat` fully, then perform it."""
    if state.phase is Phase.OVER:
        raise IllegalAction("the game is over", reason="game_over")
    if not 0 <= seat < state.seats or not state.alive[seat]:
        raise IllegalAction(f"{_who(state, seat)} is out of the game", reason="out_of_game")
    handler = _HANDLERS.get(type(action))
    if handler is None:
        raise IllegalAction(f"{action!r} is not a So Long Sucker action", reason="forbidden")
    before = state.noted
    handler(state, seat, action)
    check_stall(state)
    state.applied += 1
    if state.noted != before:
        state.latest_from = before  # the table events this action caused, for status lines


def _not_yours(state: SuckerState, seat: int) -> str:
    """Why `seat` may not play a chip now: what it owes instead, or who has the move."""
    who = _who(state, seat)
    if seat == state.actor():
        if state.phase is Phase.NEXT:
            choices = ", ".join(_name(s) for s in state.choices)
            example = label(state.choices[0])
            return f"{who} must first choose who moves next ({choices}), e.g. 'next {example}'"
        if state.phase is Phase.KILL:
            return f"{who} must first kill one chip of the captured pile ('kill <colour>')"
        if state.phase is Phase.RESCUE:
            return f"{who} must first rescue {_name(state.holder)} with prisoners or 'decline'"
    actor = state.actor()
    if state.phase is Phase.MOVE and actor is not None:
        return f"{who} does not have the move: {_name(actor)} has"
    owing = _name(actor if actor is not None else state.holder)
    return f"{who} does not have the move: {owing} owes a decision first"


def _who(state: SuckerState, seat: int) -> str:
    return label(seat).capitalize() if 0 <= seat < len(Colour) else f"seat {seat + 1}"


def _chip(state: SuckerState, chip: Colour) -> int:
    index = int(chip)
    if not 0 <= index < state.seats:
        raise IllegalAction(
            f"there are no {label(index)} chips in a {state.seats}-player game", reason="bad_target"
        )
    return index


def _player(state: SuckerState, seat: int, role: str) -> int:
    if not 0 <= seat < state.seats:
        raise IllegalAction(f"there is no player {seat + 1} to {role}", reason="bad_target")
    if not state.alive[seat]:
        raise IllegalAction(
            f"{_who(state, seat)} is out of the game and cannot {role}", reason="out_of_game"
        )
    return seat


def _play(state: SuckerState, seat: int, action: Play) -> None:
    if state.phase is not Phase.MOVE or seat != state.holder:
        raise IllegalAction(
            _not_yours(state, seat),
            reason="wrong_phase" if seat == state.actor() else "not_your_turn",
        )
    chip = _chip(state, action.chip)
    if not state.hands[seat][chip]:
        raise IllegalAction(f"{_who(state, seat)} holds no {label(chip)} chip", reason="not_held")
    if action.pile is not None and action.pile not in state.piles:
        raise IllegalAction(f"there is no pile {action.pile}", reason="bad_target")
    state.hands[seat][chip] -= 1
    state.moves += 1
    state.stall = 0
    if action.pile is None:
        pile: tuple[int, ...] = (chip,)
        note(state, f"{_name(seat)} starts pile {state.next_pile} with {label(chip)}")
        state.piles[state.next_pile] = pile
        state.next_pile += 1
        after_play(state, seat, pile)
        return
    below = state.piles[action.pile]
    pile = (*below, chip)
    note(state, f"{_name(seat)} plays {label(chip)} on pile {action.pile}")
    if below[-1] != chip:
        state.piles[action.pile] = pile
        after_play(state, seat, pile)
        return
    # Two chips of one colour in a row: the owner of that colour captures.
    if state.alive[chip]:
        note(
            state,
            f"{_name(chip)} captures pile {action.pile} ({' '.join(label(c) for c in pile)}) "
            "and must kill one chip of it",
        )
        del state.piles[action.pile]
        state.phase = Phase.KILL
        state.capturer = chip
        state.captured = pile
        state.last_capture = {
            "pile": action.pile,
            "chips": [label(c) for c in pile],
            "played_by": label(seat),
            "capturer": label(chip),
            "killed": None,
            "taken": [],
        }
        state.holder = seat
        return
    if state.capture_rule is CaptureRule.DEAD_BOX:
        del state.piles[action.pile]
        for colour in pile:
            state.dead[colour] += 1
        note(state, f"{label(chip)} is out: pile {action.pile} goes to the dead box")
    else:
        state.piles[action.pile] = pile
        note(state, f"{label(chip)} is out: pile {action.pile} stays")
    give_move(state, seat, seat)


def _choose(state: SuckerState, seat: int, action: ChooseNext) -> None:
    if state.phase is not Phase.NEXT or seat != state.holder:
        raise IllegalAction(
            f"{_who(state, seat)} has no next player to choose", reason="wrong_phase"
        )
    if action.player not in state.choices:
        allowed = ", ".join(label(s) for s in state.choices)
        raise IllegalAction(
            f"{_who(state, seat)} may give the move only to {allowed}, "
            f"not {_who(state, action.player)}",
            reason="forbidden",
        )
    state.stall += 1
    if action.player == seat:
        note(state, f"{_name(seat)} keeps the move")
    else:
        note(state, f"{_name(seat)} gives the move to {_name(action.player)}")
    give_move(state, action.player, seat)


def _kill_from_pile(state: SuckerState, seat: int, action: KillFromPile) -> None:
    if state.phase is not Phase.KILL or seat != state.capturer:
        raise IllegalAction(
            f"{_who(state, seat)} has no captured pile to kill from", reason="wrong_phase"
        )
    chip = int(action.chip)
    if chip not in state.captured:
        raise IllegalAction(f"the captured pile holds no {label(chip)} chip", reason="not_held")
    state.dead[chip] += 1
    rest = list(state.captured)
    rest.remove(chip)
    hand = state.hands[seat]
    for colour in rest:
        hand[colour] += 1
    state.captured = ()
    state.capturer = -1
    state.stall = 0
    capture = last_capture(state)  # None in a state pickled before captures were kept
    if capture is not None:
        state.last_capture = {
            **capture,
            "killed": label(chip),
            "taken": [label(c) for c in rest],
        }
    note(state, f"{_name(seat)} kills {label(chip)} and takes the rest")
    give_move(state, seat, state.holder)


def _kill_prisoner(state: SuckerState, seat: int, action: KillPrisoner) -> None:
    chip = _chip(state, action.chip)
    if chip == seat:
        raise IllegalAction(
            f"{_who(state, seat)} may not kill their own colour except out of a captured pile",
            reason="bad_target",
        )
    if not state.hands[seat][chip]:
        raise IllegalAction(
            f"{_who(state, seat)} holds no {label(chip)} prisoner", reason="not_held"
        )
    state.hands[seat][chip] -= 1
    state.dead[chip] += 1
    state.stall = 0
    note(state, f"{_name(seat)} kills a {label(chip)} prisoner")
    settle(state)


def _give(state: SuckerState, seat: int, action: GivePrisoner) -> None:
    chip = _chip(state, action.chip)
    if chip == seat:
        raise IllegalAction(
            f"{_who(state, seat)} may never give away their own colour", reason="forbidden"
        )
    if not state.hands[seat][chip]:
        raise IllegalAction(
            f"{_who(state, seat)} holds no {label(chip)} prisoner", reason="not_held"
        )
    to = _player(state, action.to, "receive chips")
    if to == seat:
        raise IllegalAction("a transfer goes to another player", reason="bad_target")
    state.hands[seat][chip] -= 1
    state.hands[to][chip] += 1
    note(state, f"{_name(seat)} gives a {label(chip)} prisoner to {_name(to)}")
    settle(state)


def _rescue(state: SuckerState, seat: int, action: Rescue) -> None:
    if state.phase is not Phase.RESCUE or seat != state.asked:
        raise IllegalAction(
            f"{_who(state, seat)} is not being asked to rescue anyone", reason="wrong_phase"
        )
    if action.target != state.holder:
        raise IllegalAction(
            f"the player to rescue is {_who(state, state.holder)}", reason="bad_target"
        )
    if not action.chips:
        raise IllegalAction("a rescue gives at least one prisoner", reason="bad_target")
    need = [0] * state.seats
    for chip in action.chips:
        need[_chip(state, chip)] += 1
    hand = state.hands[seat]
    for colour, count in enumerate(need):
        if count and colour == seat:
            raise IllegalAction(
                f"{_who(state, seat)} may never give away their own colour", reason="forbidden"
            )
        if count > hand[colour]:
            raise IllegalAction(
                f"{_who(state, seat)} holds {hand[colour]} {label(colour)} prisoner(s), "
                f"not {count}",
                reason="not_held",
            )
    target = state.hands[state.holder]
    for colour, count in enumerate(need):
        hand[colour] -= count
        target[colour] += count
    state.stall += 1
    state.phase = Phase.MOVE
    state.asked = -1
    given = ", ".join(label(c) for c in action.chips)
    note(state, f"{_name(seat)} rescues {_name(state.holder)} with {given}")


def _decline(state: SuckerState, seat: int, action: Decline) -> None:
    if state.phase is not Phase.RESCUE or seat != state.asked:
        raise IllegalAction(
            f"{_who(state, seat)} is not being asked to rescue anyone", reason="wrong_phase"
        )
    state.stall += 1
    note(state, f"{_name(seat)} declines to rescue {_name(state.holder)}")
    _ask_from(state, _position(state, seat) + 1)


def _propose(state: SuckerState, seat: int, action: Propose) -> None:
    if not action.to:
        raise IllegalAction("a bargain is put to at least one other player", reason="bad_target")
    for other in action.to:
        _player(state, other, "bargain")
        if other == seat:
            raise IllegalAction(
                "a bargain is put to other players, not to oneself", reason="bad_target"
            )
    parties = {seat, *action.to}
    for term in action.terms:
        _check_term(state, term, parties)
    if not action.terms and not action.note:
        raise IllegalAction("a bargain needs at least one promise or a note", reason="bad_target")
    if len(action.note) > MAX_NOTE or '"' in action.note or "\n" in action.note:
        raise IllegalAction(
            f"a bargain's note is one line of at most {MAX_NOTE} characters, without double quotes",
            reason="bad_target",
        )
    if action.private and not state.private_channels:
        raise IllegalAction(
            "private bargains are off in this game (option private_channels)", reason="forbidden"
        )
    if sum(1 for b in state.bargains.values() if b.proposer == seat) >= MAX_OPEN_BARGAINS:
        raise IllegalAction(
            f"{_who(state, seat)} has {MAX_OPEN_BARGAINS} unanswered bargains already; "
            "withdraw one first",
            reason="no_actions_left",
        )
    bargain = Bargain(
        state.next_bargain, seat, action.to, action.terms, action.note, action.private
    )
    state.bargains[bargain.id] = bargain
    state.next_bargain += 1


def _check_term(state: SuckerState, term: object, parties: set[int]) -> None:
    if isinstance(term, ChipPromise):
        who = _player(state, term.giver, "promise chips")
        _player(state, term.to, "be promised chips")
        _chip(state, term.chip)
        if who not in parties:
            raise IllegalAction(
                f"{_who(state, who)} is not a party to this bargain", reason="bad_target"
            )
        if term.chip == who:
            raise IllegalAction(
                f"{_who(state, who)} can never give away their own colour", reason="forbidden"
            )
        if term.to == who:
            raise IllegalAction("a chip promise gives to another player", reason="bad_target")
        if not 1 <= term.count <= state.seats * state.chips:
            raise IllegalAction(
                f"a chip promise is for 1 to {state.seats * state.chips} chips", reason="bad_target"
            )
    elif isinstance(term, PassPromise):
        who = _player(state, term.chooser, "promise the move")
        _player(state, term.to, "be promised the move")
        if who not in parties:
            raise IllegalAction(
                f"{_who(state, who)} is not a party to this bargain", reason="bad_target"
            )
        if term.to == who:
            raise IllegalAction("a move promise passes to another player", reason="bad_target")
    else:
        raise IllegalAction(f"{term!r} is not a promise", reason="bad_target")


def _known(state: SuckerState, seat: int, number: int) -> Bargain:
    """An open bargain `seat` is party to; to anyone else it is as if there were none."""
    bargain = state.bargains.get(number)
    if bargain is None or (seat != bargain.proposer and seat not in bargain.to):
        raise IllegalAction(f"there is no open bargain {number}", reason="bad_target")
    return bargain


def _answerable(state: SuckerState, seat: int, number: int) -> Bargain:
    bargain = _known(state, seat, number)
    if seat not in bargain.to:
        raise IllegalAction(
            f"bargain {number} was not put to {_who(state, seat)}", reason="bad_target"
        )
    if seat in bargain.accepted:
        raise IllegalAction(
            f"{_who(state, seat)} has accepted bargain {number} already", reason="forbidden"
        )
    return bargain


def _accept(state: SuckerState, seat: int, action: Accept) -> None:
    bargain = _answerable(state, seat, action.bargain)
    bargain = replace(bargain, accepted=bargain.accepted | {seat})
    if bargain.accepted >= set(bargain.to):
        del state.bargains[bargain.id]
        state.agreed.append(bargain)
        del state.agreed[:-AGREED_SHOWN]
        if not bargain.private:
            note(state, f"bargain #{bargain.id} from {_name(bargain.proposer)} is agreed")
    else:
        state.bargains[bargain.id] = bargain


def _reject(state: SuckerState, seat: int, action: Reject) -> None:
    bargain = _answerable(state, seat, action.bargain)
    del state.bargains[bargain.id]
    if not bargain.private:  # a private bargain's fate stays between its parties
        note(state, f"{_name(seat)} rejects bargain #{bargain.id} from {_name(bargain.proposer)}")


def _withdraw(state: SuckerState, seat: int, action: Withdraw) -> None:
    bargain = _known(state, seat, action.bargain)
    if bargain.proposer != seat:
        raise IllegalAction(
            f"only the proposer may withdraw bargain {bargain.id}", reason="forbidden"
        )
    del state.bargains[bargain.id]
    if not bargain.private:
        note(state, f"{_name(seat)} withdraws bargain #{bargain.id}")


_HANDLERS: dict[type, Callable[[SuckerState, int, Any], None]] = {
    Play: _play,
    ChooseNext: _choose,
    KillFromPile: _kill_from_pile,
    KillPrisoner: _kill_prisoner,
    GivePrisoner: _give,
    Rescue: _rescue,
    Decline: _decline,
    Propose: _propose,
    Accept: _accept,
    Reject: _reject,
    Withdraw: _withdraw,
}


# --- what a seat may do ------------------------------------------------------------------


def owed_actions(state: SuckerState, seat: int) -> list[Action]:
    """The answers to the decision `seat` owes now (none if it owes nothing).

    A rescue is listed with one prisoner; more may be given in the same action.
    """
    phase = state.phase
    out: list[Action] = []
    if phase is Phase.MOVE and seat == state.holder:
        piles = list(state.piles)
        for colour, count in enumerate(state.hands[seat]):
            if count:
                chip = COLOURS[colour]
                out.extend(Play(chip, p) for p in piles)
                out.append(Play(chip, None))
    elif phase is Phase.NEXT and seat == state.holder:
        out.extend(ChooseNext(s) for s in state.choices)
    elif phase is Phase.KILL and seat == state.capturer:
        out.extend(KillFromPile(COLOURS[c]) for c in sorted(set(state.captured)))
    elif phase is Phase.RESCUE and seat == state.asked:
        out.extend(
            Rescue(state.holder, (COLOURS[c],))
            for c, count in enumerate(state.hands[seat])
            if count and c != seat
        )
        out.append(Decline())
    return out


def prisoner_actions(state: SuckerState, seat: int) -> list[Action]:
    """Kills and transfers of `seat`'s prisoners."""
    if state.phase is Phase.OVER or not state.alive[seat]:
        return []
    out: list[Action] = []
    others = [s for s in state.survivors() if s != seat]
    for colour, count in enumerate(state.hands[seat]):
        if count and colour != seat:
            chip = COLOURS[colour]
            out.append(KillPrisoner(chip))
            out.extend(GivePrisoner(chip, to) for to in others)
    return out


def bargain_answers(state: SuckerState, seat: int) -> list[Action]:
    """Accepts, rejects and withdrawals open to `seat` (proposals are not enumerable)."""
    if state.phase is Phase.OVER or not state.alive[seat]:
        return []
    out: list[Action] = []
    for bargain in state.bargains.values():
        if seat in bargain.to and seat not in bargain.accepted:
            out.append(Accept(bargain.id))
            out.append(Reject(bargain.id))
        elif seat == bargain.proposer:
            out.append(Withdraw(bargain.id))
    return out
