"""Campus conquest with the hidden Pro-Vice-Chancellor, on the Parley kernel."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from pathlib import Path
from typing import Any

from parley.kernel import (
    JSON,
    PUBLIC,
    Audience,
    BadOptions,
    GameSpec,
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
from .actions import NO_PICK, PASS, PICK_MAX, Action, Move, Pick
from .board import check_seats, load_map
from .notation import format_action, parse_action
from .odds import attack_odds, sides, win_chance
from .state import COLLEGES, NOBODY, CampusState, Phase, Settings

ROUND_LIMIT = 60


class CampusRules(Rules[CampusState, Action]):
    """The turn outline (I–IV) with the choices documented in docs/campus.md."""

    spec = GameSpec(
        name="campus",
        title="Campus Conquest",
        summary=(
            "Take a university campus sector by sector with units that level up; a hidden "
            "Pro-Vice-Chancellor rewards whoever finds it, after a minigame everyone plays."
        ),
        min_seats=2,
        max_seats=6,
        default_seats=4,
        structure=Structure.SEQUENTIAL,
        chance=True,
        hidden_information=True,
        aliases=("campus-conquest", "conquest", "pvc"),
        options=(
            OptionSpec(
                "map",
                "campus",
                "the campus to play on",
                label="Map",
                offered=("campus",),
                choice_labels=("Fernbrook campus (the built-in map)",),
            ),
            OptionSpec(
                "landmark_bonus",
                2,
                "attack or defence bonus of a held landmark",
                minimum=0,
                maximum=10,
                label="Landmark bonus",
            ),
            OptionSpec(
                "pvc_bonus",
                2,
                "attack and defence bonus for the PVC's capturer and for the minigame winner",
                minimum=0,
                maximum=10,
                label="Pro-Vice-Chancellor bonus",
            ),
            OptionSpec(
                "pvc_bonus_same",
                4,
                "the improved bonus when the capturer also wins the minigame",
                minimum=0,
                maximum=20,
                label="Bonus for capturing and winning",
            ),
            OptionSpec(
                "reveal_cycles",
                5,
                "the PVC is revealed after more than this many full turn cycles without a capture",
                minimum=0,
                maximum=100,
                label="Rounds before the PVC is revealed",
            ),
            OptionSpec(
                "max_level",
                5,
                "the highest unit level",
                minimum=1,
                maximum=20,
                label="Highest unit level",
            ),
            OptionSpec(
                "round_limit",
                ROUND_LIMIT,
                "rounds after which the most sectors win",
                minimum=1,
                maximum=1000,
                label="Rounds",
            ),
        ),
        # Each player-turn takes at most two steps and one minigame (one pick per seat).
        max_plies=ROUND_LIMIT * 6 * (2 + 1 + 6),
        test_options=({"reveal_cycles": 0, "round_limit": 25},),
    )

    def __init__(self, maps: Mapping[str, str | Path] | None = None) -> None:
        # Map files are named by whoever runs the rules, never by a game's options: a
        # player choosing options must not make the server read a path of their choice.
        self.maps = {name: str(path) for name, path in (maps or {}).items()}

    # --- set-up and reading -----------------------------------------------------------

    def setup(self, setup: Setup) -> CampusState:
        seats = setup.seats
        self.spec.check_seats(seats)
        o = setup.options
        settings = Settings(
            map=str(o.get("map", "campus")),
            landmark_bonus=int(o.get("landmark_bonus", 2)),
            pvc_bonus=int(o.get("pvc_bonus", 2)),
            pvc_bonus_same=int(o.get("pvc_bonus_same", 4)),
            reveal_cycles=int(o.get("reveal_cycles", 5)),
            max_level=int(o.get("max_level", 5)),
            round_limit=int(o.get("round_limit", ROUND_LIMIT)),
        )
        if settings.map == "campus":
            board = load_map("campus")
        elif settings.map in self.maps:
            board = load_map(self.maps[settings.map])
        else:
            known = ", ".join(["campus", *sorted(self.maps)])
            raise BadOptions(f"no map called {settings.map!r} here; maps: {known}")
        check_seats(board, seats)
        rng = setup.rng
        size = board.size
        state = CampusState(
            board=board,
            settings=settings,
            seats=seats,
            owner=[NOBODY] * size,
            unit=[NOBODY] * size,
            level=[0] * size,
            held=[1] * seats,
            pvc_attack=[0] * seats,
            pvc_defence=[0] * seats,
            alive=[True] * seats,
            rng=rng,
        )
        starts = list(board.landmarks)
        rng.shuffle(starts, label="starting landmarks, in seat order")
        for seat in range(seats):
            s = starts[seat]
            state.owner[s], state.unit[s], state.level[s] = seat, seat, 1
        state.pvc = rng.choice(state.pvc_candidates(), label="where the PVC starts")
        engine.begin_turn(state, 0)
        return state

    def seat_count(self, state: CampusState) -> int:
        return state.seats

    def write_position(self, state: CampusState) -> dict[str, Any]:
        from . import position

        return position.write(state, position.options_of(state))

    def read_position(self, data: Mapping[str, Any]) -> CampusState:
        from parley.kernel.positions import check_usable

        from . import position

        state = position.read(data, self.maps, self.spec.resolve_options)
        check_usable(self, state)
        return state

    def seat_names(self, seats: int, options: Mapping[str, OptionValue]) -> list[str]:
        return list(COLLEGES[:seats])

    takes_back = True

    def may_take_back(self, state: CampusState, seat: int, action: Action) -> bool:
        return isinstance(action, Move)

    def undoable(self, before: CampusState, seat: int, action: Action, after: CampusState) -> bool:
        """A step that rolled no dice and found nothing hidden, the turn going on."""
        if not isinstance(action, Move) or after.phase is not Phase.MOVE or after.current != seat:
            return False
        if after.rng != before.rng:
            return False
        made = after.events_dropped + len(after.events) - before.events_dropped - len(before.events)
        new = after.events[-made:] if made > 0 else []
        return all(e[0] in ("move", "swap", "capture", "level") for e in new)

    def confirm(self, state: CampusState, seat: int, action: str) -> str | None:
        """An attack: the dice decide, and a lost one destroys the attacking unit."""
        if state.phase is not Phase.MOVE or not action.startswith("move "):
            return None
        try:
            move = parse_action(action, state.board)
        except Exception:  # a leaf is the game's own notation; anything else asks nothing
            return None
        if not isinstance(move, Move):
            return None
        board = state.board
        src, dst = board.index[move.src], board.index[move.dst]
        if state.unit[dst] in (NOBODY, seat):
            return None  # a move, a capture or a swap: no dice
        chance = win_chance(*sides(state, seat, src, dst))
        return (
            f"Attack {board.label(dst)} from {board.label(src)}? "
            f"{round(float(chance) * 100)}% to win; a lost attack destroys your unit."
        )

    def alive(self, state: CampusState) -> frozenset[int]:
        return frozenset(state.survivors())

    def clone(self, state: CampusState) -> CampusState:
        return state.clone()

    def epoch(self, state: CampusState) -> int:
        return state.epoch

    def turn(self, state: CampusState) -> Turn:
        phase = state.phase
        if phase is Phase.MOVE:
            prompt = f"{state.steps} step(s) left: move a unit, or pass"
            return Turn(owed=(Owed(state.current, "move", prompt),))
        if phase is Phase.MINIGAME:
            game = state.minigame
            assert game is not None
            prompt = f"minigame {game.number}: pick a whole number from 0 to {PICK_MAX}"
            return Turn(
                owed=tuple(Owed(s, "pick", prompt) for s in game.players if s not in game.picks),
                simultaneous=True,
            )
        return Turn()

    def legal_actions(self, state: CampusState, seat: int) -> Sequence[Action]:
        return engine.legal_actions(state, seat)

    def apply(self, state: CampusState, seat: int, action: Action) -> None:
        engine.apply(state, seat, action)

    def random_action(self, state: CampusState, seat: int, rng: Rng) -> Action:
        actions = engine.legal_actions(state, seat)
        if not actions:
            return super().random_action(state, seat, rng)
        return actions[rng.below(len(actions))]

    def default_action(self, state: CampusState, seat: int) -> Action:
        return engine.default_action(state, seat)

    def outcome(self, state: CampusState) -> Outcome | None:
        if state.phase is not Phase.OVER:
            return None
        seats = state.seats
        if state.winner is not None:
            ranks = [1] * seats
            for k, seat in enumerate(state.eliminated):
                ranks[seat] = seats - k  # the first out comes last
            return Outcome(
                ranks=tuple(ranks),
                scores=tuple(1.0 if s == state.winner else 0.0 for s in range(seats)),
                winners=frozenset({state.winner}),
                draw=False,
                reason=state.end_reason,
            )
        # The round limit: survivors by sectors held, the eliminated after them.
        living = state.survivors()
        ranks = [0] * seats
        for s in living:
            ranks[s] = 1 + sum(1 for o in living if state.held[o] > state.held[s])
        for k, seat in enumerate(state.eliminated):
            ranks[seat] = seats - k
        top = frozenset(s for s in living if ranks[s] == 1)
        return Outcome(
            ranks=tuple(ranks),
            scores=tuple(1.0 / len(top) if s in top else 0.0 for s in range(seats)),
            winners=top,
            draw=len(top) > 1,
            reason=state.end_reason,
        )

    # --- visibility ---------------------------------------------------------------------

    def observe(self, state: CampusState, viewer: Viewer) -> dict[str, JSON]:
        return view.observe(state, viewer)

    def render(self, observation: Mapping[str, JSON]) -> str:
        name = str(observation.get("map", "campus"))
        return view.render(observation, load_map(self.maps[name]) if name in self.maps else None)

    def audience(self, state: CampusState, seat: int, action: Action) -> Audience:
        if isinstance(action, Pick):  # secret until the minigame resolves (the next epoch)
            return Audience(frozenset({seat}), reveal_epoch=state.epoch + 1)
        return PUBLIC

    def secrets(self, state: CampusState, seat: int) -> Collection[str]:
        token = view.pick_token(state, seat)
        return [token] if token else []

    def hidden_variant(self, state: CampusState, viewer: Viewer, rng: Rng) -> CampusState | None:
        """The hidden PVC moved to another sector it could be on; others' pending picks redrawn."""
        if viewer.omniscient:
            return None
        hidden_pvc = state.pvc != NOBODY and not state.pvc_revealed
        game = state.minigame
        others = [s for s in (game.picks if game else ()) if s != viewer.seat]
        spots = state.pvc_candidates(exclude=state.pvc) if hidden_pvc else []
        if not spots and not others:
            return None
        variant = state.clone()
        if spots:
            variant.pvc = spots[rng.below(len(spots))]
        if variant.minigame is not None:
            for s in others:
                k = rng.below(PICK_MAX + 2)
                variant.minigame.picks[s] = None if k > PICK_MAX else k
        return variant

    # --- notation -----------------------------------------------------------------------

    def parse(self, text: str, state: CampusState | None = None, seat: int | None = None) -> Action:
        board = state.board if state is not None else load_map("campus")
        return parse_action(text, board)

    def format(self, action: Action) -> str:
        return format_action(action)

    def options_tree(self, state: CampusState, seat: int) -> OptionNode:
        """Moves grouped by the unit's sector, then pass; or the 101 picks and no pick."""
        actions = engine.legal_actions(state, seat)
        if state.phase is Phase.MINIGAME:
            picks = tuple(
                OptionNode(key=str(i), label=format_action(a), action=format_action(a))
                for i, a in enumerate(actions)
            )
            return OptionNode(key="root", label="Pick a number 0-100", children=picks)
        board = state.board
        # An attack's label gives its chance, as the view's "attacks" do.
        odds = {(o["from"], o["to"]): o for o in attack_odds(state) if isinstance(o, dict)}

        def to(m: Move) -> str:
            where = f"to {board.label(board.index[m.dst])}"
            o = odds.get((m.src, m.dst))
            return where if o is None else f"{where}: attack, {o['percent']}% to win ({o['roll']})"

        groups: dict[str, list[Move]] = {}
        for a in actions:
            if isinstance(a, Move):
                groups.setdefault(a.src, []).append(a)
        children = [
            OptionNode(
                key=src,
                label=f"unit on {board.label(board.index[src])}",
                children=tuple(
                    OptionNode(
                        key=m.dst,
                        label=to(m),
                        action=format_action(m),
                    )
                    for m in moves
                ),
            )
            for src, moves in groups.items()
        ]
        if PASS in actions:
            children.append(OptionNode(key="pass", label="pass (end the turn)", action="pass"))
        return OptionNode(key="root", label="Choose a step", children=tuple(children))

    def action_from_json(
        self, obj: JSON, state: CampusState | None = None, seat: int | None = None
    ) -> Action:
        return super().action_from_json(obj, state, seat)


RULES = CampusRules()

__all__ = ["NO_PICK", "RULES", "CampusRules"]
