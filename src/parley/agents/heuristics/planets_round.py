"""The Planet Control heuristic's choices in the fuller round (`rules=full`).

* Strategy phase: each card is valued by what its primary would give now (trade goods on it
  included); the most valuable is picked.
* Action phase: a strategic action comes first, except Dominion, kept until it scores or
  nothing else is worth doing; passing only when every card is used.
* Primary and secondary steps: Command buys tokens while the influence covers them; Accord
  names the system most worth shielding (home when enemies are near); Mandate keeps or takes
  the speaker token; Foundations puts a dock on the richest planet without one, then PDS;
  Commerce grants nobody; Mobilisation frees the token over the largest fleet; Survey explores
  hazardous first; Dominion scores what it can.
* Secondaries are followed when they give something now: free ones always, trade goods with
  a spare strategy token, the others when there is something to ready, build or produce.
* Command tokens: a fleet pool as large as the largest fleet (at least 3), two strategy
  tokens, the rest tactic. Over the fleet supply: the cheapest ship goes.
* Custodians: paid when ready influence covers the toll and troops are in the central system.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parley.games.planets import PlanetsState, Stage
from parley.games.planets import strategy as rounds
from parley.games.planets.actions import (
    Appoint,
    BuyToken,
    Decline,
    Done,
    Exhaust,
    Explore,
    Follow,
    Lift,
    PayToll,
    Pick,
    Place,
    Ready,
    Score,
    Scrap,
    Seal,
    SpendGood,
    Strategic,
    Tokens,
)
from parley.games.planets.engine import (
    controlled,
    distances,
    fleet_owner,
    home_planets,
    planet_influence,
    planet_resources,
    qualifies,
)
from parley.games.planets.units import SHIPS

TRAIT_ORDER = {"hazardous": 0, "industrial": 1, "cultural": 2}


def handles(state: PlanetsState) -> bool:
    """Whether the round's own choices are owed now (this module answers them)."""
    return bool(state.trims) or state.stage in rounds.ROUND_STAGES


def choose(state: PlanetsState, me: int, legal: Sequence[Any]) -> Any:
    """The choice for a round stage, a strategy pick or a fleet supply removal."""
    if state.trims:
        return next(a for a in legal if isinstance(a, Scrap))  # cheapest first
    if state.stage is Stage.STRATEGY:
        picks = [a for a in legal if isinstance(a, Pick)]
        return max(picks, key=lambda a: (card_value(state, me, a.card), -a.card))
    if state.stage is Stage.SECONDARY:
        follow = next((a for a in legal if isinstance(a, Follow)), None)
        if follow is not None and worth_following(state, me, follow.card):
            return follow
        return Decline()
    return _step(state, me, legal)


# --- values -------------------------------------------------------------------------------


def _ready(state: PlanetsState, me: int, value: Any) -> int:
    return sum(value(state, p) for p in controlled(state, me) if not state.planets[p].exhausted)


def _dock_sites(state: PlanetsState, me: int) -> list[str]:
    """Controlled planets outside home without a dock, richest first."""
    home = home_planets(state, me)
    sites = [
        p
        for p in controlled(state, me)
        if p not in home and not state.planets[p].area.count(me, "dock")
    ]
    return sorted(sites, key=lambda p: (-planet_resources(state, p), p))


def card_value(state: PlanetsState, me: int, number: int) -> float:
    """What holding the card is worth this round, roughly in trade goods."""
    value = float(state.card_goods[number - 1])
    exhausted = [p for p in controlled(state, me) if state.planets[p].exhausted]
    if number == 1:
        value += 3.5 + (1 if _ready(state, me, planet_influence) >= 3 else 0)
    elif number == 2:
        value += 1.5 + 0.3 * len(exhausted)
    elif number == 3:
        value += 2.5
    elif number == 4:
        value += 2 + (2 if _dock_sites(state, me) else 0)
    elif number == 5:
        value += 3
    elif number == 6:
        value += 1.5 + (1 if _ready(state, me, planet_resources) >= 3 else 0)
    elif number == 7:
        traits = any(state.galaxy.planets[p].traits for p in controlled(state, me))
        value += 1 + (1 if traits else 0)
    else:
        value += 2 + 4 * _can_score(state, me) + 3 * _holds_central(state, me)
    return value


