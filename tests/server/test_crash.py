"""Kill -9 the server mid-game: nothing it accepted is lost, and the game goes on."""

from __future__ import annotations

import threading
from pathlib import Path

import httpx
from tests.server.conftest import ServerProcess, sign_up
from tests.server.test_play import start_game


def test_nothing_accepted_is_lost_after_kill_9(database_url: str, tmp_path: Path) -> None:
    args = ["--database-url", database_url, "--snapshot-every", "5"]
    server = ServerProcess(args, tmp_path / "server.log")
    try:
        server.start()
        amy, bob = sign_up(server.url, "amy"), sign_up(server.url, "bob")
        gid, _seats = start_game(amy, [bob], "sealed-bids", options={"rounds": 20})
        accepted: dict[int, str] = {}  # seq → what the server said it recorded
        crashed = threading.Event()
        failures: list[BaseException] = []

        def play() -> None:
            # Alternate bids and press as fast as the server takes them, until it dies.
            n = 0
            while not crashed.is_set():
                who = amy if n % 2 == 0 else bob
                try:
                    if n % 3 == 2:
                        out = who.post(f"/api/games/{gid}/press", {"text": f"note {n}"})["entry"]
                        accepted[out["seq"]] = out["text"]
                    else:
                        out = who.post(f"/api/games/{gid}/actions", {"action": f"bid {n % 6}"})
                        accepted[out["entry"]["seq"]] = out["entry"]["notation"]
                except (httpx.HTTPError, AssertionError) as err:
                    if not crashed.is_set():
                        failures.append(err)
                    return
                n += 1

        player = threading.Thread(target=play)
        player.start()
        while len(accepted) < 25 and player.is_alive():
            player.join(timeout=0.01)
        crashed.set()
        server.kill()  # mid-stream: requests may be in flight
        player.join(timeout=10)
        assert not failures, failures
        assert len(accepted) >= 25

        server = ServerProcess(args, tmp_path / "server.log").start()
        amy.http = httpx.Client(base_url=server.url, timeout=10)
        bob.http = httpx.Client(base_url=server.url, timeout=10)
        record = amy.get(f"/api/games/{gid}/record")["record"]["entries"]
        assert [e["seq"] for e in record] == list(range(len(record)))  # no gaps
        # A bid stays hidden from the other player until its round resolves, so each entry
        # is checked in the view of whoever may see it.
        by_seq: dict[int, dict[str, object]] = {}
        for who in (amy, bob):
            for entry in who.get(f"/api/games/{gid}/record")["record"]["entries"]:
                if not entry.get("hidden"):
                    by_seq.setdefault(entry["seq"], entry)
        for seq, what in accepted.items():
            entry = by_seq[seq]
            assert what in (entry.get("notation"), entry.get("text")), (seq, what, entry)
        # The game continues from where the record stops.
        state = amy.get(f"/api/games/{gid}/state")
        assert state["seq"] == len(record)
        for who in (amy, bob):
            who.post(f"/api/games/{gid}/actions", {"action": "bid 5"})
        after = amy.get(f"/api/games/{gid}/state")
        assert after["state_id"] == state["state_id"] + 1
    finally:
        server.kill()
