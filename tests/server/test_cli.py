"""`parley serve` starts the whole server on SQLite with no other service."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import httpx
from tests.server.conftest import free_port, wait_until


def test_parley_serve_runs_on_sqlite(tmp_path: Path) -> None:
    port = free_port()
    database = tmp_path / "served.sqlite3"
    log = (tmp_path / "serve.log").open("wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from parley.cli import main; main()",
            "serve",
            "--port",
            str(port),
            "--database-url",
            f"sqlite:///{database}",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:

        def up() -> bool:
            assert proc.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                return httpx.get(base + "/api/health", timeout=1).status_code == 200
            except httpx.HTTPError:
                return False

        wait_until(up, timeout=30, what="parley serve")
        health = httpx.get(base + "/api/health").json()
        assert health["database"] == "sqlite" and health["redis"] is False
        assert "<html" in httpx.get(base + "/").text.lower()
        token = httpx.post(base + "/api/users", json={"username": "cli"}).json()["token"]
        game = httpx.post(
            base + "/api/games",
            json={"game": "sucker"},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert game.status_code == 201, game.text
        assert database.exists()  # migrated at start, in the file it was given
        assert "openapi" in httpx.get(base + "/openapi.json").json()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


def test_several_workers_need_redis() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from parley.cli import main; main()", "serve", "--workers", "2"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode != 0
    assert "redis" in (done.stdout + done.stderr).lower()


def test_several_workers_refuse_sqlite(tmp_path: Path) -> None:
    command = "from parley.cli import main; main()"
    url = f"sqlite:///{tmp_path / 'one.sqlite3'}"
    done = subprocess.run(
        [sys.executable, "-c", command, "serve", "--workers", "2", "--redis-url",
         "redis://127.0.0.1:1/0", "--database-url", url],
        capture_output=True,
        text=True,
        timeout=60,
    )  # fmt: skip
    assert done.returncode != 0
    # (The error may come in a box, its lines wrapped: compare the words only.)
    said = " ".join(re.sub(r"[│╭╮╰╯─]", " ", done.stdout + done.stderr).lower().split())
    assert "postgresql" in said
    # It says what SQLite does do: one process, which serves everything on its own.
    assert "--workers 1" in said and "one process" in said
