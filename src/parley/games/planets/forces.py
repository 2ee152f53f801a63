"""The full rules' forces: transport (95), capacity with fighters (16), production's combined
costs and limits (67, 68), space cannon offense (77), anti-fighter barrage (10) and retreats
(78.4, 78.7). Only `rules=full` games come here; the engine calls these from thin hooks.
"""

from __future__ import annotations

from collections.abc import Iterator

from . import engine, strategy
from .actions import Aim, Move, Produce, Retreat, Stay
from .galaxy import SystemKind
from .notation import cargo_text
from .state import Area, PlanetsState, Stage, who
from .units import CARGO, DOCK_FIGHTERS, GROUND, SHIPS, STRUCTURES, UNITS, cost_of

TRIM_ORDER = ("fighter", "infantry", "mech")  # excess cargo goes cheapest first


# --- capacity -------------------------------------------------------------------------------


def docks_in(state: PlanetsState, seat: int, sid: str) -> int:
    """The seat's space docks on the planets of a system."""
    return sum(state.planets[p].area.count(seat, "dock") for p in state.galaxy.systems[sid].planets)


def excess(state: PlanetsState, sid: str, seat: int) -> int:
    """Fighters and ground forces in a space area beyond their ships' capacity; up to three
    fighters per space dock of the system need none."""
    area = state.space[sid]
    fighters = area.count(seat, "fighter")
    sheltered = min(fighters, DOCK_FIGHTERS * docks_in(state, seat, sid))
    load = fighters - sheltered + sum(area.count(seat, k) for k in GROUND)
    return max(0, load - engine.capacity_of(area, seat))


def trim(state: PlanetsState, sid: str, seat: int) -> None:
    """Remove the cargo over capacity (16.1, note 4 of 95): fighters, then infantry, then mechs."""
    area = state.space[sid]
    over = excess(state, sid, seat)
    sheltered = DOCK_FIGHTERS * docks_in(state, seat, sid)
    for kind in TRIM_ORDER:
        have = area.count(seat, kind)
        n = min(over, max(0, have - sheltered) if kind == "fighter" else have)
        if n > 0:
            area.remove(seat, kind, n, min(n, area.hurt(seat, kind)))
            over -= n
            engine.log(
                state,
                "capacity",
                f"{who(seat)}: {n} {kind} lost in space at {sid} (no capacity)",
                seat=seat,
                system=sid,
            )


# --- transport ------------------------------------------------------------------------------


def transfer(source: Area, target: Area, seat: int, kind: str, n: int) -> None:
    """Move `n` units of a type between areas, damaged ones first (they stay damaged)."""
    damaged = min(n, source.hurt(seat, kind))
    source.remove(seat, kind, n, damaged)
    target.add(seat, kind, n)
    if damaged:
        target.set_hurt(seat, kind, target.hurt(seat, kind) + damaged)


def system_of(state: PlanetsState, place: str) -> str | None:
    """The system a place (a system id or a planet name) lies in, None if there is none."""
    if place in state.galaxy.systems:
        return place
    planet = state.galaxy.planets.get(place)
    return planet.system if planet is not None else None


def boarding_places(
    state: PlanetsState,
    seat: int,
    source: str,
    reach: int,
    to_active: dict[str, int] | None = None,
) -> list[str]:
    """Where ships moving from `source` with `reach` moves may take cargo aboard: the start
    system (space and planets), each system they can pass through on the way, and the
    active system's planets; never a system holding the seat's command token other than the
    active one (95.3)."""
    active = state.active
    assert active is not None
    if to_active is None:
        to_active = engine.distances(state, seat, active)
    from_source = engine.distances(state, seat, source)
    out: list[str] = []
    for sid in state.galaxy.systems:
        if sid == active:
            out += list(state.galaxy.systems[sid].planets)
            continue
        if sid != source:
            if sid not in to_active or sid not in from_source:
                continue
            if from_source[sid] + to_active[sid] > reach:
                continue
            if engine.fleet_owner(state.space[sid], seat) is not None:
                continue  # enemy ships: no passing through
        if seat in state.tokens.get(sid, []):
            continue
        out += [sid, *state.galaxy.systems[sid].planets]
    return out


def on_board(state: PlanetsState, seat: int, place: str) -> dict[str, int]:
    """The cargo a place offers: fighters and ground forces in a space area, ground forces
    on a planet."""
    area = state.where(place)
    kinds = CARGO if place in state.space else GROUND
    return {k: area.count(seat, k) for k in kinds if area.count(seat, k)}


