"""README's "Using it" runs as written, from the repository's own files, and README lists
every document in docs/.

Each line of the block is run with bash, exactly as it is written, in a folder holding what a
fresh clone holds for it: `.venv` (this test's environment) and the tracked `examples/`. What
"runs" means depends on the line: a terminal game (`play`) starts, shows the board and the
player's prompt, and ends cleanly when its input is closed; `mcp` registers its agent on a
`parley serve` started here (its URL in place of the README's) and ends with its input;
`agent` with the README's placeholders reaches that server and is refused in one line
(there is no game `GAME_ID`). The others run to their end and their output is checked.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.server.conftest import free_port, wait_until

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
README_SERVER = "http://127.0.0.1:8000"
GAMES = ("campus", "diplomacy", "illuminati", "planets", "sucker")
LONG = {"arena", "export"}  # played in their own test, in README order: export reads arena's


def using_it() -> list[str]:
    """The command lines of README's "Using it" block, in order."""
    section = README.read_text(encoding="utf-8").split("## Using it", 1)[1]
    block = section.split("```sh", 1)[1].split("```", 1)[0]
    return [line.strip() for line in block.splitlines() if line.strip()]


def command_of(line: str) -> str:
    """The `parley` subcommand a README line runs ("diplomacy adjudicate" for two words)."""
    words = line.split("#", 1)[0].split()
    assert words[0] == ".venv/bin/parley", f"README line does not run parley: {line}"
    if words[1] == "diplomacy":
        return f"diplomacy {words[2]}"
    return words[1]


def _fresh_clone(folder: Path) -> Path:
    """What a clone holds for the README's lines: the environment and the tracked examples."""
    folder.mkdir()
    venv_parley = Path(sys.prefix) / "bin" / "parley"
    if venv_parley.exists():
        (folder / ".venv").symlink_to(sys.prefix, target_is_directory=True)
    else:  # parley installed outside a virtualenv: the same command through this Python
        script = folder / ".venv" / "bin" / "parley"
        script.parent.mkdir(parents=True)
        script.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m parley.cli "$@"\n')
        script.chmod(0o755)
    tracked = _tracked("examples")
    for name in tracked:
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / name, target)
    return folder


