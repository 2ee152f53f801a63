"""The fuller round (`rules=full`): strategy cards, the command sheet, fleet supply, custodians.

The engine calls in here through thin hooks; nothing in this module runs under
`rules=compact`. Each card's primary and secondary ability is a short chain of owed steps
(`state.step`), resolved one decision at a time: the holder's primary first, then each
other player clockwise from the holder's left follows or declines, then the card is used.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from . import engine
from .actions import (
    Action,
    Appoint,
    BuyToken,
    Decline,
    Done,
    Exhaust,
    Explore,
    Follow,
    Grant,
    Lift,
    PayToll,
    Pick,
    Place,
    Ready,
    RoundAction,
    Score,
    Scrap,
    Seal,
    SpendGood,
    Strategic,
    Tokens,
)
from .cards import OBJECTIVES
from .state import PlanetsState, Stage, who
from .units import SHIPS, UNITS

TOKENS_PER_SEAT = 16  # a command sheet's tokens: pools, board and reinforcements together
STATUS_GAIN = 2  # tokens gained in the status phase
TOKEN_PRICE = 3  # influence per command token (Command)
TOLL = 6  # influence that removes the custodians
PDS_PER_PLANET = 2
DOCKS_PER_PLANET = 1
ROUND_STAGES = (Stage.STRATEGY, Stage.PRIMARY, Stage.SECONDARY, Stage.FOLLOW, Stage.STATUS)


@dataclass(frozen=True, slots=True)
class StrategyCard:
    """One strategy card: its initiative number, name and both abilities in words."""

    number: int
    name: str
    primary: str
    secondary: str


CARDS: tuple[StrategyCard, ...] = (
    StrategyCard(
        1,
        "command",
        "Gain 3 command tokens; then buy more, 3 influence each. Place them in any pools.",
        "Buy command tokens, 3 influence each (no strategy token is spent).",
    ),
    StrategyCard(
        2,
        "accord",
        "Name a system holding a planet you control (not the central one): every other "
        "player puts a command token there from reinforcements. Then ready up to 2 of "
        "your planets.",
        "Ready up to 2 of your planets.",
    ),
    StrategyCard(
        3,
        "mandate",
        "Give the speaker token to another player (yourself included), then gain 2 trade goods.",
        "Gain 1 trade good.",
    ),
    StrategyCard(
        4,
        "foundations",
        "Place a PDS or a space dock on a planet you control, then, if you like, a PDS.",
        "Put a command token from reinforcements in the system of a planet you control "
        "and place a PDS or a space dock on that planet.",
    ),
    StrategyCard(
        5,
        "commerce",
        "Gain 3 trade goods; name players who may follow this card without a strategy token.",
        "Gain 1 trade good.",
    ),
    StrategyCard(
        6,
        "mobilisation",
        "Take one of your command tokens off the board; then place your tokens in your "
        "pools as you like.",
        "Produce with one space dock in your home system without activating it.",
    ),
    StrategyCard(
        7,
        "survey",
        "Explore a planet you control, from the deck of one of its traits.",
        "Explore a planet you control, from the deck of one of its traits.",
    ),
    StrategyCard(
        8,
        "dominion",
        "Score a revealed public objective you meet now; then gain 1 victory point if you "
        "control the central planet.",
        "Gain 1 trade good.",
    ),
)
BY_NAME = {c.name: c for c in CARDS}


def card(number: int) -> StrategyCard:
    return CARDS[number - 1]


# --- set-up, the strategy phase and initiative --------------------------------------------


def begin(state: PlanetsState) -> None:
    """Set up the sheet's strategy cards and start the first strategy phase."""
    state.holders = [None] * len(CARDS)
    state.used = [False] * len(CARDS)
    state.card_goods = [0] * len(CARDS)
    state.custodians = True
    state.speaker = state.first
    strategy_phase(state)


def picks_each(seats: int) -> int:
    """3–4 players take two cards each, 5–6 one (84.1c)."""
    return 2 if seats <= 4 else 1


def strategy_phase(state: PlanetsState) -> None:
    state.stage = Stage.STRATEGY
    state.picks = 0
    state.current = state.speaker
    engine.log(
        state,
        "strategy",
        f"the strategy phase begins; {who(state.speaker)}, the speaker, picks first",
        seat=state.speaker,
    )


def picker(state: PlanetsState) -> int:
    """Who picks next: the speaker, then clockwise, a second time round with 3–4 players."""
    return (state.speaker + state.picks) % state.seats


def held(state: PlanetsState, seat: int) -> list[int]:
    """The card numbers a seat holds, lowest first."""
    return [i + 1 for i, h in enumerate(state.holders) if h == seat]


