"""Browser tests: a real Parley server in a subprocess, driven by headless Chromium.

Chromium is Debian's (/usr/bin/chromium), never a downloaded one. Without it the browser
tests are skipped, except under CI=true, where that is a failure. Every page's requests
are recorded; anything not on the loopback interface is refused and fails the test.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
START_TIMEOUT = 40.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Server:
    """One `parley serve` process on a loopback port, with its own SQLite file."""

    port: int
    database_url: str
    log_path: Path
    process: subprocess.Popen[bytes] | None = None
    log: Any = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PARLEY_")}
        env["PARLEY_FIXED_SEEDS"] = "1"  # the tests mirror their games from the seeds they give
        log = self.log = self.log_path.open("ab")
        # Exactly what a person runs: `parley serve`, on a loopback port.
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "parley.cli",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--database-url",
                self.database_url,
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited at start:\n{self.log_path.read_text()}")
            try:
                if httpx.get(f"{self.base}/api/health", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(
                    f"the server did not answer in time:\n{self.log_path.read_text()}"
                )
            time.sleep(0.1)  # polling a starting process, bounded by the deadline above

    def stop(self) -> None:
        proc = self.process
        if proc is None:
            return
        self.process = None
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=15)
        finally:
            if self.log is not None:
                self.log.close()
                self.log = None

    def api(self, method: str, path: str, token: str | None = None, **kw: Any) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        res = httpx.request(method, f"{self.base}{path}", headers=headers, timeout=10, **kw)
        res.raise_for_status()
        return res.json()


def _new_server(folder: Path) -> Server:
    db = folder / "parley.sqlite3"
    return Server(free_port(), f"sqlite:///{db}", folder / "server.log")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = _new_server(tmp_path_factory.mktemp("web-server"))
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server for one test alone (it may stop and restart it)."""
    srv = _new_server(tmp_path)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not CHROMIUM.exists():
        reason = f"{CHROMIUM} is not installed (apt-get install chromium); browser tests need it"
        if os.environ.get("CI") == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=20_000)
    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def is_loopback(url: str) -> bool:
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about"):
        return True
    return (parts.hostname or "") in LOOPBACK


@dataclass
class People:
    """Browser contexts, one per person; every request they make is checked."""

    browser: Any
    server: Server
    contexts: list[Any] = field(default_factory=list)
    requested: list[str] = field(default_factory=list)
    outside: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def page(
        self, width: int = 1366, height: int = 900, *, confirm: bool = False, **options: Any
    ) -> Any:
        """A page in a new context; `options` go to the context (locale, timezone_id...).

        Without `confirm`, the person has turned off the questions the client asks before
        actions that spend something (tests that are not about them play straight on).
        """
        context = self.browser.new_context(
            viewport={"width": width, "height": height}, base_url=self.server.base, **options
        )
        if not confirm:
            context.add_init_script("localStorage.setItem('parley.confirm', 'off');")
        context.route("**/*", self._route)
        self.contexts.append(context)
        page = context.new_page()
        page.on("websocket", lambda ws: self._seen(ws.url))
        page.on("pageerror", lambda err: self.errors.append(str(err)))
        return page

    def _seen(self, url: str) -> None:
        self.requested.append(url)
        if not is_loopback(url):
            self.outside.append(url)

    def _route(self, route: Any) -> None:
        url = route.request.url
        self._seen(url)
        if is_loopback(url):
            route.continue_()
        else:
            route.abort()

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def people(browser: Any, server: Server) -> Iterator[People]:
    crowd = People(browser, server)
    try:
        yield crowd
    finally:
        crowd.close()
    assert crowd.requested, "no request was recorded: the recorder is not working"
    assert not crowd.outside, f"the client asked for non-loopback URLs: {crowd.outside}"
    assert not crowd.errors, f"uncaught JavaScript errors: {crowd.errors}"


@pytest.fixture
def people_on(browser: Any) -> Iterator[Callable[[Server], People]]:
    """Like `people`, for a test's own server."""
    made: list[People] = []

    def make(srv: Server) -> People:
        crowd = People(browser, srv)
        made.append(crowd)
        return crowd

    yield make
    for crowd in made:
        crowd.close()
        assert not crowd.outside, f"the client asked for non-loopback URLs: {crowd.outside}"
        assert not crowd.errors, f"uncaught JavaScript errors: {crowd.errors}"


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
