"""The client reads every notation the server writes: all legal actions met in random games
of Diplomacy and So Long Sucker (and Diplomacy's results) go through the browser's readers."""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.conftest import People

from parley.games import find
from parley.kernel import Match, Rng

pytestmark = pytest.mark.browser


def diplomacy_texts(phases: int = 12) -> set[str]:
    rules = find("diplomacy")
    match: Match[Any, Any] = Match(rules, 7, rules.spec.resolve_options({}), seed=7)
    rng = Rng(11)
    texts: set[str] = set()
    while len(match.state.phases) < phases and not match.is_over:
        for seat in sorted(match.turn().owing):
            texts.update(rules.options_tree(match.state, seat).leaves())
            match.act(seat, rules.random_action(match.state, seat, rng))
        for phase in match.state.last:
            for results in phase["results"].values():
                texts.update(r["order"] for r in results)
    return texts


def sucker_texts(moves: int = 400) -> set[str]:
    rules = find("sucker")
    match: Match[Any, Any] = Match(rules, 4, rules.spec.resolve_options({"chips": 5}), seed=3)
    rng = Rng(5)
    texts: set[str] = set()
    for _ in range(moves):
        if match.is_over:
            break
        for seat in range(4):
            if match.turn().can_act(seat):
                texts.update(rules.options_tree(match.state, seat).leaves())
        seat = match.turn().owed[0].seat
        match.act(seat, rules.random_action(match.state, seat, rng))
    return texts


def test_every_diplomacy_notation_is_read(people: People) -> None:
    texts = sorted(diplomacy_texts())
    kinds = {t.split()[2] for t in texts if len(t.split()) > 2}
    assert {"-", "S", "C", "H"} <= kinds and any(t.endswith(" B") for t in texts), kinds
    page = people.page()
    page.goto("/")
    unread = page.evaluate(
        """async (texts) => {
          const m = await import("/static/js/diplomacy/notation.js");
          return texts.filter((t) => {
            const o = m.readOrder(t);
            return !o || (o.kind !== "waive" && !t.startsWith(`${o.unit} ${o.loc} `));
          });
        }""",
        texts,
    )
    assert unread == []


def test_every_sucker_notation_is_read(people: People) -> None:
    texts = sorted(sucker_texts())
    words = {t.split()[0] for t in texts}
    assert {"play", "next", "kill"} <= words, words
    page = people.page()
    page.goto("/")
    unread = page.evaluate(
        """async (texts) => {
          const m = await import("/static/js/sucker/notation.js");
          return texts.filter((t) => !m.readAction(t));
        }""",
        texts,
    )
    assert unread == []
