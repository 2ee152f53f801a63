"""The Illuminati table's rarer decisions, seen by three players and a spectator: a capture
whose puppet does not fit (the choice dialog), a trade offered and answered, and secrets
(face-down cards, the UFOs' goal) shown only to their holder.

The positions are built from scenario data and played through the rules; each viewer's
table is given what the server would send that viewer, on a test page that records what
the table would submit.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect
from tests.games.illuminati.helpers import act, build
from tests.web.conftest import People
from tests.web.pages import harness_acts, mount_harness, sign_in, unique

from parley.games.illuminati import RULES
from parley.games.illuminati.state import IlluminatiState
from parley.kernel import SPECTATOR, Viewer

pytestmark = pytest.mark.browser

HARNESS = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="/static/css/parley.css"></head>
<body data-view="game"><main id="app"><section class="board-area" id="board"></section></main>
<div class="toasts" id="toasts"></div>
<script type="module">
import { Renderer } from "/static/js/illuminati/index.js";
window.harness = {
  acts: [],
  async mount(data) {
    const ctx = {
      gameId: "harness", summary: data.summary, state: data.state, entries: data.entries, you: {},
      mySeat: () => data.state.viewer.seat, seatLabel: (s) => data.summary.seats[s].name,
      act: async (body) => { window.harness.acts.push(body); return {}; },
      showTab() {}, storageKey: (what) => `harness.${what}`,
    };
    const table = new Renderer(ctx);
    table.mountBoard(document.getElementById("board"));
    table.update("all");
  },
};
window.harnessReady = true;
</script></body></html>"""

VIEWERS = ("P1", "P2", "P3", "spectator")


def payload(state: IlluminatiState, who: str) -> dict[str, Any]:
    seat = None if who == "spectator" else int(who[1:]) - 1
    viewer = SPECTATOR if seat is None else Viewer.of(seat)
    owed = RULES.turn(state).owed
    mine = seat is not None and any(o.seat == seat for o in owed)
    return {
        "summary": {
            "status": "active",
            "seats": [
                {"seat": i, "name": f"Player {i + 1}", "player": f"p{i + 1}"}
                for i in range(state.seats)
            ],
        },
        "state": {
            "game_id": "harness",
            "status": "active",
            "viewer": {"role": "spectator" if seat is None else "player", "seat": seat},
            "state_id": 1,
            "seq": 1,
            "observation": {
                "turn": RULES.turn(state).to_json(),
                "view": RULES.observe(state, viewer),
            },
            "can_act": mine,
            "owes": mine,
            "options": RULES.options_tree(state, seat).to_json()
            if mine and seat is not None
            else None,
            "deadline": {"remaining_seconds": 600, "state_id": 1},
        },
        "entries": [],
    }


def tables(
    people: People, state: IlluminatiState, width: int = 1366, height: int = 900
) -> dict[str, Page]:
    out = {}
    for who in VIEWERS:
        page = people.page(width, height)
        mount_harness(page, HARNESS, payload(state, who))
        expect(page.locator(".il-player")).to_have_count(state.seats)
        out[who] = page
    return out


def capture_position() -> IlluminatiState:
    """Player 1 captures Big Media, whose puppet Democrats fits nowhere next to it."""
    state = build(
        {
            "illuminati": ["Bavarian Illuminati", "Network", "Gnomes of Zurich"],
            "structure": [
                "P1: Pentagon on Bavarian Illuminati north",
                "P1: Texas on Bavarian Illuminati east",
                "P1: Copy Shops on Pentagon north",
                "P1: New York on Pentagon west",
                "P2: Big Media on Network north",
                "P2: Democrats on Big Media east",
            ],
            "money": {
                "Bavarian Illuminati": 30,
                "Big Media": 6,
                "Democrats": 4,
                "Gnomes of Zurich": 5,
            },
            "dice": [[2, 2]],
        }
    )
    for who, text in [
        (0, "attack Big Media with Pentagon to control, spend 15"),
        (0, "roll"),
        (1, "pass"),
        (2, "pass"),
    ]:
        act(state, who, text)
    assert state.phase.value == "place" and state.pending[0].group == "Democrats"
    return state


