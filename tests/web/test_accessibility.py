"""What axe-core found on the pages, checked in Chromium: filled buttons readable against their
colour (WCAG AA 4.5:1), each tool button's accessible name containing the word it shows, and
a top-level heading on the game screen."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from server_harness import ServerProcess
from test_3d import start_solo_3d
from test_solo import start_solo


def contrast(page: Page, selector: str) -> float:
    """The contrast ratio of an element's text colour on its background colour."""
    colours = page.eval_on_selector(
        selector,
        "el => { const s = getComputedStyle(el); return [s.color, s.backgroundColor]; }",
    )

    def luminance(css: str) -> float:
        r, g, b = (int(v) / 255 for v in re.findall(r"\d+", css)[:3])
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((luminance(c) for c in colours), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_filled_buttons_are_readable(page: Page, server: ServerProcess) -> None:
    page.goto(server.url + "/")
    expect(page.locator("#start-solo")).to_be_visible()
    for selector in ("#start-solo", "button.primary >> nth=-1"):
        assert contrast(page, selector) >= 4.5, selector


@pytest.mark.parametrize("edition_name", ["classic", "3d"])
def test_the_game_screen_has_a_heading_and_buttons_named_by_their_words(
    page: Page, server: ServerProcess, edition_name: str
) -> None:
    if edition_name == "3d":
        start_solo_3d(page, server, "green")
    else:
        start_solo(page, server, edition_name)
    expect(page.locator("#solo-count")).to_contain_text("Solved 0")
    heading = page.locator("h1#game-title")
    expect(heading).to_have_count(1)
    expect(heading).to_contain_text("solo")
    assert page.locator("h1").count() == 1
    assert contrast(page, "#ubongo") >= 4.5
    tools = page.locator("button.tool")
    assert tools.count() >= 4
    named = 0
    for i in range(tools.count()):
        tool = tools.nth(i)
        words = tool.locator("span")
        if words.count():
            word = words.first.inner_text().strip()
            assert word in (tool.get_attribute("aria-label") or ""), word
            named += 1
    assert named >= 3


def test_the_keyboard_reaches_play_solo_past_the_header_in_a_few_tabs(
    page: Page, server: ServerProcess
) -> None:
    page.goto(server.url + "/")
    expect(page.locator("#start-solo")).to_be_visible()
    # the first Tab shows the skip link; it leads past the header's menus to the page itself
    page.keyboard.press("Tab")
    skip = page.locator(".skip-link")
    expect(skip).to_be_focused()
    box = skip.bounding_box()
    assert box is not None and box["y"] >= 0, "the focused skip link is on screen"
    page.keyboard.press("Enter")
    expect(page.locator("main")).to_be_focused()
    tabs = 0
    while not page.evaluate("() => document.activeElement?.id === 'start-solo'"):
        page.keyboard.press("Tab")
        tabs += 1
        assert tabs <= 10, page.evaluate("() => document.activeElement?.outerHTML.slice(0, 80)")
    # the editions are one Tab stop: arrows choose among them (a radio group)
    editions = page.locator("button.edition")
    first = editions.nth(0)
    first.focus()
    page.keyboard.press("ArrowRight")
    expect(editions.nth(1)).to_be_focused()
    expect(editions.nth(1)).to_have_attribute("aria-checked", "true")
    expect(first).to_have_attribute("tabindex", "-1")
