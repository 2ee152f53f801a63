"""The rules of play: legal actions by kind, and their effects.

Every action kind has one generator of its legal instances; `apply` accepts an action only
if the generator of its kind yields it, so what is listed and what is allowed never differ.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from parley.kernel import IllegalAction

from . import geometry as geo
from .actions import (
    Abolish,
    Accept,
    Action,
    Aid,
    Ask,
    Attack,
    AttackAgain,
    CallOff,
    ChooseGoal,
    ChooseIlluminati,
    Decline,
    Done,
    Drop,
    Interfere,
    Keep,
    Lasers,
    Move,
    Offer,
    Pass,
    PayMoney,
    Place,
    Play,
    Privilege,
    Recycle,
    Release,
    Roll,
    Spend,
    Transfer,
)
from .cards import Alignment, AttackKind, Card, CardSet, Goal, alignment_bonus, load
from .notation import format_action
from .state import (
    AttackState,
    Held,
    IlluminatiState,
    Pending,
    PendingMove,
    PendingPlay,
    Phase,
    Player,
)
from .state import Offer as OfferState

CARDS: CardSet = load()
GOAL_GROUPS = {2: 13, 3: 13, 4: 12, 5: 10, 6: 9, 7: 8, 8: 8}
PROTECTION = {1: 10, 2: 5, 3: 2}
MAX_OFFERS = 3  # offers and gifts a player may put to others in one turn
MAX_REORGANIZE = 6  # free moves in one reorganisation (Gnomes, Bermuda, White Collar Crime)
ANYTIME = ("Slush Fund", "Swiss Bank Account")  # specials also playable in attack windows


def card(name: str) -> Card:
    return CARDS.card(name)


# --- small queries ----------------------------------------------------------------------


def owner(state: IlluminatiState, name: str) -> int | None:
    for p in state.players:
        if name in p.links:
            return p.seat
    return None


def alive(state: IlluminatiState) -> list[int]:
    return [p.seat for p in state.players if not p.eliminated and p.illuminati]


def order_after(state: IlluminatiState, seat: int, include: bool = False) -> list[int]:
    """Living seats in play order starting after `seat` (or with it)."""
    living = set(alive(state))
    out = [(seat + i) % state.seats for i in range(0 if include else 1, state.seats)]
    return [s for s in out if s in living]


def alignments(state: IlluminatiState, name: str) -> frozenset[Alignment]:
    """A card's alignments now (the Orbital Mind Control Lasers change them for a turn)."""
    base = set(card(name).alignments)
    change = state.lasers.get(name)
    if change is not None:
        old, new = change
        if old is not None:
            base.discard(Alignment(old))
        if new is not None:
            base.add(Alignment(new))
    return frozenset(base)


def opposite(alignment: Alignment) -> Alignment | None:
    """The other alignment of its opposite pair (Criminal and Fanatic have none to reverse to)."""
    return next((b for a, b in CARDS.opposites if a is alignment and b is not alignment), None)


def hand_names(player: Player) -> list[str]:
    return [h.card for h in player.hand]


def holds(player: Player, name: str) -> bool:
    return any(h.card == name and h.decided for h in player.hand)


def capacity(state: IlluminatiState, name: str) -> int:
    """How many attacks a card may take part in this turn."""
    return 2 if card(name).hook == "two_attacks" else 1


def free_to_attack(state: IlluminatiState, name: str) -> bool:
    return state.used.get(name, 0) < capacity(state, name)


def has_hook(player: Player, hook: str) -> str | None:
    for n in player.links:
        if card(n).hook == hook:
            return n
    return None


def to_bank(state: IlluminatiState, amount: int) -> None:
    """Money leaves the table for the bank (spent, or the treasury of a card lost)."""
    state.bank_received += amount


def from_bank(state: IlluminatiState, amount: int) -> None:
    """The bank pays money onto the table (income, specials, a pass)."""
    state.bank_paid += amount


def log(state: IlluminatiState, text: str) -> None:
    state.log.append(text)
    state.log_count += 1
    del state.log[:-12]


def seat_name(seat: int) -> str:
    return f"Player {seat + 1}"


# --- the power structure ------------------------------------------------------------------


def rects(player: Player) -> dict[str, geo.Rect]:
    return geo.layout(player.links, player.illuminati)


def spots(player: Player, group: str, hosts: list[str] | None = None) -> list[tuple[str, str]]:
    """Every (host, direction) where `group` alone fits in the player's structure."""
    r = rects(player)
    out: list[tuple[str, str]] = []
    for host in hosts if hosts is not None else list(player.links):
        if host == group or host not in player.links:
            continue
        for direction in geo.free_arrows(player.links, r, host, card(host).sides):
            if geo.fits(r, host, direction):
                out.append((host, direction))
    return out


def detach(player: Player, top: str) -> tuple[dict[str, geo.Link], dict[str, int]]:
    """Take `top` and its puppets out of a structure: their links and treasuries."""
    names = geo.subtree(player.links, top)
    links = {n: player.links.pop(n) for n in names}
    money = {n: player.money.pop(n, 0) for n in names}
    return links, money


def hang(
    state: IlluminatiState,
    player: Player,
    links: dict[str, geo.Link],
    money: dict[str, int],
    top: str,
    host: str,
    direction: str,
) -> None:
    """Hang a subtree on a free arrow; puppets that do not fit wait for room."""
    left = geo.hang(player.links, player.illuminati, links, top, host, direction)
    for name in links:
        if name not in left:
            player.money[name] = money.get(name, 0)
    for name in left:
        state.pending.append(Pending(player.seat, name, None, {}, {name: money.get(name, 0)}))
        log(state, f"{name} does not fit and waits for room")


def to_center(state: IlluminatiState, names: list[str]) -> None:
    for n in names:
        if n not in state.center:
            state.center.append(n)


# --- attacks ------------------------------------------------------------------------------


def can_attack(
    state: IlluminatiState,
    seat: int,
    attacker: str,
    target: str,
    kind: str,
    whispering: bool = False,
    repeat: bool = False,
) -> bool:
    """Whether the attack may be announced (room, immunity, cards free to take part)."""
    me = state.players[seat]
    if attacker not in me.links or card(attacker).power <= 0:
        return False
    if not repeat and not free_to_attack(state, attacker):
        return False
    if target == attacker or not CARDS.is_group(target):
        return False
    target_owner = owner(state, target)
    in_center = target in state.center
    if target_owner is None and not in_center:
        return False
    power = card(target).power
    if kind == "control":
        if target_owner == seat:
            return False
        if not spots(me, target, [attacker]):
            return False
    elif kind == "neutralize":
        if target_owner is None or target_owner == seat:
            return False
    else:
        if whispering != (power == 0):
            return False
    if target_owner is not None and target_owner != seat:
        immune = card(state.players[target_owner].illuminati).immune_from
        if immune & attacking_alignments(state, attacker, target, kind):
            return False
    return True


def attacking_alignments(
    state: IlluminatiState, attacker: str, target: str, kind: str
) -> frozenset[Alignment]:
    """The attacking card's alignments in this attack: the Chinese Campaign Donors' alignment
    is set to Government against a Government target (the seed: "Set ... alignment to
    Government", replacing its Communist)."""
    att = card(attacker)
    mine = alignments(state, attacker)
    if (
        att.treat_as is not None
        and att.treat_when in alignments(state, target)
        and att.treat_attack in ("", kind)
    ):
        return frozenset({att.treat_as})
    return mine