def test_a_capture_whose_puppet_does_not_fit(people: People) -> None:
    state = capture_position()
    leaves = RULES.options_tree(state, 0).leaves()
    places = [t for t in leaves if t.startswith("place Democrats")]
    assert places and "release Democrats" in leaves
    pages = tables(people, state)
    p1 = pages["P1"]
    dialog = p1.locator("#il-place-dialog")
    expect(dialog).to_contain_text("Democrats needs a place")
    expect(dialog.locator(".il-place-option")).to_have_count(len(places))
    expect(p1.locator("button.il-arrow.target")).to_have_count(len(places))
    for who in ("P2", "P3", "spectator"):
        page = pages[who]
        expect(page.locator("#il-place-dialog")).to_have_count(0)
        expect(page.locator("#il-status")).to_contain_text("Waiting for Player 1")
        expect(
            page.locator('.il-player[data-seat="0"] .il-grid [data-card="Big Media"]')
        ).to_have_count(1)
        expect(
            page.locator('.il-player[data-seat="1"] .il-grid [data-card="Democrats"]')
        ).to_have_count(0)
    for page in pages.values():
        expect(page.locator("#il-result")).to_contain_text("Player 1 takes control of Big Media")
    first = places[0].split(" on ", 1)[1]
    host, direction = first.rsplit(" ", 1)
    p1.click(f'button.il-arrow.target[data-host="{host}"][data-direction="{direction}"]')
    p1.click("#il-release")
    assert harness_acts(p1) == [{"action": places[0]}, {"action": "release Democrats"}]


def trade_position() -> IlluminatiState:
    state = build(
        {
            "illuminati": ["Bavarian Illuminati", "Network", "UFOs"],
            "structure": [
                "P1: Pentagon on Bavarian Illuminati north",
                "P2: Big Media on Network north",
            ],
            "money": {"Bavarian Illuminati": 10, "Network": 12, "UFOs": 3},
            "hands": {"P1": ["Deep Agent:down", "Slush Fund:up"], "P3": ["Murphy's Law:down"]},
            "goal": {"P3": "Network"},
        }
    )
    return state


def test_a_trade_is_offered_priced_and_answered(people: People) -> None:
    state = trade_position()
    p1 = tables(people, state)["P1"]
    p1.click("#il-offer")
    p1.select_option("#il-offer-item", "Pentagon")
    p1.select_option("#il-offer-to", "1")
    p1.click("#il-offer-send")
    assert harness_acts(p1) == [{"action": "give Pentagon to Player 2"}]

    act(state, 0, "give Pentagon to Player 2")
    pages = tables(people, state)
    price = pages["P1"].locator("#il-price")
    expect(price).to_contain_text("Your offer of Pentagon to Player 2")
    pages["P1"].fill("#il-ask-money", "4")
    pages["P1"].click("#il-ask-money-send")
    assert harness_acts(pages["P1"]) == [{"action": "ask for 4 MB"}]

    act(state, 0, "ask for 4 MB")
    pages = tables(people, state)
    offer = pages["P2"].locator("#il-offer-prompt")
    expect(offer).to_contain_text("Player 1 (p1) offers you Pentagon for 4 MB in return")
    for who in ("P1", "P3", "spectator"):
        expect(pages[who].locator("#il-offer-prompt")).to_have_count(0)
        expect(pages[who].locator("#il-status")).to_contain_text("Waiting for Player 2")
    offer.locator("#il-accept").click()
    offer.locator("#il-decline").click()
    assert harness_acts(pages["P2"]) == [{"action": "accept"}, {"action": "decline"}]


