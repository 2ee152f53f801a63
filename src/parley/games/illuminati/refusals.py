"""Why an action is refused: the rule that forbids it or the fact that is missing.

`engine.is_legal` decides; this module only explains a refusal, so what is allowed and what
is listed never differ. Every reason reads public facts or the refused seat's own (its hand,
its money, its structure), never another seat's hidden cards or the deck's order.
"""

from __future__ import annotations

from parley.kernel import IllegalAction

from . import engine
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
from .engine import ANYTIME, CARDS, MAX_OFFERS, MAX_REORGANIZE, card, seat_name
from .notation import format_action
from .state import IlluminatiState, Phase

# When each special card may be played (the seed's use cases; docs/illuminati.md).
WHEN_PLAYED: dict[str, str] = {
    "Assassination": "right after the dice of an attack are rolled",
    "Murphy's Law": "right after the dice of an attack are rolled",
    "Secrets Man Was Not Meant to Know": "in answer to another special card just played",
    "Senate Investigating Committee": "at the start of another player's turn",
    "Market Manipulation": "at the start of one's own turn",
    "Deep Agent": "against a privileged attack, when asked to answer it",
    "Interference": "against a privileged attack, when asked to answer it (not by the defender)",
    "Slush Fund": "in one's own turn or when asked in an attack",
    "Swiss Bank Account": "in one's own turn or when asked in an attack",
    "Bribery": "in one's own turn, as a regular action",
    "Whispering Campaign": "in one's own turn, as a regular action",
    "Computer Espionage": "in one's own turn",
    "Media Campaign": "in one's own turn",
    "White Collar Crime": "in one's own turn",
}

# What each phase waits for, in words.
NOW: dict[Phase, str] = {
    Phase.CHOOSE: "the Illuminati cards are being taken",
    Phase.GOAL: "the UFOs are choosing their goal",
    Phase.START: "cards for the start of the turn are being played",
    Phase.KEEP: "a drawn special card waits to be kept face up or face down",
    Phase.MAIN: "the active player is taking actions",
    Phase.ATTACK: "the attacker is announcing an attack",
    Phase.REACT: "the others are answering an attack",
    Phase.AFTER_ROLL: "the dice have been rolled and may be changed by a card",
    Phase.SECRETS: "a special card just played may be answered",
    Phase.PLACE: "a group waits for room in a power structure",
    Phase.PRICE: "the price of an offer is being named",
    Phase.ANSWER: "an offer waits to be accepted or declined",
    Phase.REORGANIZE: "a free reorganisation is under way",
    Phase.CONFIRM: "a move that would lose cards waits for its mover's yes or no",
    Phase.OVER: "the game is over",
}

REGULAR = "attack, transfer money, move a group or give a group away"


def refuse(state: IlluminatiState, seat: int, action: Action) -> IllegalAction:
    """The error for an action `engine.is_legal` refused, naming the rule or missing fact."""
    reason, why = explain(state, seat, action)
    return IllegalAction(f"{format_action(action)!r}: {why}", reason=reason)


def explain(state: IlluminatiState, seat: int, action: Action) -> tuple[str, str]:
    """(reason tag, words) for a refused action."""
    if state.phase is Phase.OVER:
        return "game_over", "the game is over"
    owed = engine.owed_seat(state)
    if owed != seat:
        return "not_your_turn", out_of_turn(state, seat, action)
    me = state.players[seat]
    if isinstance(action, Play) and not engine.holds(me, action.card):
        if CARDS.is_special(action.card):
            return "not_held", f"{seat_name(seat)} holds no {action.card}"
        return "bad_target", f"{action.card} is not a special card"
    if not any(isinstance(action, kind) for kind, _ in engine.kinds(state, seat)):
        return "wrong_phase", f"not now: {NOW[state.phase]} ({engine.PROMPTS[_kind(state)]})"
    found = _specific(state, seat, action)
    if found is not None:
        return found
    return "forbidden", f"not allowed now ({engine.PROMPTS[_kind(state)]})"


def out_of_turn(state: IlluminatiState, seat: int, action: Action, who: bool = True) -> str:
    """What is decided now (by whom, with `who`), and when a refused card could be played."""
    owed = engine.owed_seat(state)
    text = ""
    if owed is not None:
        text = f"{seat_name(owed) + ' decides' if who else 'the decision'} now: "
        text += engine.PROMPTS[_kind(state)]
    if isinstance(action, Play) and action.card in WHEN_PLAYED:
        text += f"; {action.card} is played {WHEN_PLAYED[action.card]}"
    elif isinstance(action, Lasers):
        text += f"; {engine.lasers_refusal(state, seat, action)}"
    elif isinstance(action, Attack | Move | Transfer | Offer | PayMoney | Drop):
        text += "; that is done in one's own turn"
    return text


