"""How the client feels: dark colours following the system or the player's choice (remembered),
readable in both; the settings menu on home and in the game."""

from __future__ import annotations

from axe import assert_accessible
from playwright.sync_api import Page, expect
from server_harness import ServerProcess
from test_accessibility import contrast
from test_solo import start_solo
from webharness import shot
from webplay import solution

BACKGROUND_JS = "() => getComputedStyle(document.body).backgroundColor"


def luminance_of(css: str) -> float:
    r, g, b = (int(v) for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


def test_dark_follows_the_system_and_the_choice_is_remembered(
    page: Page, server: ServerProcess
) -> None:
    page.emulate_media(color_scheme="dark")
    page.goto(server.url + "/")
    expect(page.locator("#start-solo")).to_be_visible()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert luminance_of(page.evaluate(BACKGROUND_JS)) < 0.15
    for selector in ("h1", ".howto p >> nth=0", "#start-solo", "a.logo"):
        assert contrast(page, selector) >= 4.5, selector
    assert_accessible(page, "home (dark)")
    shot(page, "dark-home")

    # the player picks light: it holds over the system's dark, also after a reload
    page.click(".app-header .settings-menu summary")
    page.check('.app-header input[data-theme-choice="light"]')
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    assert luminance_of(page.evaluate(BACKGROUND_JS)) > 0.8
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    # back to "system": dark again, and the system turning light is followed at once
    page.click(".app-header .settings-menu summary")
    page.check('.app-header input[data-theme-choice="system"]')
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.emulate_media(color_scheme="light")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")


def test_the_game_in_dark(page: Page, server: ServerProcess) -> None:
    page.emulate_media(color_scheme="dark")
    start_solo(page, server, "classic")
    solution(page, "classic")  # the task is drawn
    assert luminance_of(page.evaluate(BACKGROUND_JS)) < 0.15
    # the settings come along in the game's top bar (the page header is hidden there)
    expect(page.locator(".game-top .settings-menu summary")).to_be_visible()
    assert contrast(page, ".board-status") >= 4.5 or not page.inner_text(".board-status")
    assert_accessible(page, "solo round (dark)")
    shot(page, "dark-solo")