def test_secrets_reach_only_their_holder(people: People) -> None:
    state = trade_position()
    spied = "Computer Espionage, turn 1: Player 3 holds Murphy's Law"
    state.players[1].notes.append(spied)
    pages = tables(people, state)
    goal = "secretly pursue the goal of the Network"
    expect(pages["P3"].locator("#il-secret-goal")).to_contain_text(goal)
    expect(pages["P3"].locator('.il-special[data-special="Murphy\\\'s Law"]')).to_contain_text(
        "face down"
    )
    expect(pages["P1"].locator('.il-special[data-special="Deep Agent"]')).to_contain_text(
        "face down"
    )
    expect(pages["P2"].locator("#il-status")).to_contain_text(spied)
    for who in ("P1", "spectator"):
        page = pages[who]
        expect(page.locator("#il-secret-goal")).to_have_count(0)
        expect(page.locator("body")).not_to_contain_text("Murphy")
        expect(page.locator("body")).not_to_contain_text("Espionage")
    expect(pages["P2"].locator("#il-secret-goal")).to_have_count(0)
    for who in ("P1", "P2", "spectator"):
        expect(pages[who].locator('.il-player[data-seat="2"] .il-hand .il-back')).to_have_count(1)
    for who in ("P2", "P3", "spectator"):
        page = pages[who]
        expect(page.locator("body")).not_to_contain_text("Deep Agent")
        hand = page.locator('.il-player[data-seat="0"] .il-hand')
        expect(hand.locator(".il-back")).to_have_count(1)
        expect(hand.locator('.il-special[data-special="Slush Fund"]')).to_have_count(1)


def crowded_position() -> IlluminatiState:
    """Six players with five groups each: thirty groups in play."""
    from parley.games.illuminati import engine
    from parley.games.illuminati import geometry as geo

    names = ["Bavarian Illuminati", "Network", "Gnomes of Zurich", "UFOs", "Bermuda Triangle"]
    state = build({"illuminati": [*names, "Servants of Cthulhu"], "goal": {"P4": "Network"}})
    pool = [c.name for c in engine.CARDS.groups]
    for player in state.players:
        placed = 0
        while placed < 5:
            group = pool.pop(0)
            spots = engine.spots(player, group)
            if not spots:
                continue
            host, direction = spots[-1] if placed % 2 else spots[0]
            geo.hang(
                player.links,
                player.illuminati,
                {group: geo.Link(None, None)},
                group,
                host,
                direction,
            )
            player.money[group] = placed
            placed += 1
    state.center = pool[:6]
    return state


def test_six_players_and_thirty_groups_stay_readable(people: People, screenshots: Any) -> None:
    state = crowded_position()
    assert sum(len(p.groups()) for p in state.players) == 30
    page = tables(people, state)["P1"]
    expect(page.locator(".il-grid .il-card")).to_have_count(36)
    page.screenshot(path=str(screenshots / "illuminati-six-1366x900.png"), full_page=True)
    page.click('[data-focus="3"]')
    expect(page.locator(".il-player")).to_have_count(1)
    expect(page.locator('.il-player[data-seat="3"] .il-grid .il-card')).to_have_count(6)
    card = page.locator('.il-player[data-seat="3"] .il-grid .il-illuminati')
    small = card.bounding_box()
    page.click("#il-zoom-in")
    page.click("#il-zoom-in")
    big = card.bounding_box()
    assert small and big and big["width"] > small["width"] * 1.4
    page.screenshot(path=str(screenshots / "illuminati-focus-1366x900.png"))
    phone = people.page(390, 844)
    mount_harness(phone, HARNESS, payload(state, "P1"))
    phone.click('[data-focus="0"]')
    expect(phone.locator(".il-player")).to_have_count(1)
    phone.screenshot(path=str(screenshots / "illuminati-focus-390x844.png"), full_page=True)


