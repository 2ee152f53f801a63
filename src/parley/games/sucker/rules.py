"""So Long Sucker on the Parley kernel."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from parley.kernel import (
    JSON,
    PUBLIC,
    Audience,
    GameSpec,
    IllegalAction,
    OptionNode,
    OptionSpec,
    OptionValue,
    Outcome,
    Owed,
    Rng,
    Rules,
    Setup,
    Structure,
    Turn,
    Viewer,
)

from . import engine, view
from .actions import (
    Accept,
    Action,
    ChipPromise,
    KillFromPile,
    PassPromise,
    Play,
    Promise,
    Propose,
    Reject,
    Withdraw,
)
from .colours import COLOURS, Colour, label
from .notation import NOTATION_HELP, format_action, parse_action
from .state import CaptureRule, Phase, SuckerState

RANDOM_NOTES = (
    "let's work together",
    "trust me",
    "you owe me one",
    "against the leader",
    "no hard feelings",
)


_CAPTURE_WORDS = {
    CaptureRule.DEAD_BOX: "The pile goes to the dead box",
    CaptureRule.LEAVE: "The pile stays on the table",
}


class SuckerRules(Rules[SuckerState, Action]):
    """The 1964 rules with the choices documented in docs/sucker.md."""

    spec = GameSpec(
        name="sucker",
        title="So Long Sucker",
        summary=(
            "Hausner, Nash, Shapley and Shubik's game of coalitions: play chips, capture "
            "piles, bargain and betray; the last player standing wins."
        ),
        min_seats=3,
        max_seats=6,
        default_seats=4,
        structure=Structure.SEQUENTIAL,
        chance=True,  # the first mover is drawn
        hidden_information=False,  # the table is public; only private bargains are not
        aliases=("so-long-sucker", "solongsucker", "sls"),
        test_options=({"private_channels": True},),
        options=(
            OptionSpec(
                "chips",
                7,
                "chips of each colour dealt to its player",
                choices=(3, 5, 7),
                label="Chips each",
                choice_labels=("3 chips (a short game)", "5 chips", "7 chips (the original)"),
            ),
            OptionSpec(
                "defeated_capture",
                CaptureRule.DEAD_BOX.value,
                "where a pile captured with a defeated player's colour goes; the mover moves again",
                choices=tuple(rule.value for rule in CaptureRule),
                label="Capture by a defeated colour",
                choice_labels=tuple(_CAPTURE_WORDS[rule] for rule in CaptureRule),
            ),
            OptionSpec(
                "private_channels",
                False,
                "allow private bargains, seen only by their parties (the original forbids them)",
                label="Private bargains",
            ),
        ),
        anytime_actions=True,
        max_plies=20_000,
    )

    # --- set-up and reading -----------------------------------------------------------

    def setup(self, setup: Setup) -> SuckerState:
        seats = setup.seats
        self.spec.check_seats(seats)
        chips = int(setup.options.get("chips", 7))
        first = setup.rng.below(seats, label="who plays first")
        return SuckerState(
            seats=seats,
            chips=chips,
            capture_rule=CaptureRule(str(setup.options.get("defeated_capture", "dead-box"))),
            private_channels=bool(setup.options.get("private_channels", False)),
            hands=[[chips if c == s else 0 for c in range(seats)] for s in range(seats)],
            piles={},
            dead=[0] * seats,
            alive=[True] * seats,
            given_by=[None] * seats,
            phase=Phase.MOVE,
            holder=first,
        )

    def seat_count(self, state: SuckerState) -> int:
        return state.seats

    def write_position(self, state: SuckerState) -> dict[str, Any]:
        from . import position

        return position.write_json(state)

    def read_position(self, data: Mapping[str, Any]) -> SuckerState:
        from parley.kernel.positions import check_usable

        from . import position

        state = position.read_json(data, self.spec.resolve_options)
        check_usable(self, state)
        return state

    def seat_names(self, seats: int, options: Mapping[str, OptionValue]) -> list[str]:
        return [Colour(s).title for s in range(seats)]

    # A chip played may be taken back while its player still has the move (choosing who
    # plays next): nothing is hidden or drawn in this game.
    takes_back = True

    def may_take_back(self, state: SuckerState, seat: int, action: Action) -> bool:
        return isinstance(action, Play)

    def undoable(self, before: SuckerState, seat: int, action: Action, after: SuckerState) -> bool:
        owed = self.turn(after).owed
        return isinstance(action, Play) and [o.seat for o in owed] == [seat]

    def alive(self, state: SuckerState) -> frozenset[int]:
        return frozenset(state.survivors())

    def clone(self, state: SuckerState) -> SuckerState:
        return state.clone()

    def turn(self, state: SuckerState) -> Turn:
        phase = state.phase
        if phase is Phase.OVER:
            return Turn()
        anytime = frozenset(state.survivors())
        if phase is Phase.MOVE:
            owed = Owed(state.holder, "move", "play a chip onto a pile or a new pile")
        elif phase is Phase.NEXT:
            choices = ", ".join(label(s) for s in state.choices)
            owed = Owed(state.holder, "next", f"choose who moves next: {choices}")
        elif phase is Phase.KILL:
            owed = Owed(state.capturer, "kill", "kill one chip of the captured pile")
        else:
            owed = Owed(
                state.asked, "rescue", f"rescue {label(state.holder)} with prisoners, or decline"
            )
        return Turn(owed=(owed,), anytime=anytime)

    def legal_actions(self, state: SuckerState, seat: int) -> Sequence[Action]:
        if state.phase is Phase.OVER or not 0 <= seat < state.seats or not state.alive[seat]:
            return []
        return (
            engine.owed_actions(state, seat)
            + engine.prisoner_actions(state, seat)
            + engine.bargain_answers(state, seat)
        )

    def apply(self, state: SuckerState, seat: int, action: Action) -> None:
        engine.apply(state, seat, action)

    def outcome(self, state: SuckerState) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        seats = state.seats
        ranks = [1] * seats
        for k, seat in enumerate(state.defeated):
            ranks[seat] = seats - k  # the first to fall comes last
        living = state.survivors()
        if state.winner is not None:
            scores = tuple(1.0 if s == state.winner else 0.0 for s in range(seats))
            reason = f"{Colour(state.winner).title} is the last survivor"
        else:
            share = 1.0 / len(living)
            scores = tuple(share if state.alive[s] else 0.0 for s in range(seats))
            reason = (
                f"a draw among {', '.join(Colour(s).title for s in living)}: "
                f"{engine.STALL_LIMIT} turn changes without a chip played or killed"
            )
        return Outcome(
            ranks=tuple(ranks),
            scores=scores,
            winners=frozenset(living),
            draw=state.winner is None,
            reason=reason,
        )

    # --- visibility ---------------------------------------------------------------------

    def observe(self, state: SuckerState, viewer: Viewer) -> dict[str, JSON]:
        return view.observe(state, viewer)

    def notation_help(self) -> str:
        return NOTATION_HELP

    def render(self, observation: Mapping[str, JSON]) -> str:
        return view.render(observation)

    def audience(self, state: SuckerState, seat: int, action: Action) -> Audience:
        if isinstance(action, Propose):
            if action.private:
                return Audience(frozenset((seat, *action.to)))
        elif isinstance(action, (Accept, Reject, Withdraw)):
            bargain = state.bargains.get(action.bargain)
            if bargain is not None and bargain.private:
                return Audience(bargain.parties)
        return PUBLIC

    def secrets(self, state: SuckerState, seat: int) -> Collection[str]:
        """Nothing belongs to one seat alone: a private bargain is shared by its parties.

        `shared_secrets` lists those, for a redaction check that allows for groups.
        """
        return ()

    def shared_secrets(self, state: SuckerState) -> dict[frozenset[int], list[str]]:
        """Text that only the parties of each private bargain (and the archive) may see."""
        out: dict[frozenset[int], list[str]] = {}
        for bargain in (*state.bargains.values(), *state.agreed):
            if bargain.private:
                out.setdefault(bargain.parties, []).append(view.bargain_json(bargain)["notation"])
        return out

    # --- notation -----------------------------------------------------------------------

    def parse(self, text: str, state: SuckerState | None = None, seat: int | None = None) -> Action:
        return parse_action(text, state, seat)

    def format(self, action: Action) -> str:
        return format_action(action)

    # --- choosing for a seat ---------------------------------------------------------------

    def default_action(self, state: SuckerState, seat: int) -> Action:
        """Own colour (else the first prisoner) on a new pile; the next seat round; the
        bottom-most chip of another colour out of a capture; decline a rescue."""
        if state.phase is Phase.MOVE and seat == state.holder:
            hand = state.hands[seat]
            colour = seat if hand[seat] else next(c for c, n in enumerate(hand) if n)
            return Play(Colour(colour), None)
        owed = engine.owed_actions(state, seat)
        if not owed:
            raise IllegalAction(f"{Colour(seat).title} owes no decision now")
        if state.phase is Phase.KILL:
            others = [c for c in state.captured if c != seat]
            return KillFromPile(Colour(others[0] if others else seat))
        return owed[0] if state.phase is Phase.NEXT else owed[-1]  # rescue: decline is last

    def random_action(self, state: SuckerState, seat: int, rng: Rng) -> Action:
        """A random legal action; random players seldom bargain, so random games end."""
        if seat == state.actor():
            roll = rng.below(100)
            if roll < 2 and self._may_propose(state, seat):
                return self._random_proposal(state, seat, rng)
            if roll < 6 and (answers := engine.bargain_answers(state, seat)):
                return rng.choice(answers)
            if roll < 12 and (prisoners := engine.prisoner_actions(state, seat)):
                return rng.choice(prisoners)
            if state.phase is Phase.MOVE:
                return _random_play(state, seat, rng)
            return rng.choice(engine.owed_actions(state, seat))
        # Out of turn (the kernel's random driver lets idle seats act now and then).
        answers = engine.bargain_answers(state, seat)
        prisoners = engine.prisoner_actions(state, seat)
        replies = [a for a in answers if isinstance(a, (Accept, Reject))]
        if replies and rng.below(4) != 0:
            return rng.choice(replies)
        if prisoners and rng.below(5) != 0:
            return rng.choice(prisoners)
        withdrawals = [a for a in answers if isinstance(a, Withdraw)]
        if withdrawals and (not self._may_propose(state, seat) or rng.below(2) == 0):
            return rng.choice(withdrawals)
        if self._may_propose(state, seat):
            return self._random_proposal(state, seat, rng)
        anything = answers + prisoners
        if not anything:
            raise IllegalAction(f"{Colour(seat).title} has nothing to do now")
        return rng.choice(anything)

    def _may_propose(self, state: SuckerState, seat: int) -> bool:
        if state.phase is Phase.OVER or not state.alive[seat] or len(state.survivors()) < 2:
            return False
        mine = sum(1 for b in state.bargains.values() if b.proposer == seat)
        return mine < engine.MAX_OPEN_BARGAINS

    def _random_proposal(self, state: SuckerState, seat: int, rng: Rng) -> Propose:
        other = rng.choice([s for s in state.survivors() if s != seat])
        colours = [c for c in range(state.seats) if c != seat]
        theirs = [c for c in range(state.seats) if c != other]
        menu: list[Promise] = [
            ChipPromise(seat, Colour(rng.choice(colours)), 1 + rng.below(2), other),
            PassPromise(other, seat),
            PassPromise(seat, other),
            ChipPromise(other, Colour(rng.choice(theirs)), 1, seat),
        ]
        first = menu.pop(rng.below(len(menu)))
        terms = (first,) if rng.below(2) else (first, menu[rng.below(len(menu))])
        note = rng.choice(RANDOM_NOTES) if rng.below(3) == 0 else ""
        private = state.private_channels and rng.below(2) == 0
        return Propose((other,), terms, note, private)

    def options_tree(self, state: SuckerState, seat: int) -> OptionNode:
        groups = (
            ("decision", "Your decision", engine.owed_actions(state, seat)),
            ("prisoners", "Kill or give a prisoner", engine.prisoner_actions(state, seat)),
            ("bargains", "Answer or withdraw a bargain", engine.bargain_answers(state, seat)),
        )
        children = tuple(
            OptionNode(
                key=key,
                label=title,
                children=tuple(
                    OptionNode(key=str(i), label=text, action=text)
                    for i, text in enumerate(self.format(a) for a in actions)
                ),
            )
            for key, title, actions in groups
            if actions
        )
        return OptionNode(key="root", label="Choose an action", children=children)

    def action_to_json(self, action: Action) -> JSON:
        return self.format(action)

    def action_from_json(
        self, obj: JSON, state: SuckerState | None = None, seat: int | None = None
    ) -> Action:
        # Records carry canonical notation, which reads the same without context.
        return super().action_from_json(obj, None, seat)


def _random_play(state: SuckerState, seat: int, rng: Rng) -> Play:
    """Uniform over the listed plays (each colour held, onto each pile or a new one),
    drawn without building the list."""
    colours = [c for c, n in enumerate(state.hands[seat]) if n]
    piles = list(state.piles)
    k = rng.below(len(colours) * (len(piles) + 1))
    colour, where = divmod(k, len(piles) + 1)
    return Play(COLOURS[colours[colour]], piles[where] if where < len(piles) else None)


RULES = SuckerRules()

__all__ = ["RULES", "SuckerRules"]
