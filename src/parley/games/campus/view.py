"""What each viewer sees, events in words, and the text picture for terminals and agents."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parley.kernel import JSON, Viewer

from .board import CampusMap, load_map
from .engine import EVENTS_KEPT, name
from .odds import attack_odds
from .state import NOBODY, CampusState, Phase, last_combat


def pick_token(state: CampusState, seat: int) -> str | None:
    """The text of a seat's pending pick: only that seat (and the archive) may see it."""
    game = state.minigame
    if game is None or seat not in game.picks:
        return None
    value = game.picks[seat]
    shown = "no pick" if value is None else str(value)
    return f"{name(seat)}'s secret pick in minigame {game.number}: {shown}"


def observe(state: CampusState, viewer: Viewer) -> dict[str, JSON]:
    board = state.board
    codes = board.codes
    units: list[JSON] = [
        None if state.unit[s] == NOBODY else [state.unit[s], state.level[s]]
        for s in range(board.size)
    ]
    players: list[JSON] = [
        {
            "seat": p,
            "name": name(p),
            "alive": state.alive[p],
            "sectors": state.held[p],
            "units": sum(1 for u in state.unit if u == p),
            "landmarks": [codes[s] for s in board.landmarks if state.owner[s] == p],
            "attack": state.attack(p),
            "defence": state.defence(p),
            "pvc_attack": state.pvc_attack[p],
            "pvc_defence": state.pvc_defence[p],
        }
        for p in range(state.seats)
    ]
    seen = viewer.omniscient or state.pvc_revealed
    pvc: dict[str, JSON] = {
        "status": "away" if state.pvc == NOBODY else "revealed" if state.pvc_revealed else "hidden",
        "sector": codes[state.pvc] if seen and state.pvc != NOBODY else None,
        "cycles": state.cycles,
        "reveal_after": state.settings.reveal_cycles,
    }
    game = state.minigame
    minigame: JSON = None
    if game is not None:
        minigame = {
            "number": game.number,
            "capturer": game.capturer,
            "sector": codes[game.sector],
            "players": list(game.players),
            "picked": sorted(game.picks),
            "waiting": [s for s in game.players if s not in game.picks],
        }
    out: dict[str, JSON] = {
        "map": state.settings.map,
        "title": board.title,
        "viewer": viewer.to_json(),
        "phase": state.phase.value,
        "current": state.current,
        "steps_left": state.steps if state.phase is Phase.MOVE else 0,
        "turn": state.turns,
        "round": (state.turns - 1) // state.seats + 1 if state.turns else 0,
        "round_limit": state.settings.round_limit,
        "owners": [None if o == NOBODY else o for o in state.owner],
        "units": units,
        "players": players,
        "pvc": pvc,
        "minigame": minigame,
        # the chance of every attack the player to move may make (public: levels and bonuses are)
        "attacks": attack_odds(state),
        "last_minigame": state.last_minigame,
        "last_combat": last_combat(state),
        "events": [event_json(state, e) for e in state.events[-EVENTS_KEPT:]],
        # every event so far, for clients telling each new one (the list keeps the latest)
        "event_count": state.events_dropped + len(state.events),
        "winner": state.winner,
        "end": state.end_reason or None,
    }
    if viewer.omniscient and game is not None:
        out["picks"] = [pick_token(state, s) for s in sorted(game.picks)]
    elif viewer.seat is not None and (token := pick_token(state, viewer.seat)):
        out["my_pick"] = token
    return out


def event_json(state: CampusState, e: tuple[Any, ...]) -> dict[str, JSON]:
    """An event as its kind, the seats it concerns and a sentence."""
    label = state.board.label
    kind = e[0]
    text: str
    seat: int | None = None
    if kind == "turn":
        _, number, seat, new = e
        made = f"; new units on {', '.join(label(s) for s in new)}" if new else ""
        text = f"Turn {number}: {name(seat)} to move{made}."
    elif kind == "pass":
        seat = e[1]
        text = f"{name(seat)} passes."
    elif kind == "move":
        _, seat, src, dst = e
        text = f"{name(seat)} moves a unit from {label(src)} to {label(dst)}."
    elif kind == "swap":
        _, seat, src, dst = e
        text = f"{name(seat)} swaps the units on {label(src)} and {label(dst)}."
    elif kind == "capture":
        _, seat, src, dst, holder = e
        if holder == NOBODY:
            text = f"{name(seat)} captures the unowned {label(dst)} from {label(src)}."
        else:
            text = (
                f"{name(seat)} takes {label(dst)} from {name(holder)} without a fight "
                f"(no unit defended it); the turn ends."
            )
    elif kind == "combat":
        _, seat, src, dst, foe, al, dl, ar, ab, dr, db, won = e
        rolls = (
            f"attack {ar}+{ab}={ar + ab} (level {al}) against defence {dr}+{db}={dr + db} "
            f"(level {dl})"
        )
        if won:
            text = (
                f"{name(seat)} attacks {label(dst)} from {label(src)} and wins: {rolls}. "
                f"{name(foe)}'s unit is destroyed and {name(seat)} takes the sector."
            )
        else:
            # Only a tie is told why it lost: the defender wins ties.
            tie = "; a tie goes to the defender" if ar + ab == dr + db else ""
            text = (
                f"{name(seat)} attacks {label(dst)} from {label(src)} and loses: {rolls}"
                f"{tie}. The attacking unit is destroyed."
            )
    elif kind == "pvc":
        _, seat, dst = e
        text = (
            f"{name(seat)} finds the Pro-Vice-Chancellor on {label(dst)} and captures it! "
            f"Everyone plays the minigame."
        )
    elif kind == "minigame":
        _, number, winner, capturer = e
        seat = capturer
        if winner == NOBODY:
            text = f"Minigame {number}: nobody picked; only the capturer gets a bonus."
        elif winner == capturer:
            text = f"Minigame {number}: {name(winner)} captured the PVC and won: improved bonus."
        else:
            text = (
                f"Minigame {number}: {name(winner)} wins; {name(winner)} and the capturer "
                f"{name(capturer)} each get a bonus."
            )
    elif kind == "level":
        _, seat, s, lvl = e
        text = f"{name(seat)}'s unit on {label(s)} captured this turn and rises to level {lvl}."
    elif kind == "out":
        _, seat, taker = e
        text = f"{name(seat)} has lost every sector and is out of the game ({name(taker)})."
    elif kind == "win":
        seat = e[1]
        text = f"{name(seat)} wins the campus!"
    elif kind == "pvc_back":
        text = "The Pro-Vice-Chancellor has slipped away to a new hidden sector."
    elif kind == "pvc_seen":
        text = f"The Pro-Vice-Chancellor has been spotted on {label(e[1])}!"
    else:
        text = f"The round limit ({e[1]}) is reached."
    return {"kind": kind, "seat": seat, "text": text}


