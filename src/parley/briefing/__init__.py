"""What a language model is shown for a decision: one text, built here for every way in.

The agent gateway puts the game's context (`context`: the rules primer, the public facts a
strong player tracks beyond the board, the syntax of every kind of proposal) into each
decision it offers, with the whole text ready in `briefing`; `parley agent`, the MCP tools
and `parley bench` show that text (`decision_text`, `negotiation_text`). A decision from an
older server without the context still reads, with less in it.

This package sits beside the server and the agents (both use it), and reads games only
through their rules and the seat's own view.
"""

from __future__ import annotations

import time
import tomllib
import weakref
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from typing import Any

from parley.kernel import Match, Rules, Viewer

__all__ = [
    "board_facts",
    "context",
    "decision_text",
    "in_words",
    "negotiation_text",
    "press_line",
    "primer",
    "proposals",
]

JSONMap = Mapping[str, Any]


@cache
def _primers() -> dict[str, dict[str, str]]:
    text = resources.files(__package__).joinpath("primers.toml").read_text(encoding="utf-8")
    return {name: dict(table) for name, table in tomllib.loads(text).items()}


def primer(game: str) -> str:
    """The game's rules in short, in our words; "" for a game without one."""
    return _primers().get(game, {}).get("primer", "").strip()


def proposals(rules: Rules[Any, Any]) -> str:
    """How to make every kind of proposal in this game (deals, press, draws)."""
    text = _primers().get(rules.spec.name, {}).get("proposals", "").strip()
    if text == "RULES_NOTATION":  # the game's own notation help lists its bargains
        text = rules.notation_help().strip()
    draw = (
        "A draw: vote_draw with accept true proposes one (or agrees to the one proposed); "
        "it ends the game when every surviving seat agrees."
    )
    return f"{text}\n{draw}" if text else draw


# --- public facts ------------------------------------------------------------------------


def board_facts(rules: Rules[Any, Any], match: Match[Any, Any], seat: int) -> str:
    """What a strong player keeps in mind beyond the board's picture, from the seat's view."""
    view = match.observe(Viewer.of(seat))["view"]
    if not isinstance(view, Mapping):
        return ""
    name = rules.spec.name
    if name == "diplomacy":
        return _diplomacy_facts(rules, match, view)
    if name == "planets":
        return _planets_facts(view)
    if name == "illuminati":
        return _illuminati_facts(view)
    return ""


def _diplomacy_facts(rules: Rules[Any, Any], match: Match[Any, Any], view: JSONMap) -> str:
    pos = view.get("position") or {}
    centres: Mapping[str, list[str]] = pos.get("centres") or {}
    units: Mapping[str, list[str]] = pos.get("units") or {}
    state = match.state
    dip = getattr(state, "map", None)
    lines = ["Supply centres and units of every power:"]
    owned: set[str] = set()
    for power in units.keys() | centres.keys():
        owned.update(centres.get(power, []))
    for power in sorted(units.keys() | centres.keys()):
        own = centres.get(power, [])
        lines.append(
            f"  {power}: {len(own)} centres ({', '.join(own) or 'none'}); "
            f"{len(units.get(power, []))} units ({', '.join(units.get(power, [])) or 'none'})"
        )
    if dip is not None:
        every = [p.code for p in dip.provinces if p.centre]
        neutral = [c for c in every if c not in owned]
        lines.append(
            f"  Unowned centres ({len(neutral)}): {', '.join(neutral) or 'none'}; "
            f"{dip.victory_centres} of {len(every)} centres win alone."
        )
    last = view.get("last") or []
    shown = {p.get("phase") for p in last if isinstance(p, Mapping)}
    movement = _last_movement(rules, match)
    if movement is not None and movement.get("phase") not in shown:
        lines.append(f"Results of the last movement phase, {movement['phase']}:")
        for power, results in (movement.get("results") or {}).items():
            for r in results:
                lines.append(f"  {power:<8} {r['order']}: {r['message']}")
    return "\n".join(lines)


# One replay per match and movement phase: later decisions of that phase reuse it.
_MOVEMENTS: weakref.WeakKeyDictionary[Match[Any, Any], dict[str, JSONMap]] = (
    weakref.WeakKeyDictionary()
)


