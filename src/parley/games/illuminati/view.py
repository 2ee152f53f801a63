"""What each viewer sees (the one place visibility is decided), and its text picture."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parley.kernel import JSON, Viewer

from . import engine
from . import geometry as geo
from .actions import Attack
from .engine import CARDS, card
from .notation import format_action
from .state import AttackState, IlluminatiState, Player


def card_json(state: IlluminatiState, name: str) -> dict[str, JSON]:
    c = card(name)
    out: dict[str, JSON] = {
        "name": name,
        "kind": "illuminati" if c.illuminati else "group",
        "power": c.power,
        "transferable": c.transferable,
        "income": c.income,
        "alignments": sorted(a.value for a in engine.alignments(state, name)),
        "ability": c.ability,
    }
    if name in state.lasers:  # changed for this turn by the Orbital Mind Control Lasers
        out["printed_alignments"] = sorted(a.value for a in c.alignments)
    if not c.illuminati:
        out["resistance"] = c.resistance
        out["arrows"] = c.arrows
    return out


def structure_json(state: IlluminatiState, player: Player) -> dict[str, JSON]:
    if not player.illuminati:
        return {"seat": player.seat, "cards": [], "bounds": None}
    rects = geo.layout(player.links, player.illuminati)
    children = geo.children_of(player.links)
    cards: list[JSON] = []
    for name in geo.subtree(player.links, player.illuminati):
        r = rects[name]
        link = player.links[name]
        hung = {player.links[ch].side: ch for ch in children.get(name, ())}
        item = card_json(state, name)
        item.update(
            {
                "x": r.x,
                "y": r.y,
                "w": r.w,
                "h": r.h,
                "orientation": r.orientation,
                "facing": r.facing,
                "in_arrow": None if link.parent is None else geo.opposite(r.facing),
                "out_arrows": [
                    {"side": s, "direction": geo.world(r.facing, s), "to": hung.get(s)}
                    for s in card(name).sides
                ],
                "master": link.parent,
                "depth": geo.depth(player.links, name),
                "treasury": player.money.get(name, 0),
                "attacks_taken_part": state.used.get(name, 0) if state.active == player.seat else 0,
            }
        )
        cards.append(item)
    xs = [r.x for r in rects.values()] + [r.x + r.w for r in rects.values()]
    ys = [r.y for r in rects.values()] + [r.y + r.h for r in rects.values()]
    return {
        "seat": player.seat,
        "cards": cards,
        "bounds": {"x": min(xs), "y": min(ys), "w": max(xs) - min(xs), "h": max(ys) - min(ys)},
    }


def hand_json(player: Player, viewer: Viewer) -> list[JSON]:
    own = viewer.sees_seat(player.seat)
    out: list[JSON] = []
    for h in player.hand:
        if h.face_up or own or (viewer.seat is not None and viewer.seat in h.seen_by):
            entry: dict[str, JSON] = {"card": h.card, "face_up": h.face_up}
            if own:
                entry["text"] = CARDS.special(h.card).text
                entry["decided"] = h.decided
            out.append(entry)
        else:
            out.append({"card": None, "face_up": False})
    return out


def player_json(state: IlluminatiState, player: Player, viewer: Viewer) -> dict[str, JSON]:
    ill = player.illuminati
    out: dict[str, JSON] = {
        "seat": player.seat,
        "name": engine.seat_name(player.seat),
        "illuminati": ill or None,
        "ability": card(ill).ability if ill else None,
        "goal": card(ill).goal if ill else None,
        "eliminated": player.eliminated,
        "turns": player.turns,
        "destroyed": player.destroyed,
        "treasury": player.money.get(ill, 0) if ill else 0,
        "total_money": sum(player.money.values()),
        "groups": len(player.groups()),
        "power": sum(card(g).power for g in player.groups()),
        "transferable": sum(card(g).transferable for g in player.groups()),
        "hand": hand_json(player, viewer),
        "hand_size": len(player.hand),
    }
    if ill and card(ill).hook == "two_attacks" and viewer.sees_seat(player.seat):
        out["secret_goal"] = ufo_sentence(player) if player.goal else None
    return out


def ufo_sentence(player: Player) -> str:
    return f"The UFOs secretly pursue the goal of the {player.goal}: {card(player.goal).goal}"


def attack_json(state: IlluminatiState) -> dict[str, JSON] | None:
    a = state.attack
    if a is None:
        return None
    answered = [s for s in engine.order_after(state, a.attacker_seat) if s not in state.queue]
    return {
        "attacker_seat": a.attacker_seat,
        "attacker": a.attacker,
        "target": a.target,
        "kind": a.kind,
        "defender": a.defender,
        "whispering_campaign": a.whispering,
        "aids": list(a.aids),
        "attacker_money": a.attack_money,
        "defender_group_money": a.defend_group_money,
        "defender_illuminati_money": a.defend_illuminati_money,
        "interference": a.interference,
        "privileged": a.privileged,
        "privilege_abolished": a.abolished,
        "may_interfere_while_privileged": list(a.interferers),
        "committed": a.committed,
        "repeat": a.repeat,
        "terms": dict(engine.attack_parts(state, a)),
        "need": engine.need(state, a),
        "dice": list(a.dice) if a.dice else None,
        "roll": a.roll,
        "roll_changed_by": a.changed_by or None,
        "window_answered": answered if state.phase.value == "react" else [],
        "answers": [{"seat": seat, "action": text} for seat, text in a.answers],
    }


def observe(state: IlluminatiState, viewer: Viewer) -> dict[str, JSON]:
    owed = engine.owed_seat(state)
    offer = state.offer
    me = state.players[viewer.seat] if viewer.seat is not None else None
    out: dict[str, JSON] = {
        "phase": state.phase.value,
        "round": state.round,
        "round_limit": state.options["rounds"],
        "turn_number": state.turn_number,
        "active": state.active,
        "first": state.first,
        "owed": None
        if owed is None
        else {
            "seat": owed,
            "kind": engine.OWED_KIND[state.phase],
            "prompt": engine.PROMPTS[engine.OWED_KIND[state.phase]],
        },
        "window": {"kind": state.phase.value, "order": list(state.queue)}
        if state.phase.value in ("start", "react", "after_roll", "secrets")
        else None,
        "actions_used": state.actions_used,
        "acted": state.acted,
        "groups_needed": engine.groups_needed(state),
        "players": [player_json(state, p, viewer) for p in state.players],
        "structures": [structure_json(state, p) for p in state.players],
        "uncontrolled": [card_json(state, n) for n in state.center],
        "dead": list(state.dead),
        "deck": len(state.deck),
        "attack": attack_json(state),
        "playing": None
        if state.playing is None
        else {
            "seat": state.playing.seat,
            "card": state.playing.card,
            "target": state.playing.target,
        },
        "pending": [{"seat": p.seat, "group": p.group, "host": p.host} for p in state.pending],
        "move_question": None
        if state.moving is None
        else {
            "seat": state.moving.seat,
            "group": state.moving.group,
            "host": state.moving.host,
            "direction": state.moving.direction,
            "lost": list(state.moving.lost),
        },
        "offer": None
        if offer is None
        else {
            "giver": offer.giver,
            "receiver": offer.receiver,
            "item": offer.item or None,
            "money": offer.money,
            "price_group": offer.price_group,
            "price_money": offer.price_money,
            "priced": offer.priced,
        },
        "reorganize": {
            "kind": state.reorganize,
            "moves": state.reorganize_moves,
            "limit": engine.MAX_REORGANIZE,
        }
        if state.phase.value == "reorganize"
        else None,
        "lasers": {g: {"from": old, "to": new} for g, (old, new) in state.lasers.items()},
        "dice": list(state.dice) if state.dice else None,
        "last_attack": state.last_attack,
        "bank": {
            "paid": state.bank_paid,
            "received": state.bank_received,
            "money_in_play": state.bank_paid - state.bank_received,
        },
        "log": list(state.log),
        "log_count": state.log_count,  # every line so far: clients tell each new one
        "notes": list(me.notes) if me is not None else [],
        "winners": list(state.winners),
        "reason": state.reason or None,
        # each with its special goal, to be read before it is chosen (the cards are public)
        "available_illuminati": [
            {**card_json(state, c.name), "goal": c.goal} for c in engine.untaken_illuminati(state)
        ]
        if state.phase.value == "choose"
        else [],
        "attack_odds": attack_odds(state, viewer),
    }
    return out


def attack_odds(state: IlluminatiState, viewer: Viewer) -> dict[str, int]:
    """For the player who may attack now: each attack offered, and the number it needs on
    2d6 before aid and money (all of it public: cards, alignments and structures)."""
    if viewer.seat is None or engine.owed_seat(state) != viewer.seat:
        return {}
    if state.phase.value != "main" or state.active != viewer.seat:
        return {}
    return {
        format_action(attack): engine.need(
            state,
            AttackState(
                attacker_seat=viewer.seat,
                attacker=attack.attacker,
                target=attack.target,
                kind=attack.kind,
                defender=engine.owner(state, attack.target),
            ),
        )
        for attack in engine.g_attack(state, viewer.seat)
        if isinstance(attack, Attack)
    }


def secrets(state: IlluminatiState, seat: int) -> list[str]:
    """Face-down cards nobody else can know of, Computer Espionage notes, the UFOs' goal."""
    public = set(state.dead)
    for p in state.players:
        for h in p.hand:
            if h.face_up or (p.seat != seat) or h.seen_by:
                public.add(h.card)
    player = state.players[seat]
    out = [h.card for h in player.hand if not h.face_up and h.card not in public]
    out.extend(player.notes)
    if player.illuminati and card(player.illuminati).hook == "two_attacks" and player.goal:
        out.append(ufo_sentence(player))
    return out


