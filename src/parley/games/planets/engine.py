"""The rules engine: legal actions, checks and effects, and the automatic steps between them.

Every public function either reads the state or, for `apply`, checks the action completely
before changing anything. Automatic steps (dice, establishing control, the status phase)
run in `advance`, which stops at the next decision somebody owes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from parley.kernel import IllegalAction, InvalidAction, Rng

from . import forces, strategy
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
from .cards import CARDS, DECKS, OBJECTIVES, Effect, Goal
from .galaxy import Galaxy, SystemKind
from .state import Area, Hit, PlanetsState, PlanetState, Stage, who
from .units import (
    COMPACT_PRODUCIBLE,
    GROUND,
    ORDER,
    PRODUCIBLE,
    SHIPS,
    START_HOME,
    START_MINOR,
    START_SPACE,
    START_SPACE_FULL,
    STRUCTURES,
    UNITS,
    cost_of,
)

EVENTS_KEPT = 60  # the state keeps this many recent public events for the views
STARTING_OBJECTIVES = 2
START_FLEET = 3  # the fuller round's command sheet at set-up (20.1); tactics come from options
START_STRATEGY = 2


# --- set-up ----------------------------------------------------------------------------


def new_game(
    galaxy: Galaxy,
    seats: int,
    rng: Rng,
    target: int,
    rounds: int,
    tactics: int,
    *,
    compact: bool = False,
) -> PlanetsState:
    """Home systems with the starting forces, shuffled decks, two objectives revealed."""
    slots = galaxy.homes(seats)
    homes = [galaxy.home_system(slot).id for slot in slots]
    space = {sid: Area() for sid in galaxy.systems}
    planets = {name: PlanetState() for name in galaxy.planets}
    for seat, sid in enumerate(homes):
        for kind, n in (START_SPACE if compact else START_SPACE_FULL).items():
            space[sid].add(seat, kind, n)
        names = galaxy.systems[sid].planets
        for i, name in enumerate(names):
            planets[name].controller = seat  # each player begins controlling their home planets
            for kind, n in (START_HOME if i == 0 else START_MINOR).items():
                planets[name].area.add(seat, kind, n)
    decks = {trait: [c.id for c in cards] for trait, cards in DECKS.items()}
    for trait, deck in decks.items():
        rng.shuffle(deck, label=f"the {trait} exploration deck")
    objectives = list(OBJECTIVES)
    rng.shuffle(objectives, label="the objective deck")
    revealed = [objectives.pop() for _ in range(STARTING_OBJECTIVES)]
    first = rng.below(seats, label="who plays first")
    state = PlanetsState(
        galaxy=galaxy,
        seats=seats,
        homes=homes,
        target=target,
        rounds=rounds,
        tactics_per_round=tactics,
        compact=compact,
        rng=rng,
        space=space,
        planets=planets,
        tokens={},
        tactics=[tactics] * seats,
        passed=[False] * seats,
        points=[0] * seats,
        scored=[[] for _ in range(seats)],
        goods=[0] * seats,
        fragments=[[] for _ in range(seats)],
        decks=decks,
        discards={trait: [] for trait in decks},
        objective_deck=objectives,
        revealed=revealed,
        first=first,
        current=first,
        fleet=[] if compact else [START_FLEET] * seats,
        strategy_pool=[] if compact else [START_STRATEGY] * seats,
    )
    if not compact:
        strategy.begin(state)  # the speaker is the player drawn first
    return state


# --- reading the board -------------------------------------------------------------------


def owner_of(state: PlanetsState) -> int | None:
    """Who owes the next decision, or None when the game is over."""
    if state.stage is Stage.OVER:
        return None
    if state.hits:
        return state.hits[0].seat
    if state.trims:
        return state.trims[0][0]
    if state.stage is Stage.ACTION:
        return state.current
    if state.stage is Stage.RETREAT:
        return forces.announcer(state)
    return state.current  # the active player owes every step of their tactical action


def planet_resources(state: PlanetsState, name: str) -> int:
    """Printed resources plus attachments (attachments stay with the planet, 12.2)."""
    base = state.galaxy.planets[name].resources
    return base + sum(CARDS[c].resources for c in state.planets[name].attachments)


def planet_influence(state: PlanetsState, name: str) -> int:
    base = state.galaxy.planets[name].influence
    return base + sum(CARDS[c].influence for c in state.planets[name].attachments)


def controlled(state: PlanetsState, seat: int) -> list[str]:
    """The planets a seat controls, in galaxy order."""
    return [n for n, p in state.planets.items() if p.controller == seat]


def has_token(state: PlanetsState, name: str) -> bool:
    """A control token marks a controlled planet without its controller's units (25.4)."""
    planet = state.planets[name]
    return planet.controller is not None and planet.controller not in planet.area.units


def home_planets(state: PlanetsState, seat: int) -> tuple[str, ...]:
    return state.galaxy.systems[state.homes[seat]].planets


def ships_of(area: Area, seat: int) -> int:
    return sum(n for k, n in area.units.get(seat, {}).items() if UNITS[k].ship)


def ground_of(area: Area, seat: int) -> int:
    return sum(area.count(seat, k) for k in GROUND)


def capacity_of(area: Area, seat: int) -> int:
    return sum(n * UNITS[k].capacity for k, n in area.units.get(seat, {}).items())


def fleet_owner(area: Area, but: int | None = None) -> int | None:
    """The one player other than `but` with ships in a space area, if any."""
    for seat in area.seats():
        if seat != but and ships_of(area, seat):
            return seat
    return None


def in_play(state: PlanetsState, seat: int, kind: str) -> int:
    """How many units of a type a seat has on the board (reinforcement limits)."""
    areas = [*state.space.values(), *(p.area for p in state.planets.values())]
    return sum(a.count(seat, kind) for a in areas)


def fleet_supply(state: PlanetsState, seat: int) -> int | None:
    """How many non-fighter ships the seat may keep in one system (its fleet pool), or None
    under `rules=compact`, which has no fleet supply."""
    return None if state.compact else state.fleet[seat]


def distances(state: PlanetsState, seat: int, active: str) -> dict[str, int]:
    """Moves needed to reach `active` from each system, never through an asteroid field
    nor through a system holding another player's ships."""
    galaxy = state.galaxy
    if galaxy.systems[active].kind is SystemKind.ASTEROIDS:
        return {active: 0}
    dist = {active: 0}
    frontier = [active]
    while frontier:
        nxt: list[str] = []
        for here in frontier:
            if here != active and fleet_owner(state.space[here], seat) is not None:
                continue  # ships may end here but not pass through
            for n in galaxy.neighbours[here]:
                if n not in dist and galaxy.systems[n].kind is not SystemKind.ASTEROIDS:
                    dist[n] = dist[here] + 1
                    nxt.append(n)
        frontier = nxt
    return dist