def initiative(state: PlanetsState) -> list[int]:
    """The seats in initiative order: by the lowest card each holds (48)."""
    return sorted(range(state.seats), key=lambda s: min(held(state, s), default=99))


def _end_picks(state: PlanetsState) -> None:
    for i, holder in enumerate(state.holders):
        if holder is None:
            state.card_goods[i] += 1  # 84.2
    order = initiative(state)
    names = ", ".join(who(s) for s in order)
    engine.log(state, "initiative", f"initiative order: {names}", order=order)
    state.stage = Stage.ACTION
    state.current = order[0]


# --- the command sheet ----------------------------------------------------------------------


def on_board(state: PlanetsState, seat: int) -> int:
    return sum(owners.count(seat) for owners in state.tokens.values())


def reinforcements(state: PlanetsState, seat: int) -> int:
    """Tokens not in a pool nor on the board (16 per seat)."""
    pools = state.tactics[seat] + state.fleet[seat] + state.strategy_pool[seat]
    return TOKENS_PER_SEAT - pools - on_board(state, seat) - state.gain * (state.current == seat)


def place_token(state: PlanetsState, seat: int, sid: str) -> None:
    """Put a seat's command token in a system from reinforcements (20.3b: from a pool when
    reinforcements are empty, the tactic pool first); none when one is there already."""
    if seat in state.tokens.get(sid, []):
        return
    if reinforcements(state, seat) <= 0:
        for pool in (state.tactics, state.strategy_pool, state.fleet):
            if pool[seat] > 0:
                pool[seat] -= 1
                break
        else:
            return
        supply_everywhere(state, seat)
    state.tokens.setdefault(sid, []).append(seat)


def sheet_text(state: PlanetsState, seat: int) -> str:
    return f"{state.tactics[seat]} {state.fleet[seat]} {state.strategy_pool[seat]}"


def _token_choices(state: PlanetsState, seat: int) -> list[Tokens]:
    """Every way to place the gained tokens (or, regrouping, the whole sheet), gains to the
    tactic pool first (the civil-disorder default)."""
    t, f, s = state.tactics[seat], state.fleet[seat], state.strategy_pool[seat]
    total = t + f + s + state.gain
    out = []
    for fleet, strat in product(range(total + 1), repeat=2):
        tactic = total - fleet - strat
        if tactic < 0:
            continue
        if not state.regroup and (tactic < t or fleet < f or strat < s):
            continue
        out.append(Tokens(tactic, fleet, strat))
    first = Tokens(t + state.gain, f, s)
    out.remove(first)
    return [first, *out]


# --- fleet supply ---------------------------------------------------------------------------


def fleet_ships(state: PlanetsState, seat: int, sid: str) -> int:
    """Ships that count against the fleet supply: all but fighters."""
    area = state.space[sid]
    return sum(area.count(seat, k) for k in SHIPS if k != "fighter")


def fleet_excess(state: PlanetsState, seat: int, sid: str) -> int:
    limit = engine.fleet_supply(state, seat)
    return 0 if limit is None else max(0, fleet_ships(state, seat, sid) - limit)


def check_supply(state: PlanetsState, seat: int, sid: str) -> None:
    """Owe the seat the removal of its ships beyond the fleet supply in `sid` (37)."""
    if fleet_excess(state, seat, sid) and (seat, sid) not in state.trims:
        state.trims.append((seat, sid))


def supply_everywhere(state: PlanetsState, seat: int) -> None:
    """After a fleet pool shrinks: every system is checked (81.5a)."""
    for sid in state.galaxy.systems:
        check_supply(state, seat, sid)


def trim_options(state: PlanetsState) -> list[Scrap]:
    """The ship types the seat can remove, cheapest first."""
    seat, sid = state.trims[0]
    area = state.space[sid]
    kinds = [k for k in SHIPS if k != "fighter" and area.count(seat, k)]
    return [Scrap(k) for k in sorted(kinds, key=lambda k: (UNITS[k].cost, k))]


def scrap(state: PlanetsState, kind: str) -> None:
    seat, sid = state.trims[0]
    area = state.space[sid]
    area.remove(seat, kind, 1, 1 if area.hurt(seat, kind) else 0)
    engine.log(
        state,
        "supply",
        f"{who(seat)} removes a {kind} at {sid}: over the fleet supply of {state.fleet[seat]}",
        seat=seat,
        system=sid,
        unit=kind,
    )
    if not fleet_excess(state, seat, sid):
        state.trims.pop(0)
    engine._trim_capacity(state, sid, seat)


# --- custodians -----------------------------------------------------------------------------


def central_planets(state: PlanetsState) -> tuple[str, ...]:
    return state.galaxy.central().planets