def attack_parts(state: IlluminatiState, a: AttackState) -> dict[str, int]:
    """The terms of the number needed on 2d6, by name (the attack announcement)."""
    att = card(a.attacker)
    tgt = card(a.target)
    kind = AttackKind(a.kind)
    parts: dict[str, int] = {"power": att.power}
    parts["aid"] = sum(card(n).transferable for n in a.aids)
    mine = attacking_alignments(state, a.attacker, a.target, a.kind)
    theirs = alignments(state, a.target)
    if kind is AttackKind.DESTROY and not a.whispering:
        parts["defence"] = -tgt.power
    else:
        resistance = tgt.resistance
        if tgt.resist_value is not None and tgt.resist_against & mine:
            resistance = tgt.resist_value
        guard = None if a.defender is None else has_hook(state.players[a.defender], "survivalists")
        # The seed doubles the resistance of every group its owner holds, the Survivalists
        # included; the printed card gives +2 to the owner's other groups.
        if guard is not None:
            if state.options["survivalists"] == "double":
                resistance *= 2
            elif guard != a.target:
                resistance += 2
        parts["defence"] = -resistance
    own_target = kind is AttackKind.DESTROY and a.defender == a.attacker_seat
    bonus = alignment_bonus(mine, theirs, CARDS.opposites)
    # The seed's extension "destroying a group you control": the alignment lookup returns 0.
    parts["alignment"] = 0 if own_target else -bonus if kind is AttackKind.DESTROY else bonus
    if a.defender is not None and state.options["protection"] and not own_target:
        d = geo.depth(state.players[a.defender].links, a.target)
        parts["position"] = -PROTECTION.get(d, 0)
    special = sum(b.value for b in att.bonuses if b.applies(kind, a.target, theirs))
    illuminati = card(state.players[a.attacker_seat].illuminati)
    if not att.illuminati and state.options["illuminati_bonus"] == "structure":
        special += sum(b.value for b in illuminati.bonuses if b.applies(kind, a.target, theirs))
    parts["special"] = special
    parts["neutralize"] = 6 if kind is AttackKind.NEUTRALIZE else 0
    parts["money"] = a.attack_money
    per = 2 if state.options["defender_money"] == "seed" else 1
    parts["defence_money"] = -(2 * a.defend_group_money + per * a.defend_illuminati_money)
    parts["interference"] = a.interference
    return parts


def need(state: IlluminatiState, a: AttackState) -> int:
    return sum(attack_parts(state, a).values())


def start_attack(
    state: IlluminatiState,
    seat: int,
    attacker: str,
    target: str,
    kind: str,
    whispering: bool = False,
    aids: tuple[str, ...] = (),
    repeat: bool = False,
) -> None:
    state.attack = AttackState(
        attacker_seat=seat,
        attacker=attacker,
        target=target,
        kind=kind,
        defender=owner(state, target),
        whispering=whispering,
        aids=list(aids),
        repeat=repeat,
    )
    for n in (attacker, *aids):
        state.used[n] = state.used.get(n, 0) + 1
    state.actions_used += 1
    state.acted = True
    state.phase = Phase.ATTACK
    log(state, f"{seat_name(seat)} attacks {target} with {attacker} to {kind}")


def open_window(state: IlluminatiState) -> None:
    a = state.attack
    assert a is not None
    a.opened = True
    a.spent_since_window = False
    a.round_activity = False
    state.queue = order_after(state, a.attacker_seat)
    state.answered[Phase.REACT] = []
    state.phase = Phase.REACT
    if not state.queue:
        roll(state)


def roll(state: IlluminatiState) -> None:
    a = state.attack
    assert a is not None
    by = f"attack roll by Player {a.attacker_seat + 1}"
    d1, d2 = state.rng.randint(1, 6, label=by), state.rng.randint(1, 6, label=by)
    a.dice = (d1, d2)
    a.roll = d1 + d2
    a.committed = True
    state.dice = a.dice
    log(state, f"the dice show {d1}+{d2}={d1 + d2}; {need(state, a)} or less was needed")
    state.queue = [
        s for s in order_after(state, a.attacker_seat, include=True) if state.players[s].hand
    ]
    state.answered[Phase.AFTER_ROLL] = []
    state.phase = Phase.AFTER_ROLL
    if not state.queue:
        resolve(state)