def ground_available(state: PlanetsState, seat: int, sid: str) -> dict[str, int]:
    """Ground forces a move from `sid` can pick up: its space area, then its planets."""
    out = {k: state.space[sid].count(seat, k) for k in GROUND}
    for name in state.galaxy.systems[sid].planets:
        for k in GROUND:
            out[k] += state.planets[name].area.count(seat, k)
    return out


# --- legal actions -----------------------------------------------------------------------


def legal(state: PlanetsState, seat: int) -> list[Action]:
    """Every legal action of `seat` now (moves one ship type at a time)."""
    if owner_of(state) != seat:
        return []
    if state.hits:
        return list(hit_options(state))
    if state.trims:
        return list(strategy.trim_options(state))
    stage = state.stage
    if stage in strategy.ROUND_STAGES:
        return strategy.legal(state, seat)
    if stage is Stage.ACTION and not state.compact:
        passing = [Pass()] if strategy.can_pass(state, seat) else []
        return [*strategy.strategics(state, seat), *activations(state, seat), *passing]
    if stage is Stage.ACTION:
        return [*activations(state, seat), Pass()]
    if stage is Stage.MOVE:
        return [*moves(state, seat), Done()]
    if stage is Stage.OFFENSE:
        return [Aim(t) for t in forces.offense_targets(state, seat)]
    if stage is Stage.RETREAT:
        return list(forces.retreat_options(state))
    if stage is Stage.BOMBARD:
        return [*(Bombard(p) for p in bombard_targets(state, seat)), Bombard(None)]
    if stage is Stage.COMMIT:
        if not state.compact:
            fine = [c for c in commits(state, seat) if not strategy.commit_refused(state, c.planet)]
            done = [] if strategy.done_refused(state) else [Done()]
            return [*strategy.toll_options(state, seat), *fine, *done]
        return [*commits(state, seat), Done()]
    if stage is Stage.EXPLORE:
        return list(explorations(state))
    if stage is Stage.PRODUCE:
        return [*production(state, seat), Done()]
    return []


def activations(state: PlanetsState, seat: int) -> list[Activate]:
    if state.tactics[seat] <= 0:
        return []
    return [Activate(sid) for sid in state.galaxy.systems if seat not in state.tokens.get(sid, [])]


def moves(state: PlanetsState, seat: int) -> Iterator[Move]:
    """One ship type per move, with every load of ground forces it can carry."""
    active = state.active
    assert active is not None
    if not state.compact:
        yield from forces.moves(state, seat)
        return
    dist = distances(state, seat, active)
    for sid in state.galaxy.systems:
        if sid == active or sid not in dist or seat in state.tokens.get(sid, []):
            continue
        area = state.space[sid]
        if seat not in area.units:
            continue  # no ships here: skip counting the ground forces
        avail = ground_available(state, seat, sid)
        for kind in SHIPS:
            have = area.count(seat, kind)
            if not have or UNITS[kind].move < dist[sid]:
                continue
            for n in range(1, have + 1):
                room = UNITS[kind].capacity * n
                for inf in range(min(room, avail["infantry"]) + 1):
                    for mech in range(min(room - inf, avail["mech"]) + 1):
                        units = [(kind, n)]
                        units += [(k, c) for k, c in (("infantry", inf), ("mech", mech)) if c]
                        move = Move(sid, tuple(units), active)
                        if move_problem(state, seat, move, dist) is None:
                            yield move


def move_problem(
    state: PlanetsState, seat: int, move: Move, dist: dict[str, int] | None = None
) -> str | None:
    """Why a move is not allowed now, or None."""
    active = state.active
    if state.stage is not Stage.MOVE or active is None:
        return "ships move only in the movement step of a tactical action"
    if move.dest != active:
        return f"ships move into the active system {active}, not {move.dest}"
    if move.source not in state.galaxy.systems:
        return f"there is no system {move.source}"
    if move.source == active:
        return "ships already in the active system stay there"
    if seat in state.tokens.get(move.source, []):
        return f"your ships in {move.source} are under your command token and cannot move"
    counts = dict(move.units)
    if len(counts) != len(move.units) or any(n <= 0 for n in counts.values()):
        return "name each unit type once, with a positive count"
    if any(k not in SHIPS and k not in GROUND for k in counts):
        return "only ships and the ground forces they carry move"
    dist = dist if dist is not None else distances(state, seat, active)
    if move.source not in dist:
        return f"no path from {move.source} to {active} avoids asteroids and enemy ships"
    if not state.compact:
        return forces.move_problem(state, seat, move, dist)
    if move.cargo:
        return "the compact rules name carried ground forces among the units, not after 'with'"
    area = state.space[move.source]
    ships = {k: n for k, n in counts.items() if k in SHIPS}
    if not ships:
        return "ground forces move only aboard ships"
    for kind, n in ships.items():
        if area.count(seat, kind) < n:
            return f"you have {area.count(seat, kind)} {kind} in {move.source}, not {n}"
        if UNITS[kind].move < dist[move.source]:
            return f"a {kind} moves {UNITS[kind].move}, and {active} is {dist[move.source]} away"
    avail = ground_available(state, seat, move.source)
    load = 0
    for kind in GROUND:
        want = counts.get(kind, 0)
        if want > avail[kind]:
            return f"you have {avail[kind]} {kind} in {move.source}, not {want}"
        load += want
    room = sum(UNITS[k].capacity * n for k, n in ships.items())
    if load > room:
        return f"those ships carry {room} ground forces, not {load}"
    left_room = capacity_of(area, seat) - room
    left_load = sum(max(0, area.count(seat, k) - counts.get(k, 0)) for k in GROUND)
    if left_load > left_room:
        return f"the ground forces left in space at {move.source} would have no ships to carry them"
    return None


def hit_options(state: PlanetsState) -> list[Assign]:
    hit = state.hits[0]
    area = state.where(hit.where)
    kinds = SHIPS if hit.where in state.space else GROUND
    out: list[Assign] = []
    for kind in kinds:
        n = area.count(hit.seat, kind)
        if not n:
            continue
        if UNITS[kind].sustain and area.hurt(hit.seat, kind) < n:
            out.append(Assign(kind, True))
        out.append(Assign(kind, False))
    return out


def bombard_targets(state: PlanetsState, seat: int) -> list[str]:
    """Planets of the active system with another player's ground forces and no shield (a war
    sun in the system takes the other players' PLANETARY SHIELD away, 65.3)."""
    assert state.active is not None
    warsun = state.space[state.active].count(seat, "warsun") > 0
    out = []
    for name in state.galaxy.systems[state.active].planets:
        area = state.planets[name].area
        others = [s for s in area.seats() if s != seat and area.has(s, GROUND)]
        shielded = any(area.count(s, k) for s in others for k in STRUCTURES if UNITS[k].shield)
        if others and (not shielded or warsun):
            out.append(name)
    return out


