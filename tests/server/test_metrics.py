"""/metrics: off unless allowed; the figures move with what the server does."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import httpx
import pytest
from tests.server.conftest import Client, LiveServer, make_settings, start_live_server
from tests.server.test_play import mover, start_game

from parley.server import metrics

Users = Callable[..., Client]


def value(text: str, name: str, **labels: str) -> float:
    """The sample `name{labels}` in an exposition (0 when absent)."""
    want = ",".join(f'{k}="{v}"' for k, v in labels.items())
    pattern = re.escape(name) + (r"\{" + re.escape(want) + r"\}" if want else "") + r" (\S+)"
    found = re.search("^" + pattern + "$", text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


@pytest.fixture
def guarded(sqlite_url: str) -> Iterator[LiveServer]:
    server = start_live_server(make_settings(sqlite_url, metrics_token="s3cret-metrics"))
    yield server
    server.stop()


def scrape(base: str, token: str | None = "s3cret-metrics", **headers: str) -> httpx.Response:
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return httpx.get(f"{base}/metrics", headers=headers, timeout=10)


def test_metrics_are_off_by_default(live: LiveServer) -> None:
    assert scrape(live.url).status_code == 404
    assert scrape(live.url, token=None).status_code == 404


def test_a_token_guards_metrics(guarded: LiveServer) -> None:
    assert scrape(guarded.url, token=None).status_code == 404
    assert scrape(guarded.url, token="wrong").status_code == 404
    ok = scrape(guarded.url)
    assert ok.status_code == 200
    assert ok.headers["content-type"].startswith("text/plain")
    assert "parley_http_responses_total" in ok.text


def test_loopback_access_refuses_forwarded_requests(sqlite_url: str) -> None:
    server = start_live_server(make_settings(sqlite_url, metrics_loopback=True))
    try:
        assert scrape(server.url, token=None).status_code == 200
        # A proxy on this machine connects from loopback for anyone: not enough.
        forwarded = scrape(server.url, token=None, **{"X-Forwarded-For": "203.0.113.9"})
        assert forwarded.status_code == 404
    finally:
        server.stop()


def test_figures_follow_moves_sockets_and_errors(guarded: LiveServer, users: Users) -> None:
    before = scrape(guarded.url).text
    a, b = users("amy"), users("bob")
    gid, _ = start_game(a, [b], "countdown", options={"start": 5})
    watcher = a.ws(gid)
    watcher.wait_for(lambda m: m.get("type") == "state", what="the first state")
    a.post(f"/api/games/{gid}/press", {"text": "good luck"})
    moves = 0
    while a.get(f"/api/games/{gid}")["status"] != "finished":
        who = mover([a, b], gid)
        who.post(f"/api/games/{gid}/actions", {"action": "take 1"})
        moves += 1
    a.post(f"/api/games/{gid}/actions", {"action": "take 1"}, expect=409)
    watcher.wait_for(
        lambda m: m.get("type") == "game" and m.get("game", {}).get("status") == "finished",
        what="the end",
    )
    after = scrape(guarded.url).text
    entries = "parley_entries_total"
    assert (
        value(after, entries, game="countdown", kind="action")
        - value(before, entries, game="countdown", kind="action")
        == moves
    )
    assert (
        value(after, entries, game="countdown", kind="press")
        - value(before, entries, game="countdown", kind="press")
        == 1
    )
    submitted = "parley_submit_seconds_count"
    assert (
        value(after, submitted, transport="http") - value(before, submitted, transport="http")
        == moves + 1
    )  # the refused move is answered too
    assert value(after, "parley_delivery_seconds_count") > value(
        before, "parley_delivery_seconds_count"
    )
    assert value(after, "parley_open_sockets") >= 1
    assert value(after, "parley_games_cached") >= 1
    assert value(after, "parley_http_responses_total", status="4xx") > value(
        before, "parley_http_responses_total", status="4xx"
    )
    assert value(after, "parley_flush_seconds_count") > value(before, "parley_flush_seconds_count")
    watcher.conn.close()


def test_allowed_checks_tokens_in_constant_time_terms() -> None:
    assert metrics.allowed("t0k", False, "127.0.0.1", "Bearer t0k", False)
    assert not metrics.allowed("t0k", False, "127.0.0.1", "Bearer t0k2", False)
    assert not metrics.allowed(None, False, "127.0.0.1", None, False)
    assert metrics.allowed(None, True, "::1", None, False)
    assert not metrics.allowed(None, True, "192.0.2.1", None, False)
    assert not metrics.allowed(None, True, "127.0.0.1", None, True)
