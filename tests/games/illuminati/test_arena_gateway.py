"""The arena and the agent gateway play Illuminati like any other game."""

from __future__ import annotations

from pathlib import Path

from tests.agents.test_gateway import Server, server  # noqa: F401 - the fixture is used by name

from parley.agents.arena.run import ArenaConfig, run_arena


def test_the_arena_plays_illuminati_with_both_bots(tmp_path: Path) -> None:
    config = ArenaConfig(
        game="illuminati",
        bots=("heuristic", "random"),
        games=4,
        seats=3,
        out=tmp_path,
        options={"illuminati": "random"},
    )
    report = run_arena(config)
    assert len(report.results) == 4
    for result in report.results:
        assert not result.capped and not result.bot_errors
        assert result.outcome["winners"]
    assert (tmp_path / "summary.json").exists()


def test_the_gateway_describes_structures_and_plays_answers(server: Server) -> None:  # noqa: F811
    host, agent = server.sign_up("host"), server.agent("conspirator")
    gid = server.game_with_bot(host, agent, game="illuminati", options={"illuminati": "random"})
    texts: list[str] = []
    for _ in range(25):
        pending = server.decision(agent, gid)
        if not pending["pending"]:
            break
        decision = pending["decision"]
        texts.append(decision["text"])
        notations = [o["notation"] for o in decision["options"]]
        assert notations
        choice = "pass" if "pass" in notations else notations[0]
        out = server.answer(agent, gid, decision=decision["decision"], action=choice)
        assert out["status"] == "accepted", out
    assert texts
    first = texts[0]
    assert "Uncontrolled:" in first and "treasury" in first and "Player 1" in first
    assert any("to decide:" in t for t in texts)
