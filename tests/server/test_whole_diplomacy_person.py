"""A person plays Diplomacy against bots through HTTP and WebSocket, with press, past the
server's first snapshots and through a restart, to the year limit (the native core in use).

Once a snapshot met the native core's compiled map, every later action, message and vote of
such a game answered 500; this plays well beyond that point on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy
from tests.server.conftest import (
    IN_CI,
    Client,
    Socket,
    make_settings,
    sign_up,
    start_live_server,
)
from tests.server.driver import pick

from parley import games
from parley.games.diplomacy import native
from parley.kernel import replay

PERIOD = 3600
YEAR_LIMIT = 1906
BOTS = [("negotiator", 2), ("heuristic", 2), ("random", 2)]


@pytest.fixture(autouse=True)
def native_core() -> Iterator[None]:
    if not native.available():
        if IN_CI:
            pytest.fail("the native Diplomacy core was not built on CI")
        pytest.skip("the native Diplomacy core is not built (no C compiler)")
    before = native.engine()
    native.set_engine("native")
    yield
    native.set_engine(before)


def snapshot_seqs(database_url: str, gid: str) -> list[int]:
    engine = sqlalchemy.create_engine(database_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                sqlalchemy.text("SELECT seq FROM snapshots WHERE game_id = :g"), {"g": gid}
            ).all()
    finally:
        engine.dispose()
    return sorted(int(r[0]) for r in rows)


def command(ws: Socket, kind: str, body: dict[str, Any], ident: int) -> Any:
    """Send a command over the socket and return its acknowledged result (errors fail)."""
    ws.send({"type": kind, "id": ident, **body})
    answer = ws.wait_for(lambda m: m.get("id") == ident and m["type"] in ("ack", "error"))
    assert answer["type"] == "ack", answer
    return answer["result"]


def test_a_person_plays_diplomacy_with_press_past_the_snapshots(
    database_url: str, tmp_path: Path
) -> None:
    live = start_live_server(make_settings(database_url))
    servers = [live]
    sockets: list[Socket] = []
    try:
        me = sign_up(live.url, "person")
        body = {"game": "diplomacy", "options": {"year_limit": YEAR_LIMIT}, "seed": 64}
        gid = me.post("/api/games", {**body, "period_seconds": PERIOD}, expect=201)["id"]
        for bot, count in BOTS:
            me.post(f"/api/games/{gid}/bots", {"bot": bot, "count": count})
        game = me.post(f"/api/games/{gid}/start", expect=200)
        seat = next(s["seat"] for s in game["seats"] if s["player"] == "person")
        ws = me.ws(gid)
        sockets.append(ws)
        rng = random.Random(24)
        ident = phases = said = 0
        restarted_at = None
        while phases < 80:
            state = me.get(f"/api/games/{gid}/state")
            if state["status"] != "active":
                break
            if restarted_at is None and state["seq"] > 80:
                # A new server process on the same database: the game is loaded from its
                # latest snapshot and the entries after it.
                assert snapshot_seqs(database_url, gid), "no snapshot was taken"
                live.stop()
                me.http.close()
                ws.close()
                live = start_live_server(make_settings(database_url))
                servers.append(live)
                me = Client(live.url, "person", me.token)
                ws = me.ws(gid, since=state["seq"])
                sockets.append(ws)
                restarted_at = state["seq"]
                continue
            # Press each phase: alternately through HTTP and the socket, public and private.
            text = f"phase {state['state_id']}: shall we?"
            to = [rng.choice([s for s in range(7) if s != seat])] if phases % 3 else None
            if phases % 2:
                ident += 1
                command(ws, "say", {"text": text, "to": to}, ident)
            else:
                me.post(f"/api/games/{gid}/press", {"text": text, "to": to})
            said += 1
            if state["can_act"] and state["options"] is not None:
                leaves = pick(state["options"], rng)
                move: dict[str, Any] = {"action": leaves[0]} if len(leaves) == 1 else {}
                if not move:
                    move = {"parts": leaves}
                move["state_id"] = state["state_id"]
                if phases % 2:
                    ident += 1
                    command(ws, "act", move, ident)
                else:
                    me.post(f"/api/games/{gid}/actions", move)
            else:
                live.advance(PERIOD)  # the person has nothing to order: the phase moves on
            after = me.get(f"/api/games/{gid}/state")
            assert after["state_id"] > state["state_id"] or after["status"] != "active", (
                "the bots did not answer the phase"
            )
            phases += 1
        final = me.get(f"/api/games/{gid}")
        assert final["status"] == "finished", final
        assert final["outcome"]["reason"] == f"the year limit {YEAR_LIMIT} was reached"
        assert restarted_at is not None and final["seq"] > restarted_at + 40
        taken = snapshot_seqs(database_url, gid)
        assert [s for s in taken if s > restarted_at], f"no snapshot after the restart: {taken}"
        history = me.get(f"/api/games/{gid}/history")["entries"]
        mine = [e for e in history if e["type"] == "press" and e["seat"] == seat]
        assert len(mine) == said
        theirs = [e for e in history if e["type"] == "press" and e["seat"] != seat]
        assert theirs, "the negotiators said nothing"

        # What the socket pushed since the restart is the history from there on (and the
        # earlier orders revealed meanwhile), each entry as the history holds it.
        def last(m: dict[str, Any]) -> bool:
            return m["type"] == "entries" and m["seq"] == final["seq"]

        if not any(last(m) for m in ws.messages):  # it may have come before the last ack
            ws.wait_for(last)
        pushed, held = ws.entries(), {e["seq"]: e for e in history}
        assert {s for s in held if s >= restarted_at} <= set(pushed)
        assert all(pushed[s] == held[s] for s in pushed)
        record = me.get(f"/api/games/{gid}/record", params={"view": "archive"})["record"]
        again = replay(games.find("diplomacy"), record)
        assert again.outcome() is not None and again.outcome().to_json() == final["outcome"]
    finally:
        for ws in sockets:
            ws.close()
        for server in servers:
            server.stop()
            server.services.tables.db.dispose()