def commits(state: PlanetsState, seat: int) -> Iterator[Commit]:
    assert state.active is not None
    space = state.space[state.active]
    inf, mech = space.count(seat, "infantry"), space.count(seat, "mech")
    for name in state.galaxy.systems[state.active].planets:
        for i in range(inf + 1):
            for m in range(mech + 1):
                if i or m:
                    yield Commit(name, i, m)


def explorations(state: PlanetsState) -> list[Explore]:
    return [
        Explore(trait, name)
        for name in state.explore_queue
        for trait in state.galaxy.planets[name].traits
    ]


def docks_here(state: PlanetsState, seat: int) -> list[str]:
    """The active system's planets where `seat` has a space dock and control."""
    assert state.active is not None
    return [
        n
        for n in state.galaxy.systems[state.active].planets
        if state.planets[n].controller == seat and state.planets[n].area.count(seat, "dock")
    ]


def production_limit(state: PlanetsState, seat: int) -> int:
    """PRODUCTION of the docks in the active system: their planets' resources + 2 each.

    Exhausted planets still give it (a passive effect, 34.4).
    """
    return sum(
        (planet_resources(state, n) + UNITS["dock"].production)
        * state.planets[n].area.count(seat, "dock")
        for n in docks_here(state, seat)
    )


def _producible(state: PlanetsState, seat: int) -> tuple[str, ...]:
    """No ships are produced where another player's ships blockade the docks."""
    assert state.active is not None
    if not state.compact:
        return GROUND if forces.blockaded(state, seat) else PRODUCIBLE
    if fleet_owner(state.space[state.active], seat) is not None:
        return GROUND
    return COMPACT_PRODUCIBLE


def production(state: PlanetsState, seat: int) -> Iterator[Action]:
    for name in controlled(state, seat):
        if not state.planets[name].exhausted:
            yield Exhaust(name)
    if state.goods[seat]:
        yield SpendGood()
    room = production_limit(state, seat) - state.produced
    for dock in docks_here(state, seat):
        for kind in _producible(state, seat):
            spare = UNITS[kind].limit - in_play(state, seat, kind)
            for n in range(1, min(room, spare) + 1):
                if state.compact:
                    if cost_of(kind, n) <= state.pool:
                        yield Produce(kind, n, dock)
                    continue
                made = Produce(kind, n, dock)
                if forces.charge(state, kind, n) <= state.pool and not (
                    forces.production_problem(state, seat, made)
                ):
                    yield made


# --- applying actions --------------------------------------------------------------------


def apply(state: PlanetsState, seat: int, action: Action) -> None:
    """Check `action` fully, then carry it out and run the automatic steps after it."""
    owner = owner_of(state)
    if owner is None:
        raise IllegalAction("the game is over", reason="game_over")
    if owner != seat:
        late = late_step(state, seat, action)
        raise IllegalAction(
            f"{who(seat)} owes no decision now; {who(owner)} does" + (f": {late}" if late else ""),
            reason="not_your_turn",
        )
    malformed = _malformed(action)
    if malformed is not None:
        raise InvalidAction(f"a malformed action: {malformed}")
    problem = _problem(state, seat, action)
    if problem is not None:
        raise IllegalAction(problem, reason=_reason(state, action, problem))
    active = action.system if isinstance(action, Activate) else state.active
    _do(state, seat, action)
    advance(state)
    # Ended by itself: the seat was in a tactical action and now owes nothing in it.
    if active is not None and state.active is None and owner_of(state) != seat:
        state.ended = (seat, active)
    else:
        state.ended = None


STEP_ACTIONS = (
    Move,
    Done,
    Bombard,
    Commit,
    Explore,
    Exhaust,
    SpendGood,
    Produce,
    Assign,
    Aim,
)


def late_step(state: PlanetsState, seat: int, action: Action) -> str | None:
    """Why a step of a tactical action the seat no longer has is refused (public facts only).

    A tactical action ends by itself when nothing is left to decide, e.g. right after the
    activation when no ship can move in; a move sent then is told that and what rule the
    move breaks, judged in the movement step as it was.
    """
    if state.ended is None or state.ended[0] != seat or not isinstance(action, STEP_ACTIONS):
        return None
    system = state.ended[1]
    text = f"{who(seat)}'s tactical action in {system} ended by itself, nothing left to decide"
    if isinstance(action, Move):
        then = state.clone()
        then.stage, then.active, then.current, then.hits = Stage.MOVE, system, seat, []
        if not any(True for _ in moves(then, seat)):
            text += f" (no ship of {who(seat)} could move into {system})"
        problem = move_problem(then, seat, action)
        if problem is not None:
            text = f"{problem}; and {text}"
    return text


def _reason(state: PlanetsState, action: Action, problem: str) -> str:
    """The reason tag of a refusal `_problem` put in words."""
    tag = forces.reason(problem)
    if tag is not None:
        return tag
    tag = strategy.reason(problem)
    if tag is not None:
        return tag
    if problem.startswith("not now") or problem.startswith("no hits wait"):
        return "wrong_phase"
    if problem.startswith("ships move only in"):
        return "wrong_phase"
    if "costs" in problem or "trade goods" in problem:
        return "not_enough_money"
    if "no space dock" in problem:
        return "not_held"
    if "no path" in problem or " away" in problem or "active system" in problem:
        return "not_reachable"
    if "carry" in problem or "production left" in problem or "reinforcements" in problem:
        return "no_room"
    if "no command tokens left" in problem:
        return "no_actions_left"
    if problem.startswith("you have") or "do not control" in problem or "no space dock" in problem:
        return "not_held"
    return "forbidden"


def _whole(n: object) -> bool:
    return type(n) is int  # not bool, float or text


