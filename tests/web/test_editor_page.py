"""The puzzle editor (/create, docs/editor.md) in a browser: a Classic area drawn by clicks, a
drag and the keyboard, its pieces picked, the solver's verdict shown live ("unique"), a piece
changed and the puzzle unsolvable with the reason, Undo, the puzzle downloaded as a file that
``ubongo solve``'s reader reads and solves; hexagons drawn for Extreme; axe; a phone; German."""

from __future__ import annotations

from pathlib import Path

from axe import assert_accessible
from playwright.sync_api import Browser, Page, expect
from server_harness import ServerProcess
from test_language import english_on
from webharness import new_page, shot

from ubongo import puzzlefile
from ubongo.solver import count

#: the hint route's example, drawn: its one solution uses D, I and G
ROWS = [".##..", "####.", ".####", ".###."]
HEADLINE = "#verdict-headline"


def cell(page: Page, *coords: int) -> None:
    page.locator(f'.editor-sheet [data-cell="{",".join(map(str, coords))}"]').click()


def piece(page: Page, pid: str) -> None:
    page.locator(f'.editor-piece[data-piece="{pid}"]').click()


def draw_rows(page: Page, rows: list[str], skip_row: int | None = None) -> None:
    for y, row in enumerate(rows):
        if y == skip_row:
            continue
        for x, ch in enumerate(row):
            if ch == "#":
                cell(page, x, y)


def drag_row(page: Page, y: int, xs: range) -> None:
    """Paint a row of cells with one drag, from its first cell to its last."""
    sheet = page.locator(".editor-sheet")

    def centre(x: int) -> tuple[float, float]:
        box = sheet.locator(f'[data-cell="{x},{y}"]').bounding_box()
        assert box is not None
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    page.mouse.move(*centre(xs[0]))
    page.mouse.down()
    for x in xs[1:]:
        page.mouse.move(*centre(x), steps=3)
    page.mouse.up()


def open_editor(page: Page, server: ServerProcess) -> None:
    page.goto(server.url + "/")
    page.locator("#editor-link").click()
    expect(page).to_have_url(server.url + "/create")
    expect(page.locator(".editor-sheet")).to_be_visible()


def test_a_classic_puzzle_drawn_proven_changed_and_downloaded(
    browser: Browser, server: ServerProcess, tmp_path: Path
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    open_editor(page, server)
    expect(page.locator(HEADLINE)).to_have_text("Draw an area and pick some pieces.")
    # row 1 by a drag, the others by clicks
    drag_row(page, 1, range(0, 4))
    draw_rows(page, ROWS, skip_row=1)
    assert page.locator(".sheet-cell.on").count() == 13
    for pid in "DIG":
        piece(page, pid)
    expect(page.locator(HEADLINE)).to_have_text("Solvable: exactly 1 solution (unique)")
    figures = page.locator(".verdict-figures")
    expect(figures).to_contain_text("1 solution")
    expect(figures).to_contain_text("13 / 13")
    expect(figures).to_contain_text("A median player needs")
    expect(page.locator(".verdict-solution polygon")).to_have_count(13)
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "editor-classic-unique")
    assert_accessible(page, "editor")
    page.emulate_media(color_scheme="dark")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.evaluate(
        "() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => null)))"
    )
    assert_accessible(page, "editor (dark)")
    shot(page, "editor-classic-dark")
    page.emulate_media(color_scheme="light")

    # G (4 cells) for A (2 cells): two cells of the area are left over
    piece(page, "G")
    piece(page, "A")
    expect(page.locator(HEADLINE)).to_have_text("No solution")
    expect(page.locator("#verdict-reason")).to_have_text(
        "The area has 13 cells but the pieces only 11: 2 cells too many in the area."
    )
    shot(page, "editor-classic-sizes")
    # undo twice: G is back, A gone, and the puzzle unique again
    page.locator("#editor-undo").click()
    page.locator("#editor-undo").click()
    expect(page.locator(HEADLINE)).to_have_text("Solvable: exactly 1 solution (unique)")

    # the keyboard: a cell added far from the area, then taken away again
    sheet = page.locator(".editor-sheet")
    sheet.focus()
    for key in ["ArrowRight"] * 4 + ["ArrowDown"] * 3 + [" "]:
        sheet.press(key)
    expect(page.locator(".sheet-cell.on")).to_have_count(14)
    expect(page.locator(".sheet-cell.unreachable")).to_have_count(1)
    expect(page.locator("#verdict-reason")).to_contain_text("1 cell too many")
    sheet.press("Control+z")  # the cell added is taken away again
    expect(page.locator(".sheet-cell.on")).to_have_count(13)
    expect(page.locator(HEADLINE)).to_have_text("Solvable: exactly 1 solution (unique)")

    # the download is a puzzle file `ubongo solve` reads: the same puzzle, one solution
    with page.expect_download() as got:
        page.locator("#editor-download").click()
    path = tmp_path / got.value.suggested_filename
    got.value.save_as(path)
    puzzle = puzzlefile.load(path)
    assert [p.id for p in puzzle.pieces] == list("DIG")
    assert (
        puzzle.area
        == puzzlefile.from_json({"edition": "classic", "area": ROWS, "pieces": ["A"]}).area
    )
    assert count(puzzle.area, list(puzzle.pieces)) == 1
    # and the editor reads it back: cleared, then opened
    page.locator("#editor-clear").click()
    expect(page.locator(".sheet-cell.on")).to_have_count(0)
    page.locator("#editor-file").set_input_files(str(path))
    expect(page.locator(".sheet-cell.on")).to_have_count(13)
    expect(page.locator(HEADLINE)).to_have_text("Solvable: exactly 1 solution (unique)")
    # turned a quarter and mirrored, it is the same puzzle: still unique
    page.locator("#editor-turn").click()
    page.locator("#editor-mirror").click()
    expect(page.locator(".sheet-cell.on")).to_have_count(13)
    expect(page.locator(HEADLINE)).to_have_text("Solvable: exactly 1 solution (unique)")
    assert not errors, errors