def _last_movement(rules: Rules[Any, Any], match: Match[Any, Any]) -> JSONMap | None:
    """The results of the latest movement phase (S/F...M), kept until the next one."""
    phases = list(getattr(match.state, "phases", []))
    target = next((p for p in reversed(phases) if str(p).endswith("M")), None)
    if target is None:
        return None
    for phase in getattr(match.state, "last", []):
        if phase.get("phase") == target:
            return dict(phase)
    memo = _MOVEMENTS.setdefault(match, {})
    if target in memo:
        return memo[target]
    from parley.kernel import replay

    found: list[JSONMap] = []

    def seen(step: Match[Any, Any], _entry: object) -> None:
        for phase in getattr(step.state, "last", []):
            if phase.get("phase") == target and not found:
                found.append(dict(phase))

    try:
        replay(rules, match.to_json(), on_step=seen)
    except Exception:  # a record that does not replay only costs this fact
        return None
    if found:
        memo[target] = found[0]
    return found[0] if found else None


_HEX = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def _planets_facts(view: JSONMap) -> str:
    systems = [s for s in view.get("systems", []) if isinstance(s, Mapping)]
    at = {(s["q"], s["r"]): str(s["id"]) for s in systems if "q" in s and "r" in s}
    if not at:
        return ""
    lines = ["Adjacency (system: the systems next to it):"]
    for s in systems:
        if "q" not in s:
            continue
        near = [at[s["q"] + dq, s["r"] + dr] for dq, dr in _HEX if (s["q"] + dq, s["r"] + dr) in at]
        kind = f" ({s.get('kind')})" if s.get("kind") else ""
        lines.append(f"  {s['id']}{kind}: {', '.join(near)}")
    return "\n".join(lines)


def _card_words(c: JSONMap) -> str:
    parts = [f"power {c['power']} (lends {c['transferable']} to an attack of another group)"]
    if c.get("resistance") is not None and c.get("kind", "group") == "group":
        parts.append(f"resistance {c['resistance']}")
    parts.append(f"income {c['income']} MB a turn")
    aligns = ", ".join(c.get("alignments") or []) or "no alignment"
    money = f"; {c['treasury']} MB on it" if c.get("treasury") is not None else ""
    return f"  {c['name']}: {'; '.join(parts)}; {aligns}{money}"


def _illuminati_facts(view: JSONMap) -> str:
    lines = ["Every card in play, its figures in words:"]
    for s in view.get("structures", []) or []:
        for c in s.get("cards", []) if isinstance(s, Mapping) else []:
            if isinstance(c, Mapping) and "power" in c:
                lines.append(_card_words(c))
    for c in view.get("uncontrolled", []) or []:
        if isinstance(c, Mapping) and "power" in c:
            lines.append(_card_words(c) + " (uncontrolled)")
    return "\n".join(lines) if len(lines) > 1 else ""


def context(rules: Rules[Any, Any], match: Match[Any, Any], seat: int) -> dict[str, str]:
    """The game's context for a decision: title, primer, facts, proposals (all text)."""
    return {
        "title": rules.spec.title,
        "primer": primer(rules.spec.name),
        "facts": board_facts(rules, match, seat),
        "proposals": proposals(rules),
    }


# --- words -------------------------------------------------------------------------------


def in_words(at: float, now: float) -> str:
    """A moment as people say it: `in 14 minutes (at 23:59 UTC)`."""
    left = at - now
    clock = datetime.fromtimestamp(at, UTC).strftime("%H:%M:%S UTC")
    if left <= 0:
        return f"now (it was due at {clock})"
    if left < 90:
        span = f"{round(left)} second{'s' if round(left) != 1 else ''}"
    elif left < 90 * 60:
        span = f"{round(left / 60)} minutes"
    elif left < 36 * 3600:
        span = f"{left / 3600:.1f} hours"
    else:
        span = f"{left / 86400:.1f} days"
    return f"in {span} (at {clock})"


