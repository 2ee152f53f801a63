"""CPU per move inside one server process, without the network: apply and commit, render.

Builds the server's services on a fresh SQLite file, seats 4 players and 6 spectators in
So Long Sucker games, then plays moves through `Play.act` (checks, kernel, commit) and
renders each move's updates for the game's ten sockets as the live feed does (`Hub`),
timing each part with the process's CPU clock. Network, HTTP and WebSocket I/O are not
included (`server_load.py` measures those): this isolates the work a move costs the
server's own code, with little noise from other processes on the machine.

    .venv/bin/python benchmarks/server_move.py --moves 2000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

from parley.server import Limits, Settings
from parley.server.app import build_services
from parley.server.clock import ManualClock
from parley.server.hub import Conn, Feed, _Plan
from parley.server.notify import Notices, NotifySettings
from parley.server.schemas import ActionIn, CreateGame
from parley.server.vocab import Role

PLAYERS, SPECTATORS = 4, 6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--sync", default="NORMAL", help="SQLite synchronous level")
    args = parser.parse_args()
    if args.moves > 20_000:
        raise SystemExit("bounded: at most 20,000 moves")
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(
            database_url=f"sqlite:///{Path(tmp) / 'moves.sqlite3'}",
            clock=ManualClock(),
            scheduler_poll_seconds=None,
            sqlite_synchronous=args.sync,
            inline_store=True,
            limits=Limits(max_games_per_user=10_000),
        )
        svc = build_services(settings)
        # As `create_app` wires it: notifications are worded inside each change.
        svc.tables.automation = Notices(svc.tables.automation, NotifySettings.from_env())
        result = asyncio.run(_run(svc, args))
        svc.tables.db.dispose()
    result["load_average"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(result, indent=2))


async def _run(svc: Any, args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(7)
    games = []
    for g in range(args.games):
        users = [svc.accounts.register(f"u{g}x{i}", None)[0] for i in range(PLAYERS + SPECTATORS)]
        out = svc.lobby.create(users[0], CreateGame(game="sucker", seats=PLAYERS))
        for u in users[1:PLAYERS]:
            svc.lobby.join(u, out.id, Role.PLAYER, None)
        for u in users[PLAYERS:]:
            svc.lobby.join(u, out.id, Role.SPECTATOR, None)
        svc.lobby.start(users[0], out.id, None)
        feed = Feed(out.id)
        conns = [
            Conn(ws=None, user=u, sent_seq=0, with_options=True, queue=asyncio.Queue())  # type: ignore[arg-type]
            for u in users
        ]
        games.append((out.id, users, feed, conns))
    # A first render of every game syncs its sockets (not measured).
    for _, _, feed, conns in games:
        _render(svc, feed, conns)
    act_cpu = render_cpu = 0.0
    moves = 0
    while moves < args.moves:
        gid, users, feed, conns = games[moves % len(games)]
        mover, notation = svc.tables.view(gid, partial(_pick, users=users, rng=rng))
        if mover is None:
            games.remove(games[moves % len(games)])
            if not games:
                break
            continue
        t = time.process_time()
        svc.play.act(mover, gid, ActionIn(action=notation))
        act_cpu += time.process_time() - t
        t = time.process_time()
        _render(svc, feed, conns)
        render_cpu += time.process_time() - t
        moves += 1
    return {
        "moves": moves,
        "act_ms_per_move": round(act_cpu / max(moves, 1) * 1000, 3),
        "render_ms_per_move": round(render_cpu / max(moves, 1) * 1000, 3),
        "sockets_per_game": PLAYERS + SPECTATORS,
        "sync": args.sync,
    }


def _render(svc: Any, feed: Feed, conns: list[Conn]) -> None:
    plans = [_Plan(c, c.viewer, c.sent_seq, c.synced) for c in conns]
    for r in svc.hub._render_locked(feed, plans):
        r.conn.viewer, r.conn.sent_seq, r.conn.synced = r.viewer, r.sent_seq, True


def _pick(live: Any, *, users: list[Any], rng: random.Random) -> tuple[Any, str | None]:
    match = live.match
    if match is None or match.is_over:
        return None, None
    seat = sorted(match.turn().owing)[0]
    member = live.at_seat(seat)
    user = next(u for u in users if u.id == member.user_id)
    action = rng.choice(list(match.legal_actions(seat)))
    return user, live.rules.format(action)


if __name__ == "__main__":
    main()
