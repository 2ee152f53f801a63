"""The Illuminati table in the browser: three players and a spectator on a seeded game.

The game is created over the HTTP API with a fixed seed; the browsers choose the
Illuminati by tapping, the first round is played through the API, then the browsers take
over for an attack to control with aid and money, an interference, a special card played
in the reaction window, the capture's placement, and the end of the game.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect
from tests.web.conftest import People
from tests.web.illuminati_helpers import open_game, owed_seat, seeded_game, sign_up
from tests.web.pages import settle

pytestmark = pytest.mark.browser

SEED = 43
PICKS = ["Gnomes of Zurich", "Bavarian Illuminati", "Servants of Cthulhu"]


def test_choosing_illuminati_by_tapping(people: People, screenshots: Path) -> None:
    server = people.server
    players = [sign_up(server, f"il{i}-") for i in range(3)]
    watcher = sign_up(server, "ilw-")
    game_id = seeded_game(server, players, watcher, SEED, {"rounds": 2})
    pages = {p.seat: open_game(people, p, game_id) for p in players}
    spectator = open_game(people, watcher, game_id)
    for pick in PICKS:
        chooser = owed_seat(server, game_id, players[0])
        assert chooser is not None
        page = pages[chooser]
        card = page.locator(f'#il-choose [data-card="{pick}"]')
        expect(card).to_be_visible()
        for seat, other in pages.items():
            if seat != chooser:
                expect(other.locator("#il-choose")).to_have_count(0)
                expect(other.locator("#il-status")).to_contain_text("is choosing")
        expect(spectator.locator("#il-status")).to_contain_text("is choosing")
        card.click()
        for other in [*pages.values(), spectator]:
            expect(other.locator(f'.il-grid [data-card="{pick}"]')).to_have_count(1)
    settle(spectator)
    spectator.screenshot(path=str(screenshots / "illuminati-chosen-1366x900.png"))
