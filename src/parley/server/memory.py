"""Memory per seat, kept in the server's database, so it survives a restart.

* **What a player said and promised** comes from the game's record (itself in the
  database): the messages the seat sent, and the deals it is party to (Diplomacy: every
  DAIDE proposal all its recipients accepted; So Long Sucker: every agreed bargain, with
  whether each promise was kept).
* **A diary** the player writes itself (the `diary` field of an answer, or the MCP tool
  `write_diary`): table `seat_diary`, one row an entry.
* **A bot's memory**: the parts of a bot seat's memory its bot names in `remembers` (the
  negotiators' trust ledger), as JSON in table `bot_memory`, saved after each decision
  that changed them and read back when a server process first asks that seat.

`memory_text` shows all of it in a decision within `BUDGET_CHARS` characters: each part
gets its share, the newest items are kept and the older ones are summed up in a line that
says how many were left out.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from parley.kernel import ActionEntry, Match, PressEntry

from .db.models import BotMemory, SeatDiary

BUDGET_CHARS = 3000  # the whole memory section of a decision, at most
DIARY_MAX_CHARS = 2000  # one diary entry, at most
DIARY_KEPT = 200  # entries kept per seat; the oldest are dropped past this
# Shares of the budget: the diary is the player's own summary, so it gets the most.
SHARES = (("Your diary", 0.45), ("Promises you made or received", 0.3), ("Messages you sent", 0.25))
ITEM_MAX_CHARS = 400  # one item shown, at most (a long message is cut, saying so)


@dataclass(frozen=True, slots=True)
class DiaryEntry:
    seat: int
    state_id: int
    at: float
    text: str


@dataclass(slots=True)
class Recall:
    """What the record says a seat sent and agreed to, oldest first, as lines of text."""

    sent: list[str] = field(default_factory=list)
    promises: list[str] = field(default_factory=list)


# --- the diary ---------------------------------------------------------------------------


class DiaryError(ValueError):
    """A diary entry that cannot be kept, with the reason."""


def clean_entry(text: str) -> str:
    """The entry as kept (trimmed), or DiaryError saying what is wrong with it."""
    body = text.strip()
    if not body:
        raise DiaryError("a diary entry needs some text")
    if len(body) > DIARY_MAX_CHARS:
        raise DiaryError(
            f"a diary entry is at most {DIARY_MAX_CHARS} characters; this one has {len(body)}"
        )
    return body


def add_diary(
    s: Session, game_id: str, seat: int, state_id: int, at: float, text: str
) -> DiaryEntry:
    """Keep an entry (the same text as the seat's last entry is kept once)."""
    body = clean_entry(text)
    last = s.scalars(
        select(SeatDiary)
        .where(SeatDiary.game_id == game_id, SeatDiary.seat == seat)
        .order_by(SeatDiary.id.desc())
        .limit(1)
    ).first()
    if last is not None and last.text == body:
        return DiaryEntry(seat, last.state_id, last.at, last.text)
    s.add(SeatDiary(game_id=game_id, seat=seat, state_id=state_id, at=at, text=body))
    s.flush()
    kept = s.scalars(
        select(SeatDiary.id)
        .where(SeatDiary.game_id == game_id, SeatDiary.seat == seat)
        .order_by(SeatDiary.id.desc())
        .offset(DIARY_KEPT)
        .limit(1)
    ).first()
    if kept is not None:
        s.execute(
            delete(SeatDiary).where(
                SeatDiary.game_id == game_id, SeatDiary.seat == seat, SeatDiary.id <= kept
            )
        )
    return DiaryEntry(seat, state_id, at, body)


def diary(s: Session, game_id: str, seat: int) -> list[DiaryEntry]:
    """The seat's diary, oldest first."""
    rows = s.scalars(
        select(SeatDiary)
        .where(SeatDiary.game_id == game_id, SeatDiary.seat == seat)
        .order_by(SeatDiary.id)
    )
    return [DiaryEntry(r.seat, r.state_id, r.at, r.text) for r in rows]


# --- what the record remembers -----------------------------------------------------------


def recall(match: Match[Any, Any], seat: int) -> Recall:
    """The seat's sent messages and its deals, from the record."""
    names = match.seat_names()
    out = Recall()
    for entry in match.entries:
        if isinstance(entry, PressEntry) and entry.seat == seat:
            to = "everyone" if not entry.to else ", ".join(names[t] for t in entry.to)
            out.sent.append(f"[{entry.seq}] to {to}: {entry.text}")
    game = match.rules.spec.name
    if game == "diplomacy":
        out.promises = _diplomacy_deals(match, seat, names)
    elif game == "sucker":
        out.promises = _sucker_bargains(match, seat, names)
    return out


def _diplomacy_deals(match: Match[Any, Any], seat: int, names: Sequence[str]) -> list[str]:
    from parley.games.diplomacy import daide
    from parley.games.diplomacy.deals import agreements

    powers = list(match.start_state().map.powers)
    lines = []
    for deal in agreements(match.entries, powers):
        if seat not in deal.parties:
            continue
        others = ", ".join(names[p] for p in sorted(deal.parties - {seat}))
        who = "you proposed" if deal.proposer == seat else f"{names[deal.proposer]} proposed"
        text = daide.format_arrangement(deal.arrangement)
        lines.append(f"[{deal.agreed_seq}] agreed with {others} ({who}): {text}")
    return lines


def _sucker_bargains(match: Match[Any, Any], seat: int, names: Sequence[str]) -> list[str]:
    from parley.games.sucker.analysis import bargain_report

    if not any(isinstance(e, ActionEntry) for e in match.entries):
        return []
    lines = []
    for report in bargain_report(match):
        if seat != report.proposer and seat not in report.to:
            continue
        parties = sorted({report.proposer, *report.to} - {seat})
        others = ", ".join(names[p] for p in parties)
        checks = "; ".join(f"{c.text} ({c.verdict.value})" for c in report.checks)
        lines.append(f"[{report.agreed_at}] bargain #{report.bargain} with {others}: {checks}")
    return lines


# --- the text ----------------------------------------------------------------------------


def memory_text(
    remembered: Recall, entries: Sequence[DiaryEntry], budget: int = BUDGET_CHARS
) -> str:
    """The memory section of a decision, at most `budget` characters ("" when empty).

    Each part keeps its newest items within its share of the budget (a part with room to
    spare lends it to the others); the older ones are summed up as a count."""
    parts = {
        "Your diary": [f"[state {e.state_id}] {e.text}" for e in entries],
        "Promises you made or received": list(remembered.promises),
        "Messages you sent": list(remembered.sent),
    }
    if not any(parts.values()):
        return ""
    head = f"Your memory (the newest items, at most {budget} characters):"
    room = budget - len(head) - 1
    wanted = {name: sum(len(_item(i)) + 1 for i in items) for name, items in parts.items()}
    shares = {name: int(room * share) for name, share in SHARES}
    spare = sum(max(0, shares[n] - wanted[n] - len(n) - 2) for n in shares)
    for name in shares:  # lend what the small parts do not use to the large ones
        if wanted[name] + len(name) + 2 > shares[name] and spare > 0:
            extra = min(spare, wanted[name] + len(name) + 2 - shares[name])
            shares[name] += extra
            spare -= extra
    lines = [head]
    for name, _ in SHARES:
        items = parts[name]
        if not items:
            continue
        lines.append(_section(name, items, shares[name]))
    text = "\n".join(line for line in lines if line)
    return text[:budget]


def _item(text: str) -> str:
    flat = " ".join(text.split())
    if len(flat) <= ITEM_MAX_CHARS:
        return flat
    return flat[: ITEM_MAX_CHARS - 14] + " ...(cut short)"


def _section(name: str, items: list[str], room: int) -> str:
    """`name:` and the newest items that fit in `room` characters, oldest of them first."""
    kept: list[str] = []
    used = len(name) + 2
    note_room = 48  # for the line that counts what was left out
    for i, raw in enumerate(reversed(items)):
        line = "- " + _item(raw)
        left = len(items) - i - 1
        need = used + len(line) + 1 + (note_room if left else 0)
        if need > room:
            break
        kept.append(line)
        used += len(line) + 1
    if not kept:  # not even the newest fits whole: show its start
        space = room - used - 1 - (note_room if len(items) > 1 else 0)
        if space < 24:
            return ""
        kept.append(("- " + _item(items[-1]))[: space - 14] + " ...(cut short)")
    dropped = len(items) - len(kept)
    out = [f"{name}:"]
    if dropped:
        out.append(f"- ({dropped} older item{'s' if dropped != 1 else ''} left out)")
    out.extend(reversed(kept))
    return "\n".join(out)


# --- a bot's memory ----------------------------------------------------------------------


def load_bot(s: Session, game_id: str, seat: int, bot: str) -> dict[str, Any]:
    """The saved parts of a bot seat's memory ({} when none, or another bot's)."""
    row = s.get(BotMemory, (game_id, seat))
    if row is None or row.bot != bot or not isinstance(row.data, dict):
        return {}
    return dict(row.data)


def save_bot(
    s: Session,
    game_id: str,
    seat: int,
    bot: str,
    memory: dict[str, Any],
    keys: Sequence[str],
    at: float,
) -> bool:
    """Save the parts of `memory` named in `keys`, if they changed; whether it wrote."""
    kept = {k: memory[k] for k in keys if k in memory}
    text = json.dumps(kept, sort_keys=True, default=str)
    if memory.get(_SAVED) == text:
        return False
    data = json.loads(text)
    row = s.get(BotMemory, (game_id, seat))
    if row is None:
        s.add(BotMemory(game_id=game_id, seat=seat, bot=bot, data=data, updated_at=at))
    else:
        row.bot, row.data, row.updated_at = bot, data, at
    memory[_SAVED] = text
    return True


def restore_bot(memory: dict[str, Any], saved: dict[str, Any]) -> None:
    """Put saved parts back into a fresh memory (and note them as saved)."""
    memory.update(saved)
    memory[_SAVED] = json.dumps(saved, sort_keys=True, default=str)


_SAVED = "_saved_json"  # the memory's saved parts as last written, to skip needless writes