def _kind(state: IlluminatiState) -> str:
    return engine.OWED_KIND[state.phase]


def _specific(state: IlluminatiState, seat: int, action: Action) -> tuple[str, str] | None:
    """The rule a well-timed action of the right kind breaks, if it can be named."""
    me = state.players[seat]
    regular = isinstance(action, Attack | AttackAgain | Transfer | Move | Offer) or (
        isinstance(action, Play) and action.card in ("Bribery", "Whispering Campaign")
    )
    gift = isinstance(action, Offer) and CARDS.is_special(action.item)
    if state.phase is Phase.MAIN and regular and state.actions_used >= 2 and not gift:
        return "no_actions_left", f"both regular actions ({REGULAR}) are used this turn"
    if isinstance(action, Pass) and state.phase is Phase.MAIN:
        return "forbidden", "only a turn with nothing done may pass (for 5 MB); end it with 'done'"
    if isinstance(action, Done) and state.phase is Phase.MAIN:
        return "forbidden", "nothing is done yet this turn: 'pass' ends it and collects 5 MB"
    if isinstance(action, Attack):
        return _attack(state, seat, action)
    if isinstance(action, AttackAgain):
        if state.last_failed is None or state.actions_used != 1:
            return "forbidden", "only a failed first attack of the turn may be repeated at once"
        return "forbidden", "the failed attack's cards can no longer repeat it"
    if isinstance(action, Transfer):
        return _transfer(state, seat, action)
    if isinstance(action, Move | Place):
        return _move(state, seat, action)
    if isinstance(action, Release):
        return "bad_target", f"the group waiting for room is {state.pending[0].group}"
    if isinstance(action, Drop):
        return "not_held", f"{seat_name(seat)} controls no group {action.group}"
    if isinstance(action, Offer):
        if state.offers_made >= MAX_OFFERS:
            return "no_actions_left", f"at most {MAX_OFFERS} offers or gifts a turn"
        if action.to == seat or action.to not in engine.alive(state):
            return "bad_target", "an offer goes to another player still in the game"
        return "not_held", f"{seat_name(seat)} holds no {action.item} to give"
    if isinstance(action, PayMoney):
        if state.offers_made >= MAX_OFFERS:
            return "no_actions_left", f"at most {MAX_OFFERS} offers or gifts a turn"
        if action.to == seat or action.to not in engine.alive(state):
            return "bad_target", "money goes to another player still in the game"
        return _money(me.money.get(me.illuminati, 0), action.amount, me.illuminati)
    if isinstance(action, Spend):
        return _spend(state, seat, action)
    if isinstance(action, Interfere):
        a = state.attack
        assert a is not None
        if seat in (a.defender, a.attacker_seat):
            return "forbidden", "the attacker and the defender spend money; only others interfere"
        if a.privileged and seat not in a.interferers:
            return "forbidden", "the attack is privileged: only a player who played Interference"
        return _money(me.money.get(me.illuminati, 0), action.amount, me.illuminati)
    if isinstance(action, Aid):
        return _aid(state, seat, action)
    if isinstance(action, CallOff):
        return "forbidden", "money has been spent on the attack (or it is a repeat): it goes on"
    if isinstance(action, Privilege):
        return _privilege(state, seat, action)
    if isinstance(action, Abolish):
        a = state.attack
        if a is None or not a.privileged:
            return "forbidden", "the attack is not privileged"
        return "not_held", f"abolishing discards two special cards {seat_name(seat)} holds"
    if isinstance(action, Play):
        return _play(state, seat, action)
    if isinstance(action, Recycle):
        rec = engine.has_hook(me, "recyclers")
        if rec is None:
            return "not_held", f"{seat_name(seat)} controls no Recyclers"
        if state.recycled:
            return "no_actions_left", "the Recyclers draw once a turn"
        if me.money.get(rec, 0) < 5:
            return _money(me.money.get(rec, 0), 5, rec)
        return "forbidden", "the deck is empty"
    if isinstance(action, Lasers):
        return "forbidden", engine.lasers_refusal(state, seat, action)
    if isinstance(action, ChooseIlluminati | ChooseGoal):
        return "bad_target", f"{action.name} cannot be chosen (taken, or no such Illuminati)"
    if isinstance(action, Ask):
        offer = state.offer
        assert offer is not None
        them = state.players[offer.receiver]
        if action.group is not None and action.group not in them.groups():
            return "bad_target", f"{seat_name(offer.receiver)} controls no {action.group}"
        return _money(them.money.get(them.illuminati, 0), action.money, them.illuminati)
    if isinstance(action, Keep | Roll | Accept | Decline):
        return None
    return None