def moves(state: PlanetsState, seat: int) -> Iterator[Move]:
    """One ship type per move, bare or with one cargo type taken aboard at one place; a move
    loading several types or at several places is accepted when legal as a whole."""
    active = state.active
    assert active is not None
    dist = engine.distances(state, seat, active)
    for sid in state.galaxy.systems:
        if sid == active or sid not in dist or seat in state.tokens.get(sid, []):
            continue
        area = state.space[sid]
        if seat not in area.units:
            continue
        reached: dict[int, list[str]] = {}  # boarding places by the ships' move value
        for kind in SHIPS:
            have, stats = area.count(seat, kind), UNITS[kind]
            if not have or not stats.move or stats.move < dist[sid]:
                continue
            if not stats.capacity:
                places = []
            elif stats.move not in reached:
                places = reached[stats.move] = boarding_places(state, seat, sid, stats.move, dist)
            else:
                places = reached[stats.move]
            offers = [(p, on_board(state, seat, p)) for p in places]
            for n in range(1, have + 1):
                units = ((kind, n),)
                yield Move(sid, units, active)
                room = stats.capacity * n
                for place, offer in offers:
                    for cargo, there in offer.items():
                        for c in range(1, min(room, there) + 1):
                            yield Move(sid, units, active, ((place, cargo, c),))


def move_problem(state: PlanetsState, seat: int, move: Move, dist: dict[str, int]) -> str | None:
    """Why a full-rules move is not allowed (the checks shared with compact moves are done)."""
    active = state.active
    assert active is not None
    counts = dict(move.units)
    for kind in counts:
        if kind in CARGO:
            return f"{kind} moves only aboard ships: name it after 'with' and where it boards"
        if kind not in SHIPS or not UNITS[kind].move:
            return f"a {kind} does not move"
    area = state.space[move.source]
    for kind, n in counts.items():
        if area.count(seat, kind) < n:
            return f"you have {area.count(seat, kind)} {kind} in {move.source}, not {n}"
        if UNITS[kind].move < dist[move.source]:
            return f"a {kind} moves {UNITS[kind].move}, and {active} is {dist[move.source]} away"
    room = sum(UNITS[k].capacity * n for k, n in counts.items())
    reach = min(UNITS[k].move for k in counts)
    seen: set[tuple[str, str]] = set()
    load = 0
    places = boarding_places(state, seat, move.source, reach, dist) if move.cargo else []
    for place, kind, n in move.cargo:
        if (place, kind) in seen or n <= 0:
            return "name each cargo type once per place, with a positive count"
        seen.add((place, kind))
        sid = system_of(state, place)
        if sid is None:
            return f"there is no system or planet {place}"
        if kind not in CARGO:
            return f"a {kind} does not board ships"
        if kind == "fighter" and place not in state.space:
            return "fighters board from a space area, not from a planet"
        if place == active:
            return f"your units in the space area of {active} are there already"
        if sid != active and seat in state.tokens.get(sid, []):
            return f"nothing boards in {sid}: your command token is there (95.3)"
        if place not in places:
            return f"ships from {move.source} neither start in nor pass through {sid}"
        have = state.where(place).count(seat, kind)
        if have < n:
            return f"you have {have} {kind} at {place}, not {n}"
        load += n
    if load > room:
        return f"those ships carry {room} fighters and ground forces, not {load}"
    return None


def move(state: PlanetsState, seat: int, action: Move) -> None:
    """Ships and their cargo arrive together; what the ships left behind without capacity
    at the start is removed (note 4 of 95)."""
    for place, kind, n in action.cargo:
        transfer(state.where(place), state.space[action.dest], seat, kind, n)
    engine.log(
        state,
        "move",
        f"{who(seat)}: {engine._units_text(action.units)} from {action.source} to "
        f"{action.dest}" + (f" with {cargo_text(action.cargo)}" if action.cargo else ""),
        seat=seat,
        source=action.source,
        dest=action.dest,
    )
    trim(state, action.source, seat)


# --- production -----------------------------------------------------------------------------


def charge(state: PlanetsState, kind: str, count: int) -> int:
    """What `count` more units of a type cost, costed with the ones already produced this
    action (67.1c: a pair of fighters or infantry costs 1 even when made one by one)."""
    before = state.made.get(kind, 0)
    return cost_of(kind, before + count) - cost_of(kind, before)


