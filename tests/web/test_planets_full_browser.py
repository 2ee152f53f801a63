"""Planet Control's full rules in the browser, one browser per user and a spectator: the
strategy cards are picked on the strategy panel, a strategic action is taken and its
secondary followed by another user, fighters are produced, command tokens redistributed in
the status phase, and in the next round a fleet moves carrying fighters and infantry that
boards from a planet. Then the game is played to its end by clicking offered options (a
seeded choice each time) with no JavaScript error; and one user plays from a phone."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.web.axe import assert_accessible
from tests.web.conftest import People, Server
from tests.web.illuminati_helpers import Person, open_game, sign_up, state
from tests.web.pages import settle

pytestmark = pytest.mark.browser

SEED = 3
# The cards in the order the test's players want them: Command (1) makes its holder act
# first, Mandate's secondary is the one followed.
WANTED = ["command", "mandate", "foundations", "commerce", "accord", "mobilisation"]
POST = "/actions"
SHOTS = Path("/work/screens")
STYLED = "getComputedStyle(document.querySelector('#pc-galaxy .pc-planet-name')).fontSize === '9px'"


def new_game(
    server: Server, players: list[Person], watcher: Person, options: dict[str, str]
) -> str:
    body = {
        "game": "planets",
        "name": "Full round",
        "seats": len(players),
        "seed": SEED,
        "period_seconds": 3600,
        "options": options,
    }
    gid: str = server.api("POST", "/api/games", players[0].token, json=body)["id"]
    for p in players[1:]:
        server.api("POST", f"/api/games/{gid}/join", p.token, json={"role": "player"})
    server.api("POST", f"/api/games/{gid}/join", watcher.token, json={"role": "spectator"})
    server.api("POST", f"/api/games/{gid}/start", players[0].token, json={})
    for p in players:
        p.seat = server.api("GET", f"/api/games/{gid}", p.token)["you"]["seat"]
    return gid


def view(server: Server, gid: str, person: Person) -> dict[str, Any]:
    found: dict[str, Any] = state(server, gid, person)["observation"]["view"]
    return found


def leaves(node: dict[str, Any] | None) -> list[str]:
    if not node:
        return []
    if isinstance(node.get("action"), str):
        return [str(node["action"])]
    return [x for c in node.get("children") or [] for x in leaves(c)]


def shoot(page: Page, name: str, full: bool = True) -> None:
    """A screenshot once planets.css has styled the board."""
    page.wait_for_function(STYLED)
    page.screenshot(path=str(SHOTS / name), full_page=full)


def checked(page: Page, where: str) -> None:
    """axe-core on the styled board (colours and contrast need the styles)."""
    page.wait_for_function(STYLED)
    assert_accessible(page, where)


def drawn(page: Page, state_id: int) -> None:
    page.wait_for_function(
        "n => Number(document.querySelector('#board')?.dataset.stateId ?? -1) >= n", arg=state_id
    )


def synced(server: Server, gid: str, person: Person) -> dict[str, Any]:
    """The server's state for `person`, once their page has drawn it."""
    st = state(server, gid, person)
    assert person.page is not None
    drawn(person.page, int(st["state_id"]))
    return st


def send(page: Page, target: Any) -> None:
    """Click what sends an action and wait until the page has drawn the answer."""
    with page.expect_response(lambda r: r.url.endswith(POST) and r.request.method == "POST") as a:
        target.click()
    answer = a.value
    assert answer.ok, answer.text()
    drawn(page, int(answer.json()["state_id"]))


def owner(server: Server, gid: str, players: list[Person]) -> Person | None:
    seat = view(server, gid, players[0])["to_act"]
    return next((p for p in players if p.seat == seat), None)


def button(page: Page, action: str) -> Any:
    """The element sending `action`, wherever the board draws it (controls or card panel)."""
    page.evaluate(
        "document.querySelectorAll('#pc-controls details').forEach((d) => { d.open = true; })"
    )
    found = page.locator(
        f'#pc-controls [data-action="{action}"], #pc-round [data-action="{action}"]'
    ).first
    expect(found).to_be_visible()
    return found