def resolve(state: IlluminatiState) -> None:
    a = state.attack
    assert a is not None and a.roll is not None
    success = a.roll <= 10 and a.roll <= need(state, a)
    state.last_attack = attack_result(state, a, success)
    state.attack = None
    state.queue = []
    state.phase = Phase.MAIN
    me = state.players[a.attacker_seat]
    if not success:
        log(state, f"the attack on {a.target} fails")
        if state.actions_used == 1 and not a.repeat:
            state.last_failed = (a.attacker, a.target, a.kind, tuple(a.aids))
        return
    state.last_failed = None
    target_owner = owner(state, a.target)
    if a.kind == "control":
        log(state, f"{seat_name(a.attacker_seat)} takes control of {a.target}")
        if target_owner is None:
            state.center.remove(a.target)
            links = {a.target: geo.Link(None, None)}
            money = {a.target: 0}
        else:
            links, money = detach(state.players[target_owner], a.target)
            half = {n: m // 2 for n, m in money.items()}  # half goes with it, half to the bank
            to_bank(state, sum(money.values()) - sum(half.values()))
            money = half
        options = spots(me, a.target, [a.attacker])
        if len(options) == 1:
            hang(state, me, links, money, a.target, *options[0])
        else:
            state.pending.insert(0, Pending(me.seat, a.target, a.attacker, links, money))
        begin_placing(state)
    elif a.kind == "neutralize":
        assert target_owner is not None
        links, money = detach(state.players[target_owner], a.target)
        to_bank(state, sum(money.values()))
        to_center(state, list(links))
        log(state, f"{a.target} is neutralized and returns to the uncontrolled area")
    else:
        me.destroyed += 1
        if target_owner is None:
            puppets: list[str] = []
        else:
            links, money = detach(state.players[target_owner], a.target)
            to_bank(state, sum(money.values()))
            puppets = [n for n in links if n != a.target]
        if not puppets and state.options.get("destroyed_alone", "center") == "center":
            # The seed's steps 128-130: a destroyed group with no puppets is added to the
            # centre (its treasury goes to the bank, as it was detached).
            to_center(state, [a.target])
            log(state, f"{a.target} is destroyed and, with no puppets, returns to the centre")
            return
        if target_owner is None:
            state.center.remove(a.target)
        to_center(state, puppets)
        state.dead.append(a.target)
        log(state, f"{a.target} is destroyed")


def attack_result(state: IlluminatiState, a: AttackState, success: bool) -> dict[str, Any]:
    """An attack's terms, dice and result as data (all public), as it resolves."""
    parts = attack_parts(state, a)
    defence = -parts["defence"]
    result = "failed"
    if success:
        result = {"control": "controlled", "neutralize": "neutralized"}.get(a.kind, "destroyed")
    return {
        "attacker_seat": a.attacker_seat,
        "attacker": a.attacker,
        "target": a.target,
        "kind": a.kind,
        "defender": a.defender,
        "whispering_campaign": a.whispering,
        "power": parts["power"] + parts["aid"],
        # What the target sets against it: its resistance, or its power when destroyed.
        "resistance": defence,
        "aids": list(a.aids),
        "interference": a.interference,
        "attacker_money": a.attack_money,
        "defender_money": a.defend_group_money + a.defend_illuminati_money,
        "privileged": a.privileged,
        "terms": dict(parts),
        "need": sum(parts.values()),
        "dice": list(a.dice) if a.dice else None,
        "roll": a.roll,
        "roll_changed_by": a.changed_by or None,
        "result": result,
    }


# --- the sequence of play -------------------------------------------------------------------


def begin_placing(state: IlluminatiState) -> None:
    """Serve the groups waiting for room; those with no room anywhere go to the centre."""
    while state.pending:
        first = state.pending[0]
        if place_options(state, first):
            if state.phase is not Phase.PLACE:
                state.resume.append((state.phase, list(state.queue)))
                state.phase = Phase.PLACE
            return
        state.pending.pop(0)
        release(state, first)
    if state.phase is Phase.PLACE:
        state.phase, state.queue = state.resume.pop()


def place_options(state: IlluminatiState, p: Pending) -> list[tuple[str, str]]:
    player = state.players[p.seat]
    return spots(player, p.group, [p.host] if p.host else None)


def release(state: IlluminatiState, p: Pending) -> None:
    names = geo.subtree(p.puppets, p.group) if p.group in p.puppets else [p.group]
    to_bank(state, sum(p.money.values()))
    to_center(state, names)
    log(state, f"{', '.join(names)} go{'es' if len(names) == 1 else ''} to the uncontrolled area")


def begin_turn(state: IlluminatiState) -> None:
    state.actions_used = 0
    state.acted = False
    state.used = {}
    state.privilege_used = False
    state.recycled = False
    state.lasered = False
    state.lasers = {}
    state.offers_made = 0
    state.last_failed = None
    state.market = False
    me = state.active
    log(state, f"{seat_name(me)} begins turn {state.players[me].turns + 1} (round {state.round})")
    state.queue = [s for s in order_after(state, me) if state.players[s].hand]
    if state.players[me].hand:
        state.queue.append(me)
    state.answered[Phase.START] = []
    state.phase = Phase.START
    if not state.queue:
        income(state)


def income(state: IlluminatiState) -> None:
    me = state.players[state.active]
    factor = 2 if state.market else 1
    for name in list(me.links):
        c = card(name)
        if c.illuminati:
            me.money[name] += c.income
            from_bank(state, c.income)
        elif c.hook == "irs":
            for other in alive(state):
                if other == me.seat:
                    continue
                them = state.players[other]
                richest = max(them.links, key=lambda n: them.money.get(n, 0))
                tax = min(2, them.money.get(richest, 0))
                them.money[richest] -= tax
                me.money[name] += tax
        elif c.income < 0:
            loss = -c.income
            for payer in (name, me.illuminati):
                paid = min(loss, me.money[payer])
                me.money[payer] -= paid
                to_bank(state, paid)
                loss -= paid
        else:
            me.money[name] += c.income * factor
            from_bank(state, c.income * factor)
    draw(state, 2 if card(me.illuminati).hook == "draw" else 1)


def draw(state: IlluminatiState, count: int) -> None:
    me = state.players[state.active]
    for _ in range(count):
        if not state.deck:
            break
        top = state.deck.pop()
        if CARDS.is_group(top):
            state.center.append(top)
            log(state, f"{top} is drawn to the uncontrolled area")
        else:
            me.hand.append(Held(top, face_up=False, decided=False))
            log(state, f"{seat_name(me.seat)} draws a special card")
    state.phase = Phase.KEEP if any(not h.decided for h in me.hand) else Phase.MAIN


def end_turn(state: IlluminatiState) -> None:
    """The active player is done: special end-of-turn powers, then the turn ends."""
    hook = card(state.players[state.active].illuminati).hook
    if hook in ("money", "reorganize"):
        state.phase = Phase.REORGANIZE
        state.reorganize = "money" if hook == "money" else "groups"
        state.reorganize_moves = 0
        state.after_reorganize = "end"
        return
    finish_turn(state)


def finish_turn(state: IlluminatiState) -> None:
    me = state.players[state.active]
    me.turns += 1
    while len(state.center) < 2 and state.deck:
        top = state.deck.pop()
        if CARDS.is_group(top):
            state.center.append(top)
        else:
            state.dead.append(top)
    state.lasers = {}
    if state.options["elimination"] and me.turns >= 3 and not me.groups():
        eliminate(state, me)
    if check_winners(state):
        return
    living = alive(state)
    following = [s for s in order_after(state, state.active) if s in living]
    nxt = following[0]
    if _new_round(state, nxt):
        state.round += 1
        limit = int(state.options["rounds"])
        if limit and state.round > limit:
            end_by_rounds(state)
            return
    state.active = nxt
    state.turn_number += 1
    begin_turn(state)


def _new_round(state: IlluminatiState, nxt: int) -> bool:
    """Whether passing play from the active seat to `nxt` begins a new round.

    A round ends when play comes back round to the first player (or passes its place, once
    it is out), so every seat gets the same number of turns. Games stored before the
    `round_ends` option counted a round whenever play passed Player 1 instead.
    """
    if state.options.get("round_ends", "first_player") == "player_1":
        return nxt <= state.active
    seats = state.seats
    return (nxt - state.first) % seats <= (state.active - state.first) % seats


def eliminate(state: IlluminatiState, player: Player) -> None:
    player.eliminated = True
    state.dead.extend(h.card for h in player.hand)
    player.hand.clear()
    to_bank(state, sum(player.money.values()))
    player.money = {n: 0 for n in player.links}
    log(state, f"{seat_name(player.seat)} controls no group after three turns and is out")


def groups_needed(state: IlluminatiState) -> int:
    return GOAL_GROUPS[state.seats]


def goal_met(state: IlluminatiState, player: Player) -> bool:
    if len(player.groups()) >= groups_needed(state):
        return True
    goal = card(player.illuminati).check
    if goal is not None and goal.kind == "chosen":
        goal = card(player.goal).check if player.goal else None
    return goal is not None and special_goal(state, player, goal)


def special_goal(state: IlluminatiState, player: Player, goal: Goal) -> bool:
    """Whether `player` meets a special goal (the goal's data say what to count)."""
    groups = player.groups()
    counted = groups + ([player.illuminati] if state.options["goals_count_illuminati"] else [])
    kind = goal.kind
    if kind == "power":
        total = sum(card(g).power for g in counted)
    elif kind == "transferable":
        total = sum(card(g).transferable for g in counted)
    elif kind == "money":
        total = sum(player.money.get(g, 0) for g in counted)
    elif kind == "destroyed":
        total = player.destroyed
    elif kind == "alignment":
        total = sum(goal.alignment in card(g).alignments for g in groups)
    elif kind == "every_alignment":
        held = set().union(*(card(g).alignments for g in groups)) if groups else set()
        return len(held) == len(Alignment)
    else:
        return False
    return total >= goal.at_least


def check_winners(state: IlluminatiState) -> bool:
    living = alive(state)
    winners = [s for s in living if goal_met(state, state.players[s])]
    if not winners and len(living) == 1:
        winners = living
        state.reason = f"{seat_name(living[0])} is the last conspiracy standing"
    elif winners:
        names = ", ".join(seat_name(w) for w in winners)
        state.reason = f"{names} reached {'their goals' if len(winners) > 1 else 'a goal'}"
    if not winners:
        return False
    state.winners = winners
    state.phase = Phase.OVER
    state.queue = []
    log(state, state.reason)
    return True


def end_by_rounds(state: IlluminatiState) -> None:
    living = alive(state)
    best = max(len(state.players[s].groups()) for s in living)
    state.winners = [s for s in living if len(state.players[s].groups()) == best]
    state.reason = f"the round limit ({state.options['rounds']}) was reached; most groups wins"
    state.phase = Phase.OVER
    state.queue = []
    log(state, state.reason)


# --- specials ----------------------------------------------------------------------------


def take_from_hand(player: Player, name: str) -> None:
    for i, h in enumerate(player.hand):
        if h.card == name and h.decided:
            del player.hand[i]
            return
    raise IllegalAction(f"{seat_name(player.seat)} holds no {name}")


def play_special(state: IlluminatiState, seat: int, play: Play) -> None:
    take_from_hand(state.players[seat], play.card)
    log(state, f"{seat_name(seat)} plays {play.card}")
    if play.card in ("Bribery", "Whispering Campaign"):
        state.actions_used += 1
    if seat == state.active:
        state.acted = True
    answer = [s for s in order_after(state, seat) if state.players[s].hand]
    if answer:
        state.resume.append((state.phase, list(state.queue)))
        state.playing = PendingPlay(seat, play.card, play.target, play.using)
        state.queue = answer
        state.answered[Phase.SECRETS] = []
        state.phase = Phase.SECRETS
        return
    state.dead.append(play.card)
    special_effect(state, seat, play.card, play.target, play.using)


def special_effect(
    state: IlluminatiState, seat: int, name: str, target: str | None, using: str | None
) -> None:
    EFFECTS[name](state, seat, target, using)


def _assassination(
    state: IlluminatiState, seat: int, target: str | None, using: str | None
) -> None:
    assert state.attack is not None
    state.attack.roll, state.attack.changed_by = 2, "Assassination"


def _murphy(state: IlluminatiState, seat: int, target: str | None, using: str | None) -> None:
    assert state.attack is not None
    state.attack.roll, state.attack.changed_by = 12, "Murphy's Law"


def _bribery(state: IlluminatiState, seat: int, target: str | None, using: str | None) -> None:
    assert target is not None
    if target not in state.center:
        return  # gone meanwhile (cannot happen in one turn, but the card is spent either way)
    state.center.remove(target)
    state.pending.append(Pending(seat, target, None, {target: geo.Link(None, None)}, {target: 0}))
    begin_placing(state)


def _espionage(state: IlluminatiState, seat: int, target: str | None, using: str | None) -> None:
    assert target is not None
    me = state.players[seat]
    if target.startswith("Player "):
        other = state.players[int(target.split()[1]) - 1]
        other.hand = [Held(h.card, h.face_up, h.decided, h.seen_by | {seat}) for h in other.hand]
        cards = ", ".join(sorted(h.card for h in other.hand)) or "no special card"
        me.notes.append(f"Computer Espionage, turn {state.turn_number + 1}: {target} holds {cards}")
    else:
        holder = owner(state, target)
        money = 0 if holder is None else state.players[holder].money.get(target, 0)
        me.notes.append(
            f"Computer Espionage, turn {state.turn_number + 1}: {target} holds {money} MB"
        )


def _deep_agent(state: IlluminatiState, seat: int, target: str | None, using: str | None) -> None:
    assert state.attack is not None
    state.attack.privileged, state.attack.abolished = False, True
    state.attack.spent_since_window = True  # interference is open again: a new round


def _interference(state: IlluminatiState, seat: int, target: str | None, using: str | None) -> None:
    assert state.attack is not None
    state.attack.interferers.append(seat)


def _market(state: IlluminatiState, seat: int, target: str | None, using: str | None) -> None:
    state.market = True


def _media(state: IlluminatiState, seat: int, target: str | None, using: str | None) -> None:
    assert target is not None
    state.dead.remove(target)
    state.center.append(target)


def _senate(state: IlluminatiState, seat: int, target: str | None, using: str | None) -> None:
    log(state, f"{seat_name(state.active)} loses the turn")
    state.queue = []
    finish_turn(state)


def _cash(amount: int) -> Callable[[IlluminatiState, int, str | None, str | None], None]:
    def effect(state: IlluminatiState, seat: int, target: str | None, using: str | None) -> None:
        me = state.players[seat]
        me.money[me.illuminati] += amount
        from_bank(state, amount)

    return effect


def _whispering(state: IlluminatiState, seat: int, target: str | None, using: str | None) -> None:
    assert target is not None and using is not None
    state.actions_used -= 1  # start_attack counts it again
    start_attack(state, seat, using, target, "destroy", whispering=True)
    assert state.attack is not None
    state.attack.answers.append((seat, format_action(Play("Whispering Campaign", target, using))))


def _white_collar(state: IlluminatiState, seat: int, target: str | None, using: str | None) -> None:
    assert target is not None
    me = state.players[seat]
    me.money[target] += 5
    from_bank(state, 5)
    state.phase = Phase.REORGANIZE
    state.reorganize = "wcc"
    state.reorganize_moves = 0
    state.after_reorganize = "main"


EFFECTS: dict[str, Callable[[IlluminatiState, int, str | None, str | None], None]] = {
    "Assassination": _assassination,
    "Bribery": _bribery,
    "Computer Espionage": _espionage,
    "Deep Agent": _deep_agent,
    "Interference": _interference,
    "Market Manipulation": _market,
    "Media Campaign": _media,
    "Murphy's Law": _murphy,
    "Senate Investigating Committee": _senate,
    "Slush Fund": _cash(15),
    "Swiss Bank Account": _cash(25),
    "Whispering Campaign": _whispering,
    "White Collar Crime": _white_collar,
}

# --- who owes what --------------------------------------------------------------------------


def owed_seat(state: IlluminatiState) -> int | None:
    phase = state.phase
    if phase is Phase.OVER:
        return None
    if phase in (Phase.CHOOSE, Phase.START, Phase.REACT, Phase.AFTER_ROLL, Phase.SECRETS):
        return state.queue[0]
    if phase is Phase.GOAL:
        return next(p.seat for p in state.players if card(p.illuminati).hook == "two_attacks")
    if phase is Phase.PLACE:
        return state.pending[0].seat
    if phase is Phase.PRICE:
        assert state.offer is not None
        return state.offer.giver
    if phase is Phase.ANSWER:
        assert state.offer is not None
        return state.offer.receiver
    if phase is Phase.CONFIRM:
        assert state.moving is not None
        return state.moving.seat
    return state.active


OWED_KIND = {
    Phase.CHOOSE: "illuminati",
    Phase.GOAL: "goal",
    Phase.START: "start",
    Phase.KEEP: "keep",
    Phase.MAIN: "turn",
    Phase.ATTACK: "attack",
    Phase.REACT: "react",
    Phase.AFTER_ROLL: "after_roll",
    Phase.SECRETS: "secrets",
    Phase.PLACE: "place",
    Phase.PRICE: "price",
    Phase.ANSWER: "answer",
    Phase.REORGANIZE: "reorganize",
    Phase.CONFIRM: "confirm",
}


PROMPTS = {
    "illuminati": "take an Illuminati card",
    "goal": "choose the UFOs' secret goal",
    "start": "play a card at the start of the turn, or pass",
    "keep": "keep the drawn special card face up or face down",
    "turn": "take an action, or end the turn (pass for 5 MB before any action, done after)",
    "attack": "aid, spend money, make it privileged, call off, or roll",
    "react": "answer the attack (spend, interfere, privilege, a card), or pass",
    "after_roll": "change the roll with a card, or pass",
    "secrets": "answer the special card just played, or pass",
    "place": "place the group waiting for room, or release it",
    "price": "name the price of your offer",
    "answer": "accept or decline",
    "reorganize": "reorganize freely, or done",
    "confirm": "the move would lose cards: accept it, or decline and nothing changes",
}


# --- legal actions, by kind ---------------------------------------------------------------

Gen = Callable[[IlluminatiState, int], Iterator[Action]]


def _specials_held(state: IlluminatiState, seat: int) -> list[str]:
    return sorted({h.card for h in state.players[seat].hand if h.decided})


def _cards_of(state: IlluminatiState, seat: int) -> list[str]:
    return list(state.players[seat].links)


def untaken_illuminati(state: IlluminatiState) -> list[Card]:
    taken = {p.illuminati for p in state.players}
    return [c for c in CARDS.illuminati if c.name not in taken]


def g_choose(state: IlluminatiState, seat: int) -> Iterator[Action]:
    for c in untaken_illuminati(state):
        yield ChooseIlluminati(c.name)


def g_goal(state: IlluminatiState, seat: int) -> Iterator[Action]:
    for c in CARDS.illuminati:
        if c.hook != "two_attacks":
            yield ChooseGoal(c.name)


def g_pass(state: IlluminatiState, seat: int) -> Iterator[Action]:
    if state.phase is not Phase.MAIN or not state.acted:
        yield Pass()


def g_done(state: IlluminatiState, seat: int) -> Iterator[Action]:
    if state.phase is Phase.REORGANIZE or state.acted:
        yield Done()


def g_keep(state: IlluminatiState, seat: int) -> Iterator[Action]:
    yield Keep(True)
    yield Keep(False)


def g_play(state: IlluminatiState, seat: int) -> Iterator[Action]:
    held = _specials_held(state, seat)
    phase = state.phase
    me = state.players[seat]
    a = state.attack
    for name in held:
        if phase is Phase.START:
            if name == "Senate Investigating Committee" and seat != state.active:
                yield Play(name)
            if name == "Market Manipulation" and seat == state.active and not state.market:
                yield Play(name)
        elif phase is Phase.AFTER_ROLL:
            if name in ("Assassination", "Murphy's Law"):
                yield Play(name)
        elif phase is Phase.SECRETS:
            if name == "Secrets Man Was Not Meant to Know":
                yield Play(name)
        elif phase in (Phase.ATTACK, Phase.REACT):
            assert a is not None
            if name in ANYTIME:
                yield Play(name)
            if phase is Phase.REACT and a.privileged:
                if name == "Deep Agent":
                    yield Play(name)
                if name == "Interference" and seat not in a.interferers and seat != a.defender:
                    yield Play(name)
        elif phase is Phase.MAIN:
            if name in ANYTIME:
                yield Play(name)
            elif name == "Computer Espionage":
                for p in state.players:
                    if p.seat != seat and not p.eliminated and p.illuminati:
                        yield Play(name, seat_name(p.seat))
                for p in state.players:
                    if p.seat != seat:
                        for g in p.groups():
                            yield Play(name, g)
            elif name == "Media Campaign":
                for g in state.dead:
                    if CARDS.is_group(g):
                        yield Play(name, g)
            elif name == "White Collar Crime":
                for c in me.links:
                    yield Play(name, c)
            elif name == "Bribery" and state.actions_used < 2:
                for g in state.center:
                    if spots(me, g):
                        yield Play(name, g)
            elif name == "Whispering Campaign" and state.actions_used < 2:
                for target in _all_groups(state):
                    if card(target).power != 0:
                        continue
                    for att in me.links:
                        if can_attack(state, seat, att, target, "destroy", whispering=True):
                            yield Play(name, target, att)


def _all_groups(state: IlluminatiState) -> list[str]:
    out = list(state.center)
    for p in state.players:
        out.extend(p.groups())
    return out


def g_attack(state: IlluminatiState, seat: int) -> Iterator[Action]:
    if state.actions_used >= 2:
        return
    me = state.players[seat]
    targets = _all_groups(state)
    for att in me.links:
        if card(att).power <= 0 or not free_to_attack(state, att):
            continue
        for target in targets:
            for kind in ("control", "neutralize", "destroy"):
                if can_attack(state, seat, att, target, kind):
                    yield Attack(target, att, kind)


def g_again(state: IlluminatiState, seat: int) -> Iterator[Action]:
    last = state.last_failed
    if last is None or state.actions_used != 1:
        return
    att, target, kind, aids = last
    me = state.players[seat]
    if all(n in me.links for n in aids) and can_attack(state, seat, att, target, kind, repeat=True):
        yield AttackAgain()


def g_aid(state: IlluminatiState, seat: int) -> Iterator[Action]:
    a = state.attack
    assert a is not None
    if a.opened or a.repeat:
        return
    for n in state.players[seat].links:
        if (
            card(n).transferable > 0
            and n not in (a.attacker, a.target)
            and n not in a.aids
            and free_to_attack(state, n)
        ):
            yield Aid(n)


def g_spend(state: IlluminatiState, seat: int) -> Iterator[Action]:
    a = state.attack
    assert a is not None
    me = state.players[seat]
    if state.phase is Phase.ATTACK:
        sources: list[str | None] = [None]
        if a.attacker != me.illuminati:
            sources.append(a.attacker)
    elif seat == a.defender:
        sources = [None, a.target]
    else:
        return
    for source in sources:
        for amount in range(1, me.money.get(source or me.illuminati, 0) + 1):
            yield Spend(amount, source)


def g_interfere(state: IlluminatiState, seat: int) -> Iterator[Action]:
    a = state.attack
    assert a is not None
    if seat in (a.defender, a.attacker_seat):
        return
    if a.privileged and seat not in a.interferers:
        return
    me = state.players[seat]
    for amount in range(1, me.money[me.illuminati] + 1):
        yield Interfere(amount, False)
        yield Interfere(amount, True)


def g_roll(state: IlluminatiState, seat: int) -> Iterator[Action]:
    yield Roll()


def g_call_off(state: IlluminatiState, seat: int) -> Iterator[Action]:
    a = state.attack
    assert a is not None
    if not a.committed and not a.repeat:
        yield CallOff()


def g_privilege(state: IlluminatiState, seat: int) -> Iterator[Action]:
    a = state.attack
    assert a is not None
    if a.privileged or a.abolished:
        return
    if state.phase is Phase.ATTACK and a.opened:
        return  # the attacker declares privilege with the announcement (seed steps 31-34)
    me = state.players[seat]
    if (
        state.phase is Phase.ATTACK
        and card(me.illuminati).hook == "privilege"
        and not state.privilege_used
        and me.money[me.illuminati] >= 5
    ):
        yield Privilege(None)
    if seat != a.attacker_seat and state.options.get("privilege_by", "attacker") == "attacker":
        return  # the seed: the attacker declares privilege by discarding a special card
    for name in _specials_held(state, seat):
        yield Privilege(name)


def g_abolish(state: IlluminatiState, seat: int) -> Iterator[Action]:
    a = state.attack
    assert a is not None
    if not a.privileged:
        return
    names = sorted(h.card for h in state.players[seat].hand if h.decided)
    seen: set[tuple[str, str]] = set()
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            pair = (names[i], names[j])
            if pair not in seen:
                seen.add(pair)
                yield Abolish(*pair)


def _adjacent(player: Player, a: str, b: str) -> bool:
    return player.links[a].parent == b or player.links[b].parent == a


def g_transfer(state: IlluminatiState, seat: int) -> Iterator[Action]:
    me = state.players[seat]
    if state.phase is Phase.MAIN:
        if state.actions_used >= 2:
            return
        free = False
    else:
        if state.reorganize not in ("money", "wcc") or state.reorganize_moves >= MAX_REORGANIZE:
            return
        free = True
    for src in me.links:
        if me.money.get(src, 0) <= 0:
            continue
        anywhere = free or card(src).hook == "federal_reserve"
        for dst in me.links:
            if dst == src or not (anywhere or _adjacent(me, src, dst)):
                continue
            for amount in range(1, me.money[src] + 1):
                yield Transfer(amount, src, dst)


def move_spots(player: Player, group: str) -> list[tuple[str, str]]:
    """Where a group may be moved: a free arrow of a card outside its own puppets."""
    moving = set(geo.subtree(player.links, group))
    rest = {n: link for n, link in player.links.items() if n not in moving}
    r = geo.layout(rest, player.illuminati)
    here = player.links[group]
    out: list[tuple[str, str]] = []
    for host in rest:
        for direction in geo.free_arrows(rest, r, host, card(host).sides):
            if host == here.parent and geo.local(r[host].facing, direction) == here.side:
                continue
            if geo.fits(r, host, direction):
                out.append((host, direction))
    return out


def g_move(state: IlluminatiState, seat: int) -> Iterator[Action]:
    if state.phase is Phase.MAIN:
        if state.actions_used >= 2:
            return
    elif state.reorganize != "groups" or state.reorganize_moves >= MAX_REORGANIZE:
        return
    me = state.players[seat]
    for g in me.groups():
        for host, direction in move_spots(me, g):
            yield Move(g, host, direction)


def g_place(state: IlluminatiState, seat: int) -> Iterator[Action]:
    p = state.pending[0]
    for host, direction in place_options(state, p):
        yield Place(p.group, host, direction)


def g_release(state: IlluminatiState, seat: int) -> Iterator[Action]:
    yield Release(state.pending[0].group)


def g_drop(state: IlluminatiState, seat: int) -> Iterator[Action]:
    for g in state.players[seat].groups():
        yield Drop(g)


def g_offer(state: IlluminatiState, seat: int) -> Iterator[Action]:
    if state.offers_made >= MAX_OFFERS:
        return
    me = state.players[seat]
    others = [s for s in alive(state) if s != seat]
    items = _specials_held(state, seat)
    if state.actions_used < 2:
        items = me.groups() + items
    for item in items:
        for s in others:
            yield Offer(item, s)


def g_pay(state: IlluminatiState, seat: int) -> Iterator[Action]:
    if state.offers_made >= MAX_OFFERS:
        return
    me = state.players[seat]
    for s in alive(state):
        if s != seat:
            for amount in range(1, me.money[me.illuminati] + 1):
                yield PayMoney(amount, s)


def g_ask(state: IlluminatiState, seat: int) -> Iterator[Action]:
    offer = state.offer
    assert offer is not None
    them = state.players[offer.receiver]
    yield Ask()
    for g in them.groups():
        yield Ask(group=g)
    for amount in range(1, them.money[them.illuminati] + 1):
        yield Ask(money=amount)


def g_answer(state: IlluminatiState, seat: int) -> Iterator[Action]:
    yield Accept()
    yield Decline()


def g_yes(state: IlluminatiState, seat: int) -> Iterator[Action]:
    yield Accept()


def g_no(state: IlluminatiState, seat: int) -> Iterator[Action]:
    yield Decline()


def lasers_reading(state: IlluminatiState) -> str:
    return str(state.options.get("lasers", "switch"))


def g_lasers(state: IlluminatiState, seat: int) -> Iterator[Action]:
    """Once in its owner's turn, one alignment of any other group in play, for the turn.

    The seed ("switch"): one alignment the group has becomes one it has not; a group with
    no alignment takes one. The option "add_remove_reverse": add one it has not, remove one
    it has, or turn one into its opposite when the group has not that one already.
    """
    me = state.players[seat]
    lasers = has_hook(me, "lasers")
    if lasers is None or state.lasered:
        return
    switch = lasers_reading(state) == "switch"
    for g in _all_groups(state):
        if g == lasers:
            continue
        now = alignments(state, g)
        if switch:
            if not now:
                for al in Alignment:
                    yield Lasers(g, None, al.value)
            for old in Alignment:
                if old in now:
                    for al in Alignment:
                        if al not in now:
                            yield Lasers(g, old.value, al.value)
            continue
        for al in Alignment:
            yield Lasers(g, al.value, None) if al in now else Lasers(g, None, al.value)
        for old in Alignment:
            opp = opposite(old)
            if old in now and opp is not None and opp not in now:
                yield Lasers(g, old.value, opp.value)


def lasers_refusal(state: IlluminatiState, seat: int, action: Lasers) -> str:
    """Why a use of the Lasers is refused, in words (the caller knows it is illegal)."""
    me = state.players[seat]
    lasers = has_hook(me, "lasers")
    if owed_seat(state) != seat or state.phase is not Phase.MAIN:
        return "the Orbital Mind Control Lasers are used in their owner's turn, between actions"
    if lasers is None:
        return f"{seat_name(seat)} controls no Orbital Mind Control Lasers"
    if state.lasered:
        return "the Orbital Mind Control Lasers have been used this turn already"
    if action.group == lasers:
        return "the Orbital Mind Control Lasers change another group, not themselves"
    if action.group not in _all_groups(state):
        return f"{action.group} is no group in play"
    now = alignments(state, action.group)
    has = ", ".join(sorted(a.value for a in now)) or "no alignment"
    what = f"{action.group} ({has})"
    old = None if action.old is None else Alignment(action.old)
    new = None if action.new is None else Alignment(action.new)
    if lasers_reading(state) == "switch":
        if new is None:
            return (
                "the Lasers switch an alignment to another (option lasers=switch), they do "
                f"not remove one: write e.g. 'lasers {action.group} from {action.old} to ...'"
            )
        if old is None and now:
            return (
                f"{what}: name the alignment to switch, e.g. "
                f"'lasers {action.group} from {sorted(a.value for a in now)[0]} to {new.value}'"
            )
    elif old is not None and new is not None and opposite(old) is not new:
        opp = opposite(old)
        return (
            "with the option lasers=add_remove_reverse an alignment is added, removed or "
            f"reversed to its opposite; {old.value} reverses to "
            f"{opp.value if opp is not None else 'nothing'}"
        )
    if old is not None and old not in now:
        return f"{what} has no {old.value} alignment to change"
    if new is not None and new in now:
        return f"{what} is {new.value} already: that changes nothing"
    return f"{format_action(action)!r} is not allowed now"


def g_recycle(state: IlluminatiState, seat: int) -> Iterator[Action]:
    me = state.players[seat]
    rec = has_hook(me, "recyclers")
    if rec is not None and not state.recycled and me.money.get(rec, 0) >= 5 and state.deck:
        yield Recycle()


GENERATORS: dict[Phase, tuple[tuple[type, Gen], ...]] = {
    Phase.CHOOSE: ((ChooseIlluminati, g_choose),),
    Phase.GOAL: ((ChooseGoal, g_goal),),
    Phase.START: ((Pass, g_pass), (Play, g_play)),
    Phase.KEEP: ((Keep, g_keep),),
    Phase.MAIN: (
        (Pass, g_pass),
        (Done, g_done),
        (Attack, g_attack),
        (AttackAgain, g_again),
        (Transfer, g_transfer),
        (Move, g_move),
        (Offer, g_offer),
        (PayMoney, g_pay),
        (Drop, g_drop),
        (Play, g_play),
        (Lasers, g_lasers),
        (Recycle, g_recycle),
    ),
    Phase.ATTACK: (
        (Roll, g_roll),
        (CallOff, g_call_off),
        (Aid, g_aid),
        (Spend, g_spend),
        (Privilege, g_privilege),
        (Play, g_play),
    ),
    Phase.REACT: (
        (Pass, g_pass),
        (Spend, g_spend),
        (Interfere, g_interfere),
        (Privilege, g_privilege),
        (Abolish, g_abolish),
        (Play, g_play),
    ),
    Phase.AFTER_ROLL: ((Pass, g_pass), (Play, g_play)),
    Phase.SECRETS: ((Pass, g_pass), (Play, g_play)),
    Phase.PLACE: ((Place, g_place), (Release, g_release)),
    Phase.PRICE: ((Ask, g_ask),),
    Phase.ANSWER: ((Accept, g_answer), (Decline, g_answer)),
    Phase.REORGANIZE: ((Done, g_done), (Transfer, g_transfer), (Move, g_move)),
    Phase.CONFIRM: ((Accept, g_yes), (Decline, g_no)),
}


def kinds(state: IlluminatiState, seat: int) -> tuple[tuple[type, Gen], ...]:
    if owed_seat(state) != seat:
        return ()
    return GENERATORS.get(state.phase, ())


def legal(state: IlluminatiState, seat: int) -> list[Action]:
    return [a for _, gen in kinds(state, seat) for a in gen(state, seat)]


def is_legal(state: IlluminatiState, seat: int, action: Action) -> bool:
    for kind, gen in kinds(state, seat):
        if isinstance(action, kind) and any(a == action for a in gen(state, seat)):
            return True
    return False


# --- effects of actions --------------------------------------------------------------------


def setup(seats: int, options: dict[str, object], rng: object) -> IlluminatiState:
    from parley.kernel import Rng

    assert isinstance(rng, Rng)
    deck = CARDS.deck()
    rng.shuffle(deck, label="the deck (its top is the last card)")
    state = IlluminatiState(
        seats=seats,
        options=dict(options),  # type: ignore[arg-type]
        rng=rng,
        players=[Player(s) for s in range(seats)],
        deck=deck,
    )
    while len(state.center) < 4:
        top = state.deck.pop()
        if CARDS.is_group(top):
            state.center.append(top)
        else:  # a special card is buried back in the deck
            buried = rng.below(len(state.deck) + 1, label=f"where {top} is buried in the deck")
            state.deck.insert(buried, top)
    contenders = list(range(seats))
    while len(contenders) > 1:
        rolls = {
            s: rng.randint(1, 6, label=f"first-player roll by Player {s + 1}")
            + rng.randint(1, 6, label=f"first-player roll by Player {s + 1}")
            for s in contenders
        }
        best = max(rolls.values())
        contenders = [s for s in contenders if rolls[s] == best]
    state.first = state.active = contenders[0]
    order = [(state.first + i) % seats for i in range(seats)]
    if options["illuminati"] == "random":
        names = [c.name for c in CARDS.illuminati]
        rng.shuffle(names, label="Illuminati dealt from the first player on")
        for seat, name in zip(order, names, strict=False):
            take_illuminati(state, seat, name)
        after_choosing(state)
    else:
        state.phase = Phase.CHOOSE
        state.queue = order
    return state


def take_illuminati(state: IlluminatiState, seat: int, name: str) -> None:
    player = state.players[seat]
    player.illuminati = name
    player.links = {name: geo.Link(None, None)}
    player.money = {name: card(name).income}
    from_bank(state, card(name).income)
    log(state, f"{seat_name(seat)} takes the {name}")


def after_choosing(state: IlluminatiState) -> None:
    taken = {p.illuminati for p in state.players}
    state.dead.extend(c.name for c in CARDS.illuminati if c.name not in taken)
    if any(card(p.illuminati).hook == "two_attacks" for p in state.players):
        state.phase = Phase.GOAL
        state.queue = []
        return
    state.active = state.first
    begin_turn(state)


def have_said(state: IlluminatiState) -> bool:
    """The seat at the head of a window has had its say; whether the window is now closed."""
    state.answered.setdefault(state.phase, []).append(state.queue.pop(0))
    if state.queue:
        return False
    del state.answered[state.phase]
    return True


def advance(state: IlluminatiState) -> None:
    """The seat at the head of a window is done; the next one answers, or the window closes."""
    if not have_said(state):
        return
    if state.phase is Phase.START:
        income(state)
    elif state.phase is Phase.REACT:
        a = state.attack
        assert a is not None
        if a.round_activity:
            state.phase = Phase.ATTACK
        else:
            roll(state)
    elif state.phase is Phase.AFTER_ROLL:
        resolve(state)
    elif state.phase is Phase.SECRETS:
        finish_secrets(state, neutralized=False)


def finish_secrets(state: IlluminatiState, neutralized: bool) -> None:
    played = state.playing
    assert played is not None
    state.playing = None
    state.answered.pop(Phase.SECRETS, None)
    state.phase, state.queue = state.resume.pop()
    state.dead.append(played.card)
    if neutralized:
        log(state, f"{played.card} is cancelled by Secrets Man Was Not Meant to Know")
        return
    special_effect(state, played.seat, played.card, played.target, played.using)


def do(state: IlluminatiState, seat: int, action: Action) -> None:
    """Change the state by a legal action (the caller has checked it)."""
    me = state.players[seat]
    a = state.attack
    if a is not None and state.phase in (Phase.ATTACK, Phase.REACT, Phase.AFTER_ROLL):
        a.answers.append((seat, format_action(action)))
    if isinstance(action, ChooseIlluminati):
        take_illuminati(state, seat, action.name)
        if have_said(state):
            after_choosing(state)
    elif isinstance(action, ChooseGoal):
        me.goal = action.name
        state.active = state.first
        begin_turn(state)
    elif isinstance(action, Keep):
        i = next(i for i, h in enumerate(me.hand) if not h.decided)
        me.hand[i] = Held(me.hand[i].card, action.face_up, True)
        if all(h.decided for h in me.hand):
            state.phase = Phase.MAIN
    elif isinstance(action, Pass):
        if state.phase is Phase.MAIN:
            me.money[me.illuminati] += 5
            from_bank(state, 5)
            log(state, f"{seat_name(seat)} passes and collects 5 MB")
            end_turn(state)
        else:
            advance(state)
    elif isinstance(action, Done):
        if state.phase is Phase.MAIN:
            end_turn(state)
        elif state.after_reorganize == "end":
            finish_turn(state)
        else:
            state.phase = Phase.MAIN
    elif isinstance(action, Attack):
        start_attack(state, seat, action.attacker, action.target, action.kind)
        announced = Attack(action.target, action.attacker, action.kind)
        assert state.attack is not None
        state.attack.answers.append((seat, format_action(announced)))
        if action.spend:
            do(state, seat, Spend(action.spend, action.source))
    elif isinstance(action, AttackAgain):
        assert state.last_failed is not None
        att, target, kind, aids = state.last_failed
        state.last_failed = None
        start_attack(state, seat, att, target, kind, aids=aids, repeat=True)
        assert state.attack is not None
        state.attack.answers.append((seat, format_action(action)))
    elif isinstance(action, Aid):
        assert a is not None
        a.aids.append(action.card)
        state.used[action.card] = state.used.get(action.card, 0) + 1
    elif isinstance(action, Spend):
        assert a is not None
        source = action.source or me.illuminati
        me.money[source] -= action.amount
        to_bank(state, action.amount)
        a.committed = True
        if state.phase is Phase.ATTACK:
            a.attack_money += action.amount
            a.spent_since_window = True
        elif action.source is None:
            a.defend_illuminati_money += action.amount
            a.round_activity = True
        else:
            a.defend_group_money += action.amount
            a.round_activity = True
        log(state, f"{seat_name(seat)} spends {action.amount} MB on the attack")
    elif isinstance(action, Interfere):
        assert a is not None
        me.money[me.illuminati] -= action.amount
        to_bank(state, action.amount)
        a.interference += -action.amount if action.against else action.amount
        a.committed = True
        a.round_activity = True
        side = "against" if action.against else "for"
        log(state, f"{seat_name(seat)} interferes {side} the attack with {action.amount} MB")
    elif isinstance(action, Roll):
        assert a is not None
        if not a.opened or a.spent_since_window:
            open_window(state)
        else:
            roll(state)
    elif isinstance(action, CallOff):
        state.attack = None
        state.actions_used -= 1  # the cards named have taken part, but no action is spent
        state.phase = Phase.MAIN
        log(state, f"{seat_name(seat)} calls off the attack")
    elif isinstance(action, Privilege):
        assert a is not None
        if action.discard is None:
            me.money[me.illuminati] -= 5
            to_bank(state, 5)
            state.privilege_used = True
        else:
            take_from_hand(me, action.discard)
            state.dead.append(action.discard)
        a.privileged = True
        if state.phase is Phase.REACT:
            a.round_activity = True
        log(state, f"{seat_name(seat)} makes the attack privileged")
    elif isinstance(action, Abolish):
        assert a is not None
        for name in (action.first, action.second):
            take_from_hand(me, name)
            state.dead.append(name)
        a.privileged, a.abolished = False, True
        a.round_activity = True
        # "Interferences for attack are unblocked": those who passed while the privilege
        # held are asked again before the dice
        a.spent_since_window = True
        log(state, f"{seat_name(seat)} abolishes the privilege")
    elif isinstance(action, Play):
        if state.phase is Phase.SECRETS:
            take_from_hand(me, action.card)
            state.dead.append(action.card)
            log(state, f"{seat_name(seat)} plays {action.card}")
            finish_secrets(state, neutralized=True)
            return
        if state.phase is Phase.REACT and a is not None:
            a.round_activity = True
        play_special(state, seat, action)
    elif isinstance(action, Transfer):
        me.money[action.source] -= action.amount
        me.money[action.dest] += action.amount
        count_action(state)
    elif isinstance(action, Move):
        lost = move_losses(me, action.group, action.host, action.direction)
        # A state from before the option (an old snapshot) keeps moving at once.
        if lost and state.options.get("move_overflow", "wait") == "confirm":
            # The seed's Move a Group, steps 9-10: show what would be lost and ask.
            state.moving = PendingMove(
                seat, action.group, action.host, action.direction, tuple(lost), state.phase
            )
            state.phase = Phase.CONFIRM
            return
        links, money = detach(me, action.group)
        hang(state, me, links, money, action.group, action.host, action.direction)
        count_action(state)
        begin_placing(state)
    elif isinstance(action, Place):
        p = state.pending.pop(0)
        links = p.puppets or {p.group: geo.Link(None, None)}
        hang(state, me, links, p.money, p.group, action.host, action.direction)
        begin_placing(state)
    elif isinstance(action, Release):
        release(state, state.pending.pop(0))
        begin_placing(state)
    elif isinstance(action, Drop):
        links, money = detach(me, action.group)
        to_bank(state, sum(money.values()))
        to_center(state, list(links))
        state.acted = True
        log(state, f"{seat_name(seat)} drops {action.group}")
    elif isinstance(action, Offer):
        state.offer = OfferState(seat, action.to, action.item)
        state.offers_made += 1
        state.acted = True
        me.hand = [
            Held(h.card, True, h.decided, h.seen_by) if h.card == action.item else h
            for h in me.hand
        ]
        state.phase = Phase.PRICE
    elif isinstance(action, Ask):
        assert state.offer is not None
        state.offer.price_group = action.group
        state.offer.price_money = action.money
        state.offer.priced = True
        state.phase = Phase.ANSWER
    elif isinstance(action, PayMoney):
        state.offer = OfferState(seat, action.to, "", money=action.amount, priced=True)
        state.offers_made += 1
        state.acted = True
        state.phase = Phase.ANSWER
    elif isinstance(action, Accept | Decline) and state.phase is Phase.CONFIRM:
        answer_move(state, isinstance(action, Accept))
    elif isinstance(action, Accept):
        settle(state)
    elif isinstance(action, Decline):
        assert state.offer is not None
        log(state, f"{seat_name(seat)} declines the offer")
        state.offer = None
        state.phase = Phase.MAIN
    elif isinstance(action, Lasers):
        state.lasers[action.group] = (action.old, action.new)
        state.lasered = True
        state.acted = True
        log(state, f"{seat_name(seat)} uses the Orbital Mind Control Lasers: {lasers_text(action)}")
    elif isinstance(action, Recycle):
        rec = has_hook(me, "recyclers")
        assert rec is not None
        me.money[rec] -= 5
        to_bank(state, 5)
        state.recycled = True
        state.acted = True
        draw(state, 1)


def move_losses(player: Player, group: str, host: str, direction: str) -> list[str]:
    """The cards that would not fit if `group` (with its puppets) hung on `host` there."""
    links = dict(player.links)
    moving = {n: links.pop(n) for n in geo.subtree(player.links, group)}
    return geo.hang(links, player.illuminati, moving, group, host, direction)


def answer_move(state: IlluminatiState, accept: bool) -> None:
    """The mover's answer to a move that would lose cards (the seed's steps 11-14).

    Yes: the group moves, and what does not fit goes to the uncontrolled area, its money to
    the bank. No: everything stays as it was and no action is spent.
    """
    m = state.moving
    assert m is not None
    state.moving = None
    state.phase = m.back
    me = state.players[m.seat]
    if not accept:
        log(state, f"{seat_name(m.seat)} leaves {m.group} where it is")
        return
    links, money = detach(me, m.group)
    left = geo.hang(me.links, me.illuminati, links, m.group, m.host, m.direction)
    for name in links:
        if name not in left:
            me.money[name] = money.get(name, 0)
    to_bank(state, sum(money.get(name, 0) for name in left))
    to_center(state, left)
    lost = ", ".join(left)
    log(state, f"{seat_name(m.seat)} moves {m.group}; {lost} go to the uncontrolled area")
    count_action(state)


def lasers_text(action: Lasers) -> str:
    """A use of the Lasers in words (the log, the options' labels)."""
    if action.old is None:
        return f"{action.group} gains {action.new}"
    if action.new is None:
        return f"{action.group} loses {action.old}"
    return f"{action.group}: {action.old} becomes {action.new}"


def count_action(state: IlluminatiState) -> None:
    if state.phase is Phase.REORGANIZE:
        state.reorganize_moves += 1
    else:
        state.actions_used += 1
        state.acted = True


def settle(state: IlluminatiState) -> None:
    """An accepted offer or gift changes hands."""
    offer = state.offer
    assert offer is not None
    giver, receiver = state.players[offer.giver], state.players[offer.receiver]
    state.offer = None
    state.phase = Phase.MAIN
    if offer.money:
        giver.money[giver.illuminati] -= offer.money
        receiver.money[receiver.illuminati] += offer.money
        log(state, f"{seat_name(receiver.seat)} accepts {offer.money} MB")
        return
    if CARDS.is_special(offer.item):
        i = next(i for i, h in enumerate(giver.hand) if h.card == offer.item and h.decided)
        giver.hand.pop(i)
        receiver.hand.append(Held(offer.item, True))
    else:
        links, money = detach(giver, offer.item)
        state.pending.append(Pending(receiver.seat, offer.item, None, links, money))
        state.actions_used += 1
    if offer.price_group is not None:
        links, money = detach(receiver, offer.price_group)
        state.pending.append(Pending(giver.seat, offer.price_group, None, links, money))
    if offer.price_money:
        receiver.money[receiver.illuminati] -= offer.price_money
        giver.money[giver.illuminati] += offer.price_money
    log(state, f"{seat_name(receiver.seat)} accepts the offer of {offer.item}")
    begin_placing(state)