def toll_due(state: PlanetsState) -> bool:
    """The active system holds the custodians and the toll is not paid yet."""
    return (
        state.custodians
        and state.active == state.galaxy.central().id
        and bool(central_planets(state))
    )


def commit_refused(state: PlanetsState, planet: str) -> str | None:
    if state.custodians and planet in central_planets(state):
        return (
            f"the custodians still hold {planet}: pay {TOLL} influence first "
            "('exhaust <planet>', 'spend trade good', then 'pay custodians')"
        )
    return None


def toll_options(state: PlanetsState, seat: int) -> list[Action]:
    """Gathering influence and paying the toll, offered just before committing (27.2)."""
    if not toll_due(state):
        return []
    active = state.active or ""
    if not engine.ground_of(state.space[active], seat):
        return []  # a player who cannot commit cannot remove them
    out: list[Action] = [*_influence_sources(state, seat)]
    if state.influence >= TOLL:
        out.append(PayToll())
    return out


def done_refused(state: PlanetsState) -> str | None:
    if state.toll_paid and not any(p in central_planets(state) for p in state.committed):
        return "you removed the custodians: commit at least one ground force there (27.2)"
    return None


def pay_toll(state: PlanetsState, seat: int) -> None:
    state.influence -= TOLL
    state.custodians = False
    state.custodians_by = seat
    state.toll_paid = True
    state.points[seat] += 1
    engine.log(
        state,
        "custodians",
        f"{who(seat)} pays {TOLL} influence and removes the custodians: 1 victory point",
        seat=seat,
    )
    check_win(state, seat)


def check_win(state: PlanetsState, seat: int) -> None:
    if state.points[seat] >= state.target and state.stage is not Stage.OVER:
        state.winner = seat
        state.reason = f"{who(seat)} reached {state.target} victory points"
        state.stage = Stage.OVER
        state.hits.clear()
        state.trims.clear()


# --- the action phase -----------------------------------------------------------------------


def can_pass(state: PlanetsState, seat: int) -> bool:
    """3.4, 3.4a: no passing before one's strategy cards are all used."""
    return all(state.used[c - 1] for c in held(state, seat))


def strategics(state: PlanetsState, seat: int) -> list[Strategic]:
    return [Strategic(c) for c in held(state, seat) if not state.used[c - 1]]


def next_turn(state: PlanetsState) -> None:
    """The next player in initiative order who has not passed (the last may act again)."""
    order = initiative(state)
    at = order.index(state.current)
    for step in range(1, state.seats + 1):
        seat = order[(at + step) % state.seats]
        if not state.passed[seat]:
            state.current = seat
            return
    status_phase(state)


# --- the status phase -----------------------------------------------------------------------


def status_phase(state: PlanetsState) -> None:
    """81: score in initiative order, reveal, return tokens, gain 2 and redistribute (owed,
    one seat at a time), then ready, repair, return the cards, and a new round."""
    order = initiative(state)
    engine.score_round(state, order)
    if state.stage is Stage.OVER:
        return
    if state.round >= state.rounds:
        state.reason = f"the round limit ({state.rounds}) was reached; most points wins"
        state.stage = Stage.OVER
        return
    engine.reveal(state)
    state.tokens.clear()
    state.stage = Stage.STATUS
    state.followers = list(order)
    _next_redistribution(state)


def _next_redistribution(state: PlanetsState) -> None:
    if not state.followers:
        _new_round(state)
        return
    seat = state.followers[0]
    state.current = seat
    state.gain = 0
    state.gain = min(STATUS_GAIN, reinforcements(state, seat))  # 20.3a
    state.regroup = True
    state.step = "tokens"
    engine.log(
        state,
        "gain",
        f"{who(seat)} gains {state.gain} command token{'s' * (state.gain != 1)}",
        seat=seat,
    )


def _new_round(state: PlanetsState) -> None:
    state.step = ""
    state.gain = 0
    for planet in state.planets.values():
        planet.exhausted = False
    for area in [*state.space.values(), *(p.area for p in state.planets.values())]:
        area.damaged.clear()
    state.holders = [None] * len(CARDS)
    state.used = [False] * len(CARDS)
    state.passed = [False] * state.seats
    state.round += 1
    state.first = state.speaker
    engine.log(state, "round", f"round {state.round} begins", round=state.round)
    strategy_phase(state)


# --- legal actions ----------------------------------------------------------------------------


def legal(state: PlanetsState, seat: int) -> list[Action]:
    """The owed choices of the round's own stages."""
    stage = state.stage
    if stage is Stage.STRATEGY:
        return [Pick(i + 1) for i, h in enumerate(state.holders) if h is None]
    if stage is Stage.SECONDARY:
        number = state.strategic or 0
        return [Decline(), Follow(number)] if _may_follow(state, seat) else [Decline()]
    return _step_options(state, seat)


