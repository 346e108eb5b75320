"""Saved puzzles in a browser (docs/editor.md): a Classic puzzle drawn in /create and saved,
opened by its link in a second browser (another account) and solved with the keys, its play
counted; published by its author, it appears in /puzzles with its play count. axe on each page;
a 390 px phone; German."""

from __future__ import annotations

from typing import Any

from axe import assert_accessible
from playwright.sync_api import Browser, Page, expect
from server_harness import ServerProcess
from test_editor_page import ROWS, draw_rows, piece
from test_language import english_on
from test_offline import play_with_keys
from webharness import new_page, shot

from ubongo import puzzlefile
from ubongo.board import Placement
from ubongo.solver import solve

PLAYER = ".puzzle-stage .local-player"


def saved_task(page: Page) -> dict[str, Any]:
    """The puzzle the page shows, with a solution from the solver (in the page's coordinates)."""
    shown = page.evaluate(
        "() => ({cells: [...document.querySelectorAll('.puzzle-stage [data-area-cell]')]"
        ".map((e) => e.dataset.areaCell), pieces: [...document.querySelectorAll("
        "'.puzzle-stage g.piece')].map((e) => e.dataset.piece)})"
    )
    cells = [[int(v) for v in c.split(",")] for c in shown["cells"]]
    puzzle = puzzlefile.from_json({"edition": "classic", "area": cells, "pieces": shown["pieces"]})
    found = solve(puzzle.area, list(puzzle.pieces))
    assert found is not None
    by_id = {p.id: p for p in puzzle.pieces}
    solution = []
    for pid, shape in found.items():
        at = Placement.covering(by_id[pid], shape)
        solution.append({"piece": pid, "transform": at.transform, "offset": list(at.offset)})
    return {"pieces": shown["pieces"], "solution": solution}


def stat(page: Page, name: str) -> Any:
    return page.locator(f'.puzzle-stats-box [data-stat="{name}"] dd')


def save_in_editor(page: Page, server: ServerProcess) -> str:
    """Draw the editor's unique Classic puzzle, title it and save it (by its link only)."""
    page.goto(server.url + "/create")
    expect(page.locator(".editor-sheet")).to_be_visible()
    draw_rows(page, ROWS)
    for pid in "DIG":
        piece(page, pid)
    expect(page.locator("#verdict-headline")).to_have_text("Solvable: exactly 1 solution (unique)")
    expect(page.locator("#share-save")).to_be_disabled()  # no title yet
    page.locator("#share-title").fill("Little stairs")
    page.locator("#share-save").click()
    link = page.locator("#share-link")
    expect(link).to_be_visible()
    expect(page.locator("#share-status")).to_contain_text("Saved. Share its link")
    link.scroll_into_view_if_needed()
    shot(page, "puzzles-editor-saved")
    href = str(link.get_attribute("href"))
    assert href.startswith("/puzzle/") and len(href) == len("/puzzle/") + 12, href
    return href


def test_a_puzzle_saved_played_by_its_link_and_listed(
    browser: Browser, server: ServerProcess
) -> None:
    errors: list[str] = []
    author = new_page(browser, errors)
    href = save_in_editor(author, server)

    # another account, at another address (a play or like from the author's address would
    # not count: docs/editor.md, "One address, one count"), opens the link and solves it,
    # timed, with the keys
    player = new_page(browser, errors)
    player.context.set_extra_http_headers({"X-Forwarded-For": "198.51.100.90"})
    player.goto(server.url + href)
    expect(player.locator("h1#puzzle-title")).to_have_text("Little stairs")
    expect(stat(player, "plays")).to_have_text("0")
    expect(player.locator("#puzzle-like")).to_be_disabled()
    assert_accessible(player, "a saved puzzle's page")
    player.locator("#puzzle-timed").click()
    expect(player.locator(PLAYER)).to_be_visible()
    play_with_keys(player, PLAYER, saved_task(player))
    expect(player.locator(f"{PLAYER}.solved")).to_be_visible()
    expect(player.locator("#puzzle-status")).to_contain_text("Solved in")
    expect(stat(player, "plays")).to_have_text("1")
    expect(stat(player, "rate")).to_have_text("100 %")
    player.locator("#puzzle-like").click()
    expect(stat(player, "likes")).to_have_text("1")
    expect(player.locator("#puzzle-like")).to_have_attribute("aria-pressed", "true")
    shot(player, "puzzles-page-solved")
    assert_accessible(player, "a saved puzzle solved")

    # not listed until its author publishes it
    player.goto(server.url + "/puzzles")
    expect(player.locator("#puzzles-list")).not_to_have_attribute("aria-busy", "true")
    expect(player.locator(f'[data-puzzle="{href[8:]}"]')).to_have_count(0)
    author.goto(server.url + href)
    expect(author.locator("#puzzle-publish")).to_have_text("List it in the community puzzles")
    author.locator("#puzzle-publish").click()
    expect(author.locator("#puzzle-status")).to_have_text("Listed in the community puzzles.")
    author.goto(server.url + "/puzzles")
    entry = author.locator(f'#puzzles-list [data-puzzle="{href[8:]}"]')
    expect(entry).to_contain_text("Little stairs")
    expect(entry.locator('[data-stat="plays"] dd')).to_have_text("1")
    expect(entry.locator('[data-stat="likes"] dd')).to_have_text("1")
    expect(author.locator(f'#puzzles-mine [data-puzzle="{href[8:]}"]')).to_contain_text("listed")
    shot(author, "puzzles-community-desktop")
    assert_accessible(author, "the community list")
    author.emulate_media(color_scheme="dark")
    expect(author.locator("html")).to_have_attribute("data-theme", "dark")
    assert_accessible(author, "the community list (dark)")
    shot(author, "puzzles-community-dark")
    author.emulate_media(color_scheme="light")
    entry.locator("a").click()
    expect(author).to_have_url(server.url + href)
    expect(author.locator(".puzzle-choice")).to_contain_text("Your own puzzle")
    # its author deletes it, asked twice; its link is then no puzzle's
    player.goto(server.url + href)
    expect(player.locator("#puzzle-timed")).to_be_visible()
    expect(player.locator("#puzzle-delete")).to_have_count(0)
    author.locator("#puzzle-delete").click()
    expect(author.locator("#puzzle-status")).to_contain_text("Press again to delete it")
    expect(author.locator("#puzzle-delete-sure")).to_be_focused()
    assert_accessible(author, "a puzzle's page, deleting it")
    author.locator("#puzzle-delete-sure").click()
    expect(author.locator("h1#puzzle-title")).to_have_text("Puzzle deleted")
    player.reload()
    expect(player.locator("main h1")).to_have_text("Puzzle not found")
    shot(author, "puzzles-page-deleted")
    author.context.close()
    player.context.close()
    assert not errors, errors


