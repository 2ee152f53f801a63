"""What a viewer sees, and a text picture of it. Only bargains can be private."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from parley.kernel import JSON, Viewer

from .actions import Propose
from .colours import label
from .engine import STALL_LIMIT, move_bound
from .notation import format_promise, format_proposal
from .state import Bargain, Phase, SuckerState, last_capture


def sees(bargain: Bargain, viewer: Viewer) -> bool:
    """Public bargains are for everyone; private ones for their parties and the archive."""
    if not bargain.private or viewer.omniscient:
        return True
    return viewer.seat is not None and viewer.seat in bargain.parties


def bargain_json(bargain: Bargain) -> dict[str, JSON]:
    return {
        "number": bargain.id,
        "from": label(bargain.proposer),
        "to": [label(s) for s in bargain.to],
        "terms": [format_promise(t) for t in bargain.terms],
        "note": bargain.note,
        "private": bargain.private,
        "accepted_by": [label(s) for s in sorted(bargain.accepted)],
        "notation": format_proposal(
            Propose(bargain.to, bargain.terms, bargain.note, bargain.private)
        ),
    }


def _chips(counts: list[int]) -> dict[str, int]:
    return {label(c): n for c, n in enumerate(counts) if n}


def _latest(state: SuckerState) -> int:
    """How many of the kept table events the latest eventful action caused."""
    return min(state.noted - state.latest_from, len(state.recent))


def observe(state: SuckerState, viewer: Viewer) -> dict[str, JSON]:
    phase = state.phase
    actor = state.actor()
    view: dict[str, JSON] = {
        "you": None if viewer.seat is None else label(viewer.seat),
        "chips_per_colour": state.chips,
        "defeated_capture": state.capture_rule.value,
        "private_channels": state.private_channels,
        "players": [
            {
                "number": s + 1,
                "colour": label(s),
                "alive": state.alive[s],
                "hand": _chips(state.hands[s]),
                "held": state.held(s),
                "prisoners": state.prisoners(s),
            }
            for s in range(state.seats)
        ],
        "piles": [
            {"number": n, "chips": [label(c) for c in chips]} for n, chips in state.piles.items()
        ],
        "dead": _chips(state.dead),
        "phase": phase.value,
        "to_act": None if actor is None else label(actor),
        "holder": None if phase is Phase.OVER else label(state.holder),
        "moves": state.moves,
        "stall": state.stall,
        "stall_limit": STALL_LIMIT,
        "move_bound": move_bound(state.seats, state.chips),
        "defeated": [label(s) for s in state.defeated],
        "winner": None if state.winner is None else label(state.winner),
        "draw": state.drawn,
        "recent": list(state.recent),
        "recent_actions": list(state.recent_actions),
        "events": state.noted,
        "latest": list(
            state.recent[
                len(state.recent) - min(state.noted - state.latest_from, len(state.recent)) :
            ]
        ),
        "bargains": {
            "open": [bargain_json(b) for b in state.bargains.values() if sees(b, viewer)],
            "agreed": [bargain_json(b) for b in state.agreed if sees(b, viewer)],
            # What a chip promise may give, by giver: never their own colour (the rules).
            "may_promise": {
                label(s): [label(c) for c in range(state.seats) if c != s]
                for s in range(state.seats)
            },
        },
    }
    view["last_capture"] = last_capture(state)
    if phase is Phase.NEXT:
        view["choices"] = [label(s) for s in state.choices]
    elif phase is Phase.KILL:
        view["capture"] = {
            "capturer": label(state.capturer),
            "mover": label(state.holder),
            "chips": [label(c) for c in state.captured],
        }
    elif phase is Phase.RESCUE:
        view["rescue"] = {
            "target": label(state.holder),
            "asked": label(state.asked),
            "after": label(state.anchor),
        }
    return view


# --- text ----------------------------------------------------------------------------------


def _get(mapping: Mapping[str, Any], key: str, default: Any = None) -> Any:
    value = mapping.get(key, default)
    return default if value is None else value


def _hand_text(hand: Mapping[str, Any]) -> str:
    return ", ".join(f"{n} {c}" for c, n in hand.items()) or "no chips"


def _count(n: Any, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _title(name: Any) -> str:
    return str(name).capitalize()


def _now(view: Mapping[str, Any]) -> str:
    phase = view.get("phase")
    actor = _title(view.get("to_act"))
    if phase == "move":
        return f"{actor} has the move: play a chip onto a pile or a new pile ({_example(view)})."
    if phase == "next":
        choices = [str(c) for c in _get(view, "choices", [])]
        example = f"'next {choices[0]}'" if choices else "'next <colour>'"
        return f"{actor} chooses who moves next, one of: {', '.join(choices)} ({example})."
    if phase == "kill":
        capture = _get(view, "capture", {})
        chips = " ".join(_get(capture, "chips", []))
        return f"{actor} captured [{chips}] and kills one of its chips ('kill <colour>')."
    if phase == "rescue":
        rescue = _get(view, "rescue", {})
        target = _title(rescue.get("target"))
        return (
            f"{target} was given the move with no chips. {actor}, rescue {target} with "
            f"prisoners ('rescue {rescue.get('target')} with <colour>') or 'decline'."
        )
    if view.get("winner"):
        return f"Game over: {_title(view['winner'])} is the last survivor and wins."
    if view.get("draw"):
        return "Game over: a draw (the game stopped making progress)."
    return "Game over."


def _example(view: Mapping[str, Any]) -> str:
    """A move the player to act could make, as a hint of the notation."""
    chip = "red"
    for player in _get(view, "players", []):
        if player.get("colour") == view.get("to_act") and player.get("hand"):
            chip = next(iter(player["hand"]))
    piles = _get(view, "piles", [])
    where = f"on {piles[-1].get('number')}" if piles else "new"
    return f"'play {chip} {where}'"


def _bargain_line(bargain: Mapping[str, Any]) -> str:
    said = "; ".join(_get(bargain, "terms", []))
    if bargain.get("note"):
        said = f'{said} "{bargain["note"]}"'.lstrip()
    private = " (private)" if bargain.get("private") else ""
    to = ", ".join(_get(bargain, "to", []))
    accepted = _get(bargain, "accepted_by", [])
    yes = f" [accepted by {', '.join(accepted)}]" if accepted else ""
    return f"  #{bargain.get('number')} {bargain.get('from')} to {to}{private}: {said}{yes}"


def render(observation: Mapping[str, Any]) -> str:
    """A plain-text table for terminals and language models (a game view or a full envelope)."""
    view: Mapping[str, Any] = observation
    inner = observation.get("view")
    if isinstance(inner, Mapping) and "players" in inner:
        view = inner
    players = _get(view, "players", [])
    you = view.get("you")
    lines = [
        f"So Long Sucker: {len(players)} players, {view.get('chips_per_colour')} chips each, "
        f"{_count(view.get('moves', 0), 'chip')} played"
    ]
    lines.append("Players (number colour: hand):")
    for player in players:
        marks = []
        if player.get("colour") == you:
            marks.append("you")
        if player.get("colour") == view.get("to_act"):
            marks.append("to act")
        mark = f" <- {', '.join(marks)}" if marks else ""
        status = _hand_text(_get(player, "hand", {})) if player.get("alive") else "defeated"
        lines.append(f"  {player.get('number')} {_title(player.get('colour')):<7} {status}{mark}")
    piles = _get(view, "piles", [])
    lines.append("Piles (bottom to top):" if piles else "Piles: none yet")
    for pile in piles:
        lines.append(f"  pile {pile.get('number')}: {' '.join(_get(pile, 'chips', []))}")
    dead = _get(view, "dead", {})
    lines.append(f"Dead box: {_hand_text(dead) if dead else 'empty'}")
    capture = view.get("last_capture")
    if capture:
        text = (
            f"Last capture: {_title(capture['played_by'])} played on pile {capture['pile']} "
            f"({' '.join(capture['chips'])}) and {_title(capture['capturer'])} captured it"
        )
        if capture["killed"]:
            taken = " ".join(capture["taken"]) or "nothing"
            text += f", killed {capture['killed']} and took {taken}"
        lines.append(text)
    recent = _get(view, "recent", [])
    if recent:
        lines.append("Lately:")
        lines.extend(f"  {event}" for event in recent[-8:])
    lines.append("Now: " + _now(view))
    bargains = _get(view, "bargains", {})
    for title, key in (("Open bargains", "open"), ("Agreed bargains (not binding)", "agreed")):
        shown = _get(bargains, key, [])
        if shown:
            lines.append(f"{title}:")
            lines.extend(_bargain_line(b) for b in shown)
    stall = view.get("stall", 0)
    if stall and stall >= _get(view, "stall_limit", STALL_LIMIT) // 2:
        limit = _get(view, "stall_limit", STALL_LIMIT)
        lines.append(f"Warning: {stall} turn changes without progress; at {limit} it is a draw.")
    return "\n".join(lines)