def _may_follow(state: PlanetsState, seat: int) -> bool:
    return _free(state, seat) or state.strategy_pool[seat] > 0


def _free(state: PlanetsState, seat: int) -> bool:
    """Command's secondary costs no token (20.5a); Commerce's primary may waive it."""
    return state.strategic == 1 or (state.strategic == 5 and seat in state.granted)


def _influence_sources(state: PlanetsState, seat: int) -> list[Action]:
    out: list[Action] = [
        Exhaust(n)
        for n in engine.controlled(state, seat)
        if not state.planets[n].exhausted and engine.planet_influence(state, n)
    ]
    if state.goods[seat]:
        out.append(SpendGood())
    return out


def _placements(state: PlanetsState, seat: int, kinds: tuple[str, ...]) -> list[Place]:
    out = []
    for name in engine.controlled(state, seat):
        area = state.planets[name].area
        for kind in kinds:
            cap = PDS_PER_PLANET if kind == "pds" else DOCKS_PER_PLANET
            spare = UNITS[kind].limit - engine.in_play(state, seat, kind)
            if area.count(seat, kind) < cap and spare > 0:
                out.append(Place(kind, name))
    return out


def _step_options(state: PlanetsState, seat: int) -> list[Action]:
    step = state.step
    if step == "tokens":
        return list(_token_choices(state, seat))
    if step == "buy":
        out = _influence_sources(state, seat)
        if state.influence >= TOKEN_PRICE and reinforcements(state, seat) > 0:
            out.append(BuyToken())
        return [*out, Done()]
    if step == "seal":
        central = state.galaxy.central().id
        systems = {
            sid
            for sid, system in state.galaxy.systems.items()
            if sid != central and any(state.planets[p].controller == seat for p in system.planets)
        }
        return [Seal(sid) for sid in state.galaxy.systems if sid in systems] or [Done()]
    if step in ("ready2", "ready1"):
        ready = [Ready(n) for n in engine.controlled(state, seat) if state.planets[n].exhausted]
        return [*ready, Done()]
    if step == "speaker":
        return [Appoint(s) for s in range(state.seats) if s != state.speaker]
    if step == "build":
        return [*_placements(state, seat, ("pds", "dock")), Done()]
    if step == "build_pds":
        return [*_placements(state, seat, ("pds",)), Done()]
    if step == "build_token":
        return [*_placements(state, seat, ("pds", "dock")), Done()]
    if step == "grant":
        others = [s for s in range(state.seats) if s != seat and s not in state.granted]
        return [*(Grant(s) for s in others), Done()]
    if step == "lift":
        lifts = [Lift(sid) for sid, owners in state.tokens.items() if seat in owners]
        return [*sorted(lifts, key=lambda a: a.system), Done()]
    if step == "survey":
        return [
            Explore(trait, n)
            for n in engine.controlled(state, seat)
            for trait in state.galaxy.planets[n].traits
        ] or [Done()]
    if step == "score":
        scorable = [
            Score(o)
            for o in state.revealed
            if o not in state.scored[seat] and engine.qualifies(state, seat, o)
        ]
        return [*scorable, Done()]
    return []


# --- checks ---------------------------------------------------------------------------------


def problem(state: PlanetsState, seat: int, action: Action, wrong: str) -> str | None:
    """Why an action of the round's own stages (or a round action anywhere) is refused."""
    if state.compact:
        return f"{wrong} (the compact rules have no strategy cards nor command sheet)"
    stage = state.stage
    if isinstance(action, Scrap):
        return wrong  # owed only while ships are over the supply, handled before stages
    if isinstance(action, Strategic):
        if stage is not Stage.ACTION:
            return wrong
        if not 1 <= action.card <= len(CARDS):
            return f"there is no strategy card {action.card}"
        name = card(action.card).name
        if state.holders[action.card - 1] != seat:
            return f"you do not hold {name}"
        if state.used[action.card - 1]:
            return f"{name} is used already this round"
        return None
    if isinstance(action, PayToll | Exhaust | SpendGood) and stage is Stage.COMMIT:
        if action in toll_options(state, seat):
            return None
        if isinstance(action, PayToll):
            if not toll_due(state):
                return "no custodians to remove here"
            return f"the toll is {TOLL} influence and you have gathered {state.influence}"
        return _source_problem(state, seat, action) or wrong
    needs_step = stage in (Stage.PRIMARY, Stage.FOLLOW, Stage.STATUS)
    if stage not in ROUND_STAGES or (needs_step and not state.step):
        return wrong
    if isinstance(action, Pick):
        if stage is not Stage.STRATEGY:
            return wrong
        if not 1 <= action.card <= len(CARDS):
            return f"there is no strategy card {action.card}"
        holder = state.holders[action.card - 1]
        if holder is not None:
            return f"{card(action.card).name} is taken by {who(holder)}"
        return None
    options = legal(state, seat)
    if action in options:
        return None
    return _explain(state, seat, action, options, wrong)