def press_line(game: str, msg: JSONMap, seats: Sequence[str] = ()) -> str:
    """One received message: who to whom, its words, and in Diplomacy DAIDE read aloud."""
    seat = msg.get("seat")
    sender = (
        "the table"
        if seat is None
        else str(msg.get("from") or (seats[seat] if 0 <= seat < len(seats) else f"seat {seat}"))
    )
    to = msg.get("to")
    whom = (
        "everyone"
        if to is None
        else ", ".join(seats[t] if 0 <= t < len(seats) else f"seat {t}" for t in to)
    )
    text = str(msg.get("text", ""))
    line = (
        f"- from {sender} (seat {seat}) to {whom}: {text}"
        if seat is not None
        else (f"- from {sender} to {whom}: {text}")
    )
    if game == "diplomacy" and seats:
        from parley.games.diplomacy import daide

        try:
            press, rest = daide.parse_message(text, [s.upper() for s in seats])
        except Exception:  # words we cannot read stay as they are
            press = None
        if press is not None:
            head = text.partition("\n")[0].strip()
            words = daide.describe(press, sender)
            line = f"- from {sender} (seat {seat}) to {whom}: {words} [DAIDE: {head}]"
            if rest:
                line += f" {rest}"
    return line


def _message_lines(game: str, press: Sequence[JSONMap], seats: Sequence[str]) -> list[str]:
    if not press:
        return ["No new messages."]
    return ["Messages you received since your last decision:"] + [
        press_line(game, m, seats) for m in press
    ]


def _who(d: JSONMap, seats: Sequence[str]) -> list[str]:
    title = d.get("title") or d.get("game", "")
    who = f"You are {d['seat_name']} (seat {d['seat']}) in {title} game {d.get('game_id', '')}"
    lines = [f"{who}, playing as {d['player']}." if d.get("player") else f"{who}."]
    if seats:
        lines.append("Seats: " + ", ".join(f"{i} {name}" for i, name in enumerate(seats)) + ".")
    return lines


def _context_lines(d: JSONMap) -> tuple[list[str], list[str]]:
    head: list[str] = []
    if d.get("primer"):
        head += [str(d["primer"]), ""]
    board = ["The position:", str(d.get("text", ""))]
    if d.get("facts"):
        board += ["", str(d["facts"])]
    return head, board


def _seats(d: JSONMap) -> list[str]:
    seats = (d.get("observation") or {}).get("seats") or d.get("seats") or []
    return [str(s) for s in seats] if isinstance(seats, list) else []


def decision_text(pending: JSONMap, now: float | None = None) -> str:
    """The whole text of one decision (`pending` as the gateway offers it)."""
    d = pending["decision"]
    if d.get("briefing") and now is None:
        return str(d["briefing"])  # the server wrote it; one text everywhere
    now = time.time() if now is None else now
    seats = _seats(d)
    game = str(d.get("game", ""))
    head, board = _context_lines(d)
    lines = [*_who(d, seats), "", *head, *board, ""]
    step = d.get("last_step") or []
    if step:
        lines.append("Since your last decision:")
        for entry in step:
            what = entry.get("notation") or "(hidden until the step resolves)"
            auto = " (default)" if entry.get("auto") else ""
            lines.append(f"- {entry.get('by', 'seat ' + str(entry.get('seat')))}: {what}{auto}")
        lines.append("")
    # The gateway lists the messages itself; older servers leave it to the client.
    press = d["messages"] if "messages" in d else pending.get("press_received") or []
    lines += _message_lines(game, press, seats)
    draw = d.get("draw")
    if isinstance(draw, dict):
        if draw.get("open"):
            voted = ", ".join(str(s) for s in draw.get("voted", []))
            mine = "you have voted" if draw.get("you_voted") else "you have not voted"
            lines.append(f"A draw is proposed: seats {voted} have voted; {mine}.")
        else:
            lines.append("No draw is proposed.")
        last = draw.get("last_decision")
        if isinstance(last, dict):
            lines.append(f"Last draw vote: {'agreed' if last.get('agreed') else 'rejected'}.")
    lines.append("")
    if d.get("deadline") is not None:
        lines.append(
            f"Your answer is due {in_words(float(d['deadline']), now)}; "
            f"answers left: {d.get('attempts_left', '?')} (then your seat plays its default)."
        )
    elif d.get("remaining_seconds") is not None:
        lines.append(f"Time left: {d['remaining_seconds']:.0f} s.")
    if d.get("game_deadline") is not None:
        lines.append(f"The game's step times out {in_words(float(d['game_deadline']), now)}.")
    if d.get("proposals"):
        lines += ["", "How to propose (in press, or as actions where listed):", str(d["proposals"])]
    lines += ["", f"Decision: {d.get('kind', '')}. {d.get('prompt', '')}".strip()]
    lines.append(f"How to answer: {d.get('notation_help', '')}")
    composite = " (composite: one option per group)" if d.get("composite") else ""
    lines.append(f"Legal actions{composite}, as `id: notation [group]`:")
    lines += [f"- {o['id']}: {o['notation']} [{o['group_label']}]" for o in d["options"]]
    return "\n".join(lines)


