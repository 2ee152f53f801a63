"""Drive `parley` in a real pseudo-terminal, as a person at a keyboard would."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")
ROOT = Path(__file__).resolve().parents[1]


class Pty:
    """A `parley` process on a pseudo-terminal; `expect` reads until a pattern shows."""

    def __init__(self, *args: str, columns: int = 100, rows: int = 40) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
        env.update(TERM="xterm-256color", PYTHONUNBUFFERED="1")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "parley.cli", *args],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            cwd=ROOT,
            env=env,
            close_fds=True,
        )
        os.close(slave)
        self.fd = master
        self.text = ""  # everything read so far, without escapes and carriage returns
        self.pos = 0  # where the next expect starts looking

    def _read(self, deadline: float) -> bool:
        left = deadline - time.monotonic()
        if left <= 0:
            return False
        ready, _, _ = select.select([self.fd], [], [], left)
        if not ready:
            return False
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # the child closed the terminal
            chunk = b""
        if not chunk:
            raise EOFError(self.text[-3000:])
        self.text += ANSI.sub("", chunk.decode("utf-8", "replace")).replace("\r", "")
        return True

    def expect(self, pattern: str, timeout: float = 30.0) -> re.Match[str]:
        """The first match of `pattern` after the previous one (a bound, not a sleep)."""
        regex = re.compile(pattern, re.S)
        deadline = time.monotonic() + timeout
        while True:
            found = regex.search(self.text, self.pos)
            if found:
                self.pos = found.end()
                return found
            try:
                if not self._read(deadline) and time.monotonic() >= deadline:
                    raise AssertionError(f"no {pattern!r} in:\n{self.text[-3000:]}")
            except EOFError:
                found = regex.search(self.text, self.pos)
                if found:
                    self.pos = found.end()
                    return found
                raise AssertionError(f"ended before {pattern!r}:\n{self.text[-3000:]}") from None

    def send(self, line: str) -> None:
        os.write(self.fd, line.encode() + b"\n")

    def finish(self, timeout: float = 60.0) -> int:
        """Read to the end and return the exit code."""
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                self._read(deadline)
        except EOFError:
            pass
        code = self.proc.wait(timeout=max(1.0, deadline - time.monotonic()))
        os.close(self.fd)
        return code

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        with contextlib.suppress(OSError):
            os.close(self.fd)


def options_after(term: Pty) -> dict[str, list[str]]:
    """Send `options` and read the groups of legal actions it prints."""
    term.send("options")
    block = term.expect(r"(Legal now:\n.*?|You have no action to take now\.\n.*?)> ").group(1)
    groups: dict[str, list[str]] = {}
    current = ""
    for line in block.splitlines()[1:]:
        if line.startswith("    "):
            groups.setdefault(current, []).append(line.strip())
        elif line.startswith("  "):
            current = line.strip().rstrip(":")
            groups.setdefault(current, [])
    return groups


def first_choice(term: Pty) -> str:
    """Send `options` and read the first action it lists (a line that heads no group)."""
    term.send("options")
    block = term.expect(r"Legal now:\n(.*?)> ").group(1)
    for line in block.splitlines():
        text = line.strip()
        if (
            text
            and not text.endswith(":")
            and line.startswith("  ")
            and not line.startswith("You may also")
        ):
            return text
    raise AssertionError(f"no action in:\n{block}")


def play_to_the_end(term: Pty, prompts: int = 400) -> int:
    """Answer every prompt until the final ranks: an owed decision with the first action
    listed (drafted orders: `done`), an out-of-turn one with Enter. Returns the prompts."""
    for answered in range(prompts):
        found = term.expect(
            r"(Your turn[^\n]*|You may act out of turn[^\n]*)\n|(Final ranks:\n)", timeout=60
        )
        if found.group(2):
            return answered
        title = found.group(1)
        head = term.expect(r"(Draft your orders)?.*?> ").group(1)
        if not title.startswith("Your turn"):
            term.send("")
        elif head:
            term.send("done")
        else:
            term.send(first_choice(term))
    raise AssertionError(f"no end after {prompts} prompts:\n{term.text[-3000:]}")
