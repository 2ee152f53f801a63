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


def _serve(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-c", "from parley.cli import main; main()", "serve", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout)


def test_a_database_that_cannot_be_opened_is_said_in_one_line(tmp_path: Path) -> None:
    refused = free_port()  # nothing listens there: the connection is refused
    cases = {
        f"postgresql://nobody@127.0.0.1:{refused}/parley": "connection refused",
        "notaurl": "could not parse",
        "nosuchdialect://host/db": "can't load plugin",
        f"sqlite:///{tmp_path / 'missing' / 'folder' / 'x.sqlite3'}": "unable to open",
    }
    for url, why in cases.items():
        done = _serve("--port", str(free_port()), "--database-url", url)
        assert done.returncode == 2, done.stderr
        assert done.stdout == ""  # no address announced for a server that never served
        line = done.stderr.strip()
        assert "\n" not in line and line.startswith("error: cannot open the database"), line
        assert why in line.lower()


def test_an_unreachable_redis_is_said_in_one_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    redis = f"redis://127.0.0.1:{free_port()}/0"
    done = _serve("--port", str(free_port()), "--database-url", url, "--redis-url", redis)
    assert done.returncode == 2 and done.stdout == ""
    line = done.stderr.strip()
    assert "\n" not in line and line.startswith(f"error: cannot reach Redis at {redis}"), line


def test_serve_announces_its_address_once_it_serves_and_keeps_to_its_log_level(
    tmp_path: Path,
) -> None:
    port = free_port()
    out, err = tmp_path / "serve.out", tmp_path / "serve.err"
    with out.open("wb") as stdout, err.open("wb") as stderr:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "from parley.cli import main; main()",
                "serve",
                "--port",
                str(port),
                "--database-url",
                f"sqlite:///{tmp_path / 'fresh.sqlite3'}",  # new: every migration runs
                "--log-level",
                "warning",
            ],
            stdout=stdout,
            stderr=stderr,
        )
    try:

        def announced() -> bool:
            assert proc.poll() is None, err.read_text()
            return "Parley on" in out.read_text()

        wait_until(announced, timeout=30, what="parley serve to announce itself")
        # Said only once it serves: the first request after the line is answered.
        health = httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=5)
        assert health.status_code == 200
        assert out.read_text() == (
            f"Parley on http://127.0.0.1:{port} (database sqlite:///{tmp_path / 'fresh.sqlite3'})\n"
        )
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    # --log-level warning holds for the migrations (Alembic) too: no INFO line at all.
    assert "INFO" not in err.read_text() and "Running upgrade" not in err.read_text()


def test_serve_help_says_where_the_default_database_is() -> None:
    from typer.testing import CliRunner

    from parley.cli import app

    shown = CliRunner().invoke(app, ["serve", "--help"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0
    said = " ".join(re.sub(r"[│╭╮╰╯─]", " ", shown.output).split())
    assert "~/.local/share/parley/parley.sqlite3" in said and "every clone" in said
