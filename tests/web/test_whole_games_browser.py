"""Whole games through the page, as issue 26 asks: for each of the five games, three to seven
people sign up in browsers of their own, the host creates the game from the lobby's form, the
others join it from the lobby's list of open games, a spectator watches, and every player plays
by clicking what the page offers them (option buttons, the board, Ready, the pick form) until
the game ends. Choices are random among what the page shows, from a fixed seed.

At every step the test checks what a player must be able to answer from the screen: whom the
table waits for (the waiting players and the spectator are told; the awaited player is told it
is their move), that no page shows another seat's secret, and that no page throws a
JavaScript error. At the end every player and the spectator see the same result. Screenshots
at 1366×900 and 390×844 at the start, in the middle and at the end go to /work/screens (or
PARLEY_SCREENS).
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect
from tests.web.conftest import People
from tests.web.pages import join_by_id, same_player_elsewhere, settle, sign_in, unique

pytestmark = [pytest.mark.browser, pytest.mark.slow]

SCREENS = Path(os.environ.get("PARLEY_SCREENS", "/work/screens"))
# What the board area says about the state it shows (game.js sets it on every redraw).
STATE_ID = "#board"
SHOWN_OVER = "#game-over:not([hidden])"


def visible(loc: Locator) -> list[Locator]:
    return [item for item in loc.all() if item.is_visible()]


@dataclass
class Seat:
    """One player: a browser of their own, their seat's name once the game started."""

    person: str
    page: Page
    frames: list[str] = field(default_factory=list)
    name: str = ""


@dataclass
class Table:
    """Everyone at one game: the players, the spectator, and what the test saw."""

    game: str
    people: People
    seats: list[Seat]
    spectator: Page
    spectator_frames: list[str]
    rng: random.Random
    errors: list[str] = field(default_factory=list)
    actions: int = 0
    label: str = ""  # the screenshots' name, when it is not the game's

    @property
    def pages(self) -> list[Page]:
        return [s.page for s in self.seats] + [self.spectator]

    def watch(self, page: Page, frames: list[str] | None = None) -> Page:
        """Record the page's console errors and, when asked, its live messages."""
        page.on(
            "console",
            lambda msg: self.errors.append(f"console: {msg.text}") if msg.type == "error" else None,
        )
        if frames is not None:
            page.on(
                "websocket",
                lambda ws: ws.on("framereceived", lambda data: frames.append(str(data))),
            )
        return page

    def others(self, seat: Seat) -> list[tuple[Page, list[str]]]:
        """Every other person's page and the live messages it received."""
        out = [(s.page, s.frames) for s in self.seats if s is not seat]
        return [*out, (self.spectator, self.spectator_frames)]


def state_id(page: Page) -> int:
    value = page.get_attribute(STATE_ID, "data-state-id")
    return int(value) if value else -1


def over(page: Page) -> bool:
    return page.locator(SHOWN_OVER).count() > 0


def owed(page: Page) -> bool:
    """Whether the page tells its player the table waits for them."""
    return page.locator("#waiting-for.mine:not([hidden])").count() > 0


def sync(table: Table) -> int:
    """Wait until every page shows the newest state any of them shows."""
    newest = max(state_id(p) for p in table.pages)
    for page in table.pages:
        expect(page.locator(STATE_ID)).to_have_attribute("data-state-id", str(newest))
    return newest


def shoot(table: Table, seat: Seat, moment: str) -> None:
    """The seat's page at 1366×900, and the same player on a phone, at this moment."""
    SCREENS.mkdir(parents=True, exist_ok=True)
    settle(seat.page)
    name = table.label or table.game
    seat.page.screenshot(path=str(SCREENS / f"{name}-1366x900-{moment}.png"))
    phone = table.watch(same_player_elsewhere(table.people, seat.page, 390, 844))
    expect(phone.locator(STATE_ID)).to_have_attribute("data-state-id", str(state_id(seat.page)))
    settle(phone)
    width = phone.evaluate("document.documentElement.scrollWidth")
    phone.screenshot(path=str(SCREENS / f"{name}-390x844-{moment}.png"), full_page=True)
    phone.context.close()
    assert width <= 390, f"{name} at {moment}: the phone page is {width} px wide"


