"""How the client feels: dark colours following the system or the player's choice (remembered),
readable in both; the settings menu on home and in the game."""

from __future__ import annotations

from axe import assert_accessible
from playwright.sync_api import Page, expect
from server_harness import ServerProcess
from test_accessibility import contrast
from test_solo import start_solo
from webharness import shot
from webplay import drag_into_place, key_presses, solution

from ubongo.catalogue import edition_catalogue

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
    # the second cue beside the colour (tests/test_palette.py): each piece shows its letter
    ids = page.eval_on_selector_all(
        ".game-main g[data-piece]", "els => els.map(e => e.dataset.piece)"
    )
    for pid in ids:
        expect(page.locator(f'.game-main g[data-piece="{pid}"] text.piece-label')).to_have_text(pid)
    assert luminance_of(page.evaluate(BACKGROUND_JS)) < 0.15
    # the settings come along in the game's top bar (the page header is hidden there)
    expect(page.locator(".game-top .settings-menu summary")).to_be_visible()
    assert contrast(page, ".board-status") >= 4.5 or not page.inner_text(".board-status")
    assert_accessible(page, "solo round (dark)")
    shot(page, "dark-solo")


FOCUS_JS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const s = getComputedStyle(el);
  const ring = (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0)
    || s.boxShadow !== 'none';
  return { id: el.id, cls: el.getAttribute('class') || '', tag: el.tagName, ring };
}"""


def tab_to(page: Page, selector: str, presses: int = 80, key: str = "Tab") -> None:
    """Press Tab (or ``key``: Shift+Tab) until ``selector`` has the focus, each focused control
    showing its ring."""
    for _ in range(presses):
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
        page.keyboard.press(key)
        focused = page.evaluate(FOCUS_JS)
        assert focused is not None, f"the focus left the page's controls on the way to {selector}"
        assert focused["ring"], f"no visible focus on {focused}"
    raise AssertionError(f"{selector} is not reached with Tab")


def test_keyboard_only_play_from_home_to_a_solved_task_with_sound(
    page: Page, server: ServerProcess
) -> None:
    page.goto(server.url + "/")
    expect(page.locator("#start-solo")).to_be_visible()
    tab_to(page, "#start-solo")
    page.keyboard.press("Enter")
    expect(page.locator("#solo-count")).to_contain_text("Solved 0")
    placements = solution(page, "classic")
    order = page.eval_on_selector_all(
        ".game-main g[data-piece]", "els => els.map(e => e.dataset.piece)"
    )
    tab_to(page, ".game-main .board-svg")
    shot(page, "keyboard-board-focused")
    cat = edition_catalogue("classic")
    for i, pl in enumerate(placements):
        g = page.locator(f'.game-main g[data-piece="{pl.piece}"]')
        page.keyboard.press(str(order.index(pl.piece) + 1))
        expect(g).to_have_class("piece selected")
        now = int(g.get_attribute("data-transform") or 0)
        for k in key_presses(cat, now, pl.transform):
            page.keyboard.press(k)
        page.keyboard.press("Enter")
        if i == len(placements) - 1 and page.locator("main.room[data-last-verdict]").count():
            break  # it landed in place: covered, and sent
        expect(g).to_have_attribute("data-state", "placed")
        x, y = (int(v) for v in (g.get_attribute("data-offset") or "").split(","))
        dx, dy = pl.offset[0] - x, pl.offset[1] - y
        for _ in range(abs(dx)):
            page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
        for _ in range(abs(dy)):
            page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
    expect(page.locator("main.room")).to_have_attribute("data-last-verdict", "covered")
    expect(page.locator("#solo-count")).to_contain_text("Solved 1")
    # each move was heard: picked, placed, and the call
    sounds = page.evaluate("() => [...window.ubongoSounds]")
    for cue in ("pick", "place", "ubongo"):
        assert cue in sounds, (cue, sounds)

    # the solved board is held a moment once the next task is in, then that task is drawn:
    # wait for it (a key would go on at once, and the menu's keys below are not for the hold)
    expect(page.locator('.game-main g[data-piece][data-state="placed"]')).to_have_count(0)
    expect(page.locator('[data-holding="solved"]')).to_have_count(0)
    # sound off (from the game's own settings, by keyboard): remembered, and silent after it
    # the top bar is above the board: back with Shift+Tab
    tab_to(page, ".game-top .settings-menu summary", key="Shift+Tab")
    page.keyboard.press("Enter")
    tab_to(page, '.game-top input[data-setting="sound"]')
    page.keyboard.press("Space")
    expect(page.locator('.game-top input[data-setting="sound"]')).not_to_be_checked()
    page.keyboard.press("Escape")
    expect(page.locator(".game-top .settings-menu")).not_to_have_attribute("open", "")
    page.reload()
    expect(page.locator(".game-main .board-svg")).to_be_visible()
    tab_to(page, ".game-main .board-svg")
    page.keyboard.press("1")
    expect(page.locator(".game-main g.piece.selected")).to_have_count(1)
    assert page.evaluate("() => window.ubongoSounds.length") == 0
    assert not page.locator('.game-top input[data-setting="sound"]').is_checked()


ANIMATIONS_JS = "() => document.getAnimations().filter(a => a.playState === 'running').length"


def test_animations_run_and_none_with_reduced_motion(page: Page, server: ServerProcess) -> None:
    start_solo(page, server, "classic")
    placements = solution(page, "classic")
    # a piece put down snaps: an animation runs on it
    drag_into_place(page, "classic", placements[0])
    assert page.evaluate(ANIMATIONS_JS) > 0
    # the system asks for reduced motion: the next pieces snap without any animation
    page.emulate_media(reduced_motion="reduce")
    for pl in placements[1:-1]:
        drag_into_place(page, "classic", pl)
        assert page.evaluate(ANIMATIONS_JS) == 0
    drag_into_place(page, "classic", placements[-1], last=True)
    expect(page.locator("main.room")).to_have_attribute("data-last-verdict", "covered")
    # the solved board and the "Ubongo!" over it: still no animation
    assert page.evaluate(ANIMATIONS_JS) == 0


def test_the_3d_board_sounds_its_moves(page: Page, server: ServerProcess) -> None:
    page.goto(server.url + "/")
    page.click('button.edition[data-edition="3d"]')
    page.click("#start-solo")
    # a fresh game's first task is made as it starts: seconds on a busy machine
    stage = page.locator(".game-main .board3d-stage")
    expect(stage).to_be_visible(timeout=30_000)
    stage.focus()
    page.keyboard.press("1")  # take the first piece in hand
    page.keyboard.press("r")  # spin it
    page.keyboard.press("Enter")  # put it down
    sounds = page.evaluate("() => [...window.ubongoSounds]")
    assert sounds[:3] == ["pick", "rotate", "place"], sounds


def test_the_settings_menu_keeps_the_keyboard_focus_when_the_bar_is_redrawn(
    page: Page, server: ServerProcess
) -> None:
    """The game's top bar is redrawn with every change of the room (here: a spectator comes):
    a keyboard player in its settings menu stays where they were (the focus went to the page's
    body, which made test_keyboard_only_play fail when the next task's events came late)."""
    start_solo(page, server, "classic")
    code = page.locator("main.room").get_attribute("data-code")
    page.locator(".game-main .board-svg").focus()
    tab_to(page, ".game-top .settings-menu summary", key="Shift+Tab")
    page.keyboard.press("Enter")
    tab_to(page, '.game-top input[data-setting="sound"]')
    watcher = page.context.browser.new_page()  # type: ignore[union-attr]
    try:
        watcher.goto(f"{server.url}/room/{code}?watch")
        expect(page.locator(".game-top .watchers")).to_contain_text("1")
    finally:
        watcher.close()
    assert page.evaluate("() => document.activeElement.matches('input[data-setting=\"sound\"]')")
    expect(page.locator(".game-top .settings-menu")).to_have_attribute("open", "")
