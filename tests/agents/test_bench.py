"""`parley bench` against scripted chat endpoints served on loopback by the test.

Two endpoints of different strengths speak the OpenAI chat-completions protocol: one answers
at random among the legal actions listed in the decision text it is sent, the other plays
the heuristic bot's choice for the position (it reads the game the bench is playing, which
runs in this process). The bench must rank them, with intervals that do not overlap.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from parley.agents.arena import ArenaError
from parley.agents.arena import play as arena_play
from parley.agents.bench import BenchConfig, load_profile, run_bench
from parley.agents.bench.model import LLMBot
from parley.agents.bots import decide, make_bot
from parley.kernel import Match, Rng
from parley.kernel.errors import BadOptions

OPTION = re.compile(r"^- (\S+): (.+) \[.*\]$", re.M)
SEAT = re.compile(r"\(seat (\d+)\)")


class Endpoints:
    """The scripted models, one per path: /random, /heuristic, /sloppy, /down."""

    def __init__(self) -> None:
        self.current: dict[str, Match[Any, Any]] = {}  # the game being played
        self.requests = 0
        self.last: dict[str, Any] = {}  # the last request's body
        self.heuristic: dict[str, Any] = {}  # one heuristic bot per game
        handler = self._handler()
        self.http = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.http.server_address[1]}"
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)

    def answer(self, policy: str, body: dict[str, Any]) -> dict[str, Any]:
        self.requests += 1
        self.last = body
        prompt = body["messages"][1]["content"]
        options = OPTION.findall(prompt)
        rng = random.Random(hashlib.sha256(prompt.encode()).hexdigest())
        retried = len(body["messages"]) > 2
        if policy == "heuristic":
            match = self.current["match"]
            seat = int(SEAT.search(prompt).group(1))  # type: ignore[union-attr]
            heuristic = self.heuristic.setdefault(
                match.rules.spec.name, make_bot("heuristic", match.rules)
            )
            action = decide(heuristic, match, seat, Rng(rng.getrandbits(63)))
            args = {"action": match.rules.format(action), "reasoning": "as the heuristic"}
        elif policy == "sloppy" and not retried:
            args = {"options": ["no-such-option"]}  # refused, then right on the retry
        else:
            args = {"options": [rng.choice(options)[0]]}
        call = {
            "id": "call-1",
            "type": "function",
            "function": {"name": "submit_action", "arguments": json.dumps(args)},
        }
        return {
            "choices": [{"message": {"role": "assistant", "content": "", "tool_calls": [call]}}],
            "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens": 20},
        }

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # one connection for all of a bot's requests
            disable_nagle_algorithm = True  # headers and body leave at once

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                policy = self.path.strip("/").split("/")[0]
                if policy == "down":
                    self.send_response(503)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                data = json.dumps(outer.answer(policy, body)).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        return Handler


@pytest.fixture
def endpoints(monkeypatch: pytest.MonkeyPatch) -> Iterator[Endpoints]:
    served = Endpoints()
    start = arena_play.start_match

    def watched(rules: Any, task: Any) -> Match[Any, Any]:
        match = start(rules, task)
        served.current["match"] = match
        return match

    # The bench plays in this process (one worker), so the heuristic endpoint can read the
    # game it is asked about.
    monkeypatch.setattr(arena_play, "start_match", watched)
    served.thread.start()
    try:
        yield served
    finally:
        served.http.shutdown()
        served.http.server_close()


def profiles(folder: Path, url: str, **extra: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for policy in ("random", "heuristic", "sloppy", "down"):
        lines = [
            f'base_url = "{url}/{policy}/v1"',
            f'model = "scripted-{policy}"',
            'api_key_env = ""',
            "temperature = 0.0",
            "max_tokens = 256",
            "input_price = 0.000001",
            "output_price = 0.000002",
            "endpoint_retries = 1",
            "timeout_seconds = 10",
            *extra.values(),
        ]
        (folder / f"{policy}.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def row(board: dict[str, Any], player: str) -> dict[str, Any]:
    found: dict[str, Any] = next(r for r in board["players"] if r["player"] == player)
    return found


def test_the_bench_ranks_the_heuristic_model_above_the_random_one(
    endpoints: Endpoints, tmp_path: Path
) -> None:
    folder = profiles(tmp_path / "profiles", endpoints.url)
    config = BenchConfig(
        game="sucker",
        # One strong seat against three weak ones, rotating: the weak model's seats share
        # the games they lose, so its intervals are not squeezed to nothing.
        players=("llm:random", "llm:heuristic", "llm:random", "llm:random"),
        games=20,
        seed=5,
        out=tmp_path / "run",
        profiles=folder,
        workers=1,
        resamples=500,
    )
    report = run_bench(config)
    board = report.leaderboard
    assert [r["player"] for r in board["players"]] == ["llm:heuristic", "llm:random"]
    strong, weak = row(board, "llm:heuristic"), row(board, "llm:random")
    assert (strong["seats"], weak["seats"]) == (20, 60)
    # Separated 95% intervals, from a bootstrap over games.
    assert strong["win_share"]["ci95"][0] > weak["win_share"]["ci95"][1], (strong, weak)
    assert weak["win_share"]["ci95"][0] > 0 and strong["win_share"]["ci95"][1] < 1
    # One point per game in all.
    assert strong["win_share"]["value"] + 3 * weak["win_share"]["value"] == pytest.approx(1)
    for r in (strong, weak):
        assert r["kind"] == "model" and r["invalid_rate"]["value"] == 0.0
        assert r["model"]["defaulted"] == 0 and r["model"]["endpoint_errors"] == 0
        tokens = r["model"]["prompt_tokens"] + r["model"]["completion_tokens"]
        assert r["tokens_per_game"]["value"] == pytest.approx(tokens / 20, rel=1e-6)
        cost = r["model"]["prompt_tokens"] * 1e-6 + r["model"]["completion_tokens"] * 2e-6
        assert r["cost_per_game"]["value"] == pytest.approx(cost / 20, rel=1e-5)
        assert r["profile"]["model"].startswith("scripted-") and "api_key" not in r["profile"]
    # The files: the leaderboard as JSON, an HTML report with its plots inside.
    saved = json.loads((tmp_path / "run" / "leaderboard.json").read_text(encoding="utf-8"))
    assert saved == board
    page = (tmp_path / "run" / "report.html").read_text(encoding="utf-8")
    assert page.count('src="data:image/png;base64,') >= 4
    assert "http://" not in page and "https://" not in page  # nothing fetched from outside
    assert "llm:heuristic" in page and "bootstrap" in page


def test_a_stopped_bench_resumes_where_it_stopped_and_gives_the_same_figures(
    endpoints: Endpoints, tmp_path: Path
) -> None:
    folder = profiles(tmp_path / "profiles", endpoints.url)

    def config(out: str, games: int, **more: Any) -> BenchConfig:
        return BenchConfig(
            game="sucker",
            players=("llm:random", "heuristic"),
            games=games,
            seed=9,
            out=tmp_path / out,
            profiles=folder,
            workers=1,
            resamples=200,
            **more,
        )

    whole = run_bench(config("whole", 6)).leaderboard
    run_bench(config("parts", 3))  # stopped after three games
    with pytest.raises(ArenaError, match="holds a run already"):
        run_bench(config("parts", 6))  # neither resumed nor replaced: refused
    before = endpoints.requests
    resumed = run_bench(config("parts", 6, resume=True))
    assert resumed.resumed == 3  # kept, not played again
    again = endpoints.requests - before
    assert 0 < again < endpoints.requests - again  # only the missing games asked the model
    assert resumed.leaderboard == whole  # seeded: the same games, the same figures
    with pytest.raises(ArenaError, match="other players"):
        run_bench(
            BenchConfig(
                game="sucker",
                players=("llm:heuristic", "heuristic"),
                games=6,
                seed=9,
                out=tmp_path / "parts",
                profiles=folder,
                workers=1,
                resume=True,
            )
        )


def test_invalid_answers_are_retried_and_a_silent_endpoint_plays_the_default(
    endpoints: Endpoints, tmp_path: Path
) -> None:
    folder = profiles(tmp_path / "profiles", endpoints.url)
    board = run_bench(
        BenchConfig(
            game="sucker",
            players=("llm:sloppy", "llm:down", "random"),
            seats=3,
            games=2,
            seed=1,
            out=tmp_path / "run",
            profiles=folder,
            workers=1,
            resamples=100,
        )
    ).leaderboard
    sloppy, down = row(board, "llm:sloppy"), row(board, "llm:down")
    # Every first answer was refused and the retry accepted: half the answers invalid.
    assert sloppy["invalid_rate"]["value"] == pytest.approx(0.5)
    assert sloppy["model"]["defaulted"] == 0 and sloppy["model"]["decisions"] > 0
    # No answer at all: tried twice per decision (endpoint_retries = 1), then the default;
    # the endpoint's failures are not counted as the model's invalid answers.
    assert down["invalid_rate"] is None and down["model"]["answers"] == 0
    assert down["model"]["defaulted"] == down["model"]["decisions"] > 0
    assert down["model"]["endpoint_errors"] == 2 * down["model"]["decisions"]


def test_promises_and_betrayals_are_counted_per_player(tmp_path: Path) -> None:
    board = run_bench(
        BenchConfig(
            game="sucker",
            players=("negotiator", "opportunist"),
            games=8,
            seed=2,
            out=tmp_path / "run",
            workers=1,
            resamples=200,
        )
    ).leaderboard
    honest, liar = row(board, "negotiator"), row(board, "opportunist")
    assert honest["promises"]["made"] > 0 and liar["promises"]["made"] > 0
    # The honest bot breaks a promise now and then (a move it could not pass as promised);
    # the opportunist, which ignores its deals, breaks many more.
    assert liar["promises"]["broken"] > honest["promises"]["broken"]
    assert liar["betrayal_rate"]["value"] > honest["betrayal_rate"]["value"]
    for r in (honest, liar):
        p = r["promises"]
        low, high = r["betrayal_rate"]["ci95"]
        rate = r["betrayal_rate"]["value"]
        assert (
            rate == pytest.approx(p["broken"] / (p["kept"] + p["broken"])) and low <= rate <= high
        )
    for r in (honest, liar):
        p = r["promises"]
        assert p["kept"] + p["broken"] + p["open"] == p["made"]
        assert r["kind"] == "bot" and r["tokens_per_game"] is None


def test_a_short_diplomacy_bench_reports_a_centre_score(tmp_path: Path) -> None:
    board = run_bench(
        BenchConfig(
            game="diplomacy",
            players=("heuristic", "random"),
            games=3,
            seed=4,
            options={"year_limit": 1903},
            out=tmp_path / "run",
            workers=1,
            resamples=100,
        )
    ).leaderboard
    assert board["score"] == "sos"
    heuristic, rand = row(board, "heuristic"), row(board, "random")
    games = board["games"]
    total = heuristic["sos"]["value"] * heuristic["seats"] + rand["sos"]["value"] * rand["seats"]
    assert total == pytest.approx(games)  # one point per game in all
    assert heuristic["centres"]["value"] > rand["centres"]["value"]


def test_profiles_are_checked_with_clear_errors(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text('model = "m"\nbase_url = "ftp://x"\n', encoding="utf-8")
    with pytest.raises(BadOptions, match="base_url must start with http"):
        load_profile("bad", tmp_path)
    (tmp_path / "odd.toml").write_text(
        'model = "m"\nbase_url = "http://x"\ntemprature = 1\n', encoding="utf-8"
    )
    with pytest.raises(BadOptions, match="unknown field 'temprature'"):
        load_profile("odd", tmp_path)
    with pytest.raises(BadOptions, match="no such profile file"):
        load_profile("missing", tmp_path)
    with pytest.raises(BadOptions, match="no such profile file"):
        run_bench(BenchConfig(game="sucker", players=("llm:missing",), profiles=tmp_path,
                              out=tmp_path / "run"))  # fmt: skip
    assert not (tmp_path / "run").exists()  # refused before anything was written
    (tmp_path / "ok.toml").write_text(
        'model = "m"\nbase_url = "http://127.0.0.1:9/v1/"\nconcurrency = 3\n', encoding="utf-8"
    )
    profile = load_profile("ok", tmp_path)
    assert profile.base_url == "http://127.0.0.1:9/v1" and profile.concurrency == 3
    assert LLMBot(profile, _sucker()).name == "llm:ok"


def _sucker() -> Any:
    from parley import games

    return games.find("sucker")


def test_the_arena_plays_a_model_by_its_profile(
    endpoints: Endpoints, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import jsonschema_rs

    from parley.agents.arena import ArenaConfig, run_arena
    from parley.agents.export import decision_schema, decisions

    folder = profiles(tmp_path / "profiles", endpoints.url)
    monkeypatch.setenv("PARLEY_BENCH_PROFILES", str(folder))  # where llm:NAME is found
    report = run_arena(
        ArenaConfig(
            game="sucker", bots=("llm:heuristic", "random"), games=3, seed=1, out=tmp_path / "a"
        )
    )
    assert report.standings.tallies["llm:heuristic"].seats == 6
    for result in report.results:
        used = result.bot_stats["llm:heuristic"]
        assert used["decisions"] > 0 and used["answers"] == used["calls"]
        assert used["prompt_tokens"] > 0 and used["cost"] > 0
        # Per decision, in the record: what each cost, summing to the game's totals.
        assert result.path is not None
        record = json.loads(Path(result.path).read_text(encoding="utf-8"))
        usage = record["usage"]
        assert len(usage) == used["decisions"]
        assert sum(u["prompt_tokens"] for u in usage) == used["prompt_tokens"]
        assert sum(u["cost"] for u in usage) == pytest.approx(used["cost"])
        assert all(u["model"] == "scripted-heuristic" and not u["defaulted"] for u in usage)
        # The dataset export carries each model decision's usage and its words.
        lines = list(decisions(record, f"game-{result.index}"))
        mine = [d for d in lines if record["players"][d.seat] == "llm:heuristic"]
        assert len(mine) >= len(usage)  # its prisoners' moves out of turn are its own too
        with_usage = [d for d in mine if d.usage is not None]
        assert len(with_usage) == len(usage)
        assert all(d.reasoning == ["as the heuristic"] for d in with_usage)
        assert all(d.usage is None for d in lines if d not in mine)
        for d in with_usage[:3]:
            jsonschema_rs.validate(decision_schema(), d.to_json())
    line = json.loads((tmp_path / "a" / "results.jsonl").read_text().splitlines()[0])
    assert (
        line["bot_stats"]["llm:heuristic"]["completion_tokens"]
        == 20 * (line["bot_stats"]["llm:heuristic"]["answers"])
    )
    with pytest.raises(BadOptions, match="no such profile file"):
        run_arena(ArenaConfig(game="sucker", bots=("llm:nobody",), out=tmp_path / "b"))


def test_parley_bench_on_the_command_line(endpoints: Endpoints, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from parley.cli import app

    folder = profiles(tmp_path / "profiles", endpoints.url)
    out = tmp_path / "run"
    args = ["bench", "sucker", "--players", "llm:random,heuristic", "--games", "2"]
    args += ["--profiles", str(folder), "--out", str(out), "--workers", "1"]
    done = CliRunner().invoke(app, args)
    assert done.exit_code == 0, done.output
    assert "llm:random" in done.output and "leaderboard.json" in done.output
    assert (out / "leaderboard.json").is_file() and (out / "report.html").is_file()
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 2 and "holds a run already" in again.output
    missing = CliRunner().invoke(app, [*args[:3], "llm:absent", "--out", str(tmp_path / "x")])
    assert missing.exit_code == 2 and "no such profile file" in missing.output


def test_a_profile_sets_what_is_sent_and_parley_agent_reads_one(
    endpoints: Endpoints, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from parley.agents.remote.cli import _profile_endpoint
    from parley.cli import app

    folder = profiles(tmp_path / "profiles", endpoints.url)
    monkeypatch.setenv("SCRIPTED_KEY", "k-123")
    text = (
        (folder / "random.toml")
        .read_text(encoding="utf-8")
        .replace('api_key_env = ""', 'api_key_env = "SCRIPTED_KEY"')
    )
    (folder / "random.toml").write_text(text, encoding="utf-8")
    run_bench(
        BenchConfig(
            game="sucker", players=("llm:random",), seats=3, games=1, out=tmp_path / "run",
            profiles=folder, workers=1, resamples=100,
        )
    )  # fmt: skip
    body = endpoints.last
    assert body["model"] == "scripted-random" and body["temperature"] == 0.0
    assert body["max_tokens"] == 256 and body["tools"][0]["function"]["name"] == "submit_action"
    endpoint = _profile_endpoint(str(folder / "random.toml"))
    assert (endpoint.model, endpoint.api_key, endpoint.max_tokens) == (
        "scripted-random",
        "k-123",
        256,
    )
    assert endpoint.headers() == {"Authorization": "Bearer k-123"}
    done = CliRunner().invoke(app, ["agent", "G1", "--profile", str(tmp_path / "none.toml")])
    assert done.exit_code == 2 and "no such profile file" in done.output
    both = ["agent", "G1", "--profile", "x", "--base-url", "http://127.0.0.1:1", "--model", "m"]
    assert "not both" in CliRunner().invoke(app, both).output