def _malformed(action: object) -> str | None:
    """What is wrong with the shape of a hand-built action (the parser makes only good ones)."""
    if isinstance(action, Activate):
        return None if isinstance(action.system, str) else "a system is named by its number"
    if isinstance(action, Move):
        units = action.units
        pairs = isinstance(units, tuple) and all(
            isinstance(u, tuple) and len(u) == 2 and isinstance(u[0], str) and _whole(u[1])
            for u in units
        )
        if not (isinstance(action.source, str) and isinstance(action.dest, str) and pairs):
            return "a move is two system numbers and (unit type, whole count) pairs"
        cargo = action.cargo
        triples = isinstance(cargo, tuple) and all(
            isinstance(c, tuple)
            and len(c) == 3
            and isinstance(c[0], str)
            and isinstance(c[1], str)
            and _whole(c[2])
            for c in cargo
        )
        return None if triples else "cargo is (place, unit type, whole count) triples"
    if isinstance(action, Aim):
        return None if _whole(action.seat) else "a target is a seat number"
    if isinstance(action, Retreat):
        return None if isinstance(action.system, str) else "a retreat names a system"
    if isinstance(action, Assign):
        ok = isinstance(action.kind, str) and isinstance(action.sustain, bool)
        return None if ok else "a hit names a unit type and whether it is sustained"
    if isinstance(action, Bombard):
        ok = action.planet is None or isinstance(action.planet, str)
        return None if ok else "bombard names a planet or none"
    if isinstance(action, Commit):
        ok = isinstance(action.planet, str) and _whole(action.infantry) and _whole(action.mech)
        return None if ok else "a commit names a planet and whole counts"
    if isinstance(action, Explore):
        ok = isinstance(action.trait, str) and isinstance(action.planet, str)
        return None if ok else "an exploration names a trait and a planet"
    if isinstance(action, Exhaust):
        return None if isinstance(action.planet, str) else "exhaust names a planet"
    if isinstance(action, Produce):
        ok = isinstance(action.kind, str) and _whole(action.count)
        ok = ok and isinstance(action.planet, str)
        return None if ok else "production names a unit type, a whole count and a planet"
    return None


def hits_text(count: int) -> str:
    """What a roll scored, in words: "1 hit", "3 hits"."""
    return f"{count} hit" if count == 1 else f"{count} hits"


def _expected(state: PlanetsState) -> str:
    if state.hits:
        hit = state.hits[0]
        return f"assign {hits_text(hit.count)} at {hit.where}: 'destroy <unit>' or 'sustain <unit>'"
    if state.trims:
        return f"remove ships over your fleet supply at {state.trims[0][1]}: 'remove <ship>'"
    if state.stage in strategy.ROUND_STAGES:
        return strategy.expected(state)
    if not state.compact and state.stage is Stage.ACTION:
        return "'activate <system>', 'strategy <card>' or 'pass'"
    if not state.compact and state.stage is Stage.COMMIT and strategy.toll_due(state):
        return (
            "'commit <n> infantry [<n> mech] to <planet>' or 'done'; the custodians' toll: "
            "'exhaust <planet>', 'spend trade good', then 'pay custodians'"
        )
    return {
        Stage.ACTION: "'activate <system>' or 'pass'",
        Stage.MOVE: "a move into the active system, or 'done'",
        Stage.BOMBARD: "'bombard <planet>' or 'bombard none'",
        Stage.COMMIT: "'commit <n> infantry [<n> mech] to <planet>', or 'done'",
        Stage.EXPLORE: "'explore <trait> at <planet>'",
        Stage.PRODUCE: "'exhaust <planet>', 'spend trade good', 'produce <n> <unit> at <planet>'"
        " or 'done'",
        Stage.OFFENSE: "'fire at <colour>' (your space cannon's target)",
        Stage.RETREAT: "'retreat to <system>' or 'stay'",
    }.get(state.stage, "nothing")


def _problem(state: PlanetsState, seat: int, action: Action) -> str | None:
    """Why `action` is not allowed now, or None. Reads only."""
    wrong = f"not now: {_expected(state)} is wanted"
    if state.hits:
        if not isinstance(action, Assign):
            return wrong
        return None if action in hit_options(state) else f"no {action.kind} can take that hit"
    if state.trims:
        return strategy.trim_problem(state, action, wrong)
    stage = state.stage
    if strategy.claims(state, action):
        return strategy.problem(state, seat, action, wrong)
    if isinstance(action, Assign):
        return f"no hits wait to be assigned; {wrong}"
    if isinstance(action, Activate | Pass):
        if stage is not Stage.ACTION:
            return wrong
        if isinstance(action, Pass):
            if not state.compact and not strategy.can_pass(state, seat):
                return "you may not pass before using your strategy cards (3.4): 'strategy <card>'"
            return None
        if action.system not in state.galaxy.systems:
            return f"there is no system {action.system}"
        if state.tactics[seat] <= 0:
            return "you have no command tokens left this round; pass"
        if seat in state.tokens.get(action.system, []):
            return f"your command token is already in {action.system}"
        return None
    if isinstance(action, Move):
        return move_problem(state, seat, action) if stage is Stage.MOVE else wrong
    if isinstance(action, Done) and stage is Stage.COMMIT and not state.compact:
        refused = strategy.done_refused(state)
        if refused:
            return refused
    if isinstance(action, Done):
        return None if stage in (Stage.MOVE, Stage.COMMIT, Stage.PRODUCE) else wrong
    if isinstance(action, Bombard):
        if stage is not Stage.BOMBARD:
            return wrong
        if action.planet is None or action.planet in bombard_targets(state, seat):
            return None
        return f"{action.planet} cannot be bombarded now"
    if isinstance(action, Commit):
        if stage is not Stage.COMMIT:
            return wrong
        refused = None if state.compact else strategy.commit_refused(state, action.planet)
        if refused:
            return refused
        return (
            None
            if action in set(commits(state, seat))
            else f"cannot commit that to {action.planet}"
        )
    if isinstance(action, Explore):
        if stage is not Stage.EXPLORE:
            return wrong
        return (
            None
            if action in explorations(state)
            else f"{action.planet} awaits no {action.trait} exploration"
        )
    if isinstance(action, Exhaust | SpendGood | Produce):
        if stage is not Stage.PRODUCE:
            return wrong
        return _production_problem(state, seat, action)
    if isinstance(action, Aim):
        return wrong if stage is not Stage.OFFENSE else forces.aim_problem(state, seat, action)
    if isinstance(action, Retreat | Stay):
        if stage is not Stage.RETREAT:
            return wrong
        if isinstance(action, Retreat) and action.system not in forces.retreat_systems(state, seat):
            return (
                f"no retreat to {action.system}: it must be next to {state.active}, hold "
                "your units or a planet you control, and no other player's ships"
            )
        return None
    return f"unknown action {action!r}"


def _production_problem(state: PlanetsState, seat: int, action: Action) -> str | None:
    if isinstance(action, Exhaust):
        planet = state.planets.get(action.planet)
        if planet is None or planet.controller != seat:
            return f"you do not control {action.planet}"
        if planet.exhausted:
            return f"{action.planet} is exhausted already (34.4)"
        return None
    if isinstance(action, SpendGood):
        return None if state.goods[seat] else "you have no trade goods"
    assert isinstance(action, Produce)
    if action.planet not in docks_here(state, seat):
        return f"you have no space dock on {action.planet} in the active system"
    if action.kind not in PRODUCIBLE or (state.compact and action.kind not in COMPACT_PRODUCIBLE):
        return f"a {action.kind} cannot be produced"
    if action.kind not in _producible(state, seat):
        return f"another player's ships blockade {state.active}: no ships can be produced there"
    if action.count <= 0:
        return "produce at least one unit"
    room = production_limit(state, seat) - state.produced
    if action.count > room:
        return f"production left here is {room}, not {action.count}"
    spare = UNITS[action.kind].limit - in_play(state, seat, action.kind)
    if action.count > spare:
        return f"you have {spare} {action.kind} left in reinforcements"
    cost = (
        cost_of(action.kind, action.count)
        if state.compact
        else forces.charge(state, action.kind, action.count)
    )
    if cost > state.pool:
        return f"that costs {cost} resources and you have gathered {state.pool}"
    return None if state.compact else forces.production_problem(state, seat, action)


