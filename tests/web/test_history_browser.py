"""Every moment of every game in the browser: for campus conquest, Illuminati, Planet
Control and So Long Sucker, a spectator and a player step back through the game with the
history bar over the board. An earlier moment shows the board as it was then (the same
drawing the spectator's page made when the game stood there), the actions that led to it
and the game's own event lines (the dice), and nothing can be played on it; "Back to now"
returns to the present. The log marks what is new since the last visit, and a spectator
who joins a finished game steps through it the same way."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.conftest import People, Server
from tests.web.illuminati_helpers import Person, open_game, sign_up

pytestmark = pytest.mark.browser

GAMES = {
    "campus": {"seats": 3, "options": {}},
    "illuminati": {"seats": 3, "options": {"illuminati": "random"}},
    "planets": {"seats": 3, "options": {}},
    "sucker": {"seats": 3, "options": {}},
}
# A clock's words: the present has one, an earlier moment none.
TIMES = re.compile(
    r"(\d+ (d|h|min|s) ?)+left to answer, then “\w+” is taken|time is up: the default is taken"
)


def _leaves(node: dict[str, Any] | None) -> list[str]:
    if not node:
        return []
    if isinstance(node.get("action"), str):
        return [node["action"]]
    return [leaf for child in node.get("children") or [] for leaf in _leaves(child)]


def new_game(server: Server, game: str, prefix: str) -> tuple[str, list[Person], Person]:
    spec = GAMES[game]
    players = [sign_up(server, f"{prefix}{i}") for i in range(spec["seats"])]
    watcher = sign_up(server, f"{prefix}w")
    body = {
        "game": game,
        "name": f"History {game}",
        "seats": spec["seats"],
        "options": spec["options"],
        "seed": 11,
        "period_seconds": 3600,
    }
    gid: str = server.api("POST", "/api/games", players[0].token, json=body)["id"]
    for p in players[1:]:
        server.api("POST", f"/api/games/{gid}/join", p.token, json={"role": "player"})
    server.api("POST", f"/api/games/{gid}/join", watcher.token, json={"role": "spectator"})
    server.api("POST", f"/api/games/{gid}/start", players[0].token, json={})
    for p in players:
        p.seat = server.api("GET", f"/api/games/{gid}", p.token)["you"]["seat"]
    return gid, players, watcher


def play(server: Server, gid: str, players: list[Person], actions: int, rng: random.Random) -> int:
    """Up to `actions` actions, each a leaf of an owing player's options, chosen by `rng`."""
    done = 0
    for _ in range(actions * 4):
        if done >= actions:
            break
        for p in players:
            st = server.api("GET", f"/api/games/{gid}/state", p.token)
            if st["status"] != "active":
                return done
            leaves = _leaves(st.get("options")) if st.get("owes") else []
            rng.shuffle(leaves)
            for leaf in leaves[:8]:
                try:
                    server.api("POST", f"/api/games/{gid}/actions", p.token, json={"action": leaf})
                except Exception:  # a leaf refused as a whole (a composite part): another
                    continue
                done += 1
                break
            if done >= actions:
                break
    return done


def board_text(page: Page) -> str:
    """The board's words, once its drawing has loaded, without the clock's."""
    expect(page.locator("#board")).not_to_contain_text("Loading")
    text = page.locator("#board").text_content() or ""
    return TIMES.sub("", re.sub(r"\s+", " ", text)).strip()


def back(page: Page) -> None:
    """One moment back, waiting until the board shows it."""
    shown = page.locator("#board").get_attribute("data-state-id") or ""
    page.click("#history-back")
    expect(page.locator("#board")).not_to_have_attribute("data-state-id", shown)


def shows_state(page: Page, state_id: int) -> None:
    expect(page.locator("#board")).to_have_attribute("data-state-id", str(state_id))