def test_hexagons_are_drawn_for_extreme_and_the_editor_works_on_a_phone(
    browser: Browser, server: ServerProcess
) -> None:
    """A phone with a touch screen: cells and pieces tapped."""
    errors: list[str] = []
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="en-US", has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "/create?edition=extreme")
    expect(page.locator(".editor-sheet polygon").first).to_be_visible()
    assert page.locator("#editor-edition").input_value() == "extreme"
    # the straight three: its own shape has one solution
    for r in range(3):
        page.locator(f'.editor-sheet [data-cell="0,{r}"]').tap()
    expect(page.locator(".sheet-cell.on")).to_have_count(3)
    page.locator('.editor-piece[data-piece="1"]').tap()
    expect(page.locator(".verdict-mini")).to_have_text("Solvable: exactly 1 solution (unique)")
    expect(page.locator(HEADLINE)).to_have_text("Solvable: exactly 1 solution (unique)")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width} px wide on a 390 px phone"
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "editor-phone-extreme")
    assert_accessible(page, "editor on a phone")
    context.close()
    assert not errors, errors


def test_the_editor_speaks_german(browser: Browser, server: ServerProcess) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="de-DE")
    page = context.new_page()
    page.goto(server.url + "/create")
    expect(page.locator("h1")).to_have_text("Rätsel bauen")
    cell(page, 0, 0)
    cell(page, 1, 0)
    piece(page, "B")
    expect(page.locator(HEADLINE)).to_have_text("Keine Lösung")
    expect(page.locator("#verdict-reason")).to_contain_text("1 Feld zu wenig")
    shot(page, "editor-german")
    found = english_on(page)
    assert not found, f"English on the German editor: {found}"
    context.close()


def test_a_3d_footprint_and_trigos_two_areas(browser: Browser, server: ServerProcess) -> None:
    """3D: the board's squares drawn, filled on two levels (cubes counted, both levels drawn in
    the solution); Trigo: two areas apart on one sheet, each piece in its own."""
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(server.url + "/create?edition=3d")
    expect(page.locator(".editor-sheet polygon").first).to_be_visible()
    for x, y in [(0, 0), (1, 0), (2, 0), (0, 1)]:
        cell(page, x, y)
    piece(page, "blue4")
    expect(page.locator("#verdict-reason")).to_contain_text(
        "The area holds 8 cubes on its two levels"
    )
    piece(page, "red4")
    expect(page.locator(HEADLINE)).to_have_text("Solvable: exactly 1 solution (unique)")
    expect(page.locator(".verdict-solution g")).to_have_count(2)  # the two levels
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "editor-3d")
    page.locator("#editor-edition").select_option("trigo")
    expect(page.locator('.editor-sheet [data-cell="5,0,0"]')).to_be_visible()
    # piece 1's triangles, and piece 2's four steps to the right
    for c in [
        (0, 0, 0),
        (0, 0, 1),
        (0, 1, 0),
        (0, 1, 1),
        (4, 0, 0),
        (4, 0, 1),
        (4, 1, 0),
        (5, 0, 0),
    ]:
        cell(page, *c)
    piece(page, "1")
    piece(page, "2")
    expect(page.locator(HEADLINE)).to_have_text("Solvable: exactly 1 solution (unique)")
    # a sixth of a turn at a time, and mirrored: triangles turn into triangles, still unique
    for button in ["#editor-turn"] * 3 + ["#editor-mirror"]:
        page.locator(button).click()
        expect(page.locator(".sheet-cell.on")).to_have_count(8)
        expect(page.locator(HEADLINE)).to_have_text("Solvable: exactly 1 solution (unique)")
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "editor-trigo")
    assert not errors, errors