def take(page: Page, action: str) -> None:
    """Send one offered action through the page, with the form that offers it."""
    tokens = re.fullmatch(r"tokens (\d+) (\d+) (\d+)", action)
    if tokens and page.locator("#pc-tokens").count():
        for pool, n in zip(("tactic", "fleet", "strategy"), tokens.groups(), strict=True):
            page.fill(f"#pc-tokens-{pool}", n)
        expect(page.locator("#pc-tokens-go")).to_have_attribute("data-action", action)
        send(page, page.locator("#pc-tokens-go"))
        return
    if action.startswith("activate "):
        system = action.split()[1]
        send(page, page.locator(f'#pc-galaxy .pc-system.clickable[data-system="{system}"]'))
        return
    made = re.fullmatch(r"produce (\d+) (.+)", action)
    if made:
        page.select_option("#pc-produce-kind", made.group(2))
        page.select_option("#pc-produce-count", made.group(1))
        expect(page.locator("#pc-produce-go")).to_have_attribute("data-action", action)
        send(page, page.locator("#pc-produce-go"))
        return
    send(page, button(page, action))


def choose(rng: random.Random, offered: list[str]) -> str:
    """A seeded choice that ends steps and rounds soon: passing, declining and `done` are
    taken often, everything else uniformly."""
    for word, chance in (("pass", 0.6), ("decline", 0.7), ("done", 0.5), ("stay", 0.5)):
        if word in offered and rng.random() < chance:
            return word
    rest = [a for a in offered if a not in ("pass", "done")] or offered
    return rng.choice(rest)


def play_one(server: Server, gid: str, players: list[Person], rng: random.Random) -> bool:
    """One seeded decision, taken on the page of the user who owes it; False when over."""
    who = owner(server, gid, players)
    if who is None:
        return False
    st = synced(server, gid, who)
    offered = leaves(st["options"])
    assert offered, "a seat owes a decision with nothing offered"
    assert who.page is not None
    take(who.page, choose(rng, offered))
    return True


def pick_cards(server: Server, gid: str, players: list[Person]) -> None:
    """The strategy phase: each picker clicks the first card they want on the panel."""
    while view(server, gid, players[0])["stage"] == "strategy":
        who = owner(server, gid, players)
        assert who is not None and who.page is not None
        synced(server, gid, who)
        free = [c["name"] for c in view(server, gid, who)["strategy_cards"] if c["holder"] is None]
        name = next(n for n in WANTED + free if n in free)
        card = who.page.locator(f'#pc-strategy .pc-scard.pickable[data-name="{name}"]')
        expect(card).to_be_visible()
        send(who.page, card)


def until(server: Server, gid: str, players: list[Person], rng: random.Random, done: Any) -> None:
    """Seeded play through the pages until `done(view)` holds (bounded)."""
    for _ in range(400):
        v = view(server, gid, players[0])
        if done(v):
            return
        assert play_one(server, gid, players, rng), "the game ended first"
    raise AssertionError("the condition never came")


def home_planet(v: dict[str, Any], seat: int) -> str:
    home = next(s for s in v["systems"] if s.get("home") == seat)
    return str(home["planets"][0])