@pytest.mark.parametrize("game", sorted(GAMES))
def test_stepping_back_shows_the_earlier_board_and_its_events(
    server: Server, people: People, game: str
) -> None:
    gid, players, watcher = new_game(server, game, f"h{game[:3]}")
    rng = random.Random(7)
    assert play(server, gid, players, 6, rng) > 0
    then = server.api("GET", f"/api/games/{gid}/state", watcher.token)
    spectator = open_game(people, watcher, gid)
    shows_state(spectator, then["state_id"])
    expect(spectator.locator("#history")).to_be_visible()
    expect(spectator.locator("#history-label")).to_have_text("Now")
    drawn_then = board_text(spectator)
    assert play(server, gid, players, 4, rng) > 0
    now = server.api("GET", f"/api/games/{gid}/state", watcher.token)
    shows_state(spectator, now["state_id"])
    # Step back until the board shows the moment the page first drew.
    for _ in range(40):
        if spectator.locator("#board").get_attribute("data-state-id") == str(then["state_id"]):
            break
        back(spectator)
    shows_state(spectator, then["state_id"])
    expect(spectator.locator("#board")).to_have_attribute("data-past", "true")
    expect(spectator.locator("#history")).to_have_class(re.compile(r"\bpast\b"))
    assert board_text(spectator) == drawn_then
    # What led there: the actions recorded in the step before, in the game's notation.
    steps = server.api("GET", f"/api/games/{gid}/steps", watcher.token)["steps"]
    starts = sorted({s["seq"] for s in steps} | {0})
    at = then["seq"] if then["seq"] in starts else max(q for q in starts if q <= then["seq"])
    before = max(q for q in starts if q < at)
    entries = server.api("GET", f"/api/games/{gid}/history", watcher.token)["entries"]
    led = [e for e in entries if e["type"] == "action" and before <= e["seq"] < at]
    assert led
    for entry in led:
        if not entry.get("hidden"):
            expect(spectator.locator("#history-events")).to_contain_text(entry["notation"])
    # A player sees an earlier moment too, with nothing to play on it.
    mover = players[0]
    page = open_game(people, mover, gid)
    shows_state(page, now["state_id"])
    back(page)
    expect(page.locator("#board")).to_have_attribute("data-past", "true")
    expect(page.locator("#history-label")).to_contain_text("nothing can be played here")
    page.click("#history-now")
    shows_state(page, now["state_id"])
    expect(page.locator("#board")).to_have_attribute("data-past", "false")


def test_dice_show_with_the_step_that_rolled_them(server: Server, people: People) -> None:
    """Illuminati: the moment the dice were rolled lists them among its events."""
    gid, players, watcher = new_game(server, "illuminati", "hdice")
    rng = random.Random(3)
    target = None
    for _ in range(80):
        before = server.api("GET", f"/api/games/{gid}/state", watcher.token)
        if not play(server, gid, players, 1, rng):
            break
        after = server.api("GET", f"/api/games/{gid}/state", watcher.token)
        count = after["observation"]["view"]["log_count"]
        fresh = count - before["observation"]["view"]["log_count"]
        lines = after["observation"]["view"]["log"][-fresh:] if fresh else []
        if any("dice show" in line for line in lines):
            target = after["state_id"]
            break
    assert target is not None, "no attack was rolled"
    play(server, gid, players, 2, rng)
    spectator = open_game(people, watcher, gid)
    for _ in range(10):
        if spectator.locator("#board").get_attribute("data-state-id") == str(target):
            break
        back(spectator)
    shows_state(spectator, target)
    expect(spectator.locator("#history-events .history-event")).to_contain_text(
        [re.compile(r"dice show \d\+\d=\d+")]
    )


def test_the_log_marks_what_is_new_since_the_last_visit_and_finished_games_step_back(
    server: Server, people: People
) -> None:
    gid, players, _ = new_game(server, "sucker", "hvisit")
    rng = random.Random(5)
    play(server, gid, players, 3, rng)
    page = open_game(people, players[1], gid)
    page.click("#tab-log")
    expect(page.locator(".log li[data-seq]").first).to_be_visible()
    expect(page.locator("#since-last-visit")).to_have_count(0)  # a first visit: all is new
    page.goto("/#/")  # away, while the others play on; then back in the same browser
    expect(page.locator("#tab-log")).to_have_count(0)
    play(server, gid, players, 2, rng)
    page.goto(f"/#/game/{gid}")
    page.click("#tab-log")
    line = page.locator("#since-last-visit")
    expect(line).to_have_text(re.compile("since your last visit"))
    newer = page.locator(".log > li").evaluate_all(
        "(items) => { const i = items.findIndex((li) => li.id === 'since-last-visit');"
        " return items.slice(0, i).map((li) => Number(li.dataset.seq)); }"
    )
    entries = server.api("GET", f"/api/games/{gid}/history", players[1].token)["entries"]
    assert sorted(newer) == sorted(e["seq"] for e in entries[-len(newer) :] if e["type"] != "press")
    assert len(newer) >= 2
    # Everyone agrees a draw: the game is over; a newcomer steps back through it.
    for p in players:
        server.api("POST", f"/api/games/{gid}/draw", p.token, json={"accept": True})
    assert server.api("GET", f"/api/games/{gid}", players[0].token)["status"] == "finished"
    late = sign_up(server, "hlate")
    server.api("POST", f"/api/games/{gid}/join", late.token, json={"role": "spectator"})
    viewer = open_game(people, late, gid)
    final = server.api("GET", f"/api/games/{gid}/state", late.token)
    shows_state(viewer, final["state_id"])
    viewer.click("#over-history")  # from the end of the game, step back through it
    expect(viewer.locator("#board")).to_have_attribute("data-past", "true")
    past = int(viewer.locator("#board").get_attribute("data-state-id") or -1)
    assert 0 <= past < final["state_id"]
    expect(viewer.locator("#history-events li").first).to_be_visible()
