"""The turn as its outline gives it (I–IV): steps, combat, captures, the PVC and its minigame.

Every function checks before it changes anything; events are stored as small tuples of ints
and turned into words only when someone looks (view.py).
"""

from __future__ import annotations

from parley.kernel import IllegalAction, InvalidAction

from .actions import NO_PICK, PASS, PICK_MAX, PICKS, Action, Move, Pass, Pick
from .state import COLLEGES, NOBODY, CampusState, Minigame, Phase

EVENTS_KEPT = 48  # the last events shown to players: enough for a round of four


def name(seat: int) -> str:
    return COLLEGES[seat]


def legal_actions(state: CampusState, seat: int) -> list[Action]:
    phase = state.phase
    if phase is Phase.MOVE:
        if seat != state.current:
            return []
        out: list[Action] = []
        moves_from = state.board.moves_from
        for s, who in enumerate(state.unit):
            if who == seat:
                out.extend(moves_from[s])
        out.append(PASS)
        return out
    if phase is Phase.MINIGAME:
        game = state.minigame
        assert game is not None
        if seat in game.players and seat not in game.picks:
            return list(PICKS)
    return []


def apply(state: CampusState, seat: int, action: Action) -> None:
    if state.phase is Phase.OVER:
        raise IllegalAction("the game is over", reason="game_over")
    if isinstance(action, Move):
        _check_mover(state, seat, f"move {action.src} to {action.dst}")
        board = state.board
        src, dst = _sector(state, action.src), _sector(state, action.dst)
        if src is None or dst is None:
            missing = action.src if src is None else action.dst
            raise IllegalAction(
                f"there is no sector {str(missing)[:20]!r} on the {board.title} map",
                reason="bad_target",
            )
        if state.unit[src] != seat:
            raise IllegalAction(
                f"{board.label(src)} holds no unit of {name(seat)}", reason="not_held"
            )
        if dst not in board.adjacent_sets[src]:
            raise IllegalAction(
                f"{board.label(dst)} is not next to {board.label(src)}", reason="not_reachable"
            )
        step(state, seat, src, dst)
    elif isinstance(action, Pass):
        _check_mover(state, seat, "pass")
        state.epoch += 1
        state.events.append(("pass", seat))
        end_turn(state)
    elif isinstance(action, Pick):
        game = state.minigame
        if state.phase is not Phase.MINIGAME or game is None:
            raise IllegalAction(
                "no minigame is being played; picks come after a PVC capture", reason="wrong_phase"
            )
        if seat not in game.players:
            raise IllegalAction(f"{name(seat)} takes no part in this minigame", reason="bad_target")
        if seat in game.picks:
            raise IllegalAction(
                f"{name(seat)} has picked already in this minigame", reason="no_actions_left"
            )
        value = action.value
        # An action built by hand (not parsed) may hold anything: only a whole number counts.
        whole = type(value) is int and 0 <= value <= PICK_MAX
        if value is not None and not whole:
            shown = str(value)[:20]
            raise IllegalAction(
                f"picks are whole numbers from 0 to {PICK_MAX}, not {shown}", reason="bad_target"
            )
        game.picks[seat] = action.value
        if len(game.picks) == len(game.players):
            resolve_minigame(state, game)
    else:
        raise InvalidAction(f"{action!r} is no campus action")


def _sector(state: CampusState, code: object) -> int | None:
    """The index of a sector code; None for anything else (a hand-built action may hold any)."""
    return state.board.index.get(code) if isinstance(code, str) else None


def _check_mover(state: CampusState, seat: int, what: str) -> None:
    if state.phase is Phase.MINIGAME:
        raise IllegalAction(
            f"the minigame is on: everyone picks a number first, not {what!r}", reason="wrong_phase"
        )
    if seat != state.current:
        raise IllegalAction(
            f"it is {name(state.current)}'s turn, not {name(seat)}'s ({what!r})",
            reason="not_your_turn",
        )


