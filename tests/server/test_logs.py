"""Logs: JSON lines with the request id (also answered in a header), game and user; no token."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import httpx
from tests.server.conftest import LiveServer, free_port, wait_until

from parley.server import logs


def test_every_answer_carries_a_request_id(live: LiveServer) -> None:
    fresh = httpx.get(live.url + "/api/health")
    assert len(fresh.headers["x-request-id"]) == 16
    kept = httpx.get(live.url + "/api/health", headers={"X-Request-ID": "lb-42.a"})
    assert kept.headers["x-request-id"] == "lb-42.a"
    odd = httpx.get(live.url + "/api/health", headers={"X-Request-ID": "x" * 65})
    assert odd.headers["x-request-id"] != "x" * 65  # not well-formed: a fresh one
    missing = httpx.get(live.url + "/api/nothing-here")
    assert missing.status_code == 404 and missing.headers["x-request-id"]


def test_json_log_lines_name_request_game_and_user(tmp_path: Path) -> None:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    err = tmp_path / "serve.err"
    with err.open("wb") as sink:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "from parley.cli import main; main()",
                "serve",
                "--port",
                str(port),
                "--database-url",
                f"sqlite:///{tmp_path / 'logs.sqlite3'}",
                "--log-format",
                "json",
            ],
            stdout=subprocess.DEVNULL,
            stderr=sink,
        )
        try:

            def up() -> bool:
                assert proc.poll() is None, err.read_text()
                try:
                    return httpx.get(base + "/api/health", timeout=1).status_code == 200
                except httpx.HTTPError:
                    return False

            wait_until(up, timeout=30, what="parley serve")
            signup = httpx.post(
                base + "/api/users", json={"username": "logger", "password": "hunter2-secret"}
            )
            token = signup.json()["token"]
            auth = {"Authorization": f"Bearer {token}"}
            game = httpx.post(base + "/api/games", json={"game": "sucker"}, headers=auth).json()
            read = httpx.get(f"{base}/api/games/{game['id']}/state?token={token}", headers=auth)
            request_id = read.headers["x-request-id"]
        finally:
            proc.terminate()
            proc.wait(timeout=20)
    text = err.read_text()
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert lines, "no log lines"
    assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    mine = [line for line in lines if line.get("request_id") == request_id]
    assert mine, f"no line for request {request_id}: {text}"
    assert all(line["game_id"] == game["id"] for line in mine)
    assert any(isinstance(line.get("user_id"), int) for line in mine)
    assert token not in text and "hunter2-secret" not in text
    assert not any(
        line["logger"].startswith("alembic") and line["level"] == "debug" for line in lines
    )


def test_log_config_refuses_unknown_formats() -> None:
    try:
        logs.log_config("info", "xml")
    except ValueError as err:
        assert "text or json" in str(err)
    else:
        raise AssertionError("xml was accepted")
