"""Planet control on the Parley kernel."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from parley.kernel import (
    JSON,
    BadOptions,
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
    Window,
)

from . import engine, strategy, view
from .actions import (
    Action,
    Activate,
    Aim,
    Assign,
    Bombard,
    Commit,
    Done,
    Exhaust,
    Explore,
    Move,
    Pass,
    Produce,
    Retreat,
    SpendGood,
    Stay,
)
from .galaxy import GalaxyError, galaxy_for
from .notation import format_action, parse_action
from .state import PlanetsState, Stage

MAX_ROUNDS = 12


class PlanetsRules(Rules[PlanetsState, Action]):
    """Expand, invade and hold planets under the control rules; see docs/planets.md."""

    spec = GameSpec(
        name="planets",
        title="Planet Control",
        summary=(
            "A small galaxy built around the Twilight Imperium control rules: activate "
            "systems, move fleets, invade, take planet cards exhausted, explore, score."
        ),
        min_seats=3,
        max_seats=6,
        default_seats=3,
        structure=Structure.SEQUENTIAL,
        chance=True,
        # No seat knows anything another does not: the order of the exploration and
        # objective decks is hidden from everyone alike, and `hidden_variant` lets the
        # conformance suite check that no view depends on it.
        hidden_information=False,
        aliases=("planet-control", "control", "ti-control"),
        options=(
            OptionSpec(
                "rules",
                "full",
                "which rules: a fuller round of play, or the compact game of control alone",
                label="Rules",
                offered=("full", "compact"),
                choice_labels=(
                    "Full round: strategy cards, command tokens, building, the whole combat",
                    "Compact: activations, invasion and exploration only",
                ),
            ),
            OptionSpec(
                "galaxy",
                "auto",
                "the galaxy to play in (a server may also be given galaxy files)",
                label="Galaxy",
                offered=("auto", "trine", "sextant"),
                choice_labels=(
                    "By the number of players: the Trine for 3, the Sextant for 4–6",
                    "The Trine (3 players)",
                    "The Sextant (4–6 players)",
                ),
            ),
            OptionSpec(
                "target",
                6,
                "victory points that win at once",
                minimum=1,
                maximum=10,
                label="Points to win",
            ),
            OptionSpec(
                "rounds",
                6,
                "the round limit: after it the most points wins",
                minimum=1,
                maximum=MAX_ROUNDS,
                label="Rounds",
            ),
            OptionSpec(
                "tactics",
                3,
                "command tokens a round (compact); the starting tactic pool (full rules)",
                minimum=1,
                maximum=8,
                label="Command tokens a round",
            ),
        ),
        max_plies=20_000,
    )
    # Records and stored games from before the fuller round were played by the compact rules.
    legacy_options: ClassVar[Mapping[str, OptionValue]] = {"rules": "compact"}

    # --- set-up ------------------------------------------------------------------------

    def setup(self, setup: Setup) -> PlanetsState:
        self.spec.check_seats(setup.seats)
        option = str(setup.options.get("galaxy", "auto"))
        name = ("trine" if setup.seats == 3 else "sextant") if option == "auto" else option
        try:
            galaxy = galaxy_for(name)
            galaxy.homes(setup.seats)
        except GalaxyError as err:
            raise BadOptions(str(err), text=option) from err
        return engine.new_game(
            galaxy,
            setup.seats,
            setup.rng,
            int(setup.options.get("target", 6)),
            int(setup.options.get("rounds", 6)),
            int(setup.options.get("tactics", 3)),
            compact=str(setup.options.get("rules", "full")) == "compact",
        )

    def seat_count(self, state: PlanetsState) -> int:
        return state.seats

    def write_position(self, state: PlanetsState) -> dict[str, Any]:
        from . import position

        return position.write(state, state.galaxy.name)

    def read_position(self, data: Mapping[str, Any]) -> PlanetsState:
        from parley.kernel.positions import check_usable

        from . import position

        state = position.read(data, self.spec.resolve_options)
        check_usable(self, state)
        return state

    def seat_names(self, seats: int, options: Mapping[str, OptionValue]) -> list[str]:
        return [view.colour(s).title() for s in range(seats)]

    def confirm(self, state: PlanetsState, seat: int, action: str) -> str | None:
        """An activation spends a command token for good."""
        if action.startswith("activate "):
            system = action.split(" ", 1)[1]
            return f"Spend a command token to activate {system}?"
        return None

    def clone(self, state: PlanetsState) -> PlanetsState:
        return state.clone()

    # --- taking back ---------------------------------------------------------------------

    # A step of a tactical action may be taken back while its seat still owes the next
    # decision of that same action and nothing was rolled, drawn or revealed: a move before
    # `done`, an exhausted planet or a unit produced, the activation itself. Only the parts
    # of the state every version of the rules has are looked at.
    takes_back = True

    def may_take_back(self, state: PlanetsState, seat: int, action: Action) -> bool:
        """Only a tactical action's own steps can be taken back (`undoable` says which);
        every other action is spared the copy of the state."""
        if isinstance(action, Activate):
            return state.stage is Stage.ACTION
        return isinstance(action, Move | Done | Commit | Exhaust | SpendGood | Produce) and (
            state.stage in (Stage.MOVE, Stage.COMMIT, Stage.PRODUCE)
        )

    def undoable(
        self, before: PlanetsState, seat: int, action: Action, after: PlanetsState
    ) -> bool:
        return (
            after.stage is not Stage.OVER
            and after.active is not None
            and before.active in (None, after.active)
            and before.round == after.round
            and engine.owner_of(after) == seat
            and not after.hits
            and after.rng == before.rng
            and after.decks == before.decks
            and after.objective_deck == before.objective_deck
            and after.revealed == before.revealed
        )

    # --- turn and actions ----------------------------------------------------------------

    def turn(self, state: PlanetsState) -> Turn:
        seat = engine.owner_of(state)
        if seat is None:
            return Turn()
        if state.hits:
            hit = state.hits[0]
            kind, prompt = (
                "hits",
                f"assign {engine.hits_text(hit.count)} to your units at {hit.where}",
            )
        elif state.trims:
            kind = "supply"
            prompt = f"remove ships over your fleet supply at {state.trims[0][1]}"
        else:
            kind = state.stage.value
            prompt = view.STEP_NAMES[state.stage]
        return Turn(owed=(Owed(seat, kind, prompt),))

    def window(self, state: PlanetsState) -> Window | None:
        """A strategy card's secondary and the status phase's tokens ask the seats in turn."""
        found = strategy.window(state)
        return None if found is None else Window(answered=found[0], later=found[1])

    def legal_actions(self, state: PlanetsState, seat: int) -> Sequence[Action]:
        return engine.legal(state, seat)

    def apply(self, state: PlanetsState, seat: int, action: Action) -> None:
        engine.apply(state, seat, action)

    def outcome(self, state: PlanetsState) -> Outcome | None:
        if state.stage is not Stage.OVER:
            return None
        if state.winner is not None:
            ranks = [1 if s == state.winner else 2 for s in range(state.seats)]
            others = sorted(
                {p for s, p in enumerate(state.points) if s != state.winner}, reverse=True
            )
            for s in range(state.seats):
                if s != state.winner:
                    ranks[s] = 2 + others.index(state.points[s])
            return Outcome(
                ranks=tuple(ranks),
                scores=tuple(float(p) for p in state.points),
                winners=frozenset({state.winner}),
                draw=False,
                reason=state.reason,
            )
        return Outcome.by_scores(state.points, state.reason)

    def random_action(self, state: PlanetsState, seat: int, rng: Rng) -> Action:
        """Uniform, except that a random player passes rarely and ends a step less often
        than it acts, so random games see fleets move and planets change hands."""
        actions = engine.legal(state, seat)
        if not actions:
            raise IllegalAction(f"seat {seat} has no legal action")
        stop = [a for a in actions if isinstance(a, Pass | Done)]
        rest = [a for a in actions if not isinstance(a, Pass | Done)]
        if stop and rest and rng.below(4) != 0:
            return rng.choice(rest)
        return rng.choice(actions)

    def out_of_turn(self, state: PlanetsState, seat: int, action: Action) -> str | None:
        return engine.late_step(state, seat, action)

    def default_action(self, state: PlanetsState, seat: int) -> Action:
        """Pass; end the step; no bombardment; the first hit or exploration offered. In the
        fuller round the legal lists put the default first: the lowest card left, a strategic
        action while passing is not allowed yet, `decline`, gained tokens to the tactic pool,
        the cheapest ship over the fleet supply."""
        actions = engine.legal(state, seat)
        if not actions:
            raise IllegalAction(f"seat {seat} owes no decision now")
        for kind in (Pass, Done, Stay):
            found = [a for a in actions if isinstance(a, kind)]
            if found:
                return found[0]
        if state.stage is Stage.BOMBARD and not state.hits:
            return Bombard(None)
        return actions[0]

    def options_tree(self, state: PlanetsState, seat: int) -> OptionNode:
        """Grouped by what the action does (and moves by the system they come from)."""
        groups: dict[str, list[Action]] = {}
        titles: dict[str, str] = {}
        for action in engine.legal(state, seat):
            key, title = _group(action, state.stage)
            groups.setdefault(key, []).append(action)
            titles[key] = title
        children = tuple(
            OptionNode(
                key=key,
                label=titles[key],
                children=_fleets(self, actions, not state.compact)
                if key.startswith("from ")
                else tuple(
                    OptionNode(str(i), self.format(a), self.format(a))
                    for i, a in enumerate(actions)
                ),
            )
            for key, actions in groups.items()
        )
        label = view.STEP_NAMES[state.stage]
        return OptionNode(key="root", label=label[:1].upper() + label[1:], children=children)

    # --- visibility -----------------------------------------------------------------------

    def observe(self, state: PlanetsState, viewer: Viewer) -> dict[str, JSON]:
        return view.observe(state, viewer)

    def render(self, observation: Mapping[str, JSON]) -> str:
        return view.render(observation)

    def hidden_variant(self, state: PlanetsState, viewer: Viewer, rng: Rng) -> PlanetsState:
        """The undrawn exploration decks and unrevealed objectives in another order."""
        variant = state.clone()
        for deck in variant.decks.values():
            rng.shuffle(deck)
        rng.shuffle(variant.objective_deck)
        return variant

    # --- notation -------------------------------------------------------------------------

    def parse(
        self, text: str, state: PlanetsState | None = None, seat: int | None = None
    ) -> Action:
        return parse_action(text, state, seat)

    def format(self, action: Action) -> str:
        return format_action(action)

    def action_from_json(
        self, obj: JSON, state: PlanetsState | None = None, seat: int | None = None
    ) -> Action:
        return super().action_from_json(obj, state, seat)


def _fleets(
    rules: PlanetsRules, moves: Sequence[Action], full: bool = False
) -> tuple[OptionNode, ...]:
    """The moves from one system by ship type, so a client can ask for counts: one node per
    type (key: the type), and under it one leaf per fleet, keyed "SHIPS INFANTRY MECH" (the
    counts: ships of that type, and the ground forces they carry). Full-rules leaves also
    name where the cargo boards: "SHIPS INFANTRY MECH FIGHTERS PLACE", PLACE being the rest
    of the key (a system, a planet name, or "-" for no cargo)."""
    kinds: dict[str, list[OptionNode]] = {}
    for move in moves:
        assert isinstance(move, Move)
        counts = dict(move.units)
        kind = move.units[0][0]
        key = f"{counts[kind]} {counts.get('infantry', 0)} {counts.get('mech', 0)}"
        if full:
            load = {k: n for _, k, n in move.cargo}
            place = move.cargo[0][0] if move.cargo else "-"
            key = (
                f"{counts[kind]} {load.get('infantry', 0)} {load.get('mech', 0)} "
                f"{load.get('fighter', 0)} {place}"
            )
        text = rules.format(move)
        kinds.setdefault(kind, []).append(OptionNode(key, text, text))
    return tuple(
        OptionNode(kind, f"{kind} (up to {_most(fleets)})", children=tuple(fleets))
        for kind, fleets in kinds.items()
    )


def _most(fleets: Sequence[OptionNode]) -> int:
    """The most ships of one type a fleet may hold (the first count of its leaves' keys)."""
    return max(int(f.key.split()[0]) for f in fleets)


def _group(action: Action, stage: Stage) -> tuple[str, str]:
    found = strategy.group(action)
    if found is not None:
        return found
    if isinstance(action, Activate):
        return "activate", "Activate a system"
    if isinstance(action, Move):
        return f"from {action.source}", f"Move from {action.source}"
    if isinstance(action, Assign):
        return "hits", "Assign a hit"
    if isinstance(action, Bombard):
        return "bombard", "Bombardment"
    if isinstance(action, Commit):
        return f"commit {action.planet}", f"Commit to {action.planet}"
    if isinstance(action, Explore):
        return "explore", "Explore"
    if isinstance(action, Exhaust | SpendGood):
        # Production pays in resources; a strategy card or the custodians' toll in influence.
        what = "resources" if stage is Stage.PRODUCE else "influence"
        return "pay", f"Exhaust planets or spend trade goods for {what}"
    if isinstance(action, Produce):
        return "produce", "Produce"
    if isinstance(action, Aim):
        return "aim", "Space cannon offense: choose a target"
    if isinstance(action, Retreat | Stay):
        return "retreat", "Retreat or stay"
    if isinstance(action, Pass | Done):
        return "end", "End"
    return "other", "Other"


RULES = PlanetsRules()

__all__ = ["RULES", "PlanetsRules"]