def test_a_full_round_is_played_in_the_browser_to_the_end(
    server: Server, people: People, screenshots: Path
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    players = [sign_up(server, f"pf{i}") for i in range(3)]
    watcher = sign_up(server, "pfw")
    gid = new_game(server, players, watcher, {"rounds": "2", "target": "10"})
    for p in players:
        p.page = open_game(people, p, gid)
    spectator = open_game(people, watcher, gid)
    for p in [*players, watcher]:
        page = p.page if p.page is not None else spectator
        expect(page.locator("#pc-strategy .pc-scard")).to_have_count(8)
    v0 = view(server, gid, watcher)
    expect(spectator.locator("#pc-speaker")).to_have_attribute("data-seat", str(v0["speaker"]))
    expect(spectator.locator("#pc-custodians")).to_have_attribute("data-on", "true")
    expect(spectator.locator("#pc-galaxy .pc-custodians")).to_have_count(1)
    speaker = next(p for p in players if p.seat == v0["speaker"])
    assert speaker.page is not None
    expect(speaker.page.locator("#pc-strategy .pc-scard.pickable")).to_have_count(8)
    shoot(speaker.page, "planets-full-strategy-1366.png")

    # 1. The strategy phase: picks on the panel, seen by everyone.
    pick_cards(server, gid, players)
    v = view(server, gid, watcher)
    holders = {c["name"]: c["holder"] for c in v["strategy_cards"]}
    assert holders["command"] == speaker.seat
    drawn(spectator, int(state(server, gid, watcher)["state_id"]))
    expect(spectator.locator('#pc-strategy [data-name="mandate"]')).to_have_attribute(
        "data-holder", str(holders["mandate"])
    )
    expect(spectator.locator("#pc-initiative")).to_have_attribute(
        "data-order", " ".join(str(s) for s in v["initiative"])
    )
    # The two cards nobody took carry a trade good each.
    expect(spectator.locator('#pc-strategy .pc-scard[data-goods="1"]')).to_have_count(2)

    # 2. The Command holder acts first: activates home and produces fighters.
    producer = speaker
    assert producer.page is not None and v["to_act"] == producer.seat
    home = next(s for s in v["systems"] if s.get("home") == producer.seat)["id"]
    planet = home_planet(v, producer.seat)
    synced(server, gid, producer)
    send(
        producer.page,
        producer.page.locator(f'#pc-galaxy .pc-system.clickable[data-system="{home}"]'),
    )
    while (
        "done" in leaves(state(server, gid, producer)["options"])
        and view(server, gid, producer)["stage"] == "move"
    ):
        take(producer.page, "done")
    assert view(server, gid, producer)["stage"] == "produce"
    take(producer.page, f"exhaust {planet}")
    fighters = f"produce 2 fighter at {planet}"
    assert fighters in leaves(synced(server, gid, producer)["options"])
    shoot(producer.page, "planets-full-produce-1366.png")
    take(producer.page, fighters)
    take(producer.page, "done")
    # The starting fleet fits the fleet supply: nobody is asked to remove a ship, and the
    # fighters made join the two each player starts with.
    expect(producer.page.locator("#pc-status")).not_to_contain_text("over the fleet supply")
    assert not [
        a for a in leaves(synced(server, gid, producer)["options"]) if a.startswith("remove ")
    ]
    home_units = next(s for s in view(server, gid, watcher)["systems"] if s["id"] == home)
    assert home_units["units"][0]["units"]["fighter"] == 4

    # 3. The Mandate holder's strategic action; the next user follows, the other declines.
    mandate = next(p for p in players if p.seat == holders["mandate"])
    assert mandate.page is not None
    assert owner(server, gid, players) is mandate
    synced(server, gid, mandate)
    ability = mandate.page.locator('#pc-controls .pc-ability[data-action="strategy mandate"]')
    expect(ability).to_contain_text("Give the speaker token")
    send(mandate.page, ability)
    expect(mandate.page.locator("#pc-resolving")).to_have_attribute("data-card", "3")
    take(mandate.page, f"speaker {v['players'][mandate.seat]['colour']}")
    follower = owner(server, gid, players)
    assert follower is not None and follower is not mandate and follower.page is not None
    goods = view(server, gid, watcher)["players"][follower.seat]["trade_goods"]
    synced(server, gid, follower)
    follow = follower.page.locator('#pc-controls .pc-ability[data-action="follow mandate"]')
    expect(follow).to_contain_text("Gain 1 trade good")
    shoot(follower.page, "planets-full-secondary-1366.png")
    send(follower.page, follow)
    other = owner(server, gid, players)
    assert other is not None and other not in (mandate, follower) and other.page is not None
    synced(server, gid, other)
    send(other.page, other.page.locator('#pc-controls [data-action="decline"]'))
    after = view(server, gid, watcher)
    assert after["players"][follower.seat]["trade_goods"] == goods + 1
    assert after["command_sheets"][follower.seat]["strategy"] == 1  # a strategy token spent
    drawn(spectator, int(state(server, gid, watcher)["state_id"]))
    sheet = spectator.locator(
        f'.pc-player[data-colour="{after["players"][follower.seat]["colour"]}"] .pc-sheet'
    )
    expect(sheet).to_have_attribute("data-strategy", "1")
    expect(spectator.locator("#pc-log")).to_contain_text("follows Mandate")

    # 4. Seeded play to the status phase; the first redistribution through the form.
    rng = random.Random(SEED)
    until(server, gid, players, rng, lambda x: x["stage"] == "status")
    placer = owner(server, gid, players)
    assert placer is not None and placer.page is not None
    st = synced(server, gid, placer)
    splits = [a for a in leaves(st["options"]) if a.startswith("tokens ")]
    first = [int(n) for n in splits[0].split()[1:]]
    wanted = f"tokens {first[0] - 1} {first[1] + 1} {first[2]}"
    assert wanted in splits, splits[:5]
    expect(placer.page.locator("#pc-tokens")).to_be_visible()
    # A split that does not add up is refused on the page before anything is sent.
    placer.page.fill("#pc-tokens-tactic", str(first[0] + 5))
    expect(placer.page.locator("#pc-tokens-go")).to_be_disabled()
    expect(placer.page.locator("#pc-tokens-note")).to_contain_text("add up to")
    shoot(placer.page, "planets-full-status-1366.png")
    sheet_before = view(server, gid, watcher)["command_sheets"][placer.seat]
    take(placer.page, wanted)
    sheet_after = view(server, gid, watcher)["command_sheets"][placer.seat]
    assert sheet_after["fleet"] == sheet_before["fleet"] + 1

    # 5. Round 2: the fleet moves carrying the fighters, and infantry boards from a planet.
    until(server, gid, players, rng, lambda x: x["round"] == 2 and x["stage"] != "status")
    pick_cards(server, gid, players)
    until(
        server, gid, players, rng, lambda x: x["to_act"] == producer.seat and x["stage"] == "action"
    )
    v = synced(server, gid, producer)["observation"]["view"]
    fighters_home = next(s for s in v["systems"] if s["id"] == home)["units"][0]["units"]
    assert fighters_home.get("fighter") == 4
    targets = [
        a.split()[1]
        for a in leaves(state(server, gid, producer)["options"])
        if a.startswith("activate ")
    ]
    q, r = next((s["q"], s["r"]) for s in v["systems"] if s["id"] == home)
    near = [
        s["id"]
        for s in v["systems"]
        if s["id"] in targets
        and s["kind"] != "central"
        and max(abs(s["q"] - q), abs(s["r"] - r), abs(s["q"] + s["r"] - q - r)) == 1
        and not s.get("units")
    ]
    assert near, targets
    send(
        producer.page,
        producer.page.locator(f'#pc-galaxy .pc-system.clickable[data-system="{near[0]}"]'),
    )
    page = producer.page
    page.locator(f'#pc-galaxy .pc-system.source[data-system="{home}"]').click()
    expect(page.locator("#pc-fleet")).to_have_attribute("data-from", home)
    page.select_option("#pc-fleet-kind", "carrier")
    page.select_option("#pc-fleet-place", home)
    page.select_option("#pc-fleet-fighter", "2")
    carry = f"move 1 carrier from {home} to {near[0]} with 2 fighter from {home}"
    expect(page.locator("#pc-fleet-go")).to_have_attribute("data-move", carry)
    shoot(page, "planets-full-move-1366.png")
    send(page, page.locator("#pc-fleet-go"))
    if not page.locator(f'#pc-fleet[data-from="{home}"]').count():
        page.locator(f'#pc-galaxy .pc-system.source[data-system="{home}"]').click()
    page.select_option("#pc-fleet-kind", "carrier")
    page.select_option("#pc-fleet-place", planet)
    page.select_option("#pc-fleet-infantry", "2")
    board = f"move 1 carrier from {home} to {near[0]} with 2 infantry from {planet}"
    expect(page.locator("#pc-fleet-go")).to_have_attribute("data-move", board)
    send(page, page.locator("#pc-fleet-go"))
    there = next(s for s in view(server, gid, watcher)["systems"] if s["id"] == near[0])
    assert there["units"][0]["units"] == {"carrier": 2, "fighter": 2, "infantry": 2}
    expect(spectator.locator("#pc-log")).to_contain_text(f"with 2 infantry from {planet}")
    checked(page, "planets full rules, moving a fleet")

    # 6. To the end, every decision taken on a page.
    for _ in range(1500):
        if not play_one(server, gid, players, rng):
            break
    final = view(server, gid, watcher)
    assert final["over"], final["step"]
    drawn(spectator, int(state(server, gid, watcher)["state_id"]))
    for page in [spectator, *(p.page for p in players if p.page is not None)]:
        expect(page.locator("#pc-status")).to_contain_text("Game over")
    shoot(spectator, "planets-full-over-1366.png")
    checked(spectator, "planets full rules, game over")


def test_a_full_rules_game_fits_a_phone(server: Server, people: People) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    players = [sign_up(server, f"pp{i}") for i in range(3)]
    watcher = sign_up(server, "ppw")
    gid = new_game(server, players, watcher, {})
    for p in players:
        p.page = open_game(people, p, gid, 390, 844)
    speaker = owner(server, gid, players)
    assert speaker is not None and speaker.page is not None
    page = speaker.page
    expect(page.locator("#pc-strategy .pc-scard.pickable")).to_have_count(8)
    settle(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for selector in ("#clock", "#menu-button"):
        box = page.locator(selector).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390.5
    shoot(page, "planets-full-strategy-390.png")
    checked(page, "planets full rules on a phone")
    pick_cards(server, gid, players)
    rng = random.Random(SEED + 1)
    until(server, gid, players, rng, lambda x: x["stage"] == "status")
    placer = owner(server, gid, players)
    assert placer is not None and placer.page is not None
    synced(server, gid, placer)
    # Past the picks, a phone folds the cards' texts away until asked.
    texts = placer.page.locator("#pc-card-texts")
    expect(texts).to_have_attribute("aria-pressed", "false")
    expect(placer.page.locator("#pc-strategy .pc-scard-text")).to_have_count(0)
    texts.click()
    expect(placer.page.locator("#pc-strategy .pc-scard-text")).to_have_count(16)
    texts.click()
    expect(placer.page.locator("#pc-strategy .pc-scard-text")).to_have_count(0)
    settle(placer.page)
    assert placer.page.evaluate("document.documentElement.scrollWidth") <= 390
    shoot(placer.page, "planets-full-status-390.png")


def test_a_six_player_full_game_ends_in_the_browser(server: Server, people: People) -> None:
    players = [sign_up(server, f"p6{i}") for i in range(6)]
    watcher = sign_up(server, "p6w")
    gid = new_game(server, players, watcher, {"rounds": "1"})
    for p in players:
        p.page = open_game(people, p, gid)
    spectator = open_game(people, watcher, gid)
    expect(spectator.locator("#pc-strategy .pc-scard")).to_have_count(8)
    expect(spectator.locator(".pc-player .pc-sheet")).to_have_count(6)
    pick_cards(server, gid, players)  # one card each with five or six players
    v = view(server, gid, watcher)
    assert sorted(c["holder"] for c in v["strategy_cards"] if c["holder"] is not None) == list(
        range(6)
    )
    rng = random.Random(SEED + 6)
    for _ in range(800):
        if not play_one(server, gid, players, rng):
            break
    assert view(server, gid, watcher)["over"]
    drawn(spectator, int(state(server, gid, watcher)["state_id"]))
    expect(spectator.locator("#pc-status")).to_contain_text("Game over")
    shoot(spectator, "planets-full-six-over-1366.png")


def from_board(
    server: Server, board: dict[str, Any], lines: list[str]
) -> tuple[str, list[Person], Person]:
    """A server game started from a full-rules position laid out from a scenario board and
    played in-process with its scripted dice; returns the game, its players and a spectator."""
    from tests.games.planets.helpers import act, empty_match, lay_out

    from parley.games.planets import RULES

    match = lay_out(empty_match(), board)
    for line in lines:
        act(match, line)
    players = [sign_up(server, f"pb{i}") for i in range(3)]
    watcher = sign_up(server, "pbw")
    body = {
        "game": "planets",
        "name": "Full forces",
        "position": RULES.write_position(match.state),
        "period_seconds": 3600,
    }
    gid: str = server.api("POST", "/api/games", players[0].token, json=body)["id"]
    for p in players[1:]:
        server.api("POST", f"/api/games/{gid}/join", p.token, json={"role": "player"})
    server.api("POST", f"/api/games/{gid}/join", watcher.token, json={"role": "spectator"})
    server.api("POST", f"/api/games/{gid}/start", players[0].token, json={})
    for p in players:
        p.seat = server.api("GET", f"/api/games/{gid}", p.token)["you"]["seat"]
    return gid, sorted(players, key=lambda p: p.seat or 0), watcher


def test_barrage_dice_and_a_retreat_on_the_page(server: Server, people: People) -> None:
    # Red's destroyer barrages Blue's fighters (two hits), then the round's dice.
    board = {
        "units": ["0202 red destroyer 1", "0203 blue carrier 1", "0203 blue fighter 3"],
        "dice": [9, 9, 9, 1, 1],
    }
    gid, players, watcher = from_board(
        server, board, ["red: activate 0203", "red: move 1 destroyer from 0202 to 0203"]
    )
    spectator = open_game(people, watcher, gid, 390, 844)
    box = spectator.locator("#pc-last-combat")
    expect(box).to_contain_text("Space combat at 0203")
    red = '#pc-barrage .pc-round-side[data-seat="0"]'
    expect(spectator.locator(f"{red} .die")).to_have_text(["9", "9"])
    expect(spectator.locator(f"{red} .pc-hits")).to_have_text("2 hits")
    expect(spectator.locator('#pc-rounds li[data-round="1"]')).to_contain_text("9")
    spectator.wait_for_function(STYLED)
    box.screenshot(path=str(SHOTS / "planets-full-barrage-390.png"))
    blue = players[1]
    blue.page = open_game(people, blue, gid)
    expect(blue.page.locator('#pc-controls [data-action="destroy fighter"]')).to_be_visible()

    # Blue, attacked with a planet next door, announces a retreat by a named button.
    board = {
        "units": [
            "0202 red dreadnought 1",
            "0203 blue cruiser 1",
            "0203 blue fighter 1",
            "Saphra blue infantry 1",
            "Vesta blue dock 1",
        ],
        "control": {"Saphra": "blue", "Vesta": "blue"},
        "dice": [1, 1, 1],
    }
    gid, players, watcher = from_board(
        server, board, ["red: activate 0203", "red: move 1 dreadnought from 0202 to 0203"]
    )
    blue = players[1]
    page = blue.page = open_game(people, blue, gid)
    expect(page.locator("#pc-last-combat")).to_contain_text("Space combat at 0203")
    expect(page.locator("#pc-barrage")).to_have_count(0)  # no destroyers: no barrage drawn
    stay = page.locator('#pc-controls [data-action="stay"]')
    expect(stay).to_have_text("Stay and fight")
    retreat = page.locator('#pc-controls [data-action="retreat to 0204"]')
    expect(retreat).to_have_text("Retreat to 0204")
    shoot(page, "planets-full-retreat-1366.png", full=False)
    checked(page, "planets full rules, a retreat to announce")
    send(page, retreat)
    # Announced now, carried out after this round's hits (the server's dice decide them).
    expect(page.locator("#pc-log")).to_contain_text("Blue announces a retreat to 0204")
    expect(page.locator("#pc-status")).to_contain_text("You announced a retreat to 0204")


def test_space_cannon_offense_target_and_volley(server: Server, people: People) -> None:
    board = {
        "units": ["Vesta red pds 1", "0203 blue destroyer 1", "0203 green destroyer 1"],
        "control": {"Vesta": "red"},
    }
    gid, players, _ = from_board(server, board, ["red: activate 0203"])
    red = players[0]
    page = red.page = open_game(people, red, gid)
    target = page.locator('#pc-controls [data-action="fire at green"]')
    expect(target).to_have_text("Fire at Green")
    expect(page.locator('#pc-controls [data-group="aim"] .pc-group-label')).to_contain_text(
        "Space cannon offense"
    )
    send(page, target)
    fight = view(server, gid, red)["last_combat"]
    assert fight["kind"] == "space_cannon_offense"
    box = page.locator("#pc-last-combat")
    expect(box).to_contain_text("Last combat: Space cannon offense at 0203")
    expect(box).to_contain_text("Red fires on Green")
    expect(box).not_to_contain_text("Round 1")
    dice = page.locator('#pc-rounds .pc-round-side[data-seat="0"] .die')
    expect(dice).to_have_text([str(d) for d in fight["rounds"][0]["rolls"][0]])
