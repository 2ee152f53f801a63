"""Chat models as server bot seats (`llm:PROFILE`): played off the game's lock, through the
normal play path, with retries and then the default; only installed profiles are offered."""

from __future__ import annotations

import json
import random
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from tests.server.conftest import (
    WAIT,
    ApiError,
    LiveServer,
    make_settings,
    sign_up,
    start_live_server,
    wait_until,
)

from parley.server.export import records_in_database

OPTION = re.compile(r"^- (\S+): (.+) \[.*\]$", re.M)


class Model:
    """Scripted chat endpoints, one per path: /random, /bad (always refused), /held (waits
    for `release` before answering at random)."""

    def __init__(self) -> None:
        self.requests: dict[str, int] = {}
        self.release = threading.Event()
        self.holding = threading.Event()  # a /held request is waiting
        self.lock = threading.Lock()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                policy = self.path.strip("/").split("/")[0]
                data = json.dumps(outer.answer(policy, body)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}"
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)

    def answer(self, policy: str, body: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            self.requests[policy] = self.requests.get(policy, 0) + 1
        prompt = body["messages"][1]["content"]
        options = OPTION.findall(prompt)
        assert options, prompt  # the decision text lists the legal actions
        if policy == "held":
            self.holding.set()
            assert self.release.wait(WAIT), "the test never released the model"
        if policy == "bad":
            args: dict[str, Any] = {"options": ["no-such-option"]}
        else:
            args = {"options": [random.Random(prompt).choice(options)[0]]}
        call = {
            "id": "call-1",
            "type": "function",
            "function": {"name": "submit_action", "arguments": json.dumps(args)},
        }
        return {
            "choices": [{"message": {"role": "assistant", "content": "", "tool_calls": [call]}}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 10},
        }


@pytest.fixture
def model() -> Iterator[Model]:
    served = Model()
    served.thread.start()
    try:
        yield served
    finally:
        served.release.set()
        served.http.shutdown()
        served.http.server_close()


@pytest.fixture
def server(
    model: Model, sqlite_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[LiveServer]:
    folder = tmp_path / "profiles"
    folder.mkdir()
    for policy in ("random", "bad", "held"):
        (folder / f"{policy}.toml").write_text(
            f'base_url = "{model.url}/{policy}/v1"\nmodel = "scripted-{policy}"\n'
            'api_key_env = ""\nretries = 1\nendpoint_retries = 0\ntimeout_seconds = 30\n'
            "concurrency = 2\ninput_price = 0.001\noutput_price = 0.002\n",
            encoding="utf-8",
        )
    (folder / "not-a-profile.txt").write_text("x", encoding="utf-8")
    monkeypatch.setenv("PARLEY_LLM_PROFILES", str(folder))
    live = start_live_server(make_settings(sqlite_url))
    yield live
    live.stop()


def _game(live: LiveServer, game: str, bot: str, **options: int) -> tuple[Any, str]:
    host = sign_up(live.url, "host")
    gid = host.post("/api/games", {"game": game, "seats": 2, "options": options}, expect=201)["id"]
    host.post(f"/api/games/{gid}/bots", {"bot": bot, "count": 1})
    host.post(f"/api/games/{gid}/start")
    return host, gid


def _play_out(live: LiveServer, host: Any, gid: str, action: str) -> None:
    """The host plays its turns until the game ends (the model plays the other seat)."""

    def done() -> bool:
        state = host.get(f"/api/games/{gid}/state")
        if state["status"] == "finished":
            return True
        if state["can_act"]:
            host.post(
                f"/api/games/{gid}/actions", {"action": action, "state_id": state["state_id"]}
            )
        return False

    wait_until(done, what="the game to end")


def _bot_seat(host: Any, gid: str) -> int:
    """The model's seat: the one of two the host does not hold (seats are drawn)."""
    return 1 - int(host.get(f"/api/games/{gid}/state")["viewer"]["seat"])


def _bot_actions(host: Any, gid: str) -> list[dict[str, Any]]:
    entries = host.get(f"/api/games/{gid}/history", params={"limit": 500})["entries"]
    seat = _bot_seat(host, gid)
    return [e for e in entries if e.get("type") == "action" and e.get("seat") == seat]


def _usage(url: str, gid: str) -> list[dict[str, Any]]:
    """The game's `usage` as the export reads it out of the database."""
    records = dict(records_in_database(url))
    return list(records[gid].get("usage") or [])


def test_a_model_seat_plays_a_server_game_to_its_end_and_its_usage_is_exported(
    server: LiveServer, model: Model, sqlite_url: str
) -> None:
    host, gid = _game(server, "countdown", "llm:random", start=9)
    _play_out(server, host, gid, "take 1")
    assert _bot_actions(host, gid), "the model's seat never acted"
    decisions = len(_bot_actions(host, gid))
    assert model.requests["random"] == decisions  # one request per decision: all accepted
    usage = _usage(sqlite_url, gid)
    assert len(usage) == decisions
    assert len({(u["seat"], u["state_id"]) for u in usage}) == decisions
    seat = _bot_seat(host, gid)
    assert all(u["seat"] == seat and u["model"] == "scripted-random" for u in usage)
    assert all(u["prompt_tokens"] == 100 and u["completion_tokens"] == 10 for u in usage)
    assert all(u["cost"] == pytest.approx(0.12) and not u["defaulted"] for u in usage)
    assert all("reasoning" not in u for u in usage)


def test_the_game_answers_reads_and_other_seats_while_the_model_thinks(
    server: LiveServer, model: Model
) -> None:
    host, gid = _game(server, "sealed-bids", "llm:held", rounds=1)
    assert model.holding.wait(WAIT), "the model was never asked"
    # The model holds its answer: the game still answers reads and takes the host's bid.
    state = host.get(f"/api/games/{gid}/state")
    assert state["owes"] and state["status"] == "active"
    host.post(f"/api/games/{gid}/actions", {"action": "bid 1", "state_id": state["state_id"]})
    assert host.get(f"/api/games/{gid}")["status"] == "active"  # the model's bid is owed
    model.release.set()
    wait_until(
        lambda: host.get(f"/api/games/{gid}")["status"] == "finished", what="the game to end"
    )
    assert model.requests["held"] == 1


def test_a_refused_answer_is_retried_then_the_default_is_played(
    server: LiveServer, model: Model, sqlite_url: str
) -> None:
    host, gid = _game(server, "countdown", "llm:bad", start=6)
    _play_out(server, host, gid, "take 1")
    decisions = len(_bot_actions(host, gid))
    assert decisions >= 1
    assert model.requests["bad"] == 2 * decisions  # each refused once, retried once
    usage = _usage(sqlite_url, gid)
    assert [u["defaulted"] for u in usage] == [True] * decisions
    assert all(u["invalid"] == 2 for u in usage)


def test_only_installed_profiles_are_offered_and_accepted(server: LiveServer) -> None:
    host = sign_up(server.url, "host")
    catalog = host.get("/api/game-types")
    assert {"llm:bad", "llm:held", "llm:random"} <= set(catalog["bots"])
    assert "llm:not-a-profile" not in catalog["bots"]
    countdown = next(g for g in catalog["games"] if g["name"] == "countdown")
    assert "llm:random" in countdown["bots"]
    for name in ("llm:nope", "llm:..", "llm:/etc/passwd", "llm:http://x"):
        with pytest.raises(ApiError) as err:
            host.post("/api/games", {"game": "countdown", "takeover_bot": name}, expect=201)
        assert err.value.status in (400, 422), name  # 422: not a bot name at all
    with pytest.raises(ApiError) as err:
        host.post("/api/games", {"game": "countdown", "takeover_bot": "llm:nope"}, expect=201)
    assert err.value.status == 400
    assert "no model profile 'llm:nope' installed" in str(err.value)
    assert "llm:random" in str(err.value)
    gid = host.post("/api/games", {"game": "countdown"}, expect=201)["id"]
    with pytest.raises(ApiError) as err:
        host.post(f"/api/games/{gid}/bots", {"bot": "llm:nope"}, expect=200)
    assert err.value.status == 400
    assert host.get(f"/api/games/{gid}")["status"] == "lobby"


def test_an_answer_that_comes_after_the_game_moved_on_is_dropped(
    server: LiveServer, model: Model, sqlite_url: str
) -> None:
    host = sign_up(server.url, "host")
    body = {"game": "sealed-bids", "seats": 2, "options": {"rounds": 2}, "period_seconds": 60}
    gid = host.post("/api/games", body, expect=201)["id"]
    host.post(f"/api/games/{gid}/bots", {"bot": "llm:held", "count": 1})
    host.post(f"/api/games/{gid}/start")
    assert model.holding.wait(WAIT), "the model was never asked"
    first = host.get(f"/api/games/{gid}/state")["state_id"]
    host.post(f"/api/games/{gid}/actions", {"action": "bid 1", "state_id": first})
    assert server.advance(60) == 1  # the deadline plays the thinking model's default
    wait_until(lambda: model.requests["held"] == 2, what="the model to be asked for round 2")
    model.release.set()  # both answers now: round 1's is too late
    wait_until(
        lambda: len(_usage_all(sqlite_url, gid)) == 2, what="both answers' usage to be saved"
    )
    state = host.get(f"/api/games/{gid}/state")
    host.post(f"/api/games/{gid}/actions", {"action": "bid 1", "state_id": state["state_id"]})
    wait_until(
        lambda: host.get(f"/api/games/{gid}")["status"] == "finished", what="the game to end"
    )
    assert len(_bot_actions(host, gid)) == 2  # one per round: the late answer added none
    usage = _usage_all(sqlite_url, gid)
    assert usage[0]["state_id"] == first  # its tokens are counted all the same


def _usage_all(url: str, gid: str) -> list[dict[str, Any]]:
    records = dict(records_in_database(url, finished_only=False))
    return list(records[gid].get("usage") or [])