def _card_line(view: Mapping[str, Any], c: Mapping[str, Any], indent: int) -> str:
    stats = f"P{c['power']}/{c['transferable']}"
    if c["kind"] == "group":
        stats += f" R{c['resistance']}"
    stats += f" I{c['income']}"
    aligns = ",".join(c["alignments"]) or "-"
    where = f"({c['x']},{c['y']} {c['orientation']} facing {c['facing']})"
    free = [a["direction"] for a in c["out_arrows"] if a["to"] is None]
    return f"{'  ' * indent}{c['name']} [{stats} {aligns}] {c['treasury']} MB {where}" + (
        f" free arrows: {', '.join(free)}" if free else ""
    )


def render(view: Mapping[str, Any]) -> str:
    """A plain-text picture of an observation's `view` part."""
    lines: list[str] = []
    owed = view.get("owed")
    lines.append(
        f"Round {view['round']}"
        + (f" of {view['round_limit']}" if view["round_limit"] else "")
        + f"; Player {view['active'] + 1}'s turn; phase {view['phase']}; "
        + f"regular actions used {view['actions_used']}/2; {view['groups_needed']} groups win"
    )
    if owed:
        lines.append(f"Player {owed['seat'] + 1} to decide: {owed['prompt']}")
    for p, s in zip(view["players"], view["structures"], strict=True):
        status = " (out)" if p["eliminated"] else ""
        lines.append("")
        lines.append(
            f"{p['name']}{status}: {p['illuminati']} - {p['groups']} groups, "
            f"treasury {p['treasury']} MB, power {p['power']}, destroyed {p['destroyed']}"
        )
        if p.get("goal"):
            lines.append(f"  goal: {p['goal']}")
        if p.get("secret_goal"):
            lines.append(f"  {p['secret_goal']}")
        hand = [
            h["card"] + (" (up)" if h["face_up"] else " (down)") if h["card"] else "face-down card"
            for h in p["hand"]
        ]
        lines.append("  specials: " + (", ".join(hand) if hand else "none"))
        depth = {c["name"]: c["depth"] for c in s["cards"]}
        for c in s["cards"]:
            lines.append(_card_line(view, c, depth[c["name"]] + 1))
    lines.append("")
    lines.append(
        "Uncontrolled: "
        + (
            ", ".join(
                f"{c['name']} [P{c['power']}/{c['transferable']} R{c['resistance']} I{c['income']} "
                f"{','.join(c['alignments']) or '-'}]"
                for c in view["uncontrolled"]
            )
            or "none"
        )
    )
    lines.append(f"Deck: {view['deck']} cards; dead pile: {', '.join(view['dead']) or 'empty'}")
    a = view.get("attack")
    if a:
        terms = ", ".join(f"{k} {v:+d}" for k, v in a["terms"].items() if v)
        lines.append(
            f"Attack: Player {a['attacker_seat'] + 1}'s {a['attacker']} attacks {a['target']} "
            f"to {a['kind']}; needs {a['need']} or less on 2d6 ({terms})"
            + (f"; aided by {', '.join(a['aids'])}" if a["aids"] else "")
            + ("; privileged" if a["privileged"] else "")
            + (f"; rolled {a['roll']}" if a["roll"] is not None else "")
        )
    last = view.get("last_attack")
    if last:
        dice = "+".join(str(d) for d in last["dice"]) if last["dice"] else "?"
        changed = (
            f" (made {last['roll']} by {last['roll_changed_by']})"
            if last["roll_changed_by"]
            else ""
        )
        extras = ", ".join(
            f"{k} {v:+d}" for k, v in last["terms"].items() if v and k not in ("power", "defence")
        )
        lines.append(
            f"Last attack: Player {last['attacker_seat'] + 1}'s {last['attacker']} on "
            f"{last['target']} to {last['kind']}: power {last['power']} against "
            f"{last['resistance']}" + (f" ({extras})" if extras else "") + f"; needed "
            f"{last['need']} or less, rolled {dice}{changed}: {last['result']}"
        )
    bank = view.get("bank")
    if bank:
        lines.append(f"Bank: paid out {bank['paid']} MB, received {bank['received']} MB")
    if view.get("playing"):
        pl = view["playing"]
        lines.append(f"Player {pl['seat'] + 1} plays {pl['card']}; it may be answered")
    if view.get("offer"):
        o = view["offer"]
        what = o["item"] or f"{o['money']} MB"
        price = o["price_group"] or (f"{o['price_money']} MB" if o["price_money"] else "nothing")
        lines.append(
            f"Offer: Player {o['giver'] + 1} gives {what} to Player {o['receiver'] + 1} for {price}"
        )
    question = view.get("move_question")
    if question:
        lines.append(
            f"Player {question['seat'] + 1} moves {question['group']} to {question['host']} "
            f"{question['direction']}: {', '.join(question['lost'])} would not fit and would go "
            "to the uncontrolled area; accept or decline (nothing changes)"
        )
    for p in view.get("pending", []):
        lines.append(f"Waiting for room: {p['group']} (Player {p['seat'] + 1})")
    for note in view.get("notes", []):
        lines.append(f"Note: {note}")
    if view.get("log"):
        lines.append("Recent: " + "; ".join(view["log"][-5:]))
    if view.get("reason"):
        lines.append(f"Game over: {view['reason']}")
    return "\n".join(lines)