# --- each game's player: one decision through the page ----------------------------------


def campus_turn(table: Table, page: Page) -> None:
    """The minigame's pick (saved, then Ready), or a step: a unit, then a highlighted sector."""
    rng = table.rng
    if page.locator("#cc-pick-dialog").is_visible():
        pick = str(rng.randint(0, 100))
        page.fill("#cc-pick-value", pick)
        page.click("#cc-pick-send")
        expect(page.locator("#cc-pick-status")).to_contain_text(f"Your saved pick: {pick}")
        page.click("#cc-ready")
        return
    units = visible(page.locator("#campus-map .cc-sector.selectable"))
    passing = page.locator("#cc-pass")
    if not units or (passing.is_visible() and rng.random() < 0.2):
        passing.click()
        return
    unit = rng.choice(units)
    unit.click()
    expect(unit).to_have_class(re.compile(r"\bselected\b"))
    targets = visible(page.locator("#campus-map .cc-sector.target"))
    assert targets, "a selectable unit offers no highlighted sector"
    rng.choice(targets).click()


def sucker_turn(table: Table, page: Page) -> None:
    """A kill, a rescue, a prisoner, whom to give the move; or a chip played on a pile."""
    rng = table.rng
    for row in (
        "#capture .chip-button.target",
        "#kill-row button",
        "#rescue-row button",
        "#prisoner-row button[data-action]",
        "#next-row button[data-next]",
    ):
        offered = visible(page.locator(row))
        if offered:
            rng.choice(offered).click()
            return
    chips = visible(page.locator("#play-row .chip-button[data-chip]"))
    assert chips, "the player's move offers nothing to click"
    rng.choice(chips).click()
    piles = visible(page.locator("#piles .pile.target"))
    assert piles, "a chosen chip offers no pile"
    rng.choice(piles).click()


def illuminati_turn(table: Table, page: Page) -> None:
    """A button of the prompt, or one of every option the page lists as notation.

    Ending the turn is favoured once it is offered, so a turn does not wander through free
    actions for ever.
    """
    rng = table.rng
    controls = page.locator("#il-controls")
    prompt = [
        b
        for b in visible(controls.locator("[data-action], .il-choice"))
        if b.evaluate("(e) => !e.closest('#il-all-options')")
    ]
    every = controls.locator("#il-all-options")
    if not every.evaluate("(e) => e.open"):
        every.locator("summary").click()
    options = visible(every.locator("button[data-action]"))
    # Attacks are what the game is about: announced half the times one is offered.
    attacks = [b for b in options if re.match(r"attack \S", b.get_attribute("data-action") or "")]
    if attacks and rng.random() < 0.5:
        rng.choice(attacks).click()
        return
    ending = [b for b in prompt if (b.get_attribute("id") or "") in ("il-done", "il-pass")]
    if ending and rng.random() < 0.35:
        rng.choice(ending).click()
        return
    if prompt and rng.random() < 0.6:
        rng.choice(prompt).click()
        return
    assert options, "the player's decision offers nothing to click"
    rng.choice(options).click()


def planets_turn(table: Table, page: Page) -> None:
    """An option button, a highlighted system, or a fleet: its system, then Move."""
    rng = table.rng
    go = page.locator("#pc-fleet-go")
    if go.is_visible() and rng.random() < 0.8:
        go.click()
        return
    buttons = visible(page.locator("#pc-controls button[data-action]"))
    # A chosen fleet's system is left alone: clicking it again puts the fleet back.
    systems = visible(page.locator("#pc-galaxy .pc-system.clickable:not(.chosen)"))
    sources = visible(page.locator('#pc-controls button[data-source][aria-pressed="false"]'))
    offered = buttons + systems + sources
    assert offered, "the player's decision offers nothing to click"
    choice = rng.choice(offered)
    is_source = choice in sources or (
        choice in systems and "source" in (choice.get_attribute("class") or "")
    )
    choice.click()
    if is_source:
        expect(go).to_be_visible()
        go.click()