def _money(have: int, want: int, where: str) -> tuple[str, str]:
    if want < 1:
        return "bad_target", "an amount of money is at least 1 MB"
    return "not_enough_money", f"{where} holds {have} MB, not {want}"


def _attack(state: IlluminatiState, seat: int, action: Attack) -> tuple[str, str] | None:
    me = state.players[seat]
    att, target, kind = action.attacker, action.target, action.kind
    if att not in me.links:
        return "not_held", f"{seat_name(seat)} controls no {att} to attack with"
    if card(att).power <= 0:
        return "forbidden", f"{att} has no power and cannot attack"
    if not engine.free_to_attack(state, att):
        return "no_actions_left", f"{att} has taken part in an attack this turn already"
    if not CARDS.is_group(target):
        return "bad_target", f"{target} is not a group (Illuminati cannot be attacked)"
    if target == att:
        return "bad_target", "a group does not attack itself"
    holder = engine.owner(state, target)
    if holder is None and target not in state.center:
        return "bad_target", f"{target} is not in play (neither uncontrolled nor controlled)"
    if kind == "control":
        if holder == seat:
            return "bad_target", f"{seat_name(seat)} controls {target} already"
        if not engine.spots(me, target, [att]):
            return "no_room", f"{target} would fit on no free outward arrow of {att}"
    elif kind == "neutralize":
        if holder is None:
            return "bad_target", f"{target} is uncontrolled already; only a controlled group"
        if holder == seat:
            return "bad_target", f"{target} is {seat_name(seat)}'s own group"
    elif card(target).power == 0:
        return "forbidden", f"{target} has no power: only a Whispering Campaign destroys it"
    if holder is not None and holder != seat:
        ill = state.players[holder].illuminati
        immune = card(ill).immune_from & engine.attacking_alignments(state, att, target, kind)
        if immune:
            names = ", ".join(sorted(a.value for a in immune))
            return "forbidden", f"the {ill} and their groups are immune to {names} attackers"
    if action.spend:
        source = action.source or me.illuminati
        if source not in (me.illuminati, att):
            return "bad_target", "attack money comes from the Illuminati or the attacking group"
        return _money(me.money.get(source, 0), action.spend, source)
    return None


def _transfer(state: IlluminatiState, seat: int, action: Transfer) -> tuple[str, str] | None:
    me = state.players[seat]
    if state.phase is Phase.REORGANIZE:
        if state.reorganize not in ("money", "wcc"):
            return "wrong_phase", "this reorganisation moves groups, not money"
        if state.reorganize_moves >= MAX_REORGANIZE:
            return "no_actions_left", f"a reorganisation is at most {MAX_REORGANIZE} moves"
    for name in (action.source, action.dest):
        if name not in me.links:
            return "not_held", f"{seat_name(seat)} controls no {name}"
    if action.source == action.dest:
        return "bad_target", "money moves between two different cards"
    if action.amount > me.money.get(action.source, 0) or action.amount < 1:
        return _money(me.money.get(action.source, 0), action.amount, action.source)
    return "not_reachable", (
        "money moves only between adjacent cards (the Federal Reserve's to any of its structure)"
    )


def _move(state: IlluminatiState, seat: int, action: Move | Place) -> tuple[str, str] | None:
    me = state.players[seat]
    if isinstance(action, Place):
        waiting = state.pending[0]
        if action.group != waiting.group:
            return "bad_target", f"the group waiting for room is {waiting.group}"
        if waiting.host is not None and action.host != waiting.host:
            return "bad_target", f"{waiting.group} goes on {waiting.host}, the group that took it"
    else:
        if state.phase is Phase.REORGANIZE:
            if state.reorganize != "groups":
                return "wrong_phase", "this reorganisation moves money, not groups"
            if state.reorganize_moves >= MAX_REORGANIZE:
                return "no_actions_left", f"a reorganisation is at most {MAX_REORGANIZE} moves"
        if action.group not in me.groups():
            return "not_held", f"{seat_name(seat)} controls no group {action.group} to move"
        if action.host in geo.subtree(me.links, action.group):
            return "bad_target", f"{action.group} cannot hang on itself or one of its puppets"
    if action.host not in me.links:
        return "not_held", f"{seat_name(seat)} controls no {action.host} to hang it on"
    if action.direction not in geo.DIRECTIONS:
        return "bad_target", f"{action.direction!r} is no direction (north, east, south, west)"
    return "no_room", (
        f"{action.host} has no free outward arrow pointing {action.direction} where "
        f"{action.group} fits"
    )


