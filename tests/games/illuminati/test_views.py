"""What the table needs from the observation: the odds of each attack before it is
announced (for the attacker only) and the untaken Illuminati while choosing."""

from __future__ import annotations

from parley import games
from parley.kernel import SPECTATOR, Match, Rng, Viewer
from parley.kernel.conformance import random_step


def test_the_attacker_sees_the_number_each_attack_would_need_and_nobody_else_does() -> None:
    rules = games.find("illuminati")
    match = Match(rules, 3, seed=2)
    rng = Rng(1)
    for _ in range(200):
        owed = match.turn().owed
        if owed:
            seat = owed[0].seat
            odds = match.observe(Viewer.of(seat))["view"]["attack_odds"]
            if odds:
                break
        random_step(match, rng)
    else:
        raise AssertionError("no attack was offered")
    assert set(odds) <= set(rules.options_tree(match.state, seat).leaves())
    for other in [Viewer.of(s) for s in range(3) if s != seat] + [SPECTATOR]:
        assert match.observe(other)["view"]["attack_odds"] == {}
    leaf, need = next(iter(odds.items()))
    match.act(seat, leaf)
    assert match.observe(SPECTATOR)["view"]["attack"]["need"] == need


def test_the_untaken_illuminati_are_shown_while_choosing() -> None:
    match = Match(games.find("illuminati"), 3, {"illuminati": "choose"}, seed=2)
    view = match.observe(SPECTATOR)["view"]
    names = {c["name"] for c in view["available_illuminati"]}
    assert len(names) == 8 - sum(1 for p in view["players"] if p.get("illuminati"))
    assert all(c["kind"] == "illuminati" and "ability" in c for c in view["available_illuminati"])


def test_every_attack_offered_needs_what_its_odds_said_once_announced() -> None:
    """Over random games (structures, alignments changed by the Lasers, protection, group
    bonuses), each attack's odds equal the need of that attack announced on a copy."""
    rules = games.find("illuminati")
    compared = 0
    for seed, seats in ((3, 3), (4, 5), (5, 4)):
        match = Match(rules, seats, {"illuminati": "random", "elimination": False}, seed=seed)
        rng = Rng(seed)
        for _ in range(250):
            if match.is_over:
                break
            seat = min(match.turn().owing)
            odds = match.observe(Viewer.of(seat))["view"]["attack_odds"]
            for leaf, need in list(odds.items())[:: max(1, len(odds) // 12)]:
                copy = rules.clone(match.state)
                rules.apply(copy, seat, rules.parse(leaf, copy, seat))
                announced = rules.observe(copy, SPECTATOR)["attack"]
                assert announced["need"] == need, leaf
                assert announced["aids"] == [] and announced["attacker_money"] == 0
                compared += 1
            random_step(match, rng)
    assert compared > 150
