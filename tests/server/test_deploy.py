"""The shipped HAProxy configuration in front of two servers on one PostgreSQL and Redis:
each game sticks to one host, WebSockets pass, and a dead host's games go on on the other."""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tests.server.conftest import (
    IN_CI,
    Client,
    ServerProcess,
    free_port,
    sign_up,
    wait_until,
)

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "deploy" / "haproxy.cfg"


def test_the_shipped_configuration_is_valid() -> None:
    haproxy = _haproxy()
    env = {**os.environ, **_addresses(18080, 18081, 18082)}
    done = subprocess.run(
        [haproxy, "-c", "-f", str(CONFIG)], env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _haproxy() -> str:
    found = shutil.which("haproxy") or (
        "/usr/sbin/haproxy" if Path("/usr/sbin/haproxy").exists() else None
    )
    if found is None:
        if IN_CI:
            pytest.fail("haproxy is not installed (CI=true: .ci/run installs it)")
        pytest.skip("haproxy is not installed (Debian: apt-get install haproxy)")
    return found


def _addresses(listen: int, one: int, two: int) -> dict[str, str]:
    return {
        "PARLEY_LISTEN": f"127.0.0.1:{listen}",
        "PARLEY_HOST_1": f"127.0.0.1:{one}",
        "PARLEY_HOST_2": f"127.0.0.1:{two}",
    }


@contextlib.contextmanager
def proxy(one: ServerProcess, two: ServerProcess, log: Path) -> Iterator[str]:
    port = free_port()
    env = {**os.environ, **_addresses(port, one.port, two.port)}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [_haproxy(), "-db", "-f", str(CONFIG)], env=env, stdout=out, stderr=subprocess.STDOUT
        )
    base = f"http://127.0.0.1:{port}"
    try:

        def both_up() -> bool:
            assert proc.poll() is None, log.read_text()
            try:
                hosts = {
                    httpx.get(f"{base}/api/health?n={n}", timeout=1).headers.get("x-parley-host")
                    for n in range(4)
                }
            except httpx.HTTPError:
                return False
            return None not in hosts

        wait_until(both_up, timeout=20, what="HAProxy and its hosts")
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def host_of(client: Client, gid: str) -> str:
    answer = client.http.get(f"/api/games/{gid}", headers=client.headers)
    assert answer.status_code == 200, answer.text
    return answer.headers["x-parley-host"]


def test_games_stick_to_a_host_and_survive_its_death(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> None:
    prefix = f"parley-test-{secrets.token_hex(4)}:"
    args = ["--database-url", postgres_url, "--redis-url", redis_url, "--redis-prefix", prefix]
    one = ServerProcess(args, tmp_path / "one.log")
    two = ServerProcess(args, tmp_path / "two.log")
    try:
        one.start()
        two.start()
        with proxy(one, two, tmp_path / "haproxy.log") as base:
            amy, bob = sign_up(base, "amy"), sign_up(base, "bob")
            gids = []
            for _ in range(24):
                gid = amy.post(
                    "/api/games", {"game": "countdown", "options": {"start": 30}}, expect=201
                )["id"]
                bob.post(f"/api/games/{gid}/join")
                amy.post(f"/api/games/{gid}/start")
                gids.append(gid)
            hosts = {gid: host_of(amy, gid) for gid in gids}
            assert set(hosts.values()) == {"host1", "host2"}  # spread over both
            for gid in gids:  # and each game always on its own
                assert {host_of(bob, gid) for _ in range(3)} == {hosts[gid]}
            # A game on host1, watched through the proxy, played, then host1 dies.
            gid = next(g for g in gids if hosts[g] == "host1")
            watch = amy.ws(gid)
            watch.wait_for(lambda m: m["type"] == "state", what="the first state")
            moves = _play(amy, bob, gid, 3)
            watch.wait_for(
                lambda m: m["type"] == "state" and m["state_id"] >= 3, what="the third move's state"
            )
            one.kill()
            wait_until(
                lambda: _answered_by(amy, gid) == "host2",
                timeout=20,
                what="the proxy to move the game to host2",
            )
            with contextlib.suppress(Exception):
                watch.conn.close()
            # Nothing acknowledged was lost; play goes on through the same address.
            history = amy.get(f"/api/games/{gid}/history")["entries"]
            assert [e["notation"] for e in history] == moves
            moves += _play(amy, bob, gid, 2)
            again = amy.ws(gid, since=len(moves) - 2)
            again.wait_for(
                lambda m: m["type"] == "state" and m["state_id"] >= 5,
                what="the state after the move on host2",
            )
            again.conn.close()
            assert [e["notation"] for e in amy.get(f"/api/games/{gid}/history")["entries"]] == moves
    finally:
        one.stop()
        two.stop()


def _answered_by(client: Client, gid: str) -> str | None:
    try:
        answer = client.http.get(f"/api/games/{gid}", headers=client.headers, timeout=2)
    except httpx.HTTPError:
        return None
    return answer.headers.get("x-parley-host") if answer.status_code == 200 else None


def _play(amy: Client, bob: Client, gid: str, count: int) -> list[str]:
    done = []
    for _ in range(count):
        for who in (amy, bob):
            if who.get(f"/api/games/{gid}/state")["owes"]:
                who.post(f"/api/games/{gid}/actions", {"action": "take 1"})
                done.append("take 1")
                break
        else:
            raise AssertionError("nobody owes a move")
    return done