def _can_score(state: PlanetsState, me: int) -> bool:
    return any(o not in state.scored[me] and qualifies(state, me, o) for o in state.revealed)


def _holds_central(state: PlanetsState, me: int) -> bool:
    return all(state.planets[p].controller == me for p in rounds.central_planets(state))


def worth_following(state: PlanetsState, me: int, number: int) -> bool:
    free = number == 1 or (number == 5 and me in state.granted)
    if number == 1:
        return _ready(state, me, planet_influence) + state.goods[me] >= rounds.TOKEN_PRICE
    spare = state.strategy_pool[me] >= 2 or free
    if number in (3, 5, 8):
        return spare
    if number == 2:
        return sum(state.planets[p].exhausted for p in controlled(state, me)) >= 2
    if number == 4:
        return bool(_dock_sites(state, me)) and rounds.reinforcements(state, me) > 0
    if number == 6:
        home = home_planets(state, me)
        docks = any(state.planets[p].area.count(me, "dock") for p in home)
        return docks and _ready(state, me, planet_resources) + state.goods[me] >= 3
    return any(state.galaxy.planets[p].traits for p in controlled(state, me))


def use_strategic(state: PlanetsState, me: int, legal: Sequence[Any], best: float) -> Any:
    """A strategic action to take now, or None to act tactically first (`best` is the value
    of the best activation)."""
    cards = [a for a in legal if isinstance(a, Strategic)]
    for action in sorted(cards, key=lambda a: a.card):
        if action.card != 8 or _can_score(state, me) or _holds_central(state, me):
            return action
    if cards and best <= 0.9:
        return cards[0]
    return None


# --- primary and secondary steps ----------------------------------------------------------------


def _step(state: PlanetsState, me: int, legal: Sequence[Any]) -> Any:
    step = state.step
    of = _of(legal)
    if step == "tokens":
        return _tokens(state, me, of(Tokens))
    if step == "buy":
        buy = of(BuyToken)
        if buy:
            return buy[0]
        have = state.influence + _ready(state, me, planet_influence) + state.goods[me]
        if have >= rounds.TOKEN_PRICE:
            return _pay_influence(state, legal)
        return Done()
    if step == "seal":
        seals = of(Seal)
        return max(seals, key=lambda a: (_shield_value(state, me, a.system), a.system))
    if step in ("ready1", "ready2"):
        ready = of(Ready)
        if not ready:
            return Done()
        return max(ready, key=lambda a: (_planet_worth(state, a.planet), a.planet))
    if step == "speaker":
        appoints = of(Appoint)
        mine = [a for a in appoints if a.seat == me]
        return mine[0] if mine else min(appoints, key=lambda a: (-state.points[a.seat], a.seat))
    if step in ("build", "build_pds", "build_token"):
        return _build(state, me, of(Place))
    if step == "grant":
        return Done()
    if step == "lift":
        lifts = of(Lift)
        if not lifts:
            return Done()
        return max(lifts, key=lambda a: (_ships(state, me, a.system), a.system))
    if step == "survey":
        explores = of(Explore)
        if not explores:
            return Done()
        return min(explores, key=lambda a: (TRAIT_ORDER[a.trait], a.planet))
    if step == "score":
        scores = of(Score)
        return scores[0] if scores else Done()
    return legal[0]


def _of(legal: Sequence[Any]) -> Any:
    def pick(kind: type) -> list[Any]:
        return [a for a in legal if isinstance(a, kind)]

    return pick


def _planet_worth(state: PlanetsState, name: str) -> int:
    return planet_resources(state, name) + planet_influence(state, name)


def _ships(state: PlanetsState, me: int, sid: str) -> int:
    return sum(state.space[sid].count(me, k) for k in SHIPS)


def _shield_value(state: PlanetsState, me: int, sid: str) -> float:
    """Keeping the others' ships out of a system matters where enemies are near."""
    planets = state.galaxy.systems[sid].planets
    worth = sum(_planet_worth(state, p) for p in planets if state.planets[p].controller == me)
    near = sum(fleet_owner(state.space[n], me) is not None for n in state.galaxy.neighbours[sid])
    return worth + 4 * near + (3 if sid == state.homes[me] else 0)