def step(state: CampusState, seat: int, src: int, dst: int) -> None:
    """One step from src into the adjacent dst (outline I.B), already checked."""
    state.epoch += 1
    state.steps -= 1
    owner, unit, level = state.owner, state.unit, state.level
    there, holder = unit[dst], owner[dst]
    ends = False
    if there == seat:  # I.B.1.a: swap with a friendly unit
        level[src], level[dst] = level[dst], level[src]
        caps = state.capturers
        for i, c in enumerate(caps):
            caps[i] = dst if c == src else src if c == dst else c
        state.events.append(("swap", seat, src, dst))
    elif there != NOBODY:  # I.B.2.a and I.C: combat, then the turn ends
        _combat(state, seat, src, dst, there)
        ends = True
    elif holder == seat:  # I.B.1.b
        _move(state, src, dst)
        state.events.append(("move", seat, src, dst))
    else:
        _move(state, src, dst)
        _capture(state, seat, dst)
        state.events.append(("capture", seat, src, dst, holder))
        if holder != NOBODY:  # I.B.2.b: free capture of an empty enemy sector ends the turn
            ends = True
            _lost_sector(state, holder, seat)
    if state.phase is Phase.OVER:
        return
    if dst == state.pvc and unit[dst] == seat:  # I.B.3: the PVC is taken
        _take_pvc(state, seat, dst, ends or state.steps == 0)
        return
    if ends or state.steps == 0:
        end_turn(state)


def _move(state: CampusState, src: int, dst: int) -> None:
    unit, level = state.unit, state.level
    unit[dst], level[dst] = unit[src], level[src]
    unit[src], level[src] = NOBODY, 0
    caps = state.capturers
    if src in caps:
        caps[caps.index(src)] = dst


def _capture(state: CampusState, seat: int, dst: int) -> None:
    holder = state.owner[dst]
    if holder != NOBODY:
        state.held[holder] -= 1
    state.owner[dst] = seat
    state.held[seat] += 1
    if dst not in state.capturers:
        state.capturers.append(dst)


def _combat(state: CampusState, seat: int, src: int, dst: int, defender: int) -> None:
    """Outline I.C and III.A: each side rolls 1..(4 + level) plus its bonus; ties defend."""
    level = state.level
    a_level, d_level = level[src], level[dst]
    a_bonus, d_bonus = state.attack(seat), state.defence(defender)
    a_roll = state.rng.randint(1, 4 + a_level, label=f"attack roll by {name(seat)}")
    d_roll = state.rng.randint(1, 4 + d_level, label=f"defence roll by {name(defender)}")
    won = a_roll + a_bonus > d_roll + d_bonus
    codes = state.board.codes
    state.last_combat = {
        "attacker": {
            "seat": seat,
            "sector": codes[src],
            "level": a_level,
            "die": 4 + a_level,
            "roll": a_roll,
            "bonus": a_bonus,
            "total": a_roll + a_bonus,
        },
        "defender": {
            "seat": defender,
            "sector": codes[dst],
            "level": d_level,
            "die": 4 + d_level,
            "roll": d_roll,
            "bonus": d_bonus,
            "total": d_roll + d_bonus,
        },
        "result": "attacker_wins" if won else "defender_wins",
        "destroyed": defender if won else seat,  # whose unit is destroyed
    }
    state.events.append(
        (
            "combat",
            seat,
            src,
            dst,
            defender,
            a_level,
            d_level,
            a_roll,
            a_bonus,
            d_roll,
            d_bonus,
            won,
        )
    )
    if won:  # C.1: the defender is destroyed, the attacker moves in and captures
        state.unit[dst], state.level[dst] = NOBODY, 0
        _move(state, src, dst)
        _capture(state, seat, dst)
        _lost_sector(state, defender, seat)
    else:  # C.2: the attacker is destroyed
        state.unit[src], state.level[src] = NOBODY, 0
        if src in state.capturers:
            state.capturers.remove(src)


def _lost_sector(state: CampusState, loser: int, taker: int) -> None:
    """III.A.1.a: a player with no sectors is out; the last one standing wins (I.C.1.d)."""
    if state.held[loser] > 0:
        return
    state.alive[loser] = False
    state.eliminated.append(loser)
    state.events.append(("out", loser, taker))
    if sum(state.alive) == 1:
        state.winner = taker
        state.phase = Phase.OVER
        state.end_reason = f"{name(taker)} took the last sector of the last opponent"
        state.events.append(("win", taker))


def _take_pvc(state: CampusState, seat: int, dst: int, ends_turn: bool) -> None:
    state.pvc = NOBODY
    state.pvc_revealed = False
    state.pvc_taken_at = dst
    state.minigames += 1
    if dst not in state.capturers:
        state.capturers.append(dst)
    state.events.append(("pvc", seat, dst))
    state.minigame = Minigame(state.minigames, seat, dst, tuple(state.survivors()), ends_turn)
    state.phase = Phase.MINIGAME