def negotiation_text(pending: JSONMap, now: float | None = None) -> str:
    """A negotiation round's text: who you are, the board, the round and the messages."""
    if pending.get("briefing") and now is None:
        return str(pending["briefing"])
    now = time.time() if now is None else now
    pending = {**pending, **(pending.get("you") or {})}  # who the seat is, the board
    n = pending.get("negotiation") or {}
    lines: list[str] = []
    seats = _seats(pending)
    if pending.get("seat_name") is not None and pending.get("seat") is not None:
        lines += [*_who(pending, seats), ""]
        head, board = _context_lines(pending)
        lines += head + board + [""]
    lines += [
        f"Negotiation round {n.get('round')} of {n.get('rounds')}: talk now, order later.",
        f"You may send {n.get('messages_left')} more message(s) in this round "
        "with send_press; actions open after the last round.",
    ]
    if n.get("ends_at") is not None:
        lines.append(f"The round ends {in_words(float(n['ends_at']), now)}.")
    if pending.get("proposals"):
        lines += ["", "How to propose:", str(pending["proposals"])]
    lines.append("")
    game = str(pending.get("game", ""))
    return "\n".join(lines + _message_lines(game, pending.get("messages") or [], seats))


# --- a decision without a server -----------------------------------------------------------


def option_list(rules: Rules[Any, Any], state: Any, seat: int) -> list[dict[str, str]]:
    """The seat's legal actions as the gateway lists them: id, notation, group, group_label."""
    tree = rules.options_tree(state, seat)
    out: list[dict[str, str]] = []

    def walk(node: Any, path: tuple[str, ...], group: Any) -> None:
        if node.action is not None:
            top = group or node
            out.append(
                {
                    "id": "/".join(path),
                    "notation": node.action,
                    "group": top.key if group else "",
                    "group_label": top.label,
                }
            )
            return
        for child in node.children:
            walk(child, (*path, child.key), group or child if node is tree else group)

    walk(tree, (), None)
    return out


def offline_decision(
    rules: Rules[Any, Any],
    match: Match[Any, Any],
    seat: int,
    *,
    game_id: str = "",
    player: str = "",
    messages: Sequence[JSONMap] = (),
    deadline: float | None = None,
    attempts_left: int = 1,
) -> dict[str, Any]:
    """A decision as the gateway offers it, for a match played in this process (the bench)."""
    observation = match.observe(Viewer.of(seat))
    turn = match.turn()
    owed = next((o for o in turn.owed if o.seat == seat), None)
    tree = rules.options_tree(match.state, seat)
    composite = bool(tree.each)
    how = (
        "answer one option per group (their ids in 'options'), or the whole action in "
        "notation, the parts joined by '; '"
        if composite
        else "answer one option id in 'options', or the action in notation in 'action'"
    )
    names = match.seat_names()
    decision: dict[str, Any] = {
        "decision": f"{game_id}.{seat}.{match.state_id}",
        "game_id": game_id,
        "game": rules.spec.name,
        "seat": seat,
        "seat_name": names[seat],
        "state_id": match.state_id,
        "kind": owed.kind if owed is not None else "",
        "prompt": owed.prompt if owed is not None else "",
        "text": rules.render(observation["view"]),
        "observation": observation,
        "options": option_list(rules, match.state, seat),
        "composite": composite,
        "player": player,
        "messages": [
            {**m, "from": names[m["seat"]] if isinstance(m.get("seat"), int) else "the table"}
            for m in messages
        ],
        "last_step": [],
        "draw": None,
        "game_deadline": None,
        "deadline": deadline,
        "attempts_left": attempts_left,
        "notation_help": how,
        **context(rules, match, seat),
    }
    return decision
