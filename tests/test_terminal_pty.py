"""`parley play` and `parley replay` driven through a pseudo-terminal, keystroke by keystroke."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.terminal_pty import Pty, options_after

HOSTILE_NOTE = "[/] [yellow blue red red]"


@pytest.fixture
def terms() -> Iterator[list[Pty]]:
    opened: list[Pty] = []
    yield opened
    for term in opened:
        term.close()


def start(terms: list[Pty], *args: str, columns: int = 100) -> Pty:
    term = Pty(*args, columns=columns)
    terms.append(term)
    return term


def test_hostile_text_is_printed_as_written_in_play_and_replay(
    terms: list[Pty], tmp_path: Path
) -> None:
    record = tmp_path / "hostile.json"
    term = start(terms, "play", "sls", "--seed", "4", "--save", str(record))
    term.expect(r"Your turn: play a chip[^\n]*\n> ")
    term.send("[/]")
    term.expect(r"'\[/\]' is not understood")
    term.send("say [yellow blue red red] and [/]")
    term.expect(re.escape("Red (you) says: [yellow blue red red] and [/]"))
    term.send(f'propose to blue: "{HOSTILE_NOTE}"')
    term.expect(re.escape(f'Red (you): propose to blue: "{HOSTILE_NOTE}"'))
    term.expect(re.escape(f'#1 red to blue: "{HOSTILE_NOTE}"'))
    term.expect(r"> ")
    term.send("help")
    term.expect(r"say TEXT\s+a message to everyone")
    # The game's typed forms that no options list shows: bargains and their answers.
    term.expect(r"In So Long Sucker:\n")
    term.expect(re.escape("propose to blue: red gives green to blue; blue passes to red;"))
    term.expect(r"accept 3 / reject 3 / withdraw 3")
    term.send("options")
    term.expect(r"Legal now:\n(?:  [^\n]*\n)+You may also type the actions 'help' lists")
    term.send("quit")
    assert term.finish() == 0
    assert "MarkupError" not in term.text and "Traceback" not in term.text

    again = start(terms, "replay", str(record), "--seat", "2")
    again.expect(re.escape("Red (you) says: [yellow blue red red] and [/]"))
    again.expect(re.escape(f'Red (you): propose to blue: "{HOSTILE_NOTE}"'))
    again.expect(re.escape(f'#1 red to blue: "{HOSTILE_NOTE}"'))
    assert again.finish() == 0
    assert "Traceback" not in again.text


def play_through(term: Pty) -> tuple[list[str], list[str]]:
    """Answer every prompt: the first owed choice, and out of turn one prisoner kill once.

    Returns the out-of-turn actions sent and the owed prompts' titles.
    """
    out_of_turn: list[str] = []
    titles: list[str] = []
    while True:
        found = term.expect(r"(Your turn[^\n]*|You may act out of turn[^\n]*)\n> |Final ranks:\n")
        if found.group(1) is None:
            return out_of_turn, titles
        titles.append(found.group(1))
        groups = options_after(term)
        if found.group(1).startswith("Your turn"):
            term.send(groups["Your decision"][0])
            continue
        kills = [a for a in groups.get("Kill or give a prisoner", []) if a.startswith("kill")]
        if kills and not out_of_turn:
            out_of_turn.append(kills[0])
            term.send(kills[0])
        else:
            term.send("")


def test_a_whole_game_every_event_out_of_turn_defeat_and_final_ranks(terms: list[Pty]) -> None:
    term = start(terms, "play", "sls", "--players", "4", "-o", "chips=3", "--seed", "2")
    out_of_turn, titles = play_through(term)
    ranks = term.expect(r"((?:  \d\. [^\n]+\n){4})").group(1)
    assert term.finish() == 0
    text = term.text
    assert "Traceback" not in text

    # Every log entry was shown, in order, none left out between two prompts.
    seqs = [
        int(m.group(1)) for m in re.finditer(r"^ *(\d+) \w+ \((?:you|bot \d)\)[: ]", text, re.M)
    ]
    assert seqs == list(range(len(seqs))) and len(seqs) > 30

    # An out-of-turn action was offered and taken while another seat owed the decision.
    assert out_of_turn, titles
    assert re.search(rf"\d+ Red \(you\): {re.escape(out_of_turn[0])}\n", text)
    assert any(t.startswith("You may act out of turn") for t in titles)

    # The human is told of their defeat, and the end shows the board and every place.
    assert "You (Red) are defeated and out of the game" in text
    assert "Final board:" in text and "Game over:" in text
    places = re.findall(r"  (\d)\. (\w+)", ranks)
    assert sorted(colour for _, colour in places) == ["Blue", "Green", "Red", "Yellow"]
    assert ("1", "Red") not in places


def test_games_on_a_narrow_terminal_wraps_values_instead_of_cutting_them(
    terms: list[Pty],
) -> None:
    term = start(terms, "games", columns=70)
    assert term.finish() == 0
    assert "…" not in term.text
    assert "     name: diplomacy" in term.text
    assert "  aliases: so-long-sucker, solongsucker, sls" in term.text
    assert "options: chips=7, defeated_capture=dead-box, private_channels=False" in term.text
    wide = start(terms, "games", columns=400)
    assert wide.finish() == 0
    assert "Parley games" in wide.text and "so-long-sucker, solongsucker, sls" in wide.text


DRAFTED = r"Drafted \(France: Spring 1901 movement\); 'done' submits:\n((?:  [^\n]*\n)+)> "


def test_diplomacy_orders_are_drafted_listed_changed_removed_and_sent_with_done(
    terms: list[Pty], tmp_path: Path
) -> None:
    record = tmp_path / "dip.json"
    term = start(
        terms, "play", "dip", "--seat", "3", "-o", "year_limit=1901", "--save", str(record)
    )
    term.expect(r"Your turn: Spring 1901 movement\nDraft your orders: one a line, or several ")
    first = term.expect(DRAFTED).group(1)
    assert first.count("(no order yet: the default)") == 3

    # Two orders on separate lines, each listed as drafted.
    term.send("A PAR - BUR")
    assert "  A PAR  A PAR - BUR\n" in term.expect(DRAFTED).group(1)
    term.send("f bre - mao")
    listing = term.expect(DRAFTED).group(1)
    assert "  F BRE  F BRE - MAO\n" in listing and "  A PAR  A PAR - BUR\n" in listing
    assert "  A MAR  (no order yet: the default)\n" in listing

    # A new order for a unit replaces its draft; `remove` takes one back.
    term.send("A PAR - PIC")
    listing = term.expect(DRAFTED).group(1)
    assert "  A PAR  A PAR - PIC\n" in listing and "A PAR - BUR" not in listing
    term.send("remove F BRE")
    term.expect(r"Removed F BRE - MAO\.\n")
    assert "  F BRE  (no order yet: the default)\n" in term.expect(DRAFTED).group(1)
    term.send("remove A VIE")
    term.expect(r"No drafted order for A VIE; drafted: A PAR - PIC\.\n")

    # A fleet named where Paris holds an army: refused aloud, the draft unchanged.
    term.send("F PAR - BUR")
    term.expect(r"Not drafted: F PAR - BUR does not match the board: there it can only be ")
    term.expect(r"A PAR - BUR")
    assert "  A PAR  A PAR - PIC\n" in term.expect(DRAFTED).group(1)
    # A missing unit letter is filled in by the game, and said so.
    term.send("MAR - GAS")
    term.expect(r"MAR - GAS is read as A MAR - GAS\.\n")
    term.expect(DRAFTED)

    # Several at once, with ';' or ','; a bad one is refused and the good ones kept.
    term.send("A MAR - SPA, F BRE - XYZ; F BRE - PIC")
    term.expect(r"Not drafted: cannot understand 'xyz' in 'F BRE - XYZ'")
    listing = term.expect(DRAFTED).group(1)
    assert "  A MAR  A MAR - SPA\n" in listing and "  F BRE  F BRE - PIC\n" in listing

    term.send("help")
    term.expect(r"remove <unit> +take a unit's draft back")
    term.expect(r"done +submit the drafted orders")
    term.expect(r"Nothing is submitted before 'done'\.\n")
    term.send("clear")
    term.expect(r"Every draft is taken back\.\n")
    term.expect(DRAFTED)
    term.send("A PAR - PIC; A MAR - SPA")
    term.expect(DRAFTED)

    # Nothing was submitted, let alone judged, before `done`.
    assert "FRANCE (you):" not in term.text and "Results of" not in term.text
    term.send("done")
    term.expect(r"\d+ FRANCE \(you\): A MAR - SPA; A PAR - PIC\n")
    term.expect(r"· Results of S1901M:\n")
    term.expect(r"  FRANCE   A MAR - SPA: \w+")
    term.expect(r"  FRANCE   A PAR - PIC: \w+")
    term.expect(r"  FRANCE   F BRE H: held")
    term.expect(r"Your turn: Fall 1901 movement\n")
    term.expect(r"> ")
    term.send("quit")
    assert term.finish() == 0
    assert "Traceback" not in term.text
    saved = json.loads(record.read_text())
    france = [e for e in saved["entries"] if e.get("type") == "action" and e["seat"] == 2]
    assert [e["notation"] for e in france] == ["A MAR - SPA; A PAR - PIC"]