def production_problem(state: PlanetsState, seat: int, action: Produce) -> str | None:
    """The full rules' extra limits: capacity for fighters, the fleet supply for ships."""
    active = state.active
    assert active is not None
    space = state.space[active]
    if action.kind == "fighter":
        room = engine.capacity_of(space, seat)
        shelter = DOCK_FIGHTERS * docks_in(state, seat, active)
        fighters = space.count(seat, "fighter") + action.count
        ground = sum(space.count(seat, k) for k in GROUND)
        if fighters - min(fighters, shelter) + ground > room:
            return (
                f"capacity at {active} is {room} (and {shelter} fighters sheltered by docks) "
                f"for the {fighters - action.count} fighters and {ground} ground forces in "
                f"space: no room for {action.count} more fighters"
            )
    elif action.kind in SHIPS:
        supply = engine.fleet_supply(state, seat)
        ships = sum(space.count(seat, k) for k in SHIPS if k != "fighter")
        if supply is not None and ships + action.count > supply:
            return (
                f"your fleet supply is {supply} ships per system and {ships} are at "
                f"{active}: no room for {action.count} more"
            )
    return None


def blockaded(state: PlanetsState, seat: int) -> bool:
    """Another player's ships and none of the seat's in the active system (14.1)."""
    assert state.active is not None
    space = state.space[state.active]
    return engine.fleet_owner(space, seat) is not None and not engine.ships_of(space, seat)


# --- space cannon offense ------------------------------------------------------------------


def cannon_dice(state: PlanetsState, seat: int, sid: str) -> list[int]:
    """The SPACE CANNON values of the seat's units on the planets of a system, one per die."""
    out: list[int] = []
    for name in state.galaxy.systems[sid].planets:
        area = state.planets[name].area
        for kind in STRUCTURES:
            if UNITS[kind].cannon:
                out += [UNITS[kind].cannon] * area.count(seat, kind)
    return out


def offense_targets(state: PlanetsState, seat: int) -> list[int]:
    """Who the seat's space cannon may fire at in the active system: the active player
    picks among the others with ships there; everyone else fires at the active player."""
    assert state.active is not None
    space = state.space[state.active]
    if seat != state.current:
        return [state.current] if engine.ships_of(space, state.current) else []
    return [s for s in space.seats() if s != seat and engine.ships_of(space, s)]


def offense_step(state: PlanetsState) -> bool:
    """Fire the next player's space cannon (the active player first, then clockwise).

    Returns True when the active player owes the choice of a target.
    """
    active = state.active
    assert active is not None
    for s in state.space[active].seats():
        trim(state, active, s)  # capacity rechecked after each volley
    if state.cursor >= state.seats:
        state.cursor = 0
        state.stage = Stage.SPACE
        return False
    shooter = (state.current + state.cursor) % state.seats
    targets = offense_targets(state, shooter)
    if not cannon_dice(state, shooter, active) or not targets:
        state.cursor += 1
        return False
    if len(targets) > 1:
        return True
    fire(state, shooter, targets[0])
    return False


def fire(state: PlanetsState, shooter: int, target: int) -> None:
    """One player's space cannon offense volley; the victim assigns the hits (sustain may
    cancel them, 87.4)."""
    active = state.active
    assert active is not None
    dice = cannon_dice(state, shooter, active)
    rolls = [
        state.rng.randint(1, 10, label=f"space cannon offense by {who(shooter)}") for _ in dice
    ]
    hits = sum(1 for need, roll in zip(dice, rolls, strict=True) if roll >= need)
    state.cursor += 1
    engine._fired(state, "space_cannon_offense", active, shooter, target, rolls, hits)
    engine.log(
        state,
        "cannon",
        f"space cannon offense at {active}: {who(shooter)} fires at {who(target)}: {rolls}, "
        f"{engine.hits_text(hits)}",
        seat=shooter,
        target=target,
        system=active,
        rolls=rolls,
        hits=hits,
    )
    engine._queue(state, target, active, hits)


def aim_problem(state: PlanetsState, seat: int, action: Aim) -> str | None:
    if state.stage is not Stage.OFFENSE:
        return None  # the caller words the wrong-step refusal
    if action.seat not in offense_targets(state, seat):
        return f"{_name(action.seat)} has no ships at {state.active} to fire at"
    return None


