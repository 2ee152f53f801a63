"""What a model is shown: per game, in a prepared position, every fact a strong player needs
is in the text of a decision (the rules in short, who it is, the board, public facts, press
in words with DAIDE beside, deadlines in words, the syntax of proposals, the legal actions).

The positions are seeded games played by the heuristic bots to a fixed step, so each test
looks at the same position every time; the facts are read from the game's own state and
compared with the text.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from parley import briefing
from parley.briefing import examples
from parley.kernel import Match, Viewer

NOW = 1_800_000_000.0  # 2027-01-15 08:00:00 UTC
DUE = NOW + 14 * 60


def prepared(game: str, steps: int) -> Match[Any, Any]:
    match = examples.prepared(game, steps)
    assert not match.is_over
    return match


def shown(match: Match[Any, Any], messages: list[dict[str, Any]] | None = None) -> tuple[int, str]:
    seat = min(match.turn().owing)
    d = briefing.offline_decision(
        match.rules, match, seat, game_id="g1", player="model", deadline=DUE,
        messages=messages or [], attempts_left=3,
    )  # fmt: skip
    return seat, briefing.decision_text({"decision": d}, now=NOW)


def common(match: Match[Any, Any], seat: int, text: str, heading: str) -> None:
    """What every game's decision says: who, the rules, the board, the deadline, options."""
    name = match.seat_names()[seat]
    assert f"You are {name} (seat {seat}) in {match.rules.spec.title} game g1" in text
    assert "playing as model" in text
    assert heading in text  # the primer
    assert match.rules.render(match.observe(Viewer.of(seat))["view"]) in text  # the board
    assert "Your answer is due in 14 minutes (at 08:14:00 UTC); answers left: 3" in text
    assert "vote_draw with accept true proposes one" in text  # how to propose a draw
    for option in briefing.option_list(match.rules, match.state, seat):
        assert f"- {option['id']}: {option['notation']} [" in text


def test_diplomacy_shows_every_centre_the_last_movement_and_press_in_words() -> None:
    match = prepared("diplomacy", 50)  # S1904M: the Fall results would have gone
    state = match.state
    assert str(state.position.phase) == "S1904M"
    seat = min(match.turn().owing)
    other = (seat + 1) % match.seats
    press = [{"seat": other, "text": "PRP (PCE (ENG FRA))\nagreed?", "to": [seat]}]
    seat, text = shown(match, press)
    common(match, seat, text, "DIPLOMACY IN SHORT")
    centres = match.observe(Viewer.of(seat))["view"]["position"]["centres"]  # type: ignore[index]
    for power, owned in centres.items():
        assert f"{power}: {len(owned)} centres ({', '.join(owned)})" in text
    assert "Unowned centres" in text and "18 of 34 centres win alone" in text
    assert "Results of the last movement phase, F1903M:" in text
    sender = match.seat_names()[other]
    assert (
        f"- from {sender} (seat {other}) to {match.seat_names()[seat]}: "
        f"{sender.title()} proposes: peace between England and France "
        "[DAIDE: PRP (PCE (ENG FRA))] agreed?"
    ) in text
    for syntax in ("PRP (ALY (FRA GER) VSS (ENG))", "PRP (DMZ", "PRP (XDO", "YES (PRP", "REJ"):
        assert syntax in text
    assert "`A MAR S A PAR - BUR` supports a move" in text


def test_diplomacy_movement_results_are_shown_once() -> None:
    # In Fall the board already lists Spring's results: they are not repeated.
    match = prepared("diplomacy", 36)
    _, text = shown(match)
    assert "Results of S1903M:" in text
    assert "Results of the last movement phase" not in text


def test_so_long_sucker_shows_how_to_bargain() -> None:
    match = prepared("sucker", 12)
    seat, text = shown(match)
    common(match, seat, text, "SO LONG SUCKER IN SHORT")
    assert match.rules.notation_help().strip() in text
    assert 'propose to blue: red gives green to blue; blue passes to red; "together?"' in text
    assert "accept 3 / reject 3 / withdraw 3" in text
    assert "captures the pile" in text and "prisoners" in text


def test_illuminati_explains_every_card_in_play() -> None:
    match = prepared("illuminati", 12)
    seat, text = shown(match)
    common(match, seat, text, "ILLUMINATI IN SHORT")
    assert "`[P8/8 I8 -]`" in text and "R resistance" in text  # the legend
    view: Any = match.observe(Viewer.of(seat))["view"]
    cards = [c for s in view["structures"] for c in s["cards"]] + list(view["uncontrolled"])
    assert len(cards) >= 8
    for c in cards:
        line = f"  {c['name']}: power {c['power']} (lends {c['transferable']} to an attack"
        assert line in text
        assert f"income {c['income']} MB a turn" in text
    for c in view["uncontrolled"]:
        assert f"resistance {c['resistance']}; income {c['income']} MB a turn" in text


def test_planet_control_lists_the_galaxy_adjacency() -> None:
    match = prepared("planets", 12)
    seat, text = shown(match)
    common(match, seat, text, "PLANET CONTROL IN SHORT")
    galaxy = match.state.galaxy
    for sid, near in galaxy.neighbours.items():
        line = next(x for x in text.splitlines() if x.startswith(f"  {sid} ("))
        assert set(line.split(": ", 1)[1].split(", ")) == set(near), sid
    assert "`1R/2I`: resources" in text  # what a planet's figures mean


def test_campus_shows_the_rules_and_the_neighbours_of_every_sector_held() -> None:
    match = prepared("campus", 30)
    seat, text = shown(match)
    common(match, seat, text, "CAMPUS CONQUEST IN SHORT")
    assert "two thirds of the average" in text and "-> next to:" in text


def test_deadlines_in_words() -> None:
    assert briefing.in_words(NOW + 14 * 60, NOW) == "in 14 minutes (at 08:14:00 UTC)"
    assert briefing.in_words(NOW + 30, NOW) == "in 30 seconds (at 08:00:30 UTC)"
    assert briefing.in_words(NOW + 5 * 3600, NOW) == "in 5.0 hours (at 13:00:00 UTC)"
    assert briefing.in_words(NOW - 5, NOW) == "now (it was due at 07:59:55 UTC)"


def test_the_docs_show_a_decision_per_game_as_the_code_writes_it() -> None:
    doc = (Path(__file__).parents[2] / "docs" / "agents.md").read_text(encoding="utf-8")
    assert examples.rewrite(doc) == doc, (
        "run: python -m parley.briefing.examples --write docs/agents.md"
    )
    for game in examples.STEPS:
        assert f"**{game}**" in doc
    assert "Diplomacy game example" in doc and "[DAIDE: PRP (PCE (ENG FRA))] shall we?" in doc