def _do(state: PlanetsState, seat: int, action: Action) -> None:
    if strategy.claims(state, action):
        strategy.do(state, seat, action)
        return
    if isinstance(action, Assign):
        _assign(state, action)
    elif isinstance(action, Pass):
        state.passed[seat] = True
        log(state, "pass", f"{who(seat)} passes", seat=seat)
        _next_turn(state)
    elif isinstance(action, Activate):
        state.tactics[seat] -= 1
        state.tokens.setdefault(action.system, []).append(seat)
        state.active = action.system
        state.stage = Stage.MOVE
        state.committed = []
        state.explore_queue = []
        state.pool = state.produced = 0
        state.made = {}
        log(
            state,
            "activate",
            f"{who(seat)} activates {action.system}",
            seat=seat,
            system=action.system,
        )
    elif isinstance(action, Move):
        _move(state, seat, action)
        if not state.compact:  # the fleet supply holds as each fleet arrives (37)
            strategy.check_supply(state, seat, action.dest)
    elif isinstance(action, Done):
        _done(state, seat)
    elif isinstance(action, Bombard):
        _bombard(state, seat, action.planet)
    elif isinstance(action, Commit):
        _commit(state, seat, action)
    elif isinstance(action, Explore):
        state.explore_queue.remove(action.planet)
        explore(state, seat, action.planet, action.trait)
    elif isinstance(action, Exhaust):
        state.pool += exhaust_for(state, seat, action.planet, "resources")
    elif isinstance(action, SpendGood):
        state.goods[seat] -= 1
        state.pool += 1
    elif isinstance(action, Produce):
        _produce(state, seat, action)
    elif isinstance(action, Aim):
        forces.fire(state, seat, action.seat)
    elif isinstance(action, Retreat | Stay):
        forces.announce(state, seat, action)


def exhaust_for(state: PlanetsState, seat: int, planet: str, value: str) -> int:
    """Exhaust a planet to pay in `value` ("resources" or "influence"); returns its worth."""
    state.planets[planet].exhausted = True
    worth = planet_resources if value == "resources" else planet_influence
    gained = worth(state, planet)
    log(
        state,
        "exhaust",
        f"{who(seat)} exhausts {planet} for {gained} {value}",
        seat=seat,
        planet=planet,
    )
    return gained


def _move(state: PlanetsState, seat: int, move: Move) -> None:
    source, dest = state.space[move.source], state.space[move.dest]
    for kind, n in move.units:
        if kind in SHIPS:
            damaged = min(n, source.hurt(seat, kind))  # damaged ships go first
            source.remove(seat, kind, n, damaged)
            dest.add(seat, kind, n)
            if damaged:
                dest.set_hurt(seat, kind, dest.hurt(seat, kind) + damaged)
            continue
        if not state.compact:
            continue  # full rules: cargo is named apart
        left = n
        for area in [
            source,
            *(state.planets[p].area for p in state.galaxy.systems[move.source].planets),
        ]:
            take = min(left, area.count(seat, kind))
            if take:
                damaged = min(take, area.hurt(seat, kind))
                area.remove(seat, kind, take, damaged)
                dest.add(seat, kind, take)
                if damaged:
                    dest.set_hurt(seat, kind, dest.hurt(seat, kind) + damaged)
                left -= take
    if not state.compact:
        forces.move(state, seat, move)
        return
    log(
        state,
        "move",
        f"{who(seat)}: {_units_text(move.units)} from {move.source} to {move.dest}",
        seat=seat,
        source=move.source,
        dest=move.dest,
    )


def _moved(state: PlanetsState) -> None:
    """Movement is over: space cannon offense (full rules), then space combat."""
    state.stage = Stage.SPACE if state.compact else Stage.OFFENSE
    state.cursor = 0


def _done(state: PlanetsState, seat: int) -> None:
    if state.stage is Stage.MOVE:
        _moved(state)
    elif state.stage is Stage.COMMIT:
        if state.committed:
            state.stage = Stage.CANNON
            state.cursor = 0
        else:
            state.stage = Stage.PRODUCE
    else:
        _end_action(state)


def _assign(state: PlanetsState, action: Assign) -> None:
    hit = state.hits[0]
    area = state.where(hit.where)
    if action.sustain:
        area.set_hurt(hit.seat, action.kind, area.hurt(hit.seat, action.kind) + 1)
        what = f"{action.kind} sustains damage"
    else:
        area.remove(hit.seat, action.kind, 1, 1 if area.hurt(hit.seat, action.kind) else 0)
        what = f"{action.kind} destroyed"
    log(state, "hit", f"{who(hit.seat)}: {what} at {hit.where}", seat=hit.seat, where=hit.where)
    rest = hit.count - 1
    if rest and hit_options_for(state, hit):
        state.hits[0] = Hit(hit.seat, hit.where, rest)
    else:
        state.hits.pop(0)


def hit_options_for(state: PlanetsState, hit: Hit) -> bool:
    area = state.where(hit.where)
    return area.has(hit.seat, SHIPS if hit.where in state.space else GROUND)


def _bombard(state: PlanetsState, seat: int, planet: str | None) -> None:
    state.stage = Stage.COMMIT
    if planet is None:
        return
    assert state.active is not None
    space = state.space[state.active]
    dice = [
        (kind, UNITS[kind].bombard)
        for kind in SHIPS
        if UNITS[kind].bombard
        for _ in range(space.count(seat, kind) * UNITS[kind].bombard_dice)
    ]
    rolls = [state.rng.randint(1, 10, label=f"bombardment by {who(seat)}") for _ in dice]
    hits = sum(1 for (_, need), roll in zip(dice, rolls, strict=True) if roll >= need)
    area = state.planets[planet].area
    target = next(s for s in area.seats() if s != seat and area.has(s, GROUND))
    _fired(state, "bombardment", planet, seat, target, rolls, hits)
    log(
        state,
        "bombard",
        f"{who(seat)} bombards {planet}: {rolls}, {hits_text(hits)}",
        seat=seat,
        planet=planet,
        rolls=rolls,
        hits=hits,
        step=1,
    )
    _queue(state, target, planet, hits)


