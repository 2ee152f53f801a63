"""The rules where the decision is: campus shows an attack's chance before it is made (from
the server's view, never computed in the page); Illuminati's choice shows each Illuminati's
whole power and goal; the create form labels every option of every game with help and choices
in words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.games.campus.helpers import position
from tests.web.axe import assert_accessible
from tests.web.conftest import People
from tests.web.pages import mount_harness
from tests.web.tables import account, open_as
from tests.web.test_campus_board_browser import HARNESS, board_data

from parley.games.campus import RULES
from parley.kernel import Match

pytestmark = pytest.mark.browser

# Planet Control (seed 2, three seats): each colour's home and a system next to it.
# Pairs of galaxy map labels whose drawn boxes overlap (a pixel of slack).
OVERLAPS = """() => {
  const boxes = [...document.querySelectorAll('#pc-galaxy text')]
    .map((t) => [t.textContent, t.getBoundingClientRect()]).filter(([, r]) => r.width);
  const out = [];
  boxes.forEach(([a, p], i) => boxes.slice(i + 1).forEach(([b, q]) => {
    const x = Math.min(p.right, q.right) - Math.max(p.left, q.left);
    const y = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (x > 1 && y > 1) out.push([a, b]);
  }));
  return out;
}"""
# Labels of a home system that reach past its ring (the ring drawn along the hex's edge):
# a corner of the label's drawn box outside the ring's polygon.
OUTSIDE_RING = """() => {
  const out = [];
  for (const ring of document.querySelectorAll('#pc-galaxy .pc-home-ring')) {
    for (const t of ring.closest('.pc-system').querySelectorAll('text')) {
      const b = t.getBBox();
      const corners = [[b.x, b.y], [b.x + b.width, b.y], [b.x, b.y + b.height],
        [b.x + b.width, b.y + b.height]];
      if (b.width && corners.some(([x, y]) => !ring.isPointInFill(new DOMPoint(x, y)))) {
        out.push(t.textContent);
      }
    }
  }
  return out;
}"""
STYLED = "getComputedStyle(document.querySelector('#pc-galaxy .pc-planet-name')).fontSize === '9px'"
PLANET_HOMES = {"red": ("0301", "0302"), "blue": ("0504", "0403"), "green": ("0104", "0203")}


def test_campus_shows_the_odds_of_each_attack_before_it_is_made(
    people: People, screenshots: Path
) -> None:
    state = position(
        units={"C1": ["Ash", 2], "C2": ["Beech", 1], "D1": ["Beech", 3], "B1": ["Ash", 1]},
        pvc_defence=[0, 1],
    )
    match: Match[Any, Any] = Match.from_position(RULES, RULES.write_position(state))
    data = board_data(match, 0)
    odds = {(o["from"], o["to"]): o for o in data["state"]["observation"]["view"]["attacks"]}
    assert set(odds) == {("C1", "C2"), ("C1", "D1"), ("B1", "C2")}
    assert odds["C1", "C2"]["percent"] != odds["C1", "D1"]["percent"]
    page = people.page()
    mount_harness(page, HARNESS, data)
    expect(page.locator("#campus-map .cc-odds")).to_have_count(0)  # nothing selected yet
    page.locator('.cc-sector[data-code="C1"]').click()
    for dest in ("C2", "D1"):
        o = odds["C1", dest]
        badge = page.locator(f'.cc-sector[data-code="{dest}"] .cc-odds')
        expect(badge).to_have_text(f"{o['percent']}%")
        expect(page.locator(f'#cc-odds li[data-to="{dest}"]')).to_contain_text(
            f"{o['percent']}% to win ({o['wins']} in {o['of']})"
        )
        expect(page.locator(f'#cc-odds li[data-to="{dest}"]')).to_contain_text(
            "a tie goes to the defender"
        )
    # A plain move (no defender) has no odds.
    expect(page.locator('.cc-sector[data-code="B2"] .cc-odds')).to_have_count(0)
    expect(page.locator("#cc-odds li")).to_have_count(2)
    options = page.eval_on_selector_all("#cc-step-list option", "els => els.map(e => e.text)")
    assert any(f"{odds['B1', 'C2']['percent']}% to win" in t for t in options)
    page.screenshot(path=str(screenshots / "campus-odds.png"))


def test_illuminati_choice_shows_every_power_and_goal_whole(
    people: People, screenshots: Path
) -> None:
    server = people.server
    host, watcher = account(server, "choose_"), account(server, "choose_watch_")
    body = {
        "game": "illuminati",
        "name": "Choosing",
        "period_seconds": 3600,
        "seed": 4,
        "options": {"illuminati": "choose"},
        "seats": 3,
    }
    game_id = server.api("POST", "/api/games", host.token, json=body)["id"]
    server.api("POST", f"/api/games/{game_id}/join", watcher.token, json={"role": "spectator"})
    server.api("POST", f"/api/games/{game_id}/start", host.token, json={"fill_with": "heuristic"})
    for width, height in ((1366, 900), (390, 844)):
        page = open_as(people, host, f"/#/game/{game_id}", width, height)
        expect(page.locator("#il-choose .il-choice").first).to_be_visible()
        view = server.api("GET", f"/api/games/{game_id}/state", host.token)["observation"]["view"]
        offered = view["available_illuminati"]
        assert offered and all(c["goal"] and c["ability"] for c in offered)
        expect(page.locator("#il-choose .il-choice")).to_have_count(len(offered))
        for card in offered:
            choice = page.locator(f'#il-choose .il-choice[data-card="{card["name"]}"]')
            expect(choice.locator(".il-ability")).to_have_text(card["ability"])
            expect(choice.locator(".il-card-goal")).to_have_text(f"Goal: {card['goal']}")
            # Whole, not cut short: nothing of the texts is clipped by its box.
            clipped = choice.evaluate(
                "b => [...b.querySelectorAll('.il-ability, .il-card-goal')]"
                ".some(e => e.scrollHeight > e.clientHeight + 1)"
                " || b.scrollHeight > b.clientHeight + 1"
            )
            assert not clipped, card["name"]
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert_accessible(page, f"Illuminati's choice at {width} px")
        page.screenshot(path=str(screenshots / f"illuminati-choice-{width}.png"), full_page=True)


def test_the_create_form_names_every_option_its_help_and_choices_in_words(
    people: People, screenshots: Path
) -> None:
    server = people.server
    catalogue = server.api("GET", "/api/game-types")["games"]
    me = account(server, "create_")
    page = open_as(people, me, "/", 1366, 900)
    expect(page.locator("#create-card form")).to_be_visible()
    for game in catalogue:
        page.select_option("#create-type", game["name"])
        for opt in game["options"]:
            field = f"#create-opt-{opt['name']}"
            expect(page.locator(field)).to_be_visible()
            assert opt["label"] and "_" not in opt["label"]
            label = page.locator(f'label:has({field}), label[for="create-opt-{opt["name"]}"]')
            expect(label).to_contain_text(opt["label"])
            help_text = page.locator(f"#create-opt-{opt['name']}-help").inner_text()
            assert help_text.lower().startswith(opt["help"][:20].lower()), help_text
            listed = opt.get("choices") or opt.get("offered")
            if listed:
                # A list of words, never a free-text box (maps and galaxies by name).
                assert page.eval_on_selector(field, "e => e.tagName") == "SELECT"
                shown = page.eval_on_selector_all(
                    f"{field} option", "els => els.map(e => [e.value, e.textContent])"
                )
                assert shown == [[str(v), opt["choice_labels"][str(v)]] for v in listed]
        words = page.locator("#create-card form").inner_text()
        assert not [w for w in words.split() if "_" in w], words
        page.screenshot(path=str(screenshots / f"create-{game['name']}.png"), full_page=True)


def test_planet_control_moves_a_fleet_by_system_ships_and_counts(
    people: People, screenshots: Path
) -> None:
    server = people.server
    host, watcher = account(server, "fleet_"), account(server, "fleet_watch_")
    body = {
        "game": "planets",
        "name": "Fleets",
        "seats": 3,
        "seed": 2,
        "period_seconds": 3600,
        "options": {"rules": "compact"},  # the other seats only pass from the start
    }
    game_id = server.api("POST", "/api/games", host.token, json=body)["id"]
    server.api("POST", f"/api/games/{game_id}/join", watcher.token, json={"role": "spectator"})
    server.api("POST", f"/api/games/{game_id}/start", host.token, json={"fill_with": "default"})
    page = open_as(people, host, f"/#/game/{game_id}", 1366, 900)
    expect(page.locator("#pc-galaxy .pc-system")).to_have_count(19)
    page.wait_for_function(STYLED)  # planets.css is loaded with the board
    assert page.evaluate(OVERLAPS) == []
    assert page.evaluate(OUTSIDE_RING) == []
    colour = page.locator(".pc-player.me").get_attribute("data-colour")
    assert colour in PLANET_HOMES
    home, frontier = PLANET_HOMES[colour]
    # The other seats only pass: the host's turn comes.
    target = page.locator(f'#pc-galaxy .pc-system.clickable[data-system="{frontier}"]')
    expect(target).to_be_visible()
    target.click()
    expect(page.locator("#pc-controls h3")).to_have_text("Movement")
    # No list of whole strings to read: the fleet's source is picked on the board.
    expect(page.locator("#pc-all-moves")).not_to_have_attribute("open", "")
    tree = server.api("GET", f"/api/games/{game_id}/state", host.token)["options"]
    group = next(g for g in tree["children"] if g["key"] == f"from {home}")
    kinds = {k["key"]: k for k in group["children"]}
    assert "carrier" in kinds
    carriers = [leaf["key"].split() for leaf in kinds["carrier"]["children"]]
    source = page.locator(f'#pc-galaxy .pc-system.source[data-system="{home}"]')
    expect(source).to_be_visible()
    source.click()
    expect(page.locator("#pc-fleet")).to_have_attribute("data-from", home)
    page.select_option("#pc-fleet-kind", "carrier")
    ships = page.eval_on_selector_all("#pc-fleet-ships option", "els => els.map(e => e.value)")
    assert ships == sorted({c[0] for c in carriers}, key=int)
    page.select_option("#pc-fleet-ships", "1")
    infantry = page.eval_on_selector_all(
        "#pc-fleet-infantry option", "els => els.map(e => e.value)"
    )
    assert infantry == sorted({c[1] for c in carriers if c[0] == "1"}, key=int)
    page.select_option("#pc-fleet-infantry", "2")
    wanted = f"move 1 carrier 2 infantry from {home} to {frontier}"
    go = page.locator("#pc-fleet-go")
    expect(go).to_have_attribute("data-move", wanted)
    expect(go).to_contain_text(wanted)
    page.screenshot(path=str(screenshots / "planets-fleet-1366.png"))
    with page.expect_response(lambda r: r.url.endswith("/actions")) as answer:
        go.click()
    assert answer.value.ok and answer.value.request.post_data_json["action"] == wanted
    expect(page.locator("#pc-log")).to_contain_text(wanted.split(" ", 1)[1])
    assert page.evaluate(OVERLAPS) == []  # the fleet's labels where it arrived too
    assert_accessible(page, "Planet Control, moving a fleet")
    phone = open_as(people, host, f"/#/game/{game_id}", 390, 844)
    expect(phone.locator("#pc-galaxy .pc-system")).to_have_count(19)
    phone.wait_for_function(STYLED)
    assert phone.evaluate(OVERLAPS) == []
    assert phone.evaluate(OUTSIDE_RING) == []
    phone.screenshot(path=str(screenshots / "planets-labels-390.png"))
