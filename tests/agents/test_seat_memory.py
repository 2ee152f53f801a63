"""Memory per seat: the diary (an answer's field and the MCP tool `write_diary`), what the
record says a seat sent and agreed to, the budget, and bot memory across a restart."""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

from mcp import Client
from tests.web.conftest import Server, free_port

from parley import games
from parley.agents.remote.client import ParleyClient
from parley.agents.remote.tools import build_server
from parley.kernel import Match
from parley.server.memory import BUDGET_CHARS, DiaryEntry, Recall, memory_text, recall


def test_the_memory_keeps_the_newest_items_within_its_budget_and_counts_the_rest() -> None:
    entries = [DiaryEntry(0, i, float(i), f"note {i}: " + "x" * 90) for i in range(100)]
    remembered = Recall(
        sent=[f"[{i}] to Blue: message {i} " + "y" * 60 for i in range(80)],
        promises=[f"[{i}] bargain #{i} with Blue: blue passes to red (kept)" for i in range(50)],
    )
    text = memory_text(remembered, entries)
    assert len(text) <= BUDGET_CHARS
    assert "note 99:" in text and "message 79" in text and "bargain #49" in text  # newest kept
    assert "note 0:" not in text and "message 0 " not in text
    shown = len(re.findall(r"^- \[state \d+\] note", text, re.M))
    left = re.search(r"^- \((\d+) older items left out\)", text, re.M)
    assert left is not None and int(left.group(1)) == 100 - shown  # the first section: diary
    assert shown >= 5
    small = memory_text(Recall(sent=["[3] to everyone: hello"]), [], budget=400)
    assert "hello" in small and "left out" not in small and len(small) <= 400
    assert memory_text(Recall(), []) == ""
    tight = memory_text(remembered, entries, budget=300)
    assert len(tight) <= 300 and "note 99:" in tight


def test_the_record_gives_the_seats_sent_messages_and_its_deals() -> None:
    diplomacy = games.find("diplomacy")
    powers = diplomacy.seat_names(7, {})
    fra, ger = powers.index("FRANCE"), powers.index("GERMANY")
    match: Match[Any, Any] = Match(diplomacy, 7, seed=1)
    match.say(fra, "PRP (DMZ (FRA GER) (BUR))", [ger])
    match.say(ger, "YES (PRP (DMZ (FRA GER) (BUR)))", [fra])
    mine = recall(match, fra)
    assert mine.sent == ["[0] to GERMANY: PRP (DMZ (FRA GER) (BUR))"]
    assert len(mine.promises) == 1 and "GERMANY" in mine.promises[0]
    assert "you proposed" in mine.promises[0] and "BUR" in mine.promises[0]
    theirs = recall(match, ger)
    assert "FRANCE proposed" in theirs.promises[0]
    assert recall(match, powers.index("ITALY")).promises == []


def _data(result: Any) -> Any:
    assert not result.is_error, result
    return result.structured_content


def _answer(decision: dict[str, Any]) -> list[str]:
    first: dict[str, str] = {}
    for option in decision["options"]:
        first.setdefault(option["group"], option["id"])
    return list(first.values()) if decision["composite"] else [decision["options"][0]["id"]]


async def _play(srv: Server, agent: str, gid: str, diary: str | None, moves: int) -> str:
    """Write `diary` through MCP, answer `moves` decisions; the last decision's memory."""
    memory = ""
    async with Client(build_server(ParleyClient(srv.base, agent))) as client:
        if diary:
            wrote = _data(await client.call_tool("write_diary", {"game_id": gid, "text": diary}))
            assert wrote["text"] == diary and wrote["entries"] >= 1
        for n in range(moves):
            pending = _data(
                await client.call_tool("wait_for_decision", {"game_id": gid, "timeout_seconds": 30})
            )
            assert pending["pending"], pending
            decision = pending["decision"]
            memory = decision["memory"]
            assert memory and memory in decision["briefing"]
            args = {"game_id": gid, "decision_id": decision["decision"]}
            args["options"] = _answer(decision)
            if n == 0 and diary:
                args["diary"] = f"after {diary[:12]}: answered once"
            _data(await client.call_tool("submit_action", args))
    return memory


def _bot_rows(db: Path, gid: str) -> dict[int, tuple[str, dict[str, Any], float]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT seat, bot, data, updated_at FROM bot_memory WHERE game_id = ?", (gid,)
        ).fetchall()
    return {seat: (bot, json.loads(data), at) for seat, bot, data, at in rows}


def test_the_diary_written_through_mcp_and_bot_memory_survive_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "memory.sqlite3"
    srv = Server(free_port(), f"sqlite:///{db}", tmp_path / "server.log")
    srv.start()
    try:
        host = srv.api("POST", "/api/users", json={"username": "memory-host"})["token"]
        agent = srv.api("POST", "/api/agents", json={"name": "memory-agent"})["token"]
        spec = {"game": "sucker", "seats": 4, "seed": 5, "host_role": "spectator"}
        gid = srv.api("POST", "/api/games", host, json=spec)["id"]
        srv.api("POST", f"/api/games/{gid}/join", agent, json={"role": "player"})
        srv.api("POST", f"/api/games/{gid}/bots", host, json={"bot": "negotiator", "count": 3})
        srv.api("POST", f"/api/games/{gid}/start", host)
        memory = asyncio.run(_play(srv, agent, gid, "Blue broke its word: never pass to blue.", 2))
        # The entry written through MCP, then the one sent with the first answer.
        assert "never pass to blue" in memory and "answered once" in memory
        assert memory.index("never pass to blue") < memory.index("answered once")
    finally:
        srv.stop()
    before = _bot_rows(db, gid)
    assert len(before) == 3 and all("ledger" in data for _, data, _ in before.values())
    seat, (bot, data, saved_at) = sorted(before.items())[0]
    assert bot == "negotiator"
    data["ledger"]["broken"]["marker"] = 7  # only a restored memory keeps this
    with sqlite3.connect(db) as conn:
        conn.execute(
            "UPDATE bot_memory SET data = ? WHERE game_id = ? AND seat = ?",
            (json.dumps(data), gid, seat),
        )
    srv.start()  # the same database: a restart
    try:
        memory = asyncio.run(_play(srv, agent, gid, None, 3))
        assert "never pass to blue" in memory and "answered once" in memory
    finally:
        srv.stop()
    after = _bot_rows(db, gid)
    _, data, saved_again = after[seat]
    assert saved_again > saved_at  # the bot decided again after the restart and saved
    assert data["ledger"]["broken"].get("marker") == 7


def test_parley_agent_shows_the_memory_once() -> None:
    from parley.agents.remote.llm import decision_text

    memory = "Your memory (the newest items, at most 3000 characters):\nYour diary:\n- [state 4] x"
    lacking = {"decision": {"briefing": "The board.", "memory": memory}}
    assert decision_text(lacking) == "The board.\n\n" + memory
    carrying = {"decision": {"briefing": "The board.\n\n" + memory, "memory": memory}}
    assert decision_text(carrying).count("Your diary:") == 1
    assert decision_text({"decision": {"briefing": "The board.", "memory": ""}}) == "The board."