def diplomacy_turn(table: Table, page: Page) -> None:
    """An order for most units from each unit's list, then Ready; checks that nobody else
    received the orders before the phase is played."""
    rng = table.rng
    if page.locator("#tab-orders").get_attribute("aria-selected") != "true":
        page.click("#tab-orders")
    groups: list[str] = page.eval_on_selector_all(
        "#order-list select[data-group]", "els => els.map(e => e.dataset.group)"
    )
    seat = next(s for s in table.seats if s.page is page)
    # What each other person received before these orders existed (earlier phases' orders
    # are public once played, and may read the same).
    before = {id(frames): len(frames) for _, frames in table.others(seat)}
    chosen: list[str] = []
    for group in groups:
        select = page.locator(f'#order-list select[data-group="{group}"]')
        values: list[str] = select.evaluate(
            "(e) => [...e.options].map(o => o.value).filter(Boolean)"
        )
        if values and rng.random() < 0.85:
            order = rng.choice(values)
            select.select_option(order)
            chosen.append(order)
    if chosen:
        n = len(chosen)
        expect(page.locator("#order-status")).to_contain_text(
            f"{n} order{'' if n == 1 else 's'} saved"
        )
        # An order names its unit ("A PAR - BUR"), so no one else is ever offered it (a WAIVE
        # is the same word for every power). The checks below can see an order: the player's
        # own page has it, drawn and received.
        mine = [o for o in chosen if o[:2] in ("A ", "F ")]
        if mine:
            expect(
                page.locator(f'#map .order.outcome-draft[data-order="{mine[0]}"]')
            ).to_have_count(1)
            assert any(f'"{mine[0]}"' in f for f in seat.frames), "no live message seen"
        for other, frames in table.others(seat):
            leaked = [o for o in mine if any(f'"{o}"' in f for f in frames[before[id(frames)] :])]
            assert not leaked, f"{seat.name}'s unplayed orders reached another person: {leaked}"
            drawn = other.eval_on_selector_all(
                "#map .order.outcome-draft", "els => els.map(e => e.dataset.order)"
            )
            shown = [o for o in chosen if o in drawn]
            assert not shown, f"{seat.name}'s unplayed orders are drawn on another map: {shown}"
    page.click("#submit-orders")


TURNS: dict[str, Callable[[Table, Page], None]] = {
    "campus": campus_turn,
    "sucker": sucker_turn,
    "illuminati": illuminati_turn,
    "planets": planets_turn,
    "diplomacy": diplomacy_turn,
}


# --- secrets ------------------------------------------------------------------------------


def check_secrets(table: Table) -> None:
    """What only one seat may know is on no other page."""
    if table.game == "illuminati":
        for seat in table.seats:
            goal = seat.page.locator("#il-secret-goal")
            hidden = [
                t.strip()
                for t in seat.page.locator(
                    ".il-player.me .il-special.il-down .il-name"
                ).all_text_contents()
            ]
            if goal.count():
                hidden.append(goal.inner_text().removeprefix("Secret:").strip())
            for other, _ in table.others(seat):
                body = other.locator("#board").inner_text()
                shown = [t for t in hidden if t and t in body]
                assert not shown, f"{seat.name}'s secret is on another page: {shown}"
    if table.game == "campus":
        for page in table.pages:
            if "is hidden" in page.locator("#cc-pvc-line").inner_text():
                expect(page.locator("#cc-pvc")).to_have_count(0)