def test_the_pages_on_a_phone_and_in_german(browser: Browser, server: ServerProcess) -> None:
    errors: list[str] = []
    author = new_page(browser, errors)
    href = save_in_editor(author, server)
    author.goto(server.url + href)
    author.locator("#puzzle-publish").click()
    expect(author.locator("#puzzle-status")).to_have_text("Listed in the community puzzles.")
    author.context.close()

    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="en-US", has_touch=True, is_mobile=True
    ).new_page()
    phone.on("pageerror", lambda e: errors.append(str(e)))
    for path, name in ((href, "page"), ("/puzzles", "community")):
        phone.goto(server.url + path)
        expect(phone.locator("h1")).not_to_have_text("Loading the puzzle…")
        expect(phone.locator("main .puzzle-stats").first).to_be_visible()
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{path} is {width} px wide on a 390 px phone"
        shot(phone, f"puzzles-{name}-phone")
        assert_accessible(phone, f"{path} on a phone")
    phone.locator("#puzzles-sort").select_option("played")
    expect(phone).to_have_url(server.url + "/puzzles?edition=classic&sort=played")
    phone.goto(server.url + href)
    phone.locator("#puzzle-practice").tap()
    expect(phone.locator(f"{PLAYER} #local-hint")).to_be_visible()
    shot(phone, "puzzles-practice-phone")
    phone.context.close()

    german = browser.new_context(viewport={"width": 1280, "height": 800}, locale="de-DE").new_page()
    german.on("pageerror", lambda e: errors.append(str(e)))
    german.goto(server.url + href)
    expect(german.locator("#puzzle-timed")).to_have_text("Auf Zeit spielen")
    german.locator("#puzzle-report").click()
    expect(german.locator("#puzzle-report-reason")).to_be_focused()
    shot(german, "puzzles-page-german")
    found = english_on(german)
    assert not found, f"English on the German puzzle page: {found}"
    german.goto(server.url + "/puzzles")
    expect(german.locator("h1")).to_have_text("Community-Rätsel")
    expect(german.locator("#puzzles-list .puzzle-entry").first).to_be_visible()
    shot(german, "puzzles-community-german")
    found = english_on(german)
    assert not found, f"English on the German community list: {found}"
    german.context.close()
    assert not errors, errors


def test_a_puzzle_or_pack_that_is_not_there_says_so_and_leads_back(
    page: Page, server: ServerProcess
) -> None:
    for path, title, reason in (
        ("/puzzle/nosuchpuzzle", "Puzzle not found", "There is no such puzzle"),
        ("/pack/nosuchpack", "No such pack", "There is no such pack."),
    ):
        page.goto(server.url + path)
        expect(page.locator("main h1")).to_have_text(title)
        expect(page.locator("main p.bad")).to_contain_text(reason)
        back = page.locator("main a[href='/puzzles']")
        expect(back).to_be_visible()
    back.click()
    expect(page).to_have_url(server.url + "/puzzles")
