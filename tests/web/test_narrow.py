"""No page scrolls sideways on a 360 px phone, in either language (the audit found German 3D's
turn row "Drehen ↺ Kippen ↺ Rollen ↺" 422 px wide on a 390 px phone, and the 3D tutorial 459
px): the home, the tutorial and the rules of each edition, practice, and a solo game of each
edition (its board, tray and tools)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect
from server_harness import ServerProcess
from webharness import shot

from ubongo import editions

WIDTH = 360
EDITIONS = editions.names()

#: the page's width beyond the screen's, and the widest elements that stick out (to name them)
OVERFLOW_JS = """(width) => {
  const over = document.documentElement.scrollWidth - width;
  const out = [];
  for (const el of document.querySelectorAll("body *")) {
    const r = el.getBoundingClientRect();
    if (r.right > width + 1 && r.width > 0 && getComputedStyle(el).position !== "fixed") {
      const name = `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}#${el.id}`;
      out.push(`${name} ${Math.round(r.right)}`);
    }
  }
  return [over, out.slice(-6)];
}"""


@pytest.fixture(params=["en-US", "de-DE"])
def phone(browser: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    context = browser.new_context(
        viewport={"width": WIDTH, "height": 740}, locale=request.param, has_touch=True
    )
    yield context.new_page()
    context.close()


def fits(page: Page, what: str) -> None:
    over, sticking_out = page.evaluate(OVERFLOW_JS, WIDTH)
    if over > 0:
        shot(page, f"narrow-{what}")
    assert over <= 0, f"{what}: {over} px wider than the screen: {sticking_out}"


def test_no_page_scrolls_sideways_at_360_px(phone: Page, server: ServerProcess) -> None:
    phone.goto(server.url + "/")
    expect(phone.locator("#start-solo")).to_be_visible()
    fits(phone, "home")
    phone.locator(".bell-menu summary").click()  # the challenges' list, open
    expect(phone.locator(".bell-items")).to_be_visible()
    fits(phone, "home-bell")
    phone.locator(".bell-menu summary").click()
    for name in EDITIONS:
        phone.goto(f"{server.url}/tutorial?edition={name}")
        expect(phone.locator("main")).to_be_visible()
        fits(phone, f"tutorial-{name}")
        phone.goto(f"{server.url}/rules/{name}")
        expect(phone.locator("main")).to_be_visible()
        fits(phone, f"rules-{name}")
    phone.goto(server.url + "/practice")
    expect(phone.locator("main")).to_be_visible()
    fits(phone, "practice")


@pytest.mark.parametrize("name", EDITIONS)
def test_a_solo_game_fits_a_360_px_phone(phone: Page, server: ServerProcess, name: str) -> None:
    phone.goto(server.url + "/")
    phone.click(f'button.edition[data-edition="{name}"]')
    phone.select_option("#solo-goal", "practice")
    phone.click("#start-solo")
    expect(phone.locator(".game-main .board-tools, .game-main .board3d").first).to_be_visible()
    fits(phone, f"game-{name}")


@pytest.mark.parametrize("name", EDITIONS)
def test_undo_and_ubongo_are_on_a_phones_first_screen(
    phone: Page, server: ServerProcess, name: str
) -> None:
    """The audit's phone (390x844): the game's top bar took three rows and pushed Undo and
    Ubongo! below the first screen."""
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(server.url + "/")
    phone.click(f'button.edition[data-edition="{name}"]')
    phone.click("#start-solo")
    ubongo = phone.locator("#ubongo")
    expect(ubongo).to_be_visible()
    top = phone.locator(".game-top").bounding_box()
    assert top is not None
    for button in (ubongo, phone.locator(".main-actions button").first):
        box = button.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844, (name, box, top)
    shot(phone, f"phone-first-screen-{name}")


def test_play_now_follows_play_solo_on_a_phone(phone: Page, server: ServerProcess) -> None:
    """The audit's phone (390x844): "Play now" sat two screens down the home page, below the
    daily and the friends' rooms. It follows solo now, in the next half screen (Play solo keeps
    the first screen: tests/web/test_findings.py)."""
    phone.set_viewport_size({"width": 390, "height": 844})
    phone.goto(server.url + "/")
    expect(phone.locator("#play-now")).to_be_visible()
    solo, now = (
        phone.locator("#start-solo").bounding_box(),
        phone.locator("#play-now").bounding_box(),
    )
    daily = phone.locator("section.daily").bounding_box()
    assert solo is not None and now is not None and daily is not None
    assert solo["y"] < 844, solo  # in the first screen, as test_findings asks
    assert solo["y"] < now["y"] < daily["y"] and now["y"] + now["height"] <= 1.5 * 844, now
    shot(phone, "phone-home")