def _commit(state: PlanetsState, seat: int, commit: Commit) -> None:
    assert state.active is not None
    space = state.space[state.active]
    area = state.planets[commit.planet].area
    for kind, n in (("infantry", commit.infantry), ("mech", commit.mech)):
        if n:
            damaged = min(n, space.hurt(seat, kind))
            space.remove(seat, kind, n, damaged)
            area.add(seat, kind, n)
            if damaged:
                area.set_hurt(seat, kind, area.hurt(seat, kind) + damaged)
    if commit.planet not in state.committed:
        state.committed.append(commit.planet)
    landed = (("infantry", commit.infantry), ("mech", commit.mech))
    log(
        state,
        "commit",
        f"{who(seat)} commits {_units_text(landed)} to {commit.planet}",
        seat=seat,
        planet=commit.planet,
        step=2,
    )


def _produce(state: PlanetsState, seat: int, action: Produce) -> None:
    assert state.active is not None
    if state.compact:
        state.pool -= cost_of(action.kind, action.count)
    else:
        state.pool -= forces.charge(state, action.kind, action.count)
        state.made[action.kind] = state.made.get(action.kind, 0) + action.count
    state.produced += action.count
    if action.kind in SHIPS:
        state.space[state.active].add(seat, action.kind, action.count)
    else:
        state.planets[action.planet].area.add(seat, action.kind, action.count)
    log(
        state,
        "produce",
        f"{who(seat)} produces {action.count} {action.kind} at {action.planet}",
        seat=seat,
        planet=action.planet,
    )


def _queue(state: PlanetsState, seat: int, where: str, hits: int) -> None:
    """Owe `seat` the assignment of `hits` hits at `where`, capped at what can absorb them."""
    area = state.where(where)
    kinds = SHIPS if where in state.space else GROUND
    absorb = sum(
        area.count(seat, k) + (area.count(seat, k) - area.hurt(seat, k) if UNITS[k].sustain else 0)
        for k in kinds
    )
    if min(hits, absorb) > 0:
        state.hits.append(Hit(seat, where, min(hits, absorb)))


def _roll(
    state: PlanetsState, area: Area, seat: int, kinds: tuple[str, ...]
) -> tuple[list[int], int]:
    rolls: list[int] = []
    hits = 0
    for kind in kinds:
        stats = UNITS[kind]
        for _ in range(area.count(seat, kind) * stats.dice):
            roll = state.rng.randint(1, 10, label=f"combat roll by {who(seat)} for a {kind}")
            rolls.append(roll)
            hits += roll >= stats.combat
    return rolls, hits


# --- automatic steps ---------------------------------------------------------------------


def advance(state: PlanetsState) -> None:
    """Run automatic steps until someone owes a real choice (single choices are taken)."""
    while state.stage is not Stage.OVER:
        if state.hits:
            options = hit_options(state)
            if len(options) != 1:
                return
            _assign(state, options[0])
            continue
        if state.trims:
            state.trims = [t for t in state.trims if strategy.fleet_excess(state, *t)]
            trims = strategy.trim_options(state) if state.trims else []
            if len(trims) > 1:
                return
            if trims:
                strategy.scrap(state, trims[0].kind)
            continue
        if state.stage in strategy.ROUND_STAGES:
            if not strategy.auto(state):
                return
            continue
        stage = state.stage
        seat = state.current
        if stage is Stage.ACTION:
            return
        if stage is Stage.MOVE:
            if any(True for _ in moves(state, seat)):
                return
            _moved(state)
        elif stage is Stage.OFFENSE:
            if forces.offense_step(state):
                return
        elif stage is Stage.RETREAT:
            return
        elif stage is Stage.SPACE:
            _space_round(state, seat)
        elif stage is Stage.BOMBARD:
            if bombard_targets(state, seat) and any(
                UNITS[k].bombard and state.space[state.active or ""].count(seat, k) for k in SHIPS
            ):
                return
            state.stage = Stage.COMMIT
        elif stage is Stage.COMMIT:
            active = state.active or ""
            if ground_of(state.space[active], seat) and state.galaxy.systems[active].planets:
                return
            _done(state, seat)
        elif stage is Stage.CANNON:
            _cannon(state, seat)
        elif stage is Stage.GROUND:
            _ground_round(state, seat)
        elif stage is Stage.CONTROL:
            establish_control(state, seat)
            state.stage = Stage.EXPLORE
        elif stage is Stage.EXPLORE:
            if not state.explore_queue:
                state.stage = Stage.PRODUCE
                continue
            choices = explorations(state)
            if len(choices) != 1:
                return
            state.explore_queue.remove(choices[0].planet)
            explore(state, seat, choices[0].planet, choices[0].trait)
        elif stage is Stage.PRODUCE:
            if docks_here(state, seat):
                return
            _end_action(state)


def _space_round(state: PlanetsState, seat: int) -> None:
    """One round of space combat in the active system, or on to the invasion."""
    assert state.active is not None
    space = state.space[state.active]
    if state.combat_step == "rolled":
        forces.round_over(state)
        return
    enemy = fleet_owner(space, seat)
    if enemy is None or not ships_of(space, seat):
        _combat_over(state, "space", state.active, lambda s: ships_of(space, s) > 0)
        state.combat_step, state.retreat = "", None
        for s in space.seats():
            _trim_capacity(state, state.active, s)
        state.stage = Stage.BOMBARD
        return
    if not state.compact and forces.before_dice(state, seat, enemy):
        return
    if not state.compact:
        state.combat_step = "rolled"
    ours, our_hits = _roll(state, space, seat, SHIPS)
    theirs, their_hits = _roll(state, space, enemy, SHIPS)
    _combat_round(state, "space", state.active, seat, enemy, [ours, theirs], [our_hits, their_hits])
    log(
        state,
        "space",
        f"space combat at {state.active}: {who(seat)} rolls {ours} ({hits_text(our_hits)}), "
        f"{who(enemy)} rolls {theirs} ({hits_text(their_hits)})",
        system=state.active,
        attacker=seat,
        defender=enemy,
        rolls=[ours, theirs],
        hits=[our_hits, their_hits],
    )
    _queue(state, seat, state.active, their_hits)
    _queue(state, enemy, state.active, our_hits)


def _combat_round(
    state: PlanetsState,
    kind: str,
    where: str,
    attacker: int,
    defender: int,
    rolls: list[list[int]],
    hits: list[int],
) -> None:
    """Keep a round of combat as data: a new combat, or the next round of the one going on."""
    last = state.last_combat
    if not _going(last, kind, where) or last is None:
        last = {
            "kind": kind,
            "where": where,
            "attacker": attacker,
            "defender": defender,
            "rounds": [],
            "result": None,
        }
    state.last_combat = {**last, "rounds": [*last["rounds"], {"rolls": rolls, "hits": hits}]}