def _spend(state: IlluminatiState, seat: int, action: Spend) -> tuple[str, str] | None:
    a = state.attack
    assert a is not None
    me = state.players[seat]
    if state.phase is Phase.REACT and seat != a.defender:
        return "forbidden", "only the defender spends against an attack; others interfere"
    if state.phase is Phase.ATTACK and action.source not in (None, a.attacker):
        return "bad_target", "attack money comes from the Illuminati or the attacking group"
    if state.phase is Phase.REACT and action.source not in (None, a.target):
        return "bad_target", "defence money comes from the Illuminati or the defending group"
    source = action.source or me.illuminati
    return _money(me.money.get(source, 0), action.amount, source)


def _aid(state: IlluminatiState, seat: int, action: Aid) -> tuple[str, str] | None:
    a = state.attack
    assert a is not None
    me = state.players[seat]
    if a.opened or a.repeat:
        return "forbidden", "aid is given while the attack is announced, before the others answer"
    if action.card not in me.links:
        return "not_held", f"{seat_name(seat)} controls no {action.card}"
    if card(action.card).transferable <= 0:
        return "forbidden", f"{action.card} has no transferable power"
    if action.card in (a.attacker, a.target) or action.card in a.aids:
        return "bad_target", f"{action.card} already takes part in this attack"
    return "no_actions_left", f"{action.card} has taken part in an attack this turn already"


def _privilege(state: IlluminatiState, seat: int, action: Privilege) -> tuple[str, str] | None:
    a = state.attack
    assert a is not None
    me = state.players[seat]
    if a.privileged:
        return "forbidden", "the attack is privileged already"
    if a.abolished:
        return "forbidden", "privilege was abolished for this attack"
    if state.phase is Phase.ATTACK and a.opened:
        return "forbidden", "the attacker declares privilege with the announcement, not later"
    if action.discard is None:
        if card(me.illuminati).hook != "privilege":
            return "not_held", "privilege for 5 MB is the Bavarian Illuminati's power"
        if state.phase is not Phase.ATTACK:
            return "forbidden", "the Bavarian Illuminati buy privilege for their own attacks"
        if state.privilege_used:
            return "no_actions_left", "the Bavarian Illuminati buy privilege once a turn"
        return _money(me.money.get(me.illuminati, 0), 5, me.illuminati)
    if seat != a.attacker_seat and state.options.get("privilege_by", "attacker") == "attacker":
        return "forbidden", "only the attacker makes an attack privileged (option privilege_by)"
    return "not_held", f"{seat_name(seat)} holds no {action.discard} to discard"


def _play(state: IlluminatiState, seat: int, action: Play) -> tuple[str, str] | None:
    name = action.card
    me = state.players[seat]
    phase = state.phase
    when = WHEN_PLAYED.get(name, "when its text says")
    main_only = phase is Phase.MAIN and name not in ANYTIME
    if not main_only:
        if phase in (Phase.ATTACK, Phase.REACT) and name in ("Deep Agent", "Interference"):
            a = state.attack
            assert a is not None
            if not a.privileged or phase is Phase.ATTACK:
                return "not_playable_now", f"{name} is played {when}; this attack is not"
            if name == "Interference":
                return "forbidden", "Interference is played once, and not by the defender"
        if phase is Phase.START and name == "Market Manipulation" and state.market:
            return "no_actions_left", "Market Manipulation is in play this turn already"
        return "not_playable_now", f"{name} is played {when}"
    if name == "Computer Espionage":
        return "bad_target", "Computer Espionage looks at another player or another's group"
    if name == "Media Campaign":
        return "bad_target", f"{action.target} is no group in the dead pile"
    if name == "White Collar Crime":
        return "bad_target", f"{seat_name(seat)} controls no {action.target} to pay"
    if name == "Bribery":
        if action.target not in state.center:
            return "bad_target", f"{action.target} is not an uncontrolled group"
        return "no_room", f"{action.target} fits nowhere in {seat_name(seat)}'s power structure"
    if name == "Whispering Campaign":
        target = action.target or ""
        if not CARDS.is_group(target) or card(target).power != 0:
            return "bad_target", "a Whispering Campaign destroys a group of power 0"
        if action.using not in me.links:
            return "not_held", f"{seat_name(seat)} controls no {action.using} to attack with"
        return "forbidden", f"{action.using} cannot attack {target} now"
    return "not_playable_now", f"{name} is played {when}"