def test_moving_transferring_and_dropping_by_tapping(people: People) -> None:
    state = trade_position()
    leaves = RULES.options_tree(state, 0).leaves()
    moves = [t for t in leaves if t.startswith("move Pentagon to ")]
    assert moves
    page = tables(people, state)["P1"]
    grid = page.locator('.il-player[data-seat="0"] .il-grid')

    page.click("#il-mode-move")
    expect(page.locator("#il-hint")).to_contain_text("Tap the group to move")
    grid.locator('[data-card="Pentagon"]').click()
    expect(page.locator("button.il-arrow.target")).to_have_count(len(moves))
    host, direction = moves[0].removeprefix("move Pentagon to ").rsplit(" ", 1)
    grid.locator(
        f'button.il-arrow.target[data-host="{host}"][data-direction="{direction}"]'
    ).click()

    # The same move by dragging the group onto a free arrow, outside any mode.
    page.click("#il-cancel")
    # force: a free arrow takes pointer events only once the drag has begun.
    spot = f'.il-arrow[data-host="{host}"][data-direction="{direction}"]'
    grid.locator('[data-card="Pentagon"]').drag_to(grid.locator(spot), force=True)

    page.click("#il-mode-transfer")
    grid.locator('[data-card="Bavarian Illuminati"]').click()
    expect(page.locator("#il-hint")).to_contain_text("receives money from Bavarian Illuminati")
    grid.locator('[data-card="Pentagon"]').click()
    page.fill("#il-transfer-amount", "3")
    page.click("#il-transfer-send")

    page.click("#il-mode-drop")
    grid.locator('[data-card="Pentagon"]').click()
    page.click("#il-confirm")
    assert harness_acts(page) == [
        {"action": moves[0]},
        {"action": moves[0]},
        {"action": "give 3 from Bavarian Illuminati to Pentagon"},
        {"action": "drop Pentagon"},
    ]


def test_a_drawn_special_is_kept_face_down_and_the_ufos_choose_a_goal(people: People) -> None:
    state = build(
        {
            "illuminati": ["Bavarian Illuminati", "Network", "UFOs"],
            "deck": ["Swiss Bank Account"],
            "start": True,
        }
    )
    assert state.phase.value == "keep"
    pages = tables(people, state)
    keep = pages["P1"].locator("#il-keep")
    expect(keep).to_contain_text("You drew a special card: Swiss Bank Account")
    for who in ("P2", "P3", "spectator"):
        expect(pages[who].locator("#il-keep")).to_have_count(0)
        expect(pages[who].locator("body")).not_to_contain_text("Swiss Bank")
        expect(pages[who].locator('.il-player[data-seat="0"] .il-hand .il-back')).to_have_count(1)
    keep.locator("#il-keep-down").click()
    assert harness_acts(pages["P1"]) == [{"action": "keep face down"}]

    from parley.games.illuminati.state import Phase

    state = build({"illuminati": ["Bavarian Illuminati", "Network", "UFOs"]})
    state.phase = Phase.GOAL
    goals = [t for t in RULES.options_tree(state, 2).leaves() if t.startswith("goal ")]
    assert goals
    page = tables(people, state)["P3"]
    goal = page.locator("#il-goal")
    expect(goal).to_contain_text("only you will know it")
    expect(goal.locator("button")).to_have_count(len(goals))
    goal.get_by_role("button", name=goals[0].removeprefix("goal "), exact=True).click()
    assert harness_acts(page) == [{"action": goals[0]}]


def test_every_phase_of_a_random_game_is_drawn(people: People) -> None:
    """One position of each phase a seeded random game passes through, for the seat that
    decides and for a spectator: the table draws it and offers every leaf as notation."""
    from parley.kernel import Match, Rng

    options = RULES.spec.resolve_options({"illuminati": "choose", "rounds": 6})
    match: Match[Any, Any] = Match(RULES, ["a", "b", "c"], options, seed=5)
    rng = Rng(5)
    seen: dict[str, tuple[IlluminatiState, int]] = {}
    texts: set[str] = set()
    for _ in range(1500):
        owed = match.turn().owed
        if not owed:
            break
        seat = owed[0].seat
        phase = match.state.phase.value
        if phase not in seen:
            seen[phase] = (RULES.clone(match.state), seat)
        texts.update(RULES.options_tree(match.state, seat).leaves())
        match.act(seat, RULES.random_action(match.state, seat, rng))
    phases = {"choose", "goal", "keep", "start", "main", "attack", "react", "after_roll", "place"}
    assert phases | {"price", "answer"} <= set(seen)
    page = people.page()
    for state, seat in seen.values():
        for who in (f"P{seat + 1}", "spectator"):
            mount_harness(page, HARNESS, payload(state, who))
            expect(page.locator(".il-player")).to_have_count(3)
            if who != "spectator":
                count = len(set(RULES.options_tree(state, seat).leaves()))
                expect(page.locator("#il-all-options summary")).to_contain_text(
                    f"({count}", timeout=5000
                )
            else:
                expect(page.locator("#il-all-options")).to_have_count(0)
    # Every leaf of the game is read by the client as the rules read it.
    read = page.evaluate(READ_ALL, sorted(texts))
    assert len(read) > 200
    wrong = [t for t, a in read.items() if not same_reading(RULES.parse(t), a)]
    assert wrong == []


