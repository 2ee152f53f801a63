"""Invariants over random play: every card in one place, no overlap, no negative money."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from parley.games.illuminati import RULES, IlluminatiState, load
from parley.games.illuminati import geometry as geo
from parley.kernel import Match, Rng
from parley.kernel.conformance import random_step


def check(state: IlluminatiState) -> None:
    cards = load()
    where: Counter[str] = Counter()
    where.update(state.deck)
    where.update(state.center)
    where.update(state.dead)
    for p in state.players:
        where.update(h.card for h in p.hand)
        where.update(g for g in p.links if cards.is_group(g))
        assert all(m >= 0 for m in p.money.values()), p.money
        assert set(p.money) <= set(p.links)
        if not p.illuminati:
            continue
        rects = geo.layout(p.links, p.illuminati)
        cells: set[tuple[int, int]] = set()
        for name, rect in rects.items():
            assert not rect.cells() & cells, f"{name} overlaps in {sorted(p.links)}"
            cells |= rect.cells()
            link = p.links[name]
            if link.parent is not None:
                assert link.side in cards.card(link.parent).sides
        assert len(rects) == len(p.links)
    for pend in state.pending:  # a captured group waiting for room brings its puppets along
        if pend.group in pend.puppets:
            where.update(geo.subtree(pend.puppets, pend.group))
        else:
            where[pend.group] += 1
    if state.playing is not None:
        where[state.playing.card] += 1
    for c in cards.illuminati:  # Illuminati nobody took lie in the dead pile
        del where[c.name]
    assert where == Counter(cards.deck()), where - Counter(cards.deck())


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), seats=st.integers(2, 8), random=st.booleans())
def test_invariants_hold_in_random_play(seed: int, seats: int, random: bool) -> None:
    options = {"illuminati": "random" if random else "choose", "elimination": False}
    match = Match(RULES, seats, options, seed=seed)
    rng = Rng(seed)
    for _ in range(250):
        check(match.state)
        if match.is_over or not random_step(match, rng):
            break


def test_invariants_hold_in_heuristic_play() -> None:
    from parley.agents.bots import decide, make_bot

    bot = make_bot("heuristic", RULES)
    match = Match(RULES, 4, {"illuminati": "random"}, seed=9)
    rng = Rng(9)
    captured = 0
    while not match.is_over:
        check(match.state)
        seat = next(iter(match.turn().owing))
        match.act(seat, decide(bot, match, seat, rng))
        captured = max(captured, max(len(p.links) for p in match.state.players))
    check(match.state)
    assert captured >= 5  # structures grew, so the geometry was exercised