def _source_problem(state: PlanetsState, seat: int, action: Action) -> str | None:
    if isinstance(action, Exhaust):
        planet = state.planets.get(action.planet)
        if planet is None or planet.controller != seat:
            return f"you do not control {action.planet}"
        if planet.exhausted:
            return f"{action.planet} is exhausted already (34.4)"
    if isinstance(action, SpendGood) and not state.goods[seat]:
        return "you have no trade goods"
    return None


def _explain(
    state: PlanetsState, seat: int, action: Action, options: list[Action], wrong: str
) -> str:
    """Words for a refused step, as specific as the action allows."""
    number = state.strategic or 0
    if isinstance(action, Follow):
        if state.stage is not Stage.SECONDARY or action.card != number:
            return wrong
        return "you have no strategy token to follow with (20.5)"
    if isinstance(action, Decline) and state.stage is not Stage.SECONDARY:
        return wrong
    if isinstance(action, Tokens):
        if state.step != "tokens":
            return wrong
        total = state.tactics[seat] + state.fleet[seat] + state.strategy_pool[seat] + state.gain
        got = action.tactic + action.fleet + action.strategy
        if got != total:
            return f"you have {total} tokens to place in your pools, not {got}"
        if min(action.tactic, action.fleet, action.strategy) < 0:
            return "a pool holds no fewer than 0 tokens"
        keep = sheet_text(state, seat)
        return f"only gained tokens are placed now: the pools keep at least {keep}"
    if isinstance(action, Exhaust | SpendGood):
        if state.step != "buy":
            return wrong
        return _source_problem(state, seat, action) or f"{action} gives no influence"
    if isinstance(action, BuyToken):
        if state.step != "buy":
            return wrong
        if reinforcements(state, seat) <= 0:
            return "you have no command tokens left in reinforcements (20.3a)"
        return f"a token costs {TOKEN_PRICE} influence and you have gathered {state.influence}"
    if isinstance(action, Place):
        if state.step not in ("build", "build_pds", "build_token"):
            return wrong
        if action.kind not in ("pds", "dock") or (
            state.step == "build_pds" and action.kind != "pds"
        ):
            return f"a {action.kind} cannot be placed now"
        planet = state.planets.get(action.planet)
        if planet is None or planet.controller != seat:
            return f"you do not control {action.planet}"
        cap = PDS_PER_PLANET if action.kind == "pds" else DOCKS_PER_PLANET
        if planet.area.count(seat, action.kind) >= cap:
            return f"a planet holds at most {cap} {action.kind}"
        return f"you have no {action.kind} left in reinforcements"
    if isinstance(action, Seal):
        if state.step != "seal":
            return wrong
        if action.system == state.galaxy.central().id:
            return "Accord cannot name the central system"
        return f"you control no planet in {action.system}"
    if isinstance(action, Ready):
        if state.step not in ("ready2", "ready1"):
            return wrong
        planet = state.planets.get(action.planet)
        if planet is None or planet.controller != seat:
            return f"you do not control {action.planet}"
        return f"{action.planet} is readied already"
    if isinstance(action, Appoint):
        if state.step != "speaker":
            return wrong
        if action.seat == state.speaker:
            return f"{who(action.seat)} is the speaker already"
        return f"there is no seat {action.seat}"
    if isinstance(action, Grant):
        if state.step != "grant":
            return wrong
        if action.seat == seat:
            return "the holder does not follow their own card"
        return f"{who(action.seat)} is named already" if action.seat in state.granted else wrong
    if isinstance(action, Lift):
        return wrong if state.step != "lift" else f"you have no command token in {action.system}"
    if isinstance(action, Explore):
        if state.step != "survey":
            return wrong
        return f"you do not control {action.planet}, or it has no {action.trait} trait"
    if isinstance(action, Score):
        if state.step != "score":
            return wrong
        if action.objective not in state.revealed:
            return f"{action.objective} is not a revealed objective"
        if action.objective in state.scored[seat]:
            return f"you scored {OBJECTIVES[action.objective].name} already"
        return f"you do not meet {OBJECTIVES[action.objective].name} now"
    if isinstance(action, Done) and Done() not in options:
        return f"not yet: {expected(state)} is wanted"
    return wrong