def _going(last: dict[str, Any] | None, kind: str, where: str) -> bool:
    """Whether `last` is a combat of `kind` at `where` still going on."""
    return (
        last is not None
        and last["result"] is None
        and (last["kind"], last["where"])
        == (
            kind,
            where,
        )
    )


def _combat_over(state: PlanetsState, kind: str, where: str, left: Callable[[int], bool]) -> None:
    """The combat going on at `where` is over: who is left decides its result."""
    last = state.last_combat
    if last is None or not _going(last, kind, where):
        return
    attacker, defender = left(last["attacker"]), left(last["defender"])
    if attacker and not defender:
        result = "attacker_wins"
    elif defender and not attacker:
        result = "defender_wins"
    else:
        result = "both_destroyed"
    state.last_combat = {**last, "result": result}


def _fired(
    state: PlanetsState, kind: str, where: str, seat: int, target: int, rolls: list[int], hits: int
) -> None:
    """A bombardment or space cannon fire, kept as the last combat: one volley."""
    state.last_combat = {
        "kind": kind,
        "where": where,
        "attacker": seat,
        "defender": target,
        "rounds": [{"rolls": [rolls, []], "hits": [hits, 0]}],
        "result": "fired",
    }


def _trim_capacity(state: PlanetsState, sid: str, seat: int) -> None:
    """Ground forces in space beyond the capacity of their ships are destroyed."""
    if not state.compact:
        forces.trim(state, sid, seat)
        return
    area = state.space[sid]
    excess = sum(area.count(seat, k) for k in GROUND) - capacity_of(area, seat)
    for kind in GROUND:
        n = min(excess, area.count(seat, kind))
        if n > 0:
            area.remove(seat, kind, n)
            excess -= n
            log(
                state,
                "capacity",
                f"{who(seat)}: {n} {kind} lost in space at {sid} (no capacity)",
                seat=seat,
                system=sid,
            )


def _cannon(state: PlanetsState, seat: int) -> None:
    """Invasion 3: each other player's SPACE CANNON on a planet receiving forces fires."""
    if state.cursor >= len(state.committed):
        state.stage = Stage.GROUND
        state.cursor = 0
        return
    name = state.committed[state.cursor]
    state.cursor += 1
    area = state.planets[name].area
    if not area.has(seat, GROUND):
        return
    for other in area.seats():
        if other == seat:
            continue
        dice = [
            UNITS[k].cannon
            for k in STRUCTURES
            if UNITS[k].cannon
            for _ in range(area.count(other, k))
        ]
        if not dice:
            continue
        rolls = [state.rng.randint(1, 10, label=f"space cannon by {who(other)}") for _ in dice]
        hits = sum(1 for need, roll in zip(dice, rolls, strict=True) if roll >= need)
        _fired(state, "space_cannon", name, other, seat, rolls, hits)
        log(
            state,
            "cannon",
            f"space cannon on {name} ({who(other)}): {rolls}, {hits_text(hits)}",
            seat=other,
            planet=name,
            rolls=rolls,
            hits=hits,
            step=3,
        )
        _queue(state, seat, name, hits)


def _ground_round(state: PlanetsState, seat: int) -> None:
    """Invasion 4: a round of ground combat on the next contested planet, in commit order."""
    if state.cursor >= len(state.committed):
        state.stage = Stage.CONTROL
        return
    name = state.committed[state.cursor]
    area = state.planets[name].area
    enemy = next((s for s in area.seats() if s != seat and area.has(s, GROUND)), None)
    if enemy is None or not area.has(seat, GROUND):
        _combat_over(state, "ground", name, lambda s: area.has(s, GROUND))
        state.cursor += 1
        return
    ours, our_hits = _roll(state, area, seat, GROUND)
    theirs, their_hits = _roll(state, area, enemy, GROUND)
    _combat_round(state, "ground", name, seat, enemy, [ours, theirs], [our_hits, their_hits])
    log(
        state,
        "ground",
        f"ground combat on {name}: {who(seat)} rolls {ours} ({hits_text(our_hits)}), "
        f"{who(enemy)} rolls {theirs} ({hits_text(their_hits)})",
        planet=name,
        attacker=seat,
        defender=enemy,
        rolls=[ours, theirs],
        hits=[our_hits, their_hits],
        step=4,
    )
    _queue(state, seat, name, their_hits)
    _queue(state, enemy, name, our_hits)


def establish_control(state: PlanetsState, seat: int) -> None:
    """Invasion 5 (49.5): the active player gains each planet they committed to and still hold."""
    for name in state.committed:
        planet = state.planets[name]
        if not planet.area.has(seat, GROUND):
            if planet.controller is not None:  # 49.5d: the defender keeps it (token if empty)
                log(
                    state,
                    "control",
                    f"{name} stays with {who(planet.controller)}",
                    planet=name,
                    seat=planet.controller,
                    step=5,
                )
            continue
        if planet.controller == seat:  # 49.5c / 25.2: no gaining what you hold
            continue
        for other in planet.area.seats():  # 49.5a: other players' structures are destroyed
            if other != seat:
                for kind in STRUCTURES:
                    n = planet.area.count(other, kind)
                    if n:
                        planet.area.remove(other, kind, n)
                        log(
                            state,
                            "destroyed",
                            f"{who(other)}'s {n} {kind} on {name} destroyed",
                            seat=other,
                            planet=name,
                            step=5,
                        )
        gain_control(state, seat, name)


def gain_control(state: PlanetsState, seat: int, name: str) -> None:
    """25.1: take the planet's card exhausted; a planet nobody controlled is explored."""
    planet = state.planets[name]
    if planet.controller == seat:
        raise IllegalAction(f"{who(seat)} controls {name} already (25.2)")
    before = planet.controller
    planet.controller = seat
    planet.exhausted = True  # 25.1 (attachments keep the card's state: 12.2a)
    source = "the planet deck" if before is None else f"{who(before)}'s play area"
    log(
        state,
        "control",
        f"{who(seat)} gains control of {name}; its card comes exhausted from {source}",
        seat=seat,
        planet=name,
        previous=before,
        step=5,
    )
    if before is None and state.galaxy.planets[name].traits:  # 25.1c, 35.1, 35.2b
        state.explore_queue.append(name)