def resolve_minigame(state: CampusState, game: Minigame) -> None:
    """Everyone has picked: closest to two thirds of the average wins (ties by the dice)."""
    state.epoch += 1
    present = [(s, v) for s, v in sorted(game.picks.items()) if v is not None]
    winner = NOBODY
    if present:
        n, total = len(present), sum(v for _, v in present)
        # |v - 2/3 * total/n| compared in whole numbers: |3nv - 2 total|
        gaps = [(abs(3 * n * v - 2 * total), s) for s, v in present]
        best = min(g for g, _ in gaps)
        tied = [s for g, s in gaps if g == best]
        winner = tied[0] if len(tied) == 1 else state.rng.choice(tied, label="minigame tie-break")
    settings = state.settings
    bonuses: dict[int, int] = {}
    if winner == game.capturer:
        bonuses[winner] = settings.pvc_bonus_same
    else:
        bonuses[game.capturer] = settings.pvc_bonus
        if winner != NOBODY:
            bonuses[winner] = settings.pvc_bonus
    for s, amount in bonuses.items():
        state.pvc_attack[s] += amount
        state.pvc_defence[s] += amount
    state.last_minigame = {
        "number": game.number,
        "capturer": game.capturer,
        "sector": state.board.codes[game.sector],
        "picks": {str(s): game.picks[s] for s in game.players},
        "target": None
        if not present
        else round(2 * sum(v for _, v in present) / (3 * len(present)), 2),
        "winner": None if winner == NOBODY else winner,
        "bonuses": {str(s): b for s, b in sorted(bonuses.items())},
    }
    state.events.append(("minigame", game.number, winner, game.capturer))
    state.minigame = None
    state.phase = Phase.MOVE
    if game.ends_turn:
        end_turn(state)


def end_turn(state: CampusState) -> None:
    """Outline II and IV: level-ups, the PVC between turns, the next surviving player."""
    seat = state.current
    settings = state.settings
    level, unit = state.level, state.unit
    for s in state.capturers:  # II.A.1.a
        if unit[s] == seat and level[s] < settings.max_level:
            level[s] += 1
            state.events.append(("level", seat, s, level[s]))
    state.capturers.clear()
    if state.pvc_taken_at != NOBODY:  # IV.A: it reappears, hidden, somewhere new
        spots = state.pvc_candidates(exclude=state.pvc_taken_at)
        if spots:
            state.pvc = state.rng.choice(spots, label="where the PVC reappears")
            state.pvc_taken_at = NOBODY
            state.pvc_revealed = False
            state.cycles = 0
            state.cycle_mask = 0
            state.events.append(("pvc_back",))
    else:  # IV.B: count full cycles; after more than `reveal_cycles` it shows itself
        state.cycle_mask |= 1 << seat
        everyone = sum(1 << s for s in range(state.seats) if state.alive[s])
        if state.cycle_mask & everyone == everyone:
            state.cycles += 1
            state.cycle_mask = 0
            if (
                state.pvc != NOBODY
                and not state.pvc_revealed
                and state.cycles > settings.reveal_cycles
            ):
                state.pvc_revealed = True
                state.events.append(("pvc_seen", state.pvc))
    if len(state.events) > 2 * EVENTS_KEPT:
        state.events_dropped += len(state.events) - EVENTS_KEPT
        del state.events[:-EVENTS_KEPT]
    if state.turns >= settings.round_limit * state.seats:
        _end_by_limit(state)
        return
    nxt = (seat + 1) % state.seats
    while not state.alive[nxt]:
        nxt = (nxt + 1) % state.seats
    begin_turn(state, nxt)


def begin_turn(state: CampusState, seat: int) -> None:
    """Outline I.A: a new level-1 unit on every held landmark without one."""
    state.current = seat
    state.steps = state.settings.steps
    state.turns += 1
    owner, unit, level = state.owner, state.unit, state.level
    new = []
    for s in state.board.landmarks:
        if owner[s] == seat and unit[s] == NOBODY:
            unit[s], level[s] = seat, 1
            new.append(s)
    state.events.append(("turn", state.turns, seat, tuple(new)))


def _end_by_limit(state: CampusState) -> None:
    state.phase = Phase.OVER
    most = max(state.held[s] for s in state.survivors())
    top = [name(s) for s in state.survivors() if state.held[s] == most]
    state.end_reason = (
        f"the round limit ({state.settings.round_limit}) was reached; "
        f"most sectors ({most}): {', '.join(top)}"
    )
    state.events.append(("limit", state.settings.round_limit))


def default_action(state: CampusState, seat: int) -> Action:
    """A missed deadline: no pick in the minigame, else pass."""
    if state.phase is Phase.MINIGAME:
        return NO_PICK
    return PASS