def expected(state: PlanetsState) -> str:
    """What the round's own stages want, in notation."""
    if state.stage is Stage.STRATEGY:
        return "'pick <card>'"
    if state.stage is Stage.SECONDARY:
        return f"'follow {card(state.strategic or 1).name}' or 'decline'"
    return {
        "tokens": "'tokens <tactic> <fleet> <strategy>'",
        "buy": "'exhaust <planet>', 'spend trade good', 'buy token' or 'done'",
        "seal": "'seal <system>'",
        "ready2": "'ready <planet>' or 'done'",
        "ready1": "'ready <planet>' or 'done'",
        "speaker": "'speaker <colour>'",
        "build": "'place <pds|dock> on <planet>' or 'done'",
        "build_pds": "'place pds on <planet>' or 'done'",
        "build_token": "'place <pds|dock> on <planet>' or 'done'",
        "grant": "'grant <colour>' or 'done'",
        "lift": "'lift <system>' or 'done'",
        "survey": "'explore <trait> at <planet>'",
        "score": "'score <objective>' or 'done'",
    }.get(state.step, "nothing")


# --- effects ----------------------------------------------------------------------------------


def do(state: PlanetsState, seat: int, action: Action) -> None:
    """Carry out a checked action of the round."""
    if isinstance(action, Scrap):
        scrap(state, action.kind)
    elif isinstance(action, Pick):
        _pick(state, seat, action.card)
    elif isinstance(action, Strategic):
        _strategic(state, seat, action.card)
    elif isinstance(action, Follow):
        _follow(state, seat)
    elif isinstance(action, Decline):
        engine.log(state, "decline", f"{who(seat)} declines {_card_name(state)}", seat=seat)
        _next_follower(state)
    elif isinstance(action, PayToll):
        pay_toll(state, seat)
    elif isinstance(action, Exhaust):
        state.influence += engine.exhaust_for(state, seat, action.planet, "influence")
    elif isinstance(action, SpendGood):
        state.goods[seat] -= 1
        state.influence += 1
    else:
        _step(state, seat, action)


def _card_name(state: PlanetsState) -> str:
    return card(state.strategic or 1).name.title()


def _pick(state: PlanetsState, seat: int, number: int) -> None:
    i = number - 1
    state.holders[i] = seat
    goods, state.card_goods[i] = state.card_goods[i], 0
    state.goods[seat] += goods
    extra = f" and the {goods} trade good{'s' * (goods != 1)} on it" if goods else ""
    engine.log(
        state,
        "pick",
        f"{who(seat)} picks {card(number).name.title()} ({number}){extra}",
        seat=seat,
        card=number,
    )
    state.picks += 1
    if state.picks >= picks_each(state.seats) * state.seats:
        _end_picks(state)
    else:
        state.current = picker(state)


def _strategic(state: PlanetsState, seat: int, number: int) -> None:
    state.strategic = number
    state.granted = []
    state.influence = 0
    state.gain = 0
    state.stage = Stage.PRIMARY
    engine.log(
        state,
        "strategic",
        f"{who(seat)} takes the strategic action of {card(number).name.title()}",
        seat=seat,
        card=number,
    )
    if number == 1:
        state.gain = min(3, reinforcements(state, seat))
        state.regroup = False
        state.step = "buy"
    elif number == 2:
        state.step = "seal"
    elif number == 3:
        state.step = "speaker"
    elif number == 4:
        state.step = "build"
    elif number == 5:
        state.goods[seat] += 3
        engine.log(state, "goods", f"{who(seat)} gains 3 trade goods", seat=seat)
        state.step = "grant"
    elif number == 6:
        state.step = "lift"
    elif number == 7:
        state.step = "survey"
    else:
        state.step = "score"


def _follow(state: PlanetsState, seat: int) -> None:
    number = state.strategic or 1
    free = _free(state, seat)
    if not free:
        state.strategy_pool[seat] -= 1
    cost = "" if free else " for a strategy token"
    engine.log(
        state,
        "follow",
        f"{who(seat)} follows {card(number).name.title()}{cost}",
        seat=seat,
        card=number,
    )
    state.stage = Stage.FOLLOW
    state.influence = 0
    if number == 1:
        state.gain = 0
        state.regroup = False
        state.step = "buy"
    elif number == 2:
        state.step = "ready2"
    elif number == 4:
        state.step = "build_token"
    elif number == 6:
        _mobilise(state, seat)
    elif number == 7:
        state.step = "survey"
    else:  # Mandate, Commerce and Dominion give a trade good
        state.goods[seat] += 1
        engine.log(state, "goods", f"{who(seat)} gains 1 trade good", seat=seat)
        _ability_done(state)