def _build(state: PlanetsState, me: int, places: list[Place]) -> Any:
    if not places:
        return Done()
    sites = _dock_sites(state, me)
    for site in sites:
        if Place("dock", site) in places:
            return Place("dock", site)
    if state.step == "build_token":
        return Done()  # a PDS alone is not worth a token from reinforcements
    pds = [a for a in places if a.kind == "pds"]
    if not pds:
        return Done()
    return max(pds, key=lambda a: (_planet_worth(state, a.planet), a.planet))


def _pay_influence(state: PlanetsState, legal: Sequence[Any]) -> Any:
    """Influence from the planet richest in it (trade goods last)."""
    exhausts = [a for a in legal if isinstance(a, Exhaust)]
    if exhausts:
        return max(exhausts, key=lambda a: (planet_influence(state, a.planet), a.planet))
    goods = [a for a in legal if isinstance(a, SpendGood)]
    return goods[0] if goods else Done()


def _tokens(state: PlanetsState, me: int, options: list[Tokens]) -> Tokens:
    """Nearest to: fleet as large as the largest fleet (3 at least, 6 at most), two strategy
    tokens, the rest tactic."""
    total = options[0].tactic + options[0].fleet + options[0].strategy
    biggest = max(
        (sum(state.space[s].count(me, k) for k in SHIPS if k != "fighter") for s in state.space),
        default=0,
    )
    fleet = min(max(3, biggest), 6, total)
    strat = min(2, total - fleet)
    want = (total - fleet - strat, fleet, strat)

    def distance(t: Tokens) -> tuple[int, int, int, int]:
        gap = abs(t.tactic - want[0]) + abs(t.fleet - want[1]) + abs(t.strategy - want[2])
        return (gap, -t.tactic, -t.fleet, -t.strategy)

    return min(options, key=distance)


# --- custodians -----------------------------------------------------------------------------


def toll_choice(state: PlanetsState, me: int, legal: Sequence[Any]) -> Any | None:
    """In the commit step at the central system: gather influence and pay the toll when the
    ready influence covers it; None when the toll is not worth it or not on offer."""
    toll = [a for a in legal if isinstance(a, PayToll)]
    if toll:
        return toll[0]
    if not any(isinstance(a, Exhaust | SpendGood) for a in legal):
        return None
    have = state.influence + _ready(state, me, planet_influence) + state.goods[me]
    if have < rounds.TOLL:
        return None
    return _pay_influence(state, legal)


# --- hints for the tactical choices ----------------------------------------------------------


def blocked(state: PlanetsState, me: int, name: str) -> bool:
    """The central planet while the custodians hold it and the toll is out of reach."""
    if not state.custodians or name not in rounds.central_planets(state):
        return False
    return _ready(state, me, planet_influence) + state.goods[me] < rounds.TOLL


def _idle_troops(state: PlanetsState, me: int) -> int:
    """Ground forces on the home planets beyond one each kept as a garrison."""
    areas = [state.planets[p].area for p in home_planets(state, me)]
    return sum(max(0, a.count(me, "infantry") + a.count(me, "mech") - 1) for a in areas)


def _empty_carriers_near(state: PlanetsState, me: int) -> int:
    home = state.homes[me]
    dist = distances(state, me, home)
    count = 0
    for sid, d in dist.items():
        if sid == home or d > 1 or me in state.tokens.get(sid, []):
            continue
        area = state.space[sid]
        cargo = sum(area.count(me, k) for k in ("infantry", "mech"))
        if area.count(me, "carrier") and not cargo:
            count += area.count(me, "carrier")
    return count


def recall_value(state: PlanetsState, me: int) -> float:
    """Activating home to bring empty carriers back to the troops waiting there."""
    if _idle_troops(state, me) < 2 or not _empty_carriers_near(state, me):
        return 0.0
    return 2.0


def move_bonus(state: PlanetsState, me: int, move: Any, spare_load: int) -> float:
    """Carriers coming home to load, and troops beyond the plan's need carried along."""
    bonus = 0.3 * spare_load
    if state.active == state.homes[me] and _idle_troops(state, me) >= 2:
        bonus += sum(n for k, n in move.units if k == "carrier")
    return bonus