def _name(seat: int) -> str:
    return who(seat) if 0 <= seat < 8 else f"seat {seat}"


# --- anti-fighter barrage ---------------------------------------------------------------


def barrage(state: PlanetsState, attacker: int, defender: int) -> tuple[list[list[int]], list[int]]:
    """Both sides' ANTI-FIGHTER BARRAGE at once (10): hits destroy the other side's fighters
    only, the excess is lost, and no SUSTAIN DAMAGE cancels them."""
    active = state.active
    assert active is not None
    space = state.space[active]
    rolls: list[list[int]] = []
    hits: list[int] = []
    for seat in (attacker, defender):
        mine: list[int] = []
        scored = 0
        for kind in SHIPS:
            stats = UNITS[kind]
            for _ in range(space.count(seat, kind) * stats.barrage_dice):
                roll = state.rng.randint(1, 10, label=f"anti-fighter barrage by {who(seat)}")
                mine.append(roll)
                scored += roll >= stats.barrage
        rolls.append(mine)
        hits.append(scored)
    for seat, scored in ((defender, hits[0]), (attacker, hits[1])):
        n = min(scored, space.count(seat, "fighter"))
        if n:
            space.remove(seat, "fighter", n, min(n, space.hurt(seat, "fighter")))
    if any(rolls):
        engine.log(
            state,
            "barrage",
            f"anti-fighter barrage at {active}: {who(attacker)} rolls {rolls[0]} "
            f"({engine.hits_text(hits[0])}), {who(defender)} rolls {rolls[1]} "
            f"({engine.hits_text(hits[1])})",
            system=active,
            attacker=attacker,
            defender=defender,
            rolls=rolls,
            hits=hits,
        )
    return rolls, hits


# --- retreats ------------------------------------------------------------------------------


def retreat_systems(state: PlanetsState, seat: int) -> list[str]:
    """Where the seat's ships may retreat (78.4c, 78.7b–c): an adjacent system, not an
    asteroid field, holding the seat's units or a planet it controls, and no other
    player's ships; only ships with a move value retreat, so there must be one."""
    active = state.active
    assert active is not None
    space = state.space[active]
    if not any(space.count(seat, k) and UNITS[k].move for k in SHIPS):
        return []
    out = []
    for sid in state.galaxy.neighbours[active]:
        system = state.galaxy.systems[sid]
        if system.kind is SystemKind.ASTEROIDS:
            continue
        if engine.fleet_owner(state.space[sid], seat) is not None:
            continue
        mine = seat in state.space[sid].units or any(
            state.planets[p].controller == seat or seat in state.planets[p].area.units
            for p in system.planets
        )
        if mine:
            out.append(sid)
    return sorted(out)


def announcer(state: PlanetsState) -> int:
    """Who announces a retreat now: the defender, then the active player."""
    if state.combat_step == "attacker":
        return state.current
    assert state.active is not None
    enemy = engine.fleet_owner(state.space[state.active], state.current)
    return enemy if enemy is not None else state.current


def retreat_options(state: PlanetsState) -> list[Retreat | Stay]:
    return [*(Retreat(s) for s in retreat_systems(state, announcer(state))), Stay()]


def announce(state: PlanetsState, seat: int, action: Retreat | Stay) -> None:
    """Record the announcement; the defender's retreat leaves the attacker none (78.4b)."""
    if isinstance(action, Retreat):
        state.retreat = (seat, action.system)
        state.combat_step = "roll"
        engine.log(
            state,
            "retreat",
            f"{who(seat)} announces a retreat to {action.system}",
            seat=seat,
            system=action.system,
        )
    else:
        state.combat_step = "attacker" if state.combat_step == "defender" else "roll"
        engine.log(state, "stay", f"{who(seat)} stays in the fight", seat=seat)
    state.stage = Stage.SPACE


def carry_out_retreat(state: PlanetsState) -> None:
    """78.7: every ship with a move value goes to the announced system with what it can
    carry; a command token from reinforcements goes there unless one is there (78.7d)."""
    assert state.retreat is not None and state.active is not None
    seat, dest = state.retreat
    state.retreat = None
    source, target = state.space[state.active], state.space[dest]
    if not engine.ships_of(source, seat):
        return
    if engine.fleet_owner(source, seat) is None:
        return  # 78.7a: the enemy has no ships left; the combat simply ends
    for kind in [*SHIPS, *GROUND]:  # every ship moves or (fighters) is carried
        if source.count(seat, kind):
            transfer(source, target, seat, kind, source.count(seat, kind))
    engine.log(
        state,
        "retreat",
        f"{who(seat)} retreats from {state.active} to {dest}",
        seat=seat,
        system=dest,
    )
    trim(state, dest, seat)
    if seat not in state.tokens.get(dest, []):
        place_token(state, seat, dest)
    strategy.check_supply(state, seat, dest)  # the fleet supply holds there too (37)