def _tracked(folder: str) -> list[str]:
    """The files under `folder` that a clone has: git's list, or the folder outside git."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--", folder],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
            timeout=30,
        ).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        listed = []
    if listed:
        return listed
    return [str(p.relative_to(ROOT)) for p in (ROOT / folder).rglob("*") if p.is_file()]


def _run(line: str, clone: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PARLEY_")}
    return subprocess.run(
        ["bash", "-c", line],
        cwd=clone,
        env=env,
        stdin=subprocess.DEVNULL,  # input closed: an interactive command must end cleanly
        capture_output=True,
        text=True,
        timeout=timeout,
    )


class Server:
    """`parley serve` on a loopback port with its own SQLite file, as the README's lines
    expect one at 127.0.0.1:8000."""

    def __init__(self, clone: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.out = clone / "serve.out"
        with self.out.open("wb") as sink:
            self.proc = subprocess.Popen(
                [
                    str(clone / ".venv" / "bin" / "parley"),
                    "serve",
                    "--port",
                    str(self.port),
                    "--database-url",
                    f"sqlite:///{clone / 'served.sqlite3'}",
                    "--log-level",
                    "warning",
                ],
                cwd=clone,
                stdout=sink,
                stderr=subprocess.STDOUT,
            )

        def serving() -> bool:
            assert self.proc.poll() is None, self.out.read_text()
            return "Parley on" in self.out.read_text()

        wait_until(serving, timeout=60, what="parley serve")

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=20)


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    return _fresh_clone(tmp_path / "clone")


@pytest.fixture
def server(clone: Path) -> Iterator[Server]:
    served = Server(clone)
    yield served
    served.stop()


def _check(line: str, clone: Path, server: Server | None) -> None:
    """Run one README line and check what it must do."""
    command = command_of(line)
    if command in ("mcp", "agent"):
        assert server is not None and README_SERVER in line
        line = line.replace(README_SERVER, server.url)
    done = _run(line, clone)
    said = f"{line}\nstdout: {done.stdout[-3000:]}\nstderr: {done.stderr[-3000:]}"
    if command == "agent":
        # Placeholders: the server is reached, and refuses GAME_ID in one line.
        assert done.returncode == 2, said
        assert done.stderr.count("\n") == 1 and "could not join GAME_ID" in done.stderr, said
        return
    assert done.returncode == 0, said
    assert "Traceback" not in done.stderr, said
    if command == "--version":
        assert re.fullmatch(r"parley \d+\.\d+\.\d+\S*\n", done.stdout), said
    elif command == "games":
        assert all(name in done.stdout for name in GAMES), said
    elif command == "play":
        assert "Your turn" in done.stdout, said  # the board, then the player's prompt
    elif command == "replay":
        assert "Final ranks" in done.stdout and "winner" in done.stdout, said
    elif command == "diplomacy adjudicate":
        judged = json.loads(done.stdout)
        assert judged["results"]["FRANCE"][0]["order"] == "A PAR - BUR", said
        assert judged["next"]["phase"], said
    elif command == "mcp":
        assert "registered my-agent" in done.stderr, said
    elif command == "arena":
        _check_arena(line, clone, done.stdout)
    elif command == "export":
        _check_export(line, clone)
    else:
        raise AssertionError(f"README line with no check here (add one): {line}")


def _arena_folder(line: str) -> Path:
    found = re.search(r"in (arena-out/[\w.+-]+)", line)
    assert found, f"the arena line names the folder it writes: {line}"
    return Path(found.group(1))


def _check_arena(line: str, clone: Path, stdout: str) -> None:
    out = clone / _arena_folder(line)
    count = int(re.search(r"--games (\d+)", line).group(1))  # type: ignore[union-attr]
    assert len(list((out / "games").glob("game-*.json"))) == count
    standings = json.loads((out / "summary.json").read_text())["standings"]
    bots = re.search(r"--bots ([\w,]+)", line).group(1).split(",")  # type: ignore[union-attr]
    assert len(set(bots)) > 1 and all(standings[bot]["rated"] for bot in bots)
    assert "unrated" not in stdout and stdout.count("±") >= len(set(bots)), stdout


def _check_export(line: str, clone: Path) -> None:
    words = shlex.split(line.split("#", 1)[0])
    source = clone / words[2]
    assert source.is_dir(), f"{words[2]} is not what the arena line wrote"
    target = clone / words[words.index("-o") + 1]
    plies = [json.loads(x)["plies"] for x in (source / "results.jsonl").read_text().splitlines()]
    with target.open(encoding="utf-8") as f:
        lines = sum(1 for _ in f)
    assert lines == sum(plies)  # every decision of that run's games, and no other's


def test_readme_lines_run_as_written(clone: Path, server: Server) -> None:
    lines = [line for line in using_it() if command_of(line) not in LONG]
    assert len(lines) >= 10
    for line in lines:
        _check(line, clone, server)


def test_readme_arena_line_then_its_export(clone: Path) -> None:
    lines = [line for line in using_it() if command_of(line) in LONG]
    assert [command_of(line) for line in lines] == ["arena", "export"]
    for line in lines:
        _check(line, clone, None)


def test_readme_names_files_that_exist_and_every_doc() -> None:
    text = README.read_text(encoding="utf-8")
    listed = set(re.findall(r"`(docs/[\w.-]+\.md)`", text.split("## Documentation", 1)[1]))
    docs = {f"docs/{p.name}" for p in (ROOT / "docs").glob("*.md")}
    assert docs <= listed, f"README's Documentation does not list {sorted(docs - listed)}"
    assert all((ROOT / name).is_file() for name in listed)
    for name in re.findall(r"(examples/[\w./-]+\.json)", "\n".join(using_it())):
        assert name in _tracked("examples"), f"{name} is not a tracked file"
    commands = {command_of(line) for line in using_it()}
    assert {"games", "play", "replay", "diplomacy adjudicate", "arena", "export"} <= commands