def explore(state: PlanetsState, seat: int, name: str, trait: str) -> None:
    """35: draw from the trait's deck, reveal to all, resolve; refill an empty deck."""
    deck = state.decks[trait]
    if not deck:
        deck.extend(state.discards[trait])
        state.discards[trait].clear()
        state.rng.shuffle(deck, label=f"the {trait} deck reshuffled")
        log(state, "reshuffle", f"the {trait} deck is reshuffled from its discards", deck=trait)
    if not deck:
        log(
            state,
            "explore",
            f"the {trait} deck is empty; {name} finds nothing",
            planet=name,
            seat=seat,
            deck=trait,
        )
        return
    card = CARDS[deck.pop()]
    planet = state.planets[name]
    discard = True
    if card.effect is Effect.ATTACH:
        planet.attachments.append(card.id)
        discard = False
    elif card.effect is Effect.GOODS:
        state.goods[seat] += card.amount
    elif card.effect is Effect.FRAGMENT:
        state.fragments[seat].append(trait)
        discard = False
    elif card.effect is Effect.RECRUIT:
        spare = UNITS["infantry"].limit - in_play(state, seat, "infantry")
        planet.area.add(seat, "infantry", max(0, min(card.amount, spare)))
    elif card.effect is Effect.HAZARD:
        for kind in GROUND:
            if planet.area.count(seat, kind):
                planet.area.remove(seat, kind, 1, 1 if planet.area.hurt(seat, kind) else 0)
                break
    if discard:
        state.discards[trait].append(card.id)
    log(
        state,
        "explore",
        f"{who(seat)} explores {name} ({trait}): {card.name}, {card.text()}",
        seat=seat,
        planet=name,
        deck=trait,
        card=card.name,
        effect=card.text(),
    )


def _end_action(state: PlanetsState) -> None:
    if not state.compact and state.active is not None:
        strategy.check_supply(state, state.current, state.active)  # after production (37)
    state.toll_paid = False
    state.stage = Stage.ACTION
    state.active = None
    state.committed = []
    state.cursor = 0
    state.pool = state.produced = 0
    state.made = {}
    if state.strategic is not None:  # Mobilisation's production at home
        strategy.after_production(state)
        return
    _next_turn(state)


def _next_turn(state: PlanetsState) -> None:
    if not state.compact:
        strategy.next_turn(state)
        return
    for step in range(1, state.seats + 1):
        seat = (state.current + step) % state.seats
        if not state.passed[seat]:
            state.current = seat
            return
    status_phase(state)


# --- the status phase and the end ---------------------------------------------------------


def qualifies(state: PlanetsState, seat: int, objective_id: str) -> bool:
    objective = OBJECTIVES[objective_id]
    goal, n = objective.goal, objective.amount
    mine = controlled(state, seat)
    if goal is Goal.PLANETS:
        return sum(1 for p in mine if p not in home_planets(state, seat)) >= n
    if goal is Goal.HOLD_RESOURCES:  # held: exhausted planets count too
        return sum(planet_resources(state, p) for p in mine) >= n
    if goal is Goal.HOLD_INFLUENCE:
        return sum(planet_influence(state, p) for p in mine) >= n
    if goal in (Goal.SPEND_RESOURCES, Goal.SPEND_INFLUENCE):  # spent: readied planets only
        value = planet_resources if goal is Goal.SPEND_RESOURCES else planet_influence
        ready = sum(value(state, p) for p in mine if not state.planets[p].exhausted)
        return ready + state.goods[seat] >= n
    if goal is Goal.LEGENDARY:
        return any(state.galaxy.planets[p].legendary for p in mine)
    if goal is Goal.CENTRAL:
        return all(p in mine for p in state.galaxy.central().planets)
    if goal is Goal.TRAITS:
        held = {t for p in mine for t in state.galaxy.planets[p].traits}
        return held >= {"cultural", "hazardous", "industrial"}
    return len(state.fragments[seat]) >= n


def _spend(state: PlanetsState, seat: int, objective_id: str) -> None:
    """Pay a spending objective: readied planets in galaxy order, then trade goods."""
    objective = OBJECTIVES[objective_id]
    if objective.goal not in (Goal.SPEND_RESOURCES, Goal.SPEND_INFLUENCE):
        return
    value = planet_resources if objective.goal is Goal.SPEND_RESOURCES else planet_influence
    owed = objective.amount
    for name in controlled(state, seat):
        if owed <= 0:
            break
        if not state.planets[name].exhausted and value(state, name):
            state.planets[name].exhausted = True
            owed -= value(state, name)
    state.goods[seat] -= max(0, owed)


def score(state: PlanetsState, seat: int, objective_id: str) -> None:
    """The seat scores a public objective it meets (paying a spending one)."""
    _spend(state, seat, objective_id)
    state.scored[seat].append(objective_id)
    state.points[seat] += 1
    log(
        state,
        "score",
        f"{who(seat)} scores {OBJECTIVES[objective_id].name}",
        seat=seat,
        objective=objective_id,
    )


def score_round(state: PlanetsState, order: list[int]) -> None:
    """Each seat in `order` scores one objective it meets; reaching the target ends the game."""
    for seat in order:
        for objective_id in state.revealed:
            if objective_id not in state.scored[seat] and qualifies(state, seat, objective_id):
                score(state, seat, objective_id)
                break
        if state.points[seat] >= state.target:
            state.winner = seat
            state.reason = f"{who(seat)} reached {state.target} victory points"
            state.stage = Stage.OVER
            return


def reveal(state: PlanetsState) -> None:
    if state.objective_deck:
        revealed = state.objective_deck.pop()
        state.revealed.append(revealed)
        log(state, "reveal", f"objective revealed: {OBJECTIVES[revealed].name}", objective=revealed)


def status_phase(state: PlanetsState) -> None:
    """Score (one objective each, in turn order), reveal, remove tokens, ready, repair."""
    if not state.compact:
        strategy.status_phase(state)
        return
    order = [(state.first + k) % state.seats for k in range(state.seats)]
    score_round(state, order)
    if state.stage is Stage.OVER:
        return
    if state.round >= state.rounds:
        state.reason = f"the round limit ({state.rounds}) was reached; most points wins"
        state.stage = Stage.OVER
        return
    reveal(state)
    state.tokens.clear()
    for planet in state.planets.values():
        planet.exhausted = False  # 34.2: every card is readied
    for area in [*state.space.values(), *(p.area for p in state.planets.values())]:
        area.damaged.clear()
    state.tactics = [state.tactics_per_round] * state.seats
    state.passed = [False] * state.seats
    state.round += 1
    state.first = (state.first + 1) % state.seats
    state.current = state.first
    log(state, "round", f"round {state.round} begins", round=state.round)


def log(state: PlanetsState, kind: str, text: str, **detail: Any) -> None:
    state.event_count += 1
    state.events.append({"n": state.event_count, "kind": kind, "text": text, **detail})
    if len(state.events) > EVENTS_KEPT:
        del state.events[: len(state.events) - EVENTS_KEPT]


def _units_text(units: tuple[tuple[str, int], ...]) -> str:
    return " ".join(f"{n} {k}" for k, n in sorted(units, key=lambda u: ORDER[u[0]]) if n)
