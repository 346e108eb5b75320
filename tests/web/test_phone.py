"""The game on a phone (390x844, a touch screen) and the hint's words (issue 14, "Phone"): the
board fills the width with cells and touch targets of at least 44 px where the area allows, the
hint speaks of taps and drags on a touch screen and of keys with a keyboard, and the side panel
below the board is a named region the keyboard reaches."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect
from server_harness import ServerProcess
from webharness import shot
from webplay import centre

TOUCH_PX = 44


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors, errors


def start_solo(page: Page, server: ServerProcess, edition: str) -> None:
    page.goto(server.url + "/")
    page.fill("#name", "Thumb")
    page.click(f'button.edition[data-edition="{edition}"]')
    page.click("#start-solo")
    # a fresh game's first card may take some seconds on a busy machine
    expect(page.locator(".game-main [data-area-cell]").first).to_be_visible(timeout=30_000)


def box(page: Page, selector: str) -> dict[str, float]:
    b = page.locator(selector).first.bounding_box()
    assert b is not None, selector
    return {"x": b["x"], "y": b["y"], "width": b["width"], "height": b["height"]}


def test_phone_board_fills_the_width_with_touch_sized_targets(
    phone: Page, server: ServerProcess
) -> None:
    page = phone
    start_solo(page, server, "classic")
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    svg = box(page, ".game-main .board-svg")
    frame = box(page, ".game-main .board-frame")
    cell = box(page, ".game-main [data-area-cell]")
    # the board is as wide as the screen allows; the area's frame fills it unless the area is
    # so tall that the screen's height limits it, and then its cells are still touch-sized
    assert svg["width"] >= 0.9 * 390, svg
    assert frame["width"] >= 0.8 * svg["width"] or cell["width"] >= TOUCH_PX, (frame, svg, cell)
    assert min(cell["width"], cell["height"]) >= TOUCH_PX, cell
    # every piece in the tray answers a touch on its whole slot, at least 44 px each way
    slots = page.locator(".game-main .tray-hit")
    pieces = page.locator(".game-main g[data-piece]")
    expect(slots).to_have_count(pieces.count())
    for i in range(slots.count()):
        b = slots.nth(i).bounding_box()
        assert b is not None and min(b["width"], b["height"]) >= TOUCH_PX, b
    for tool in page.locator(".game-main .board-tools .tool").all():
        b = tool.bounding_box()
        assert b is not None and min(b["width"], b["height"]) >= TOUCH_PX - 0.5, b
    # the hint speaks of taps and drags, not of keys
    status = page.locator(".game-main .board-status")
    expect(status).to_contain_text("Tap a piece")
    expect(status).not_to_contain_text("R turns")
    shot(page, "phone-classic")

    # a piece dragged out of the tray by its small picture grows to its size and lands on the
    # cell under the finger's point (here: with the mouse, the same pointer events)
    pid = page.locator(".game-main g[data-piece]").first.get_attribute("data-piece")
    first = page.locator(f'.game-main g[data-piece="{pid}"]')
    sx, sy = centre(page, f'.game-main g[data-piece="{pid}"] polygon[data-cell]')
    target = box(page, ".game-main [data-area-cell]")
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move(sx + 12, sy + 8, steps=3)
    page.mouse.move(target["x"] + target["width"] / 2, target["y"] + target["height"] / 2, steps=10)
    page.mouse.up()
    expect(first).to_have_attribute("data-state", "placed")
    # the board keeps its size once the first hint is cleared: it does not grow under the finger
    after = box(page, ".game-main [data-area-cell]")
    assert abs(after["width"] - cell["width"]) < 0.5, (after, cell)
    drawn = box(page, f'.game-main g[data-piece="{pid}"] polygon[data-cell]')
    # as large as an area cell (a piece's cells are drawn a little inside the lattice's), not
    # the half size it had in the tray
    assert 0.85 * cell["width"] <= drawn["width"] <= 1.05 * cell["width"], (drawn, cell)

    # the side panel, below the board, is a named region reached with the Tab key
    side = page.locator(".game-side")
    expect(side).to_have_attribute("role", "region")
    expect(side).to_have_attribute("aria-label", "Players, scores and records")
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement?.classList.contains('game-side')"):
            break
    expect(side).to_be_focused()


def test_hint_speaks_of_keys_with_a_keyboard_and_of_taps_after_a_touch(
    page: Page, server: ServerProcess
) -> None:
    start_solo(page, server, "classic")
    status = page.locator(".game-main .board-status")
    expect(status).to_have_text("Drag the pieces onto the light area. R turns, F flips.")
    # a finger on the screen (a laptop's touch screen): the hint changes to taps
    page.locator(".game-main .board-svg").dispatch_event(
        "pointerdown", {"pointerType": "touch", "pointerId": 3, "isPrimary": True}
    )
    expect(status).to_contain_text("Tap a piece, then ⟳ turns it")
    # and a key pressed again: keys
    page.locator(".game-main .board-svg").focus()
    page.keyboard.press("n")
    expect(status).to_have_text("Drag the pieces onto the light area. R turns, F flips.")