def render(observation: Mapping[str, Any], board: CampusMap | None = None) -> str:
    """The board as a player needs it: players, own sectors and units, neighbours, the PVC."""
    board = board or load_map("campus")
    owners, units = observation["owners"], observation["units"]
    me = observation.get("viewer")
    me = me if isinstance(me, int) else None
    lines = [f"{observation['title']}, turn {observation['turn']} (round {observation['round']})"]
    for p in observation["players"]:
        status = "" if p["alive"] else " (out)"
        you = " (you)" if p["seat"] == me else ""
        lines.append(
            f"  {p['name']}{you}{status}: {p['sectors']} sectors, {p['units']} units, "
            f"attack +{p['attack']}, defence +{p['defence']}, landmarks: "
            f"{', '.join(p['landmarks']) or '-'}"
        )
    pvc = observation["pvc"]
    if pvc["status"] == "revealed" or pvc["sector"]:
        lines.append(f"Pro-Vice-Chancellor: on {board.label(board.index[pvc['sector']])}")
    elif pvc["status"] == "hidden":
        lines.append(
            f"Pro-Vice-Chancellor: hidden ({pvc['cycles']} full cycles since placed; shown "
            f"after more than {pvc['reveal_after']})"
        )
    else:
        lines.append("Pro-Vice-Chancellor: captured; it reappears, hidden, after this turn")
    names = {p["seat"]: p["name"] for p in observation["players"]}

    def describe(s: int) -> str:
        o, u = owners[s], units[s]
        mark = "*" if board.is_landmark[s] else ""
        who = "unowned" if o is None else names[o]
        unit = f", {names[u[0]]} unit level {u[1]}" if u else ""
        return f"{board.label(s)}{mark}: {who}{unit}"  # no brackets: terminals read markup

    if me is not None:
        mine = [s for s in range(board.size) if owners[s] == me]
        lines.append("Your sectors (* landmark):")
        for s in mine:
            nbrs = " | ".join(describe(n) for n in board.adjacent[s])
            lines.append(f"  {describe(s)} -> next to: {nbrs}")
    else:
        lines.append("Sectors (* landmark):")
        for s in range(board.size):
            lines.append(f"  {describe(s)}")
    game = observation.get("minigame")
    if game:
        waiting = ", ".join(names[s] for s in game["waiting"])
        lines.append(
            f"Minigame {game['number']}: pick a whole number 0-100; closest to two thirds of "
            f"the average wins. Waiting for: {waiting}"
        )
        if observation.get("my_pick"):
            lines.append(f"  {observation['my_pick']}")
    elif observation["phase"] == "move":
        lines.append(
            f"{names[observation['current']]} to move, {observation['steps_left']} step(s) left"
        )
    last = observation.get("last_minigame")
    if last:
        picks = ", ".join(
            f"{names[int(s)]} {'-' if v is None else v}" for s, v in last["picks"].items()
        )
        lines.append(f"Last minigame: picks {picks}; target {last['target']}")
    fight = observation.get("last_combat")
    if fight:
        a, d = fight["attacker"], fight["defender"]
        winner = names[a["seat"]] if fight["result"] == "attacker_wins" else names[d["seat"]]
        lines.append(
            f"Last combat: {names[a['seat']]} from {a['sector']} rolled {a['roll']} (d{a['die']}) "
            f"+{a['bonus']} = {a['total']} against {names[d['seat']]} in {d['sector']} "
            f"{d['roll']} (d{d['die']}) +{d['bonus']} = {d['total']}: {winner} wins"
        )
    events = observation.get("events") or []
    if events:
        lines.append("Recent events:")
        lines.extend(f"  {e['text']}" for e in events[-8:])
    if observation.get("end"):
        lines.append(f"Game over: {observation['end']}")
    return "\n".join(lines)
