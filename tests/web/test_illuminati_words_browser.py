"""Illuminati's table in words a player can act on, as seen in whole games played through
the page: a need above 10 still loses to 11 or 12, so the attack box gives the chance out of
36 throws and says so; an interference says which side it took; a lost roll under a high need
says why; a special card just drawn is not called face down while its holder is still asked
how to keep it. Each part is drawn from crafted data by the client's own module."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.conftest import People
from tests.web.pages import mount_harness

pytestmark = pytest.mark.browser

HARNESS = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="/static/css/parley.css"></head>
<body><main id="app"><section id="board"></section></main>
<script type="module">
import { drawAttack, lastResult } from "/static/js/illuminati/attack.js";
window.harness = {
  acts: [],
  mount(data) {
    const ctx = { mySeat: () => data.me, entries: [] };
    const box = document.getElementById("board");
    box.append(drawAttack(data.attack, data.view, ctx, null));
    const last = lastResult({ log: data.log }, null);
    const p = document.createElement("p");
    p.id = "last-result";
    p.textContent = last ? last.text : "";
    box.append(p);
  },
};
window.harnessReady = true;
</script></body></html>"""


def attack(need: int, answers: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "attacker_seat": 1,
        "attacker": "Gnomes of Zurich",
        "target": "Copy Shops",
        "defender": None,
        "kind": "control",
        "need": need,
        "roll": None,
        "dice": None,
        "terms": {"power": 7},
        "aids": [],
        "answers": answers,
    }


def view() -> dict[str, Any]:
    players = [{"seat": s, "eliminated": False} for s in range(3)]
    return {"phase": "react", "owed": {"seat": 2}, "players": players}


LOG = [
    "Player 2 attacks Copy Shops with Gnomes of Zurich to control",
    "the dice show 5+6=11; 33 or less was needed",
    "the attack on Copy Shops fails",
]


@pytest.mark.parametrize(
    ("need", "words"),
    [
        (33, "(33 in 36: 11 or 12 always fails)"),
        (11, "(33 in 36: 11 or 12 always fails)"),
        (10, "(33 in 36)"),
        (7, "(21 in 36)"),
        (2, "(1 in 36)"),
        (1, "(cannot succeed)"),
        (-3, "(cannot succeed)"),
    ],
)
def test_the_need_comes_with_its_chance(people: People, need: int, words: str) -> None:
    page: Page = people.page()
    answers = [{"seat": 0, "action": "interfere 1"}, {"seat": 2, "action": "interfere 4 against"}]
    mount_harness(page, HARNESS, {"me": 2, "attack": attack(need, answers), "view": view()})
    expect(page.locator("#il-need")).to_have_text(f"Needs {need} or less on two dice {words}")
    answered = page.locator("#il-answers")
    expect(answered.locator('[data-seat="0"]')).to_have_text(
        "Player 1: interfered for the attack with 1 MB"
    )
    expect(answered.locator('[data-seat="2"]')).to_have_text(
        "You: interfered against the attack with 4 MB; to answer now"
    )


def test_a_high_need_lost_to_eleven_says_why(people: People) -> None:
    page: Page = people.page()
    mount_harness(page, HARNESS, {"me": 0, "attack": attack(33, []), "view": view(), "log": LOG})
    expect(page.locator("#last-result")).to_have_text(
        "Rolled 11, 33 or less was needed (11 or 12 always fails): the attack fails"
    )


CARDS = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="/static/css/parley.css"></head>
<body><main id="app"><section id="board"></section></main>
<script type="module">
import { specialCard } from "/static/js/illuminati/cards.js";
window.harness = {
  acts: [],
  mount(data) {
    const box = document.getElementById("board");
    for (const entry of data.hand) box.append(specialCard(entry));
  },
};
window.harnessReady = true;
</script></body></html>"""


def test_a_drawn_special_is_not_face_down_before_it_is_kept(people: People) -> None:
    page: Page = people.page()
    hand = [
        {"card": "Bribery", "face_up": False, "decided": True},
        {"card": "Whispering Campaign", "face_up": False, "decided": False},
        {"card": "Deep Agent", "face_up": True, "decided": True},
    ]
    mount_harness(page, CARDS, {"hand": hand})
    card = page.locator(".il-special")
    expect(card.nth(0)).to_have_text("Briberyface down")
    expect(card.nth(1)).to_have_text("Whispering Campaignup or down?")
    expect(card.nth(1)).to_have_attribute("title", re.compile(r"not placed yet"))
    expect(card.nth(2)).to_have_text("Deep Agent")


LAST = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="/static/css/parley.css"></head>
<body><main id="app"><section id="board"></section></main>
<script type="module">
import { lastAttackBox } from "/static/js/illuminati/results.js";
window.harness = {
  acts: [],
  mount(data) {
    const box = document.getElementById("board");
    for (const last of data.attacks) box.append(lastAttackBox(last, (s) => `Player ${s + 1}`));
  },
};
window.harnessReady = true;
</script></body></html>"""


def resolved(need: int, dice: list[int], result: str) -> dict[str, Any]:
    return {
        **attack(need, []),
        "power": 8,
        "resistance": 3,
        "dice": dice,
        "roll": sum(dice),
        "result": result,
    }


def test_the_last_attack_says_why_a_roll_within_the_need_failed(people: People) -> None:
    page: Page = people.page()
    attacks = [
        resolved(15, [5, 6], "failed"),  # within the need, but 11
        resolved(6, [4, 5], "failed"),  # above the need: no more to say
        resolved(15, [3, 4], "controlled"),
    ]
    mount_harness(page, LAST, {"attacks": attacks})
    said = page.locator(".il-last-result")
    expect(said).to_have_text(
        ["The attack failed: 11 or 12 always fails", "The attack failed", "Controlled"]
    )


def test_the_list_of_every_option_stays_open_when_the_table_is_drawn_again(
    people: People,
) -> None:
    from tests.web.test_illuminati_decisions_browser import HARNESS as TABLE
    from tests.web.test_illuminati_decisions_browser import payload, trade_position

    page: Page = people.page()
    mount_harness(page, TABLE, payload(trade_position(), "P1"))
    every = page.locator("#il-all-options")
    every.locator("summary").click()
    expect(every).to_have_attribute("open", "")
    # Anything that redraws the table (here the player's own view switch; news from the
    # table does the same) keeps the list as the player left it.
    page.locator("[data-focus]").last.click()
    expect(page.locator("[data-focus].active")).to_have_count(1)
    expect(every.locator("button[data-action]").first).to_be_visible()
    every.locator("summary").click()
    page.locator("[data-focus]").first.click()
    expect(every).not_to_have_attribute("open", "")
