"""Bot seats in `parley play` answer what the human offers them, as on the server."""

from __future__ import annotations

import re
from io import StringIO
from typing import Any

from rich.console import Console
from typer.testing import CliRunner

from parley import games
from parley.agents.bots import Conversation, Decision, Reply, make_bot
from parley.cli import app
from parley.kernel import Match, Rng
from parley.terminal import Session

OFFER = "propose to blue: red passes to blue; blue passes to red"


def play(seed: int, answers: list[str]) -> tuple[Match[Any, Any], list[str], list[int]]:
    """Red is human against negotiators; the screen as it stood at each prompt, and the
    number the next bargain would get then."""
    rules = games.find("sls")
    match: Match[Any, Any] = Match(rules, ["you", "bot 2", "bot 3", "bot 4"], {}, seed)
    out = StringIO()
    screens: list[str] = []
    numbers: list[int] = []

    def ask(_prompt: str) -> str:
        screens.append(out.getvalue())
        numbers.append(match.state.next_bargain)
        return answers[len(screens) - 1] if len(screens) <= len(answers) else "quit"

    console = Console(file=out, width=120, force_terminal=False)
    Session(match, 0, make_bot("negotiator", rules), Rng(seed), console, ask).run()
    screens.append(out.getvalue())
    return match, screens, numbers


def test_a_negotiator_answers_the_humans_bargain_before_the_next_prompt() -> None:
    # Offered out of turn with Blue free (4) or owing a move (11), and on Red's own turn (6).
    for seed in (4, 11, 6):
        match, screens, numbers = play(seed, [OFFER])
        before, after = screens[0], screens[1]
        fresh = after[len(before) :]
        assert re.search(r"\d+ Red \(you\): " + re.escape(OFFER), fresh), fresh
        bargain = numbers[0]
        assert re.search(rf"\d+ Blue \(bot 2\): (accept|reject) {bargain}\n", fresh), fresh
        assert bargain not in match.state.bargains  # answered, not left open


def test_the_human_can_play_a_whole_game_against_negotiators() -> None:
    answers = ["play red new", "play blue new", "play green new", "play yellow new"]
    answers += ["next blue", "next green", "next yellow", "kill red", "kill blue", "decline"]
    result = CliRunner().invoke(
        app,
        ["play", "sls", "--seed", "3", "--bots", "negotiator"],
        input="\n".join(x for a in answers * 80 for x in (a, "")) + "\n",
    )
    assert result.exit_code == 0, result.output
    assert "Game over" in result.output
    assert re.search(r"\(bot \d\): accept \d+", result.output)


class Counting:
    """Acts anytime; proposes nothing and counts how often it is asked."""

    name = "counting"
    acts_anytime = True

    def __init__(self) -> None:
        self.asked = 0

    def choose(self, decision: Decision) -> Any:
        self.asked += 1
        return Reply(None)


def test_out_of_turn_asks_a_seat_once_per_change_and_keeps_to_the_limit() -> None:
    rules = games.find("sls")
    match: Match[Any, Any] = Match(rules, ["a", "b", "c", "d"], {}, 4)
    bot = Counting()
    talk = Conversation(match)
    rngs = [Rng(s) for s in range(4)]
    free = sorted(match.turn().anytime - match.turn().owing)
    assert talk.out_of_turn(dict.fromkeys(range(4), bot), rngs) == []
    assert bot.asked == len(free) > 0
    talk.out_of_turn(dict.fromkeys(range(4), bot), rngs)
    assert bot.asked == len(free)  # nothing happened since: nobody is asked again

    negotiator = make_bot("negotiator", rules)
    talk = Conversation(match)
    acted = talk.out_of_turn(dict.fromkeys(range(4), negotiator), rngs, limit=1)
    assert len(acted) == 1 < len(free)  # every free negotiator has an offer; one may make it
