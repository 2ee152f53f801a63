"""A Planet Control player that expands to valuable planets, invades when the odds favour
it and keeps its home defended.

* Action: every system it may activate is valued by the planets it could take there with
  the ground forces its ships can bring (resources + influence, more for the legendary and
  central planets and for planets an objective wants), provided its fleet outguns any
  enemy fleet there and its troops outnumber the defenders. Its home system is worth
  activating to produce when enemy ships come near or resources are idle. It passes when
  nothing is worth a command token.
* Movement: brings the ships that carry the most ground forces, and warships when there is
  a fight, until it has what the plan needs.
* Hits: sustains damage first, then loses the cheapest unit. Bombardment: the planet with
  the most defenders. Commit: enough troops to outnumber each planet's defenders, most
  valuable planet first. Production: carriers while it has few, then infantry, then
  (full rules) fighters up to six, a war sun when it can pay, then warships, paying with the
  planets richest in resources.
* Full rules: boards the cargo the plan needs without stranding what stays behind; its
  space cannon fires at the strongest fleet; it retreats (never from home) when its
  expected hits are below half of the enemy's, to the system where it holds most.

It reads only public information (the decks' order is never looked at).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parley.games.planets import (
    Activate,
    Assign,
    Bombard,
    Commit,
    Done,
    Exhaust,
    Explore,
    Move,
    Pass,
    PlanetsState,
    Produce,
    SpendGood,
    Stage,
)
from parley.games.planets.actions import Aim, Retreat, Stay
from parley.games.planets.cards import OBJECTIVES, Goal
from parley.games.planets.engine import (
    distances,
    docks_here,
    fleet_owner,
    ground_available,
    home_planets,
    move_problem,
    planet_influence,
    planet_resources,
)
from parley.games.planets.forces import boarding_places, docks_in, on_board
from parley.games.planets.galaxy import SystemKind
from parley.games.planets.units import DOCK_FIGHTERS, GROUND, ORDER, SHIPS, UNITS
from parley.kernel import Rules

from ..draws import heuristic_accepts
from ..protocol import Decision
from . import planets_round

LOSS_ORDER = (
    "fighter",
    "infantry",
    "destroyer",
    "cruiser",
    "mech",
    "carrier",
    "dreadnought",
    "flagship",
    "warsun",
)
RETREAT_ODDS = 0.5  # full rules: retreat when our expected hits are below half of theirs


def _power(state: PlanetsState, area: Any, seat: int, kinds: tuple[str, ...]) -> float:
    """Expected hits per combat round, plus a little for sustain damage."""
    total = 0.0
    for kind in kinds:
        n = area.count(seat, kind)
        stats = UNITS[kind]
        total += n * (11 - stats.combat) / 10 * stats.dice
        if stats.sustain:
            total += 0.3 * (n - area.hurt(seat, kind))
    return total


def planet_value(state: PlanetsState, seat: int, name: str) -> float:
    printed = state.galaxy.planets[name]
    value = planet_resources(state, name) + planet_influence(state, name) + 0.5
    if printed.legendary:
        value += 3
    if state.galaxy.systems[printed.system].kind is SystemKind.CENTRAL:
        value += 3
    if printed.home is not None:
        value += 2
    wants = {OBJECTIVES[o].goal for o in state.revealed if o not in state.scored[seat]}
    if Goal.PLANETS in wants:
        value += 1.5
    if Goal.TRAITS in wants and printed.traits:
        value += 1
    return value


class PlanetsHeuristic:
    """Expands to high-value planets, invades when the odds favour it, defends its home."""

    name = "heuristic"

    def __init__(self, rules: Rules[Any, Any]) -> None:
        self.rules = rules

    def accepts_draw(self, decision: Decision) -> bool:
        """Late enough in the game, and not ahead (`parley.agents.draws`)."""
        return heuristic_accepts(decision)

    def choose(self, decision: Decision) -> Any:
        state: PlanetsState = decision.state
        me = decision.seat
        legal = list(decision.legal)
        if not legal:
            return decision.rules.default_action(state, me)
        if state.hits:
            return self._hit([a for a in legal if isinstance(a, Assign)])
        if planets_round.handles(state):
            return planets_round.choose(state, me, legal)
        stage = state.stage
        if stage is Stage.ACTION:
            return self._activate(state, me, legal)
        if stage is Stage.MOVE:
            return self._move(state, me, legal)
        if stage is Stage.BOMBARD:
            return self._bombard(state, me, legal)
        if stage is Stage.COMMIT:
            return self._commit(state, me, legal)
        if stage is Stage.EXPLORE:
            return self._explore(legal)
        if stage is Stage.PRODUCE:
            return self._produce(state, me, legal)
        if stage is Stage.OFFENSE:
            return self._aim(state, legal)
        if stage is Stage.RETREAT:
            return self._retreat(state, me, legal)
        return legal[0]

    # --- activation ----------------------------------------------------------------------

    def _activate(self, state: PlanetsState, me: int, legal: Sequence[Any]) -> Any:
        best: tuple[float, str] = (0.9, "")
        choice: Any = next((a for a in legal if isinstance(a, Pass)), None)
        for action in legal:
            if isinstance(action, Activate):
                score = self._system_score(state, me, action.system)
                if (score, action.system) > best:
                    best, choice = (score, action.system), action
        if not state.compact:  # full rules: strategy cards first, and used before passing
            strategic = planets_round.use_strategic(state, me, legal, best[0])
            if strategic is not None or choice is None:
                return strategic or legal[0]
        return choice

    def _system_score(self, state: PlanetsState, me: int, sid: str) -> float:
        system = state.galaxy.systems[sid]
        space = state.space[sid]
        home = state.homes[me]
        if sid == home:
            if not state.compact:
                return max(self._home_score(state, me), planets_round.recall_value(state, me))
            return self._home_score(state, me)
        dist = distances(state, me, sid)
        fleet = 0.0
        troops = space.count(me, "infantry") + space.count(me, "mech")
        for source, d in dist.items():
            if source == sid or me in state.tokens.get(source, []):
                continue
            area = state.space[source]
            movers = [k for k in SHIPS if area.count(me, k) and UNITS[k].move >= d]
            if not movers:
                continue
            if source == home and fleet_owner(state.space[home], me) is None:
                near = any(
                    fleet_owner(state.space[n], me) is not None
                    for n in state.galaxy.neighbours[home]
                )
                if near:
                    continue  # keep the home fleet at home while enemies are next door
            fleet += _power(state, area, me, tuple(movers))
            room = sum(area.count(me, k) * UNITS[k].capacity for k in movers)
            troops += min(room, sum(ground_available(state, me, source).values()))
        fleet += _power(state, space, me, SHIPS)
        enemy = fleet_owner(space, me)
        if enemy is not None:
            theirs = _power(state, space, enemy, SHIPS)
            if fleet < 1.4 * theirs + 0.5:
                return 0.0
        gain = 0.0
        for name in sorted(system.planets, key=lambda n: -planet_value(state, me, n)):
            planet = state.planets[name]
            if planet.controller == me:
                continue
            if not state.compact and planets_round.blocked(state, me, name):
                continue  # the custodians hold it and the toll is out of reach
            area = planet.area
            defenders = sum(area.count(s, k) for s in area.seats() if s != me for k in GROUND)
            cannon = sum(area.count(s, "pds") for s in area.seats() if s != me)
            need = defenders + 1 + cannon if defenders or cannon else 1
            if troops >= need:
                troops -= need
                gain += planet_value(state, me, name)
        return gain

    def _home_score(self, state: PlanetsState, me: int) -> float:
        home = state.homes[me]
        if me in state.tokens.get(home, []):
            return 0.0
        ready = (
            sum(
                planet_resources(state, p)
                for p, planet in state.planets.items()
                if planet.controller == me and not planet.exhausted
            )
            + state.goods[me]
        )
        docks = any(state.planets[p].area.count(me, "dock") for p in home_planets(state, me))
        if not docks or ready < 2:
            return 0.0
        threat = any(
            fleet_owner(state.space[n], me) is not None
            for n in (home, *state.galaxy.neighbours[home])
        )
        return 20.0 if threat else min(ready, 6) / 2  # defending home comes first

    # --- the steps ----------------------------------------------------------------------

    def _move(self, state: PlanetsState, me: int, legal: Sequence[Any]) -> Any:
        assert state.active is not None
        space = state.space[state.active]
        enemy = fleet_owner(space, me)
        wanted_troops = self._troops_wanted(state, me)
        have = space.count(me, "infantry") + space.count(me, "mech")
        fight = (
            enemy is not None
            and _power(state, space, me, SHIPS) < 1.6 * _power(state, space, enemy, SHIPS) + 0.5
        )
        best: tuple[float, str] | None = None
        choice: Any = Done()
        home = state.homes[me]
        for action in legal:
            if not isinstance(action, Move):
                continue
            counts = dict(action.units)
            load = sum(counts.get(k, 0) for k in GROUND)
            load += sum(n for _, k, n in action.cargo if k in GROUND)
            fighters = sum(n for _, k, n in action.cargo if k == "fighter")
            ships = {k: n for k, n in counts.items() if k in SHIPS}
            value = 0.0
            if have < wanted_troops:
                value += 2.0 * min(load, wanted_troops - have)
            if fight:
                value += sum(n * (11 - UNITS[k].combat) / 10 for k, n in ships.items())
                value += 0.2 * fighters
            if not state.compact:
                value -= 0.6 * _stranded(state, me, action)
                spare = max(0, load - max(0, wanted_troops - have))
                value += planets_round.move_bonus(state, me, action, spare)
            if action.source == home:
                value -= 0.5  # leave the home fleet where it is unless it is worth it
            if value <= 0:
                continue
            key = (value, self.rules.format(action))
            if best is None or key > best:
                best, choice = key, action
        if isinstance(choice, Move) and not state.compact:
            return _fill(state, me, choice, max(0, wanted_troops - have), fight)
        return choice

    def _troops_wanted(self, state: PlanetsState, me: int) -> int:
        assert state.active is not None
        total = 0
        for name in state.galaxy.systems[state.active].planets:
            planet = state.planets[name]
            if planet.controller == me:
                continue
            area = planet.area
            defenders = sum(area.count(s, k) for s in area.seats() if s != me for k in GROUND)
            total += defenders + 1 + sum(area.count(s, "pds") for s in area.seats() if s != me)
        return total

    @staticmethod
    def _aim(state: PlanetsState, legal: Sequence[Any]) -> Any:
        """Space cannon offense: at the strongest fleet there."""
        assert state.active is not None
        space = state.space[state.active]
        aims = [a for a in legal if isinstance(a, Aim)]
        if not aims:
            return legal[0]
        return max(aims, key=lambda a: (_power(state, space, a.seat, SHIPS), -a.seat))

    @staticmethod
    def _retreat(state: PlanetsState, me: int, legal: Sequence[Any]) -> Any:
        """Retreat when badly outgunned (never from home), to the system holding most of ours."""
        assert state.active is not None
        space = state.space[state.active]
        enemy = fleet_owner(space, me)
        retreats = [a for a in legal if isinstance(a, Retreat)]
        if not retreats or enemy is None or state.active == state.homes[me]:
            return Stay()
        ours, theirs = _power(state, space, me, SHIPS), _power(state, space, enemy, SHIPS)
        if ours >= RETREAT_ODDS * theirs:
            return Stay()

        def held(action: Retreat) -> tuple[int, str]:
            system = state.galaxy.systems[action.system]
            mine = sum(state.planets[p].controller == me for p in system.planets)
            return (mine + len(state.space[action.system].units.get(me, {})), action.system)

        return max(retreats, key=held)

    @staticmethod
    def _hit(options: Sequence[Assign]) -> Assign:
        sustains = [a for a in options if a.sustain]
        if sustains:
            return sustains[0]
        return min(options, key=lambda a: LOSS_ORDER.index(a.kind))

    @staticmethod
    def _bombard(state: PlanetsState, me: int, legal: Sequence[Any]) -> Any:
        targets = [a for a in legal if isinstance(a, Bombard) and a.planet is not None]
        if not targets:
            return Bombard(None)

        def defenders(action: Bombard) -> int:
            area = state.planets[action.planet or ""].area
            return sum(area.count(s, k) for s in area.seats() if s != me for k in GROUND)

        return max(targets, key=defenders)

    @staticmethod
    def _commit(state: PlanetsState, me: int, legal: Sequence[Any]) -> Any:
        if not state.compact:
            toll = planets_round.toll_choice(state, me, legal)
            if toll is not None:
                return toll
        commits = [a for a in legal if isinstance(a, Commit)]
        best: tuple[float, int, int, str] | None = None
        choice: Any = Done() if Done() in legal or not commits else commits[0]
        for name in {c.planet for c in commits}:
            planet = state.planets[name]
            if planet.controller == me:
                continue
            area = planet.area
            defenders = sum(area.count(s, k) for s in area.seats() if s != me for k in GROUND)
            cannon = sum(area.count(s, "pds") for s in area.seats() if s != me)
            need = defenders + 1 + cannon if defenders or cannon else 1
            mine = [c for c in commits if c.planet == name]
            enough = [c for c in mine if c.infantry + c.mech >= need]
            if not enough:
                continue
            pick = min(enough, key=lambda c: (c.infantry + c.mech, -c.mech))
            key = (planet_value(state, me, name), -(pick.infantry + pick.mech), pick.mech, name)
            if best is None or key > best:
                best, choice = key, pick
        return choice

    @staticmethod
    def _explore(legal: Sequence[Any]) -> Any:
        order = {"hazardous": 0, "industrial": 1, "cultural": 2}
        explores = [a for a in legal if isinstance(a, Explore)]
        return min(explores, key=lambda a: (order[a.trait], a.planet))

    def _produce(self, state: PlanetsState, me: int, legal: Sequence[Any]) -> Any:
        produce = [a for a in legal if isinstance(a, Produce)]
        carriers = sum(state.space[s].count(me, "carrier") for s in state.space)
        infantry = sum(p.area.count(me, "infantry") for p in state.planets.values())
        infantry += sum(state.space[s].count(me, "infantry") for s in state.space)
        wishes = []
        if carriers < 3:
            wishes.append(("carrier", 1))
        if infantry < 10:
            wishes.append(("infantry", 2))
        if not state.compact:
            fighters = sum(state.space[s].count(me, "fighter") for s in state.space)
            if fighters < 6:
                wishes.append(("fighter", 2))
            wishes.append(("warsun", 1))
        wishes += [("cruiser", 1), ("dreadnought", 1), ("destroyer", 1), ("mech", 1)]
        for kind, n in wishes:
            for action in produce:
                if action.kind == kind and action.count == n:
                    return action
        limit_left = self._production_left(state, me)
        if limit_left > 0 and state.pool < 4:
            goods = [a for a in legal if isinstance(a, SpendGood)]
            exhausts = [a for a in legal if isinstance(a, Exhaust)]
            if exhausts:
                return max(exhausts, key=lambda a: (planet_resources(state, a.planet), a.planet))
            if goods:
                return goods[0]
        return Done()

    @staticmethod
    def _production_left(state: PlanetsState, me: int) -> int:
        limit = sum(planet_resources(state, p) + 2 for p in docks_here(state, me))
        return limit - state.produced


def _fill(state: PlanetsState, me: int, move: Move, troops: int, fight: bool) -> Move:
    """Full rules: the chosen ships' cargo, boarded wherever they may take it: the troops
    the plan needs, then what would be stranded at the start, then (for a fight) fighters.
    The move as chosen when the fuller one is not legal as a whole."""
    ships = dict(move.units)
    room = sum(UNITS[k].capacity * n for k, n in ships.items())
    reach = min(UNITS[k].move for k in ships)
    places = boarding_places(state, me, move.source, reach) if room else []
    left = {p: dict(on_board(state, me, p)) for p in places}
    cargo: dict[tuple[str, str], int] = {}

    def take(place: str, kind: str, most: int) -> int:
        nonlocal room
        n = min(most, room, left.get(place, {}).get(kind, 0))
        if n > 0:
            cargo[place, kind] = cargo.get((place, kind), 0) + n
            left[place][kind] -= n
            room -= n
        return max(n, 0)

    for place in places:
        for kind in GROUND:
            troops -= take(place, kind, troops)
    space_left = {k: n for k, n in left.get(move.source, {}).items()}
    stay_room = _stay_room(state, me, move)
    ground_left = sum(space_left.get(k, 0) for k in GROUND)
    for kind in GROUND:
        ground_left -= take(move.source, kind, max(0, ground_left - stay_room))
    shelter = DOCK_FIGHTERS * docks_in(state, me, move.source)
    spare = max(0, stay_room - ground_left)
    take(move.source, "fighter", max(0, space_left.get("fighter", 0) - shelter - spare))
    if fight:
        for place in places:
            take(place, "fighter", room)
    if not cargo:
        return move
    fuller = Move(
        move.source,
        move.units,
        move.dest,
        tuple(
            sorted(((p, k, n) for (p, k), n in cargo.items()), key=lambda c: (c[0], ORDER[c[1]]))
        ),
    )
    return fuller if move_problem(state, me, fuller) is None else move


def _stay_room(state: PlanetsState, me: int, move: Move) -> int:
    """The capacity of the ships a move leaves in its start system."""
    taken = dict(move.units)
    area = state.space[move.source]
    return sum((area.count(me, k) - taken.get(k, 0)) * UNITS[k].capacity for k in SHIPS)


def _stranded(state: PlanetsState, me: int, move: Move) -> int:
    """Full rules: the fighters and ground forces a move would leave behind in its start
    system's space area without capacity (they would be removed)."""
    area = state.space[move.source]
    room = _stay_room(state, me, move)
    shelter = DOCK_FIGHTERS * docks_in(state, me, move.source)
    aboard = {k: n for p, k, n in move.cargo if p == move.source}
    fighters = area.count(me, "fighter") - aboard.get("fighter", 0)
    ground = sum(area.count(me, k) - aboard.get(k, 0) for k in GROUND)
    return max(0, max(0, fighters - shelter) + ground - room)


def make(rules: Rules[Any, Any]) -> PlanetsHeuristic:
    return PlanetsHeuristic(rules)
