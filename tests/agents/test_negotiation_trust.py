"""Negotiation with consequences: the negotiators' ledger of broken promises and silence."""

from __future__ import annotations

import json
from typing import Any

from parley import games
from parley.agents.bots import Conversation, Decision, Reply, make_bot
from parley.agents.negotiation.trust import Ledger
from parley.games.diplomacy import daide
from parley.games.sucker.actions import Accept, ChooseNext, Reject
from parley.kernel import Match, Rng, Viewer

DIPLOMACY = games.find("diplomacy")
SUCKER = games.find("sucker")
POWERS = DIPLOMACY.seat_names(7, {})
FRA, GER = POWERS.index("FRANCE"), POWERS.index("GERMANY")


def _proposals_by(match: Match[Any, Any], seat: int, since: int = 0) -> list[tuple[int, str]]:
    out = []
    for entry in match.history(Viewer.of(seat))[since:]:
        if entry.get("type") == "press" and entry.get("seat") == seat:
            press, _ = daide.parse_message(str(entry["text"]), POWERS)
            if isinstance(press, daide.Propose):
                out.extend((int(to), str(entry["text"])) for to in entry["to"])
    return out


def _memory(talk: Conversation, seat: int) -> dict[str, Any]:
    memory: dict[str, Any] = talk.memory[seat]
    return memory


def test_the_ledger_is_plain_json_and_acts_only_when_not_naive() -> None:
    memory: dict[str, Any] = {}
    ledger = Ledger(memory)
    ledger.offered("GERMANY", "PRP (PCE (FRANCE GERMANY))")
    assert ledger.silent("GERMANY") and not ledger.worth_asking("GERMANY", "anything else")
    ledger.heard("GERMANY")
    assert not ledger.silent("GERMANY")
    assert not ledger.worth_asking("GERMANY", "PRP (PCE (FRANCE GERMANY))")  # no verbatim repeat
    ledger.broke("GERMANY", "moved into BUR, agreed empty", "F1901M")
    assert not ledger.trusted("GERMANY") and ledger.betrayers() == {"GERMANY"}
    assert Ledger(json.loads(json.dumps(memory))).betrayers() == {"GERMANY"}  # survives JSON
    naive = Ledger(json.loads(json.dumps(memory)), trusting=True)
    assert naive.trusted("GERMANY") and naive.betrayers() == set()
    assert naive.data["broken"] == {"GERMANY": 1}  # the books are kept all the same


def test_a_power_that_never_answers_is_asked_once_not_every_phase() -> None:
    match: Match[Any, Any] = Match(DIPLOMACY, 7, seed=1)
    talk = Conversation(match)
    bot = make_bot("negotiator", DIPLOMACY)
    action = talk.step(bot, FRA, Rng(1))
    first = _proposals_by(match, FRA)
    assert {POWERS[to] for to, _ in first} >= {"GERMANY", "ITALY", "ENGLAND"}
    match.act(FRA, action)
    for seat in range(7):
        if seat != FRA:
            match.act(seat, "NO ORDERS")  # silent players: nobody answers
    seen = len(match.history(Viewer.of(FRA)))
    talk.step(bot, FRA, Rng(2))  # the next movement phase
    assert _proposals_by(match, FRA, seen) == []
    ledger = _memory(talk, FRA)["ledger"]
    assert set(ledger["unanswered"]) == {POWERS[to] for to, _ in first}


def _zone_broken_by_germany(bot_name: str) -> tuple[str, dict[str, Any]]:
    """France agrees to keep Burgundy empty with Germany; Germany marches in; Germany then
    offers peace. France's answer, and its memory."""
    match: Match[Any, Any] = Match(DIPLOMACY, 7, seed=1)
    talk = Conversation(match)
    bot = make_bot(bot_name, DIPLOMACY)
    match.say(GER, "PRP (DMZ (FRA GER) (BUR))", [FRA])
    action = talk.step(bot, FRA, Rng(1))
    match.act(FRA, action)
    match.act(GER, "A MUN - BUR")
    for seat in range(7):
        if seat not in (FRA, GER):
            match.act(seat, "NO ORDERS")
    assert match.state.position.phase.kind.name == "MOVEMENT"  # Fall: France is asked again
    match.say(GER, "PRP (PCE (FRA GER))", [FRA])
    talk.step(bot, FRA, Rng(2))
    answers = [
        e["text"]
        for e in match.history(Viewer.of(GER))
        if e.get("seat") == FRA and "PCE" in str(e.get("text"))
    ]
    return answers[-1], _memory(talk, FRA)