def _mobilise(state: PlanetsState, seat: int) -> None:
    """Mobilisation's secondary: the production step at the home system, with no token."""
    state.step = "produce"
    state.stage = Stage.PRODUCE
    state.active = state.homes[seat]
    state.pool = state.produced = 0


def after_production(state: PlanetsState) -> None:
    """The engine ends a production; under Mobilisation the card's resolution goes on."""
    state.stage = Stage.FOLLOW
    state.active = None
    state.pool = state.produced = 0
    _ability_done(state)


def _step(state: PlanetsState, seat: int, action: Action) -> None:
    step = state.step
    if isinstance(action, Done):
        state.influence = 0
        if step == "buy" and state.gain:
            state.step = "tokens"
        elif step == "lift":
            state.gain, state.regroup, state.step = 0, True, "tokens"
        elif step == "seal":
            state.step = "ready2"
        else:
            _ability_done(state)
        return
    if isinstance(action, Tokens):
        shrank = action.fleet < state.fleet[seat]
        state.tactics[seat], state.fleet[seat] = action.tactic, action.fleet
        state.strategy_pool[seat] = action.strategy
        state.gain = 0
        engine.log(
            state,
            "tokens",
            f"{who(seat)}'s command sheet: {action.tactic} tactic, {action.fleet} fleet, "
            f"{action.strategy} strategy",
            seat=seat,
        )
        if shrank:
            supply_everywhere(state, seat)
        if state.stage is Stage.STATUS:
            state.followers.pop(0)
            _next_redistribution(state)
        else:
            _ability_done(state)
    elif isinstance(action, BuyToken):
        state.influence -= TOKEN_PRICE
        state.gain += 1
        engine.log(state, "buy", f"{who(seat)} buys a command token", seat=seat)
    elif isinstance(action, Seal):
        for other in range(state.seats):
            if other != seat:
                place_token(state, other, action.system)
        engine.log(
            state,
            "accord",
            f"{who(seat)} names {action.system}: every other player's command token goes there",
            seat=seat,
            system=action.system,
        )
        state.step = "ready2"
    elif isinstance(action, Ready):
        state.planets[action.planet].exhausted = False
        engine.log(state, "ready", f"{who(seat)} readies {action.planet}", seat=seat)
        if step == "ready2":
            state.step = "ready1"
        else:
            _ability_done(state)
    elif isinstance(action, Appoint):
        state.speaker = action.seat
        state.goods[seat] += 2
        engine.log(
            state,
            "speaker",
            f"{who(action.seat)} becomes the speaker; {who(seat)} gains 2 trade goods",
            seat=action.seat,
        )
        _ability_done(state)
    elif isinstance(action, Place):
        if step == "build_token":
            place_token(state, seat, system_of(state, action.planet))
        state.planets[action.planet].area.add(seat, action.kind, 1)
        engine.log(
            state,
            "place",
            f"{who(seat)} places a {action.kind} on {action.planet}",
            seat=seat,
            planet=action.planet,
        )
        if step == "build":
            state.step = "build_pds"
        else:
            _ability_done(state)
    elif isinstance(action, Grant):
        state.granted.append(action.seat)
        engine.log(
            state, "grant", f"{who(action.seat)} may follow Commerce freely", seat=action.seat
        )
    elif isinstance(action, Lift):
        state.tokens[action.system].remove(seat)
        if not state.tokens[action.system]:
            del state.tokens[action.system]
        engine.log(
            state, "lift", f"{who(seat)} takes their command token off {action.system}", seat=seat
        )
        state.gain, state.regroup, state.step = 1, True, "tokens"
    elif isinstance(action, Explore):
        engine.explore(state, seat, action.planet, action.trait)
        _ability_done(state)
    elif isinstance(action, Score):
        engine.score(state, seat, action.objective)
        _ability_done(state)


def system_of(state: PlanetsState, planet: str) -> str:
    return next(sid for sid, s in state.galaxy.systems.items() if planet in s.planets)


def _ability_done(state: PlanetsState) -> None:
    """The primary or one secondary is resolved: on to the next follower or the card's end."""
    state.step = ""
    state.influence = 0
    state.gain = 0
    if state.stage is Stage.OVER:
        return
    if state.stage is Stage.PRIMARY:
        holder = state.current
        if state.strategic == 8 and all(
            state.planets[p].controller == holder for p in central_planets(state)
        ):
            state.points[holder] += 1
            engine.log(
                state,
                "score",
                f"{who(holder)} holds the central planet: 1 victory point (Dominion)",
                seat=holder,
            )
        check_win(state, holder)  # Dominion's objective or point may reach the target
        if state.winner is not None:
            return
        state.followers = [(holder + k) % state.seats for k in range(1, state.seats)]
        state.stage = Stage.SECONDARY
        state.current = state.followers[0]
        return
    _next_follower(state)