def place_token(state: PlanetsState, seat: int, sid: str) -> None:
    """A command token from reinforcements (the command sheet's rules, 20.3b), logged."""
    before = state.tokens.get(sid, []).count(seat)
    strategy.place_token(state, seat, sid)
    if state.tokens.get(sid, []).count(seat) > before:
        engine.log(
            state, "token", f"{who(seat)} places a command token in {sid}", seat=seat, system=sid
        )


# --- the space combat round (78) -------------------------------------------------------------


def before_dice(state: PlanetsState, seat: int, enemy: int) -> bool:
    """Steps 1–2 of a round: the barrage (first round only), then retreat announcements.

    Returns True when something happened or is owed (the caller looks again), False when
    the dice are next.
    """
    active = state.active
    assert active is not None
    if state.combat_step == "":
        state.combat_step = "defender"
        if not engine._going(state.last_combat, "space", active):
            rolls, hits = barrage(state, seat, enemy)
            state.last_combat = {
                "kind": "space",
                "where": active,
                "attacker": seat,
                "defender": enemy,
                "rounds": [],
                "result": None,
                "barrage": {"rolls": rolls, "hits": hits},
            }
            return True  # 78.3a: a side without ships after the barrage ends the combat
    if state.combat_step in ("defender", "attacker"):
        if retreat_systems(state, announcer(state)):
            state.stage = Stage.RETREAT
            return True
        state.combat_step = "attacker" if state.combat_step == "defender" else "roll"
        return True
    return False


def round_over(state: PlanetsState) -> None:
    """Step 5: hits are assigned; an announced retreat is carried out, then a new round."""
    state.combat_step = ""
    if state.retreat is not None:
        carry_out_retreat(state)


# --- refusals ------------------------------------------------------------------------------

REASON_WORDS = (
    ("neither start in nor pass through", "not_reachable"),
    ("no retreat to", "not_reachable"),
    ("no room for", "no_room"),
    ("fleet supply", "no_room"),
    ("fighters and ground forces, not", "no_room"),
    ("to fire at", "bad_target"),
    ("board from a space area", "bad_target"),
    ("are there already", "bad_target"),
    ("(95.3)", "forbidden"),
    ("moves only aboard ships", "forbidden"),
)


def reason(problem: str) -> str | None:
    """The reason tag of a refusal worded here, None for the engine's own wordings."""
    return next((tag for words, tag in REASON_WORDS if words in problem), None)


# --- positions -----------------------------------------------------------------------------

COMBAT_STEPS = ("", "defender", "attacker", "roll", "rolled")


def position_problem(state: PlanetsState) -> str | None:
    """What is inconsistent in the forces' part of a position read from JSON, or None."""
    if state.compact:
        areas = [*state.space.items(), *((n, p.area) for n, p in state.planets.items())]
        for where, area in areas:
            for kinds in area.units.values():
                for kind in kinds:
                    if UNITS[kind].full:
                        return f"units[{where!r}]: the compact rules have no {kind}"
        if state.made or state.combat_step or state.retreat is not None:
            return "made, combat_step, retreat: the compact rules keep none of them"
        if state.stage in (Stage.OFFENSE, Stage.RETREAT):
            return f"stage: the compact rules have no {state.stage.value} step"
        return None
    for kind, n in state.made.items():
        if kind not in UNITS or not isinstance(n, int) or n < 0:
            return f"made[{kind!r}]: a unit type and a count of at least 0"
    if state.combat_step not in COMBAT_STEPS:
        return f"combat_step: one of {', '.join(repr(s) for s in COMBAT_STEPS)}"
    if state.retreat is not None:
        seat, sid = state.retreat
        if not 0 <= seat < state.seats or sid not in state.galaxy.systems:
            return f"retreat: {state.retreat!r} is not a seat and a system"
    if state.stage is Stage.RETREAT and state.combat_step not in ("defender", "attacker"):
        return "combat_step: a retreat is announced by the defender or the attacker"
    return None