def test_a_power_that_broke_a_zone_is_refused_and_its_deals_void() -> None:
    answer, memory = _zone_broken_by_germany("negotiator")
    assert answer.startswith("REJ")
    assert memory["ledger"]["broken"] == {"GERMANY": 1}
    assert "BUR" in memory["ledger"]["breaches"][0]["why"]
    assert not any("GERMANY" in parties for parties, _ in memory["deals"])


def test_the_naive_negotiator_notes_the_breach_and_trusts_anyway() -> None:
    answer, memory = _zone_broken_by_germany("negotiator-naive")
    assert answer.startswith("YES")
    assert memory["ledger"]["broken"] == {"GERMANY": 1}


def _broken_pass(bot_name: str) -> tuple[Any, dict[str, Any]]:
    """Blue promised to pass to red, then chose another player although red was allowed;
    blue offers red a pact again. Red's answer, and its memory."""
    colour = ["red", "blue", "green", "yellow"]
    for seed in range(80):
        match: Match[Any, Any] = Match(SUCKER, 4, seed=seed)
        memory: dict[str, Any] = {}
        bot = make_bot(bot_name, SUCKER)
        match.act(1, "propose to red: blue passes to red; red passes to blue")
        reply = bot.choose(
            Decision(SUCKER, 0, match.state, Rng(0), match=match, owed=False, memory=memory)
        )
        assert isinstance(reply, Reply) and reply.action == Accept(1)
        match.act(0, reply.action)
        rng = Rng(seed)
        for _ in range(40):
            if match.is_over:
                break
            seat = min(match.turn().owing)
            choices = [
                a for a in SUCKER.legal_actions(match.state, seat) if isinstance(a, ChooseNext)
            ]
            if seat == 1 and any(c.player == 0 for c in choices) and len(choices) > 1:
                other = next(c for c in choices if c.player != 0)
                match.act(1, other)  # breaks the promise
                match.act(1, f"propose to red: blue passes to red; red passes to {colour[1]}")
                decision = Decision(
                    SUCKER, 0, match.state, Rng(1), match=match, owed=False, memory=memory
                )
                answer = bot.choose(decision)
                return (answer.action if isinstance(answer, Reply) else answer), memory
            if seat == 0:
                decision = Decision(SUCKER, 0, match.state, Rng(2), match=match, memory=memory)
                answer = bot.choose(decision)
                match.act(0, answer.action if isinstance(answer, Reply) else answer)
            else:
                match.act(seat, SUCKER.random_action(match.state, seat, rng))
    raise AssertionError("no seed led to the broken promise")


def test_sucker_a_rival_that_broke_a_pact_is_refused_by_the_negotiator() -> None:
    answer, memory = _broken_pass("negotiator")
    assert isinstance(answer, Reject)
    assert memory["ledger"]["broken"] == {"blue": 1}
    answer, memory = _broken_pass("negotiator-naive")
    assert isinstance(answer, Accept)
    assert memory["ledger"]["broken"] == {"blue": 1}


def test_sucker_the_honest_negotiator_keeps_its_oldest_pact_first() -> None:
    """Red agreed pacts of passes with yellow, then with green; when it may give the move to
    either, it gives it to yellow (the older pact), not to the lower seat."""
    for seed in range(80):
        match: Match[Any, Any] = Match(SUCKER, 4, seed=seed)
        match.act(3, "propose to red: yellow passes to red; red passes to yellow")
        match.act(0, "accept 1")
        match.act(2, "propose to red: green passes to red; red passes to green")
        match.act(0, "accept 2")
        rng = Rng(seed)
        for _ in range(40):
            if match.is_over:
                break
            seat = min(match.turn().owing)
            choices = {
                a.player
                for a in SUCKER.legal_actions(match.state, seat)
                if isinstance(a, ChooseNext)
            }
            if seat == 0 and {2, 3} <= choices:
                bot = make_bot("negotiator", SUCKER)
                answer = bot.choose(Decision(SUCKER, 0, match.state, Rng(1), match=match))
                assert answer == ChooseNext(3)
                return
            match.act(seat, SUCKER.random_action(match.state, seat, rng))
    raise AssertionError("no seed led to the choice")
