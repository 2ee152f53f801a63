"""Results as data: the last attack's terms, dice and result, and the bank, in the state and
in every viewer's observation (both are public)."""

from __future__ import annotations

from typing import Any

from parley.games.illuminati import RULES
from parley.games.illuminati.state import IlluminatiState
from parley.kernel import SPECTATOR, Match, Rng, Viewer
from parley.kernel.conformance import option_sets, random_step

# Seed 1, three players: Player 2's Servants of Cthulhu attack Madison Avenue and roll 3+3.
ATTACK = [
    (1, "attack Madison Avenue with Servants of Cthulhu to control"),
    (1, "roll"),
    (2, "pass"),
    (0, "pass"),
]


def played(moves: list[tuple[int, str]]) -> Match[IlluminatiState, Any]:
    match = Match(RULES, 3, seed=1)
    for seat, text in moves:
        match.act(seat, text)
    return match


def view(match: Match[IlluminatiState, Any], viewer: Viewer) -> dict[str, Any]:
    obs = match.observe(viewer)
    return dict(obs.get("view", obs))


def test_no_attack_no_result() -> None:
    match = played(ATTACK[:2])  # announced and opened to the others, not yet rolled
    assert match.state.last_attack is None
    assert view(match, SPECTATOR)["last_attack"] is None


def test_the_resolved_attack_stays_as_data_for_everyone() -> None:
    match = played(ATTACK)
    expected = {
        "attacker_seat": 1,
        "attacker": "Servants of Cthulhu",
        "target": "Madison Avenue",
        "kind": "control",
        "defender": None,
        "whispering_campaign": False,
        "power": 9,
        "resistance": 3,
        "aids": [],
        "interference": 0,
        "attacker_money": 0,
        "defender_money": 0,
        "privileged": False,
        "need": 6,
        "dice": [3, 3],
        "roll": 6,
        "roll_changed_by": None,
        "result": "controlled",
    }
    last = match.state.last_attack
    assert last is not None
    assert {k: v for k, v in last.items() if k != "terms"} == expected
    assert last["terms"]["power"] == 9 and last["terms"]["defence"] == -3
    assert sum(last["terms"].values()) == last["need"]
    for viewer in [Viewer.of(0), Viewer.of(1), Viewer.of(2), SPECTATOR]:
        assert view(match, viewer)["last_attack"] == last
    text = RULES.render(view(match, SPECTATOR))
    assert (
        "Last attack: Player 2's Servants of Cthulhu on Madison Avenue to control: power 9 "
        "against 3; needed 6 or less, rolled 3+3: controlled"
    ) in text
    # It stays while play goes on, until the next attack resolves.
    match.act(1, "place Madison Avenue on Servants of Cthulhu north")
    match.act(1, "done")
    assert match.state.last_attack == last


def test_the_next_attack_replaces_it() -> None:
    match = played(ATTACK)
    first = match.state.last_attack
    rng = Rng(5)
    for _ in range(600):
        if match.state.last_attack is not first or not random_step(match, rng):
            break
    assert match.state.last_attack is not first and match.state.last_attack is not None


def test_the_bank_pays_out_and_receives() -> None:
    match = played(ATTACK[:1])
    paid = match.state.bank_paid  # the Illuminati's starting money and the first income
    assert paid == sum(sum(p.money.values()) for p in match.state.players)
    match.act(1, "spend 4")
    assert match.state.bank_received == 4
    bank = view(match, SPECTATOR)["bank"]
    assert bank == {"paid": paid, "received": 4, "money_in_play": paid - 4}
    assert f"Bank: paid out {paid} MB, received 4 MB" in RULES.render(view(match, Viewer.of(0)))


def test_money_on_the_table_is_what_the_bank_paid_out_less_what_it_received() -> None:
    """Every MB comes from the bank and goes back to it, under random play and every
    option set (captures halve treasuries, groups are destroyed, players eliminated)."""
    for seed in range(16):
        options = option_sets(RULES)[seed % len(option_sets(RULES))]
        match = Match(RULES, 2 + seed % 7, options, seed=seed)
        rng = Rng(seed)
        for _ in range(900):
            state = match.state
            table = sum(sum(p.money.values()) for p in state.players)
            table += sum(sum(p.money.values()) for p in state.pending)
            assert table == state.bank_paid - state.bank_received, (seed, state.log[-3:])
            if match.is_over or not random_step(match, rng):
                break
