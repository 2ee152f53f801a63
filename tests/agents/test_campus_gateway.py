"""The agent gateway plays Campus Conquest: the decision text describes the board."""

from __future__ import annotations

from tests.agents.test_gateway import Server, server

__all__ = ["server"]  # the fixture, shared with the gateway's own tests


def test_an_agent_reads_the_board_and_plays_campus(server: Server) -> None:
    host, agent = server.sign_up("host"), server.agent("campus-agent")
    gid = server.game_with_bot(host, agent, game="campus")
    played = 0
    for _ in range(30):
        pending = server.decision(agent, gid)
        if not pending["pending"]:
            break
        decision = pending["decision"]
        text = decision["text"]
        notations = [o["notation"] for o in decision["options"]]
        if decision["observation"]["view"]["phase"] == "minigame":
            assert "pick a whole number 0-100" in text
            answer = "pick 33"
        else:
            assert "(you):" in text and "Your sectors (* landmark):" in text
            assert "-> next to:" in text and "attack +" in text and "defence +" in text
            assert "Pro-Vice-Chancellor:" in text
            assert "pass" in notations
            answer = next((n for n in notations if n.startswith("move")), "pass")
        out = server.answer(agent, gid, decision=decision["decision"], action=answer)
        assert out["status"] == "accepted" and out["played"] == answer
        played += 1
    assert played >= 5
