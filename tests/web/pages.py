"""What a person does on Parley's pages, written once for the browser tests."""

from __future__ import annotations

import json
import re
import uuid
from typing import Any

from playwright.sync_api import Page, expect

# The screen point of a province's unit anchor (data-x/data-y on its path, in map units).
_ANCHOR = """(code) => {
  const el = document.querySelector(`#map [data-prov="${code}"]`);
  if (!el) return null;
  const p = el.ownerSVGElement.createSVGPoint();
  p.x = Number(el.dataset.x); p.y = Number(el.dataset.y);
  const q = p.matrixTransform(el.getScreenCTM());
  return [q.x, q.y];
}"""

SUPPORT_MOVE = re.compile(r"^([AF]) (\S+) S ([AF]) (\S+) - (\S+)$")
MOVE = re.compile(r"^([AF]) (\S+) - (\S+)$")


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:6]}"


def sign_in(page: Page, name: str, password: str | None = None) -> None:
    page.goto("/")
    page.fill("#signin-name", name)
    if password:
        page.click(".signin-more summary")
        page.fill("#signin-password", password)
    page.click("#signin-submit")
    expect(page.locator("#create-card form")).to_be_visible()
    expect(page.locator("#who")).to_contain_text(name)


def create_game(
    page: Page,
    game: str,
    name: str,
    *,
    seats: int | None = None,
    options: dict[str, str] | None = None,
    description: str = "",
    fill_with: str = "",
) -> str:
    """Create a game from the lobby form; returns its id (the page is then on the game)."""
    page.select_option("#create-type", game)
    if seats is not None:
        page.select_option("#create-seats", str(seats))
    for key, value in (options or {}).items():
        page.select_option(f"#create-opt-{key}", value)
    page.fill("#create-name", name)
    if description:
        page.fill("#create-description", description)
    page.select_option("#create-period", "3600")
    page.select_option("#create-fill", fill_with)
    page.click("#create-submit")
    page.wait_for_url(re.compile(r"#/game/"))
    game_id = page.url.split("#/game/")[1]
    return game_id


def join_by_id(page: Page, game_id: str, role: str = "player") -> None:
    page.goto("/")
    page.fill("#join-id", game_id)
    page.check(f"input[name=join-role][value={role}]")
    page.click("#join-submit")
    page.wait_for_url(re.compile(r"#/game/"))


def same_player_elsewhere(people: Any, page: Page, width: int, height: int) -> Page:
    """The player of `page` on another device (a phone): a new browser, same account."""
    token, user = page.evaluate(
        "[localStorage.getItem('parley.token'), localStorage.getItem('parley.user')]"
    )
    other: Page = people.page(width, height)
    other.add_init_script(
        f"localStorage.setItem('parley.token', {json.dumps(token)});"
        f"localStorage.setItem('parley.user', {json.dumps(user)});"
    )
    other.goto("/" + page.url.split("/", 3)[3])
    return other


def settle(page: Page) -> None:
    """Wait until passing notices have gone, for a clean screenshot."""
    expect(page.locator(".toast")).to_have_count(0, timeout=15_000)


def province_point(page: Page, code: str) -> tuple[float, float]:
    point = page.evaluate(_ANCHOR, code)
    assert point is not None, f"no province {code} on the map"
    return float(point[0]), float(point[1])


def click_province(page: Page, code: str) -> None:
    """Click the map where the province's unit stands (a real click, hit-tested)."""
    x, y = province_point(page, code)
    page.mouse.click(x, y)


def order_groups(page: Page) -> list[str]:
    expect(page.locator("#order-list li").first).to_be_visible()
    groups: list[str] = page.eval_on_selector_all(
        "#order-list li", "els => els.map(e => e.dataset.group)"
    )
    return groups


def offered_orders(page: Page, group: str) -> list[str]:
    values: list[str] = page.eval_on_selector_all(
        f'#order-list select[data-group="{group}"] option',
        "els => els.map(e => e.value).filter(Boolean)",
    )
    return values


def drafted(page: Page, group: str) -> str:
    value: str = page.eval_on_selector(f'#order-list select[data-group="{group}"]', "e => e.value")
    return value


def province(loc: str) -> str:
    return loc.split("/")[0]


def text_of(page: Page, selector: str) -> str:
    value: Any = page.locator(selector).inner_text()
    return str(value)


def mount_harness(page: Page, html: str, data: dict[str, Any]) -> None:
    """Serve a test page that mounts one client component, and mount it with `data`.

    The page must set `window.harnessReady` and offer `window.harness.mount(data)`; what
    the component submits is collected in `window.harness.acts`.
    """
    page.route(
        "**/__harness.html",
        lambda route: route.fulfill(status=200, content_type="text/html", body=html),
    )
    page.goto("/__harness.html")
    page.wait_for_function("window.harnessReady === true")
    page.evaluate(f"window.harness.mount({json.dumps(data)})")


def harness_acts(page: Page) -> list[dict[str, Any]]:
    """The request bodies the mounted component submitted, in order."""
    result: list[dict[str, Any]] = page.evaluate("window.harness.acts")
    return result