def check_words(table: Table) -> None:
    """What the pages say about the last result fits its numbers; prompts are words."""
    if table.game == "illuminati":
        for page in table.pages:
            for line in page.locator("#il-waiting").all_inner_texts():
                assert " / " not in line, f"a prompt reads as notation: {line}"
    if table.game == "campus" and table.spectator.locator("#cc-last-combat").count():
        box = table.spectator.locator("#cc-last-combat")
        totals = box.locator(".cc-total").all_inner_texts()
        said = box.locator("#cc-last-result").inner_text()
        assert ("tie" in said) == (totals[0] == totals[1]), f"{totals}: {said}"


# --- the game ------------------------------------------------------------------------------


def check_waiting(table: Table, due: list[Seat]) -> None:
    """Every waiting player and the spectator see whom the table waits for; those it waits
    for are told it is their move."""
    names = [s.name for s in due]
    for seat in table.seats:
        text = seat.page.locator("#waiting-text")
        if seat in due:
            expect(text).to_contain_text("Your move")
            expect(seat.page).to_have_title(re.compile(r"^\(Your move\) "))
            continue
        expect(text).to_contain_text(re.compile(r"^Waiting for "))
        for name in names:
            expect(text).to_contain_text(name)
    spectator = table.spectator.locator("#waiting-text")
    expect(spectator).to_contain_text(re.compile(r"^Waiting for "))
    for name in names:
        expect(spectator).to_contain_text(name)


def play(table: Table, max_steps: int) -> None:
    """Everyone plays what their page offers until the game is over."""
    turn = TURNS[table.game]
    middle_shot = False
    for _ in range(max_steps):
        now = sync(table)
        if over(table.spectator):
            return
        check_secrets(table)
        check_words(table)
        due = [s for s in table.seats if owed(s.page)]
        if not due:
            # Everyone is done: the step is being played. Wait for what comes of it.
            table.spectator.wait_for_function(
                """(id) => document.querySelector('#board').dataset.stateId !== String(id)
                    || !document.querySelector('#game-over').hidden""",
                arg=now,
            )
            continue
        check_waiting(table, due)
        seat = table.rng.choice(due)
        if not middle_shot and table.actions >= 12:
            middle_shot = True
            shoot(table, seat, "middle")
        turn(table, seat.page)
        table.actions += 1
        # The action was taken: the page moved on, or its player is no longer awaited.
        seat.page.wait_for_function(
            """(id) => document.querySelector('#board').dataset.stateId !== String(id)
                || document.querySelector('#waiting-for').hidden
                || !document.querySelector('#waiting-for').classList.contains('mine')""",
            arg=now,
        )
    pytest.fail(f"{table.game} did not end within {max_steps} steps ({table.actions} actions)")


def end_words(game: str, page: Page) -> None:
    """After the end, the page says the game is over and names no round or phase beyond it."""
    reason = page.locator("#game-over-reason")
    expect(reason).to_have_text(re.compile(r"^[A-Z].*\.$"))  # a sentence, as it stands alone
    expect(page.locator("#phase")).to_contain_text(re.compile(r"game over", re.IGNORECASE))
    if game == "illuminati":
        facts = page.locator(".il-facts").inner_text()
        late = re.search(r"Round (\d+) of (\d+)", facts)
        assert not late or int(late[1]) <= int(late[2]), f"after the end: {facts}"
    if game == "planets":
        expect(page.locator("#pc-controls")).to_be_hidden()  # no empty card beside the map
    if game == "diplomacy":
        expect(page.locator("#phase")).to_have_text("Game over")  # not the phase after it
        expect(page.locator("#phase-select option:checked")).to_have_text("The end (game over)")
        if page.locator("#tab-orders").count():
            head = page.locator(".orders-head").text_content() or ""
            assert head.endswith("game over"), f"the orders tab after the end: {head}"


