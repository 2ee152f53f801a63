"""Bots that talk: the reply protocol, the arena's conversation, the negotiators of both
games with their two policies, and the deal report that tells kept promises from broken."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from parley import games
from parley.agents.arena.play import GameTask, play_game
from parley.agents.bots import Conversation, Decision, Reply, Say, bot_names, make_bot
from parley.games.diplomacy import daide
from parley.games.diplomacy.deals import Verdict, agreements, deal_report
from parley.games.sucker.actions import Accept, ChooseNext, PassPromise, Propose, Reject
from parley.kernel import Match, Rng, Viewer

DIPLOMACY = games.find("diplomacy")
SUCKER = games.find("sucker")


class Chatty:
    """Says hello to seat 1, votes for a draw, then plays the default."""

    name = "chatty"
    talks = True

    def __init__(self) -> None:
        self.seen: list[list[dict[str, Any]]] = []

    def choose(self, decision: Decision) -> Any:
        self.seen.append(decision.inbox)
        default = decision.rules.default_action(decision.state, decision.seat)
        return Reply(default, (Say("hello", (1,)),), draw=None)


def test_a_reply_sends_press_before_its_action_and_the_inbox_shows_new_press_once() -> None:
    match: Match[Any, Any] = Match(DIPLOMACY, 7, seed=1)
    talk = Conversation(match)
    bot = Chatty()
    match.say(3, "psst", [0])
    match.say(4, "to someone else", [5])
    action = talk.step(bot, 0, Rng(1))
    assert [e["text"] for e in bot.seen[0]] == ["psst"]  # not what it may not read
    assert match.history(Viewer.of(1))[-1]["text"] == "hello"
    assert talk.sent == [1, 0, 0, 0, 0, 0, 0]
    match.act(0, action)
    talk.step(bot, 0, Rng(1), owed=False)
    assert bot.seen[1] == []  # shown once; its own press is not in its inbox


def test_the_negotiators_are_bots_of_the_games_that_have_them() -> None:
    assert {"negotiator", "opportunist"} <= set(bot_names(SUCKER))
    assert {"negotiator", "opportunist"} <= set(bot_names(DIPLOMACY))
    with pytest.raises(Exception, match="no negotiating bot"):
        from tests.kernel.toygames import Countdown

        make_bot("negotiator", Countdown())


# --- So Long Sucker ------------------------------------------------------------------------


def _sucker_decision(match: Match[Any, Any], seat: int, owed: bool) -> Decision:
    return Decision(SUCKER, seat, match.state, Rng(seat), match=match, owed=owed)


def test_the_sucker_negotiator_offers_a_pact_of_passes_out_of_turn() -> None:
    match: Match[Any, Any] = Match(SUCKER, 4, seed=0)
    bot = make_bot("negotiator", SUCKER)
    reply = bot.choose(_sucker_decision(match, 0, owed=False))
    assert isinstance(reply, Reply) and isinstance(reply.action, Propose)
    rival = reply.action.to[0]
    assert set(reply.action.terms) == {PassPromise(0, rival), PassPromise(rival, 0)}


def test_the_sucker_negotiator_accepts_passes_but_not_a_demand_for_chips() -> None:
    match: Match[Any, Any] = Match(SUCKER, 4, seed=0)
    match.act(1, "propose to red: red passes to blue; blue passes to red")
    bot = make_bot("negotiator", SUCKER)
    reply = bot.choose(_sucker_decision(match, 0, owed=False))
    assert reply.action == Accept(1)
    match.act(0, reply.action)
    match.act(2, "propose to red: red gives 1 yellow to green")
    reply = bot.choose(_sucker_decision(match, 0, owed=False))
    assert reply.action == Reject(2)


def _pact_then_choice(policy: str) -> tuple[Any, set[int]]:
    """A table where seat 0 promised to pass to seat 2 and now chooses who moves."""
    for seed in range(60):
        match: Match[Any, Any] = Match(SUCKER, 4, seed=seed)
        colour = ["red", "blue", "green", "yellow"]
        match.act(0, f"propose to {colour[2]}: red passes to green; green passes to red")
        match.act(2, "accept 1")
        rng = Rng(seed)
        for _ in range(40):
            turn = match.turn()
            seat = min(turn.owing)
            choices = [
                a for a in SUCKER.legal_actions(match.state, seat) if isinstance(a, ChooseNext)
            ]
            if seat == 0 and choices and any(c.player == 2 for c in choices) and len(choices) > 1:
                bot = make_bot(policy, SUCKER)
                reply = bot.choose(_sucker_decision(match, 0, owed=True))
                action = reply.action if isinstance(reply, Reply) else reply
                return action, {c.player for c in choices}
            match.act(seat, SUCKER.random_action(match.state, seat, rng))
            if match.is_over:
                break
    raise AssertionError("no seed led to the choice")


def test_an_honest_negotiator_gives_the_move_as_promised() -> None:
    action, _ = _pact_then_choice("negotiator")
    assert action == ChooseNext(2)


# --- Diplomacy -----------------------------------------------------------------------------


def _diplomacy_step(bot_name: str, match: Match[Any, Any], seat: int, talk: Conversation) -> Any:
    return talk.step(make_bot(bot_name, DIPLOMACY), seat, Rng(seat))


def test_the_diplomacy_negotiator_proposes_peace_and_a_zone_to_its_neighbours() -> None:
    match: Match[Any, Any] = Match(DIPLOMACY, 7, seed=1)
    talk = Conversation(match)
    france = DIPLOMACY.seat_names(7, {}).index("FRANCE")
    _diplomacy_step("negotiator", match, france, talk)
    sent = [e for e in match.history(Viewer.of(france)) if e.get("type") == "press"]
    powers = DIPLOMACY.seat_names(7, {})
    told = {powers[e["to"][0]] for e in sent}
    assert {"GERMANY", "ITALY", "ENGLAND"} <= told
    press, _ = daide.parse_message(sent[0]["text"], powers)
    assert isinstance(press, daide.Propose)
    assert isinstance(press.arrangement, daide.And | daide.Peace)
    # Asked again in the same phase, it does not repeat itself.
    _diplomacy_step("negotiator", match, france, talk)
    again = [e for e in match.history(Viewer.of(france)) if e.get("type") == "press"]
    assert len(again) == len(sent)


def test_peace_proposed_and_accepted_is_a_deal_and_kept_or_broken_by_the_orders() -> None:
    powers = DIPLOMACY.seat_names(7, {})
    fra, ger = powers.index("FRANCE"), powers.index("GERMANY")
    match: Match[Any, Any] = Match(DIPLOMACY, 7, seed=1)
    match.say(fra, "PRP (DMZ (FRA GER) (BUR))", [ger])
    match.say(ger, "YES (PRP (DMZ (FRA GER) (BUR)))", [fra])
    match.say(fra, "PRP (PCE (FRA GER))", [ger])
    match.say(ger, "REJ (PRP (PCE (FRA GER)))", [fra])  # refused: no deal
    deals = agreements(match.entries, powers)
    assert [type(d.arrangement) for d in deals] == [daide.Dmz]
    match.act(fra, "A PAR - BUR")  # into the zone it promised to leave empty
    for seat in range(7):
        if seat != fra:
            match.act(seat, "NO ORDERS")
    [check] = deal_report(match)
    assert check.verdict is Verdict.BROKEN and "A PAR - BUR" in check.detail


def test_an_order_promised_is_kept_when_given() -> None:
    powers = DIPLOMACY.seat_names(7, {})
    fra, ger = powers.index("FRANCE"), powers.index("GERMANY")
    match: Match[Any, Any] = Match(DIPLOMACY, 7, seed=1)
    match.say(fra, "PRP (XDO ((GER AMY MUN) SUP (FRA AMY PAR) MTO BUR))", [ger])
    match.say(ger, "YES (PRP (XDO ((GER AMY MUN) SUP (FRA AMY PAR) MTO BUR)))", [fra])
    match.act(fra, "A PAR - BUR")
    match.act(ger, "A MUN S A PAR - BUR")
    for seat in range(7):
        if seat not in (fra, ger):
            match.act(seat, "NO ORDERS")
    [check] = deal_report(match)
    assert check.verdict is Verdict.KEPT


def test_an_honest_negotiator_keeps_out_of_a_zone_it_agreed_to_and_an_opportunist_not() -> None:
    powers = DIPLOMACY.seat_names(7, {})
    fra, ger = powers.index("FRANCE"), powers.index("GERMANY")
    for policy, enters in (("negotiator", False), ("opportunist", True)):
        match: Match[Any, Any] = Match(DIPLOMACY, 7, seed=1)
        match.say(ger, "PRP (DMZ (FRA GER) (SPA))", [fra])
        action = Conversation(match).step(make_bot(policy, DIPLOMACY), fra, Rng(3))
        text = DIPLOMACY.format(action)
        assert ("A MAR - SPA" in text) is enters, text
        assert ("A MAR H" in text) is not enters, text
        reply = [e for e in match.history(Viewer.of(ger)) if e.get("seat") == fra and "text" in e]
        assert reply[0]["text"] == "YES (PRP (DMZ (FRA GER) (SPA)))"


def test_arena_games_report_press_sent_and_promises(tmp_path: Path) -> None:
    task = GameTask(
        index=0,
        game="sucker",
        seats=4,
        options={},
        seed=3,
        bot_seed=7,
        lineup=("negotiator", "negotiator", "heuristic", "heuristic"),
        max_plies=3000,
    )
    result = play_game(task)
    assert sum(result.promises.values()) > 0
    task = GameTask(
        index=0,
        game="diplomacy",
        seats=7,
        options={"year_limit": 1903},
        seed=1,
        bot_seed=7,
        lineup=("negotiator",) * 7,
        max_plies=3000,
    )
    result = play_game(task)
    assert sum(result.press_sent) > 0 and sum(result.promises.values()) > 0
    assert result.to_json()["press_sent"] == list(result.press_sent)