def _next_follower(state: PlanetsState) -> None:
    holder = state.holders[(state.strategic or 1) - 1]
    assert holder is not None
    state.followers.pop(0)
    if state.followers:
        state.stage = Stage.SECONDARY
        state.current = state.followers[0]
        return
    state.used[(state.strategic or 1) - 1] = True
    state.strategic = None
    state.granted = []
    state.stage = Stage.ACTION
    state.current = holder
    next_turn(state)


# --- automatic steps ------------------------------------------------------------------------


def auto(state: PlanetsState) -> bool:
    """Take a round stage's step when it leaves no real choice; False when a seat must decide."""
    if state.stage not in ROUND_STAGES:
        return False
    seat = state.current
    options = legal(state, seat)
    if len(options) == 1:  # a single choice (the last card, nothing to follow with, ...)
        do(state, seat, options[0])
        return True
    if state.step == "tokens" and state.gain == 0 and not state.regroup:
        _step(state, seat, options[0])
        return True
    return False


def claims(state: PlanetsState, action: Action) -> bool:
    """Whether this module checks and carries out `action` now: the round's own actions and
    stages, and gathering influence for the custodians' toll."""
    if isinstance(action, RoundAction) or state.stage in ROUND_STAGES:
        return True
    return (
        not state.compact
        and state.stage is Stage.COMMIT
        and isinstance(action, Exhaust | SpendGood | PayToll)
    )


def trim_problem(state: PlanetsState, action: Action, wrong: str) -> str | None:
    if action in trim_options(state):
        return None
    if isinstance(action, Scrap):
        return f"you have no {action.kind} over the fleet supply at {state.trims[0][1]}"
    return wrong


GROUPS: dict[type, tuple[str, str]] = {
    Pick: ("pick", "Pick a strategy card"),
    Strategic: ("strategic", "Strategic action"),
    Follow: ("secondary", "Secondary ability"),
    Decline: ("secondary", "Secondary ability"),
    Tokens: ("tokens", "Place command tokens"),
    BuyToken: ("buy", "Buy a command token"),
    Seal: ("seal", "Name a system"),
    Ready: ("ready", "Ready a planet"),
    Appoint: ("speaker", "Give the speaker token"),
    Place: ("place", "Place a structure"),
    Grant: ("grant", "Follow for free"),
    Lift: ("lift", "Take a command token back"),
    Score: ("score", "Score an objective"),
    Scrap: ("scrap", "Remove a ship over the fleet supply"),
    PayToll: ("toll", "Remove the custodians"),
}


def group(action: Action) -> tuple[str, str] | None:
    """The options-tree group of a round action (None for the other actions)."""
    return GROUPS.get(type(action))


REASONS = (
    ("the compact rules have no", "wrong_phase"),
    ("may not pass before", "forbidden"),
    ("is taken by", "bad_target"),
    ("you do not hold", "not_held"),
    ("is used already", "no_actions_left"),
    ("no strategy token to follow", "not_enough_money"),
    ("tokens to place in your pools", "bad_target"),
    ("the pools keep at least", "bad_target"),
    ("the toll is", "not_enough_money"),
    ("custodians still hold", "forbidden"),
    ("commit at least one ground force there", "forbidden"),
    ("cannot name the central system", "bad_target"),
    ("you control no planet in", "not_held"),
    ("is the speaker already", "bad_target"),
    ("a planet holds at most", "no_room"),
    ("over the fleet supply at", "bad_target"),
    ("you do not meet", "forbidden"),
    ("you scored", "forbidden"),
    ("does not follow their own card", "bad_target"),
)


def reason(problem: str) -> str | None:
    """The reason tag of a refusal worded here, or None for the engine's own."""
    if problem.startswith("not now") or problem.startswith("not yet"):
        return "wrong_phase"
    return next((tag for words, tag in REASONS if words in problem), None)


def window(state: PlanetsState) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Seats asked one after another: a card's secondary (clockwise from the holder's left)
    and the status phase's token placement (initiative order): (answered, later)."""
    if state.compact or not state.followers:
        return None
    if state.strategic is not None and state.stage is not Stage.PRIMARY:
        holder = state.holders[state.strategic - 1] or 0
        order = [(holder + k) % state.seats for k in range(1, state.seats)]
    elif state.stage is Stage.STATUS:
        order = initiative(state)
    else:
        return None
    done = len(order) - len(state.followers)
    return tuple(order[:done]), tuple(state.followers[1:])