def create_from_form(page: Page, game: str, seats: int, options: dict[str, str]) -> str:
    """The host's game, made with the lobby's create form; returns its id."""
    page.select_option("#create-type", game)
    page.select_option("#create-seats", str(seats))
    for key, value in options.items():
        field_ = page.locator(f"#create-opt-{key}")
        if field_.evaluate("(e) => e.tagName") == "SELECT":
            field_.select_option(value)
        else:
            field_.fill(value)
    page.fill("#create-name", unique(f"Whole {game} "))
    page.select_option("#create-period", "3600")
    page.click("#create-submit")
    page.wait_for_url(re.compile(r"#/game/"))
    return page.url.split("#/game/")[1]


def join_from_list(page: Page, game_id: str) -> None:
    page.goto("/")
    row = page.locator(f'#open-games .game-row[data-game-id="{game_id}"]')
    row.get_by_role("button", name="Join").click()
    page.wait_for_url(re.compile(re.escape(game_id)))


def whole_game(
    people: People,
    game: str,
    seats: int,
    options: dict[str, str],
    max_steps: int,
    seed: int,
    label: str = "",
) -> Table:
    crowd = [people.page() for _ in range(seats + 1)]
    frames: list[list[str]] = [[] for _ in crowd]
    table = Table(
        game,
        people,
        [Seat(unique(f"{game[:3]}{i}-"), crowd[i], frames[i]) for i in range(seats)],
        crowd[-1],
        frames[-1],
        random.Random(seed),
        label=label,
    )
    for page, seen in zip(crowd, frames, strict=True):
        table.watch(page, seen)
    for seat in table.seats:
        sign_in(seat.page, seat.person)
    sign_in(table.spectator, unique(f"{game[:3]}w-"))
    host = table.seats[0].page
    game_id = create_from_form(host, game, seats, options)
    for seat in table.seats[1:]:
        join_from_list(seat.page, game_id)
    join_by_id(table.spectator, game_id, "spectator")
    expect(host.locator("#lobby-players li")).to_have_count(seats)
    host.click("#start-game")
    for page in table.pages:
        expect(page.locator(STATE_ID)).to_have_attribute("data-state-id", re.compile(r"\d"))
    for seat in table.seats:
        seat.name = seat.page.locator(".players-tab tr.me td").first.text_content() or ""
        assert seat.name.strip(), f"{seat.person} sees no seat of their own"
        seat.name = seat.name.strip()
    sync(table)
    shoot(table, table.seats[0], "start")
    play(table, max_steps)
    # The same end for everyone: the result, its reason and the ranks.
    for page in table.pages:
        expect(page.locator(SHOWN_OVER)).to_be_visible()
    for page in table.pages:
        end_words(table.game, page)
    result = table.spectator.locator("#game-over .ranks li").all_inner_texts()
    assert len(result) == len(table.seats), f"the result ranks {result}"
    reason = table.spectator.locator("#game-over p").first.inner_text()
    for page in table.pages:
        expect(page.locator("#game-over .ranks li")).to_have_text(result)
        expect(page.locator("#game-over p").first).to_have_text(reason)
    shoot(table, table.seats[0], "end")
    assert not table.errors, f"JavaScript errors: {table.errors}"
    return table


GAMES = {
    # case: (game, seats, options set in the create form, step bound)
    "campus": ("campus", 4, {"round_limit": "4"}, 300),
    "sucker": ("sucker", 4, {"chips": "3"}, 400),
    "illuminati": ("illuminati", 3, {"rounds": "2", "start_window": "0"}, 500),
    "planets": (
        "planets",
        3,
        {"rules": "compact", "rounds": "2", "tactics": "2", "target": "3"},
        400,
    ),
    "planets-full": ("planets", 3, {"rules": "full", "rounds": "2", "target": "3"}, 600),
    # The year limit is the soonest end: a draw of the survivors once 1901 is played.
    "diplomacy": ("diplomacy", 7, {"year_limit": "1901"}, 60),
}


@pytest.mark.parametrize("case", list(GAMES))
def test_a_whole_game_through_the_page(people: People, case: str) -> None:
    game, seats, options, steps = GAMES[case]
    table = whole_game(people, game, seats, options, steps, seed=26, label=case)
    assert table.actions > 0
