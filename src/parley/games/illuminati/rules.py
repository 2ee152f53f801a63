"""Illuminati on the Parley kernel."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from parley.kernel import (
    JSON,
    PUBLIC,
    Audience,
    GameSpec,
    IllegalAction,
    InvalidAction,
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
    Window,
)

from . import engine, refusals, view
from .actions import (
    Action,
    Ask,
    Attack,
    CallOff,
    ChooseGoal,
    Decline,
    Done,
    Keep,
    Lasers,
    Offer,
    Pass,
    PayMoney,
    Play,
    Release,
    Roll,
    Spend,
    Transfer,
)
from .engine import CARDS
from .notation import format_action, parse_action
from .state import Held, IlluminatiState, Phase, clone

_AMOUNT = re.compile(r"\b\d+\b")

KIND_LABELS = {
    "ChooseIlluminati": "Take an Illuminati card",
    "ChooseGoal": "Choose a secret goal",
    "Keep": "Keep the drawn special card",
    "Pass": "Pass",
    "Done": "Done",
    "Attack": "Attack a group",
    "AttackAgain": "Repeat the failed attack",
    "Aid": "Aid the attack",
    "Spend": "Spend money on the attack",
    "Roll": "Roll (or let the others answer)",
    "CallOff": "Call off the attack",
    "Privilege": "Make the attack privileged",
    "Abolish": "Abolish privilege",
    "Interfere": "Interfere",
    "Play": "Play a special card",
    "Transfer": "Transfer money",
    "Move": "Move a group",
    "Place": "Place a group",
    "Release": "Release a group",
    "Drop": "Drop a group",
    "Offer": "Give a group or special away",
    "Ask": "Name the price",
    "PayMoney": "Give money away",
    "Accept": "Accept",
    "Decline": "Decline",
    "Lasers": "Orbital Mind Control Lasers",
    "Recycle": "Recyclers: draw a card for 5 MB",
}


STANDING_PASS = "start_pass"  # the standing pass of the start-of-turn window
# Phases that ask seats one after another from the queue.
WINDOWS = frozenset({Phase.CHOOSE, Phase.START, Phase.REACT, Phase.AFTER_ROLL, Phase.SECRETS})


class IlluminatiRules(Rules[IlluminatiState, Action]):
    """The seed's use cases with the choices documented in docs/illuminati.md."""

    spec = GameSpec(
        name="illuminati",
        title="Illuminati",
        summary=(
            "Secret conspiracies build power structures of groups, attack, bribe and trade "
            "to control the world; the first to reach a goal wins."
        ),
        min_seats=2,
        max_seats=8,
        default_seats=4,
        structure=Structure.SEQUENTIAL,
        chance=True,
        hidden_information=True,
        aliases=("illuminice",),
        max_plies=12_000,
        options=(
            OptionSpec(
                "illuminati",
                "random",
                "how each player gets the Illuminati card that leads their conspiracy",
                choices=("choose", "random"),
                label="Illuminati cards",
                choice_labels=(
                    "Chosen face up, one player after another",
                    "Dealt at random (the seed's blind pick comes to this)",
                ),
            ),
            OptionSpec(
                "rounds",
                12,
                "the game ends after this many rounds (0: no limit); most groups then wins",
                minimum=0,
                maximum=1000,
                label="Rounds",
            ),
            OptionSpec(
                "round_ends",
                "first_player",
                "when a round is over, for the round limit",
                choices=("first_player", "player_1"),
                label="A round ends",
                choice_labels=(
                    "When play returns to the first player: every seat gets as many turns",
                    "When play passes Player 1 (as games stored before this option counted)",
                ),
            ),
            OptionSpec(
                "move_overflow",
                "confirm",
                "what happens when moving a group would leave cards with no room",
                choices=("confirm", "wait"),
                label="A move that loses cards",
                choice_labels=(
                    "Shows the cards and asks; no leaves everything as it was (the seed)",
                    "Is made at once; what does not fit waits for room (older games)",
                ),
            ),
            OptionSpec(
                "start_window",
                30,
                "time to answer at the start of a turn (0: the whole deadline); silence passes",
                minimum=0,
                maximum=86_400,
                label="Start-of-turn window (seconds)",
            ),
            OptionSpec(
                "protection",
                True,
                "a target's distance from its Illuminati protects it",
                label="Distance protects",
            ),
            OptionSpec(
                "defender_money",
                "seed",
                "what a defender's spent megabucks add to resistance",
                choices=("seed", "rulebook"),
                label="Defender's money",
                choice_labels=(
                    "Each MB adds 2 (the seed)",
                    "2 per MB from the defending group, 1 from its Illuminati (the rulebook)",
                ),
            ),
            OptionSpec(
                "illuminati_bonus",
                "card",
                "when an Illuminati's attack bonus counts",
                choices=("card", "structure"),
                label="Illuminati's attack bonus",
                choice_labels=(
                    "When the Illuminati card itself attacks (the seed)",
                    "On every attack of its power structure",
                ),
            ),
            OptionSpec(
                "survivalists",
                "double",
                "how the Survivalists strengthen their owner's other groups",
                choices=("double", "plus2"),
                label="Survivalists",
                choice_labels=("Double resistance (the seed)", "+2 resistance"),
            ),
            OptionSpec(
                "privilege_by",
                "attacker",
                "who may make an attack privileged by discarding a special card",
                choices=("attacker", "anyone"),
                label="Privileged attacks by",
                choice_labels=("The attacker only (the seed)", "Any player"),
            ),
            OptionSpec(
                "lasers",
                "switch",
                "what the Orbital Mind Control Lasers do to another group's alignments",
                choices=("switch", "add_remove_reverse"),
                label="Orbital Mind Control Lasers",
                choice_labels=(
                    "Switch one alignment to another for the turn (the seed)",
                    "Add, remove or reverse one (the reference)",
                ),
            ),
            OptionSpec(
                "destroyed_alone",
                "center",
                "where a destroyed group with no puppets goes",
                choices=("center", "dead"),
                label="A destroyed lone group",
                choice_labels=(
                    "Back to the uncontrolled area (the seed)",
                    "To the dead pile, like the others",
                ),
            ),
            OptionSpec(
                "goals_count_illuminati",
                False,
                "the power, transferable power and money goals count the Illuminati card too",
                label="Goals count the Illuminati card",
            ),
            OptionSpec(
                "elimination",
                True,
                "a player controlling no group at the end of its third or later turn is out",
                label="Elimination",
            ),
        ),
        test_options=(
            {
                "illuminati": "random",
                "defender_money": "rulebook",
                "illuminati_bonus": "structure",
                "privilege_by": "anyone",
                "lasers": "add_remove_reverse",
                "destroyed_alone": "dead",
                "round_ends": "player_1",
                "move_overflow": "wait",
            },
        ),
    )

    def setup(self, setup: Setup) -> IlluminatiState:
        return engine.setup(setup.seats, dict(setup.options), setup.rng)

    def seat_count(self, state: IlluminatiState) -> int:
        return state.seats

    def write_position(self, state: IlluminatiState) -> dict[str, Any]:
        from . import position

        return position.write(state)

    def read_position(self, data: Mapping[str, Any]) -> IlluminatiState:
        from parley.kernel.positions import check_usable

        from . import position

        state = position.read(data, self.spec.resolve_options)
        check_usable(self, state)
        return state

    def clone(self, state: IlluminatiState) -> IlluminatiState:
        return clone(state)

    def turn(self, state: IlluminatiState) -> Turn:
        seat = engine.owed_seat(state)
        if seat is None:
            return Turn()
        kind = engine.OWED_KIND[state.phase]
        return Turn(owed=(Owed(seat, kind, _prompt(state, kind)),))

    def legal_actions(self, state: IlluminatiState, seat: int) -> Sequence[Action]:
        return engine.legal(state, seat)

    def random_action(self, state: IlluminatiState, seat: int, rng: Rng) -> Action:
        """A kind of action drawn uniformly, then one action of that kind."""
        for _, gen in _shuffled(engine.kinds(state, seat), rng):
            options: list[Action] = list(gen(state, seat))
            if options:
                return rng.choice(options)
        raise IllegalAction(f"Player {seat + 1} has no legal action")

    def apply(self, state: IlluminatiState, seat: int, action: Action) -> None:
        if isinstance(action, Attack) and (action.spend or action.source):
            base = Attack(action.target, action.attacker, action.kind)
            me = state.players[seat]
            source = action.source or me.illuminati
            if (
                not engine.is_legal(state, seat, base)
                or action.spend < 1
                or source not in (me.illuminati, action.attacker)
                or me.money.get(source, 0) < action.spend
            ):
                raise refusals.refuse(state, seat, action)
        elif not engine.is_legal(state, seat, action):
            raise refusals.refuse(state, seat, action)
        engine.do(state, seat, action)

    def out_of_turn(self, state: IlluminatiState, seat: int, action: Action) -> str | None:
        return refusals.out_of_turn(state, seat, action, who=False)

    def outcome(self, state: IlluminatiState) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        return Outcome.shared(state.winners, state.seats, state.reason)

    def observe(self, state: IlluminatiState, viewer: Viewer) -> dict[str, JSON]:
        return view.observe(state, viewer)

    def parse(
        self, text: str, state: IlluminatiState | None = None, seat: int | None = None
    ) -> Action:
        action = parse_action(text)
        if state is not None and seat is not None and 0 <= seat < state.seats:
            # money "from" one's own Illuminati is the plain form: `spend 3`
            ill = state.players[seat].illuminati
            if isinstance(action, Spend) and ill and action.source == ill:
                action = Spend(action.amount)
            elif isinstance(action, Attack) and ill and action.spend and action.source == ill:
                action = Attack(action.target, action.attacker, action.kind, action.spend)
        if state is not None:
            seat_named = None
            if isinstance(action, Offer | PayMoney):
                seat_named = action.to
            elif isinstance(action, Play) and action.target and action.target.startswith("Player "):
                seat_named = int(action.target.split()[1]) - 1
            if seat_named is not None and seat_named >= state.seats:
                raise InvalidAction(
                    f"{text!r} names Player {seat_named + 1}, but this game has "
                    f"{state.seats} players",
                    text=text,
                )
        return action

    def format(self, action: Action) -> str:
        return format_action(action)

    def default_action(self, state: IlluminatiState, seat: int) -> Action:
        phase = state.phase
        if phase is Phase.MAIN:
            return Done() if state.acted else Pass()
        if phase is Phase.KEEP:
            return Keep(False)
        if phase is Phase.PLACE:
            return Release(state.pending[0].group)
        if phase is Phase.PRICE:
            return Ask()
        if phase is Phase.ANSWER:
            return Decline()
        if phase is Phase.ATTACK:
            assert state.attack is not None
            return CallOff() if not state.attack.committed and not state.attack.repeat else Roll()
        if phase is Phase.REORGANIZE:
            return Done()
        if phase is Phase.CONFIRM:
            return Decline()  # nothing is lost unless the mover says so
        if phase in (Phase.CHOOSE, Phase.GOAL):
            return engine.legal(state, seat)[0]
        return Pass()

    def seat_names(self, seats: int, options: Mapping[str, OptionValue]) -> list[str]:
        return [f"Player {i + 1}" for i in range(seats)]

    # The start-of-turn window asks everyone holding a special card alike (see
    # docs/illuminati.md), so it is short, and a standing pass answers for a player at once:
    # neither depends on which cards are held.

    def step_seconds(self, state: IlluminatiState) -> float | None:
        seconds = state.options.get("start_window", 30)
        if state.phase is Phase.START and isinstance(seconds, int) and seconds > 0:
            return float(seconds)
        return None

    def window(self, state: IlluminatiState) -> Window | None:
        """Who a window (start of turn, an attack's answers, after the roll, Secrets, the
        choice of Illuminati) has asked and will ask: seats and order only, both public."""
        if state.phase not in WINDOWS or not state.queue:
            return None
        return Window(
            answered=tuple(state.answered.get(state.phase, ())), later=tuple(state.queue[1:])
        )

    # A transfer of money reveals nothing and draws nothing: it may be taken back until
    # anyone else acts (the turn's own next action included).
    takes_back = True

    def may_take_back(self, state: IlluminatiState, seat: int, action: Action) -> bool:
        return isinstance(action, Transfer) and state.phase is Phase.MAIN

    def undoable(
        self, before: IlluminatiState, seat: int, action: Action, after: IlluminatiState
    ) -> bool:
        return (
            isinstance(action, Transfer)
            and after.phase is Phase.MAIN
            and after.active == seat
            and after.rng == before.rng
        )

    def confirm(self, state: IlluminatiState, seat: int, action: str) -> str | None:
        """An attack announced uses one of the turn's two actions."""
        if state.phase is Phase.MAIN and action.startswith("attack "):
            return f"Announce it ({action})? It uses one of your two actions this turn."
        return None

    def standing_settings(self) -> Mapping[str, str]:
        return {STANDING_PASS: "pass at once at the start of every other player's turn"}

    def standing_answer(self, state: IlluminatiState, seat: int, name: str) -> Action | None:
        if (
            name == STANDING_PASS
            and state.phase is Phase.START
            and seat != state.active
            and engine.owed_seat(state) == seat
        ):
            return Pass()
        return None

    def options_tree(self, state: IlluminatiState, seat: int) -> OptionNode:
        """Actions grouped by kind; actions differing only in an amount of money are
        grouped under one node per stem (`give N from Gnomes of Zurich to Texas`)."""
        groups: list[OptionNode] = []
        for kind, gen in engine.kinds(state, seat):
            actions = list(gen(state, seat))
            if not actions:
                continue
            name = kind.__name__
            if kind is Lasers:
                # one node per group, each leaf labelled in words ("Texas: Violent becomes
                # Weird"); the notation is the leaf's action
                by_group: dict[str, list[Lasers]] = {}
                for a in actions:
                    assert isinstance(a, Lasers)
                    by_group.setdefault(a.group, []).append(a)
                nodes = tuple(
                    OptionNode(
                        key=f"lasers.{i}",
                        label=group,
                        children=tuple(
                            OptionNode(
                                key=str(j), label=engine.lasers_text(a), action=self.format(a)
                            )
                            for j, a in enumerate(leaves)
                        ),
                    )
                    for i, (group, leaves) in enumerate(by_group.items())
                )
                groups.append(OptionNode(key="lasers", label=KIND_LABELS[name], children=nodes))
                continue
            texts = [self.format(a) for a in actions]
            stems: dict[str, list[str]] = {}
            for text in texts:
                stems.setdefault(_AMOUNT.sub("N", text, count=1), []).append(text)
            if len(stems) < len(texts):
                children = tuple(
                    OptionNode(
                        key=f"{name.lower()}.{i}",
                        label=stem,
                        children=tuple(
                            OptionNode(key=str(j), label=t, action=t) for j, t in enumerate(leaves)
                        ),
                    )
                    if len(leaves) > 1
                    else OptionNode(key=f"{name.lower()}.{i}", label=leaves[0], action=leaves[0])
                    for i, (stem, leaves) in enumerate(stems.items())
                )
            else:
                children = tuple(
                    OptionNode(key=str(i), label=t, action=t) for i, t in enumerate(texts)
                )
            groups.append(OptionNode(key=name.lower(), label=KIND_LABELS[name], children=children))
        return OptionNode(key="root", label="Choose an action", children=tuple(groups))

    def audience(self, state: IlluminatiState, seat: int, action: Action) -> Audience:
        if isinstance(action, ChooseGoal):
            return Audience(seats=frozenset({seat}))
        return PUBLIC

    def secrets(self, state: IlluminatiState, seat: int) -> Collection[str]:
        return view.secrets(state, seat)

    def hidden_variant(
        self, state: IlluminatiState, viewer: Viewer, rng: Rng
    ) -> IlluminatiState | None:
        """The deck, other players' face-down cards and the UFOs' goal drawn anew."""
        if viewer.omniscient:
            return None
        copy = self.clone(state)
        slots: list[tuple[int, int]] = []
        pool: list[str] = []
        for p in copy.players:
            if p.seat == viewer.seat:
                continue
            for i, h in enumerate(p.hand):
                if not h.face_up and (viewer.seat is None or viewer.seat not in h.seen_by):
                    slots.append((p.seat, i))
                    pool.append(h.card)
        pool.extend(c for c in copy.deck if CARDS.is_special(c))
        groups = [c for c in copy.deck if not CARDS.is_special(c)]
        rng.shuffle(pool)
        for (seat, i), name in zip(slots, pool, strict=False):
            h = copy.players[seat].hand[i]
            copy.players[seat].hand[i] = Held(name, h.face_up, h.decided, h.seen_by)
        deck = pool[len(slots) :] + groups
        rng.shuffle(deck)
        copy.deck = deck
        for p in copy.players:
            if p.goal and p.seat != viewer.seat:
                p.goal = rng.choice([c.name for c in CARDS.illuminati if c.hook != "two_attacks"])
        return copy

    def alive(self, state: IlluminatiState) -> frozenset[int]:
        if not any(p.illuminati for p in state.players):
            return frozenset(range(state.seats))
        return frozenset(p.seat for p in state.players if not p.eliminated)

    def render(self, observation: Mapping[str, JSON]) -> str:
        inner = observation.get("view", observation)
        assert isinstance(inner, Mapping)
        return view.render(inner)


def _shuffled(items: Sequence[Any], rng: Rng) -> list[Any]:
    out = list(items)
    rng.shuffle(out)
    return out


def _prompt(state: IlluminatiState, kind: str) -> str:
    return engine.PROMPTS[kind]


RULES = IlluminatiRules()

__all__ = ["RULES", "IlluminatiRules"]