READ_ALL = """async (texts) => {
  const { readAction } = await import("/static/js/illuminati/notation.js");
  return Object.fromEntries(texts.map((t) => [t, readAction(t)]));
}"""

# The client's field for each field of an action record, where the names differ.
FIELDS = {
    "name": "name",
    "kind": "type",
    "to": "to",
    "face_up": "up",
    "amount": "amount",
    "old": "from",
    "new": "to",
}


def same_reading(action: Any, read: dict[str, Any]) -> bool:
    """Whether the client's reading carries every field of the parsed action."""
    if read["kind"] == "other":
        return False
    for field in getattr(action, "__slots__", ()):
        value = getattr(action, field)
        key = FIELDS.get(field, field)
        if type(action).__name__ == "Ask" and field == "money":
            key = "money"
        if value in (None, 0, "") and read.get(key) in (None, 0, "", False):
            continue
        if read.get(key) != value:
            return False
    return True


def test_the_manual_has_an_illuminati_section(people: People) -> None:
    page = people.page()
    sign_in(page, unique("ilm-"))
    page.goto("/#/manual/illuminati")
    section = page.locator("#manual-illuminati")
    expect(section).to_contain_text("Attacking")
    expect(section).to_contain_text("Every option as notation")


@pytest.mark.parametrize("reading", ["switch", "add_remove_reverse"])
def test_the_lasers_row_offers_the_servers_changes_group_by_group(
    people: People, reading: str
) -> None:
    """The owner of the Orbital Mind Control Lasers picks a group, then one of the changes
    the server offers for it, shown in the server's words; the leaf's notation is sent."""
    state = build(
        {
            "illuminati": ["Gnomes of Zurich", "Network", "Servants of Cthulhu"],
            "structure": ["P1: Orbital Mind Control Lasers on Gnomes of Zurich north"],
            "center": ["Texas", "Empty Vee"],
            "options": {"lasers": reading},
        }
    )
    tree = RULES.options_tree(state, 0)
    node = next(c for c in tree.children if c.key == "lasers")
    words = {g.label: [leaf.label for leaf in g.children] for g in node.children}
    page = people.page()
    mount_harness(page, HARNESS, payload(state, "P1"))
    groups = page.locator("#il-lasers-group option")
    expect(groups).to_have_text(list(words))
    changes = page.locator("#il-lasers option")
    expect(changes).to_have_text(words["Texas"])
    page.select_option("#il-lasers-group", "Empty Vee")
    expect(changes).to_have_text(words["Empty Vee"])
    assert words["Empty Vee"][0] == "Empty Vee gains Government"
    page.click("#il-lasers-use")
    sent = harness_acts(page)
    assert sent and sent[-1].get("action") == "lasers Empty Vee add Government", sent
    # the client reads every Lasers leaf as the rules do
    texts = sorted(tree.leaves())
    read = page.evaluate(READ_ALL, [t for t in texts if t.startswith("lasers ")])
    wrong = [t for t, a in read.items() if not same_reading(RULES.parse(t), a)]
    assert read and wrong == []
    for who in ("P2", "spectator"):
        mount_harness(page, HARNESS, payload(state, who))
        expect(page.locator(".il-player")).to_have_count(3)
        expect(page.locator("#il-lasers-group")).to_have_count(0)
