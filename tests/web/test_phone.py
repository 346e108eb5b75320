"""The game on a phone (390x844, a touch screen) and the hint's words (issue 14, "Phone"): the
board fills the width with cells and touch targets of at least 44 px where the area allows, the
hint speaks of taps and drags on a touch screen and of keys with a keyboard, and the side panel
below the board is a named region the keyboard reaches.

The sizes are checked on every task of the shipped decks of every flat edition, not on the
task a game happens to deal: the client's own board (web/src/board, built here with Vite into
one script) draws each task in turn in the place of the game screen's board, so with the game
screen's styles and room, and the test measures what it drew."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect
from server_harness import ServerProcess
from webharness import ROOT, shot
from webplay import centre

from ubongo import editions

TOUCH_PX = 44
PHONE: ViewportSize = {"width": 390, "height": 844}
#: the editions drawn on the flat board that ship a deck (3D has its own board, whose tray and
#: camera tests/web/test_3d_handling.py checks on a phone)
FLAT = [r.name for r in editions.records() if r.layers == 1 and r.deck.file is not None]

#: a Vite build of the client's flat board alone, as one script that sets `UbongoBoards.Board`
#: (run in web/, where Vite is installed; the entry file is written beside the output)
BUILD_JS = """
import { build } from "vite";
const [entry, out] = process.argv.slice(1);
await build({
  root: process.cwd(), configFile: false, publicDir: false, logLevel: "warn",
  build: {
    lib: { entry, formats: ["iife"], name: "UbongoBoards", fileName: () => "boards.js" },
    outDir: out, emptyOutDir: true, minify: false,
  },
});
"""

#: every task drawn on the client's board in the place of the game screen's, and measured: its
#: smallest area cell and tray slot, the picture's box, the area's frame and where the drawing
#: reaches left and right; the game screen's own board is put back at the end
MEASURE_JS = """([catalogue, tasks]) => {
  const own = document.querySelector(".game-main .board");
  const box = (el) => el.getBoundingClientRect();
  const side = (el) => Math.min(box(el).width, box(el).height);
  const least = (els) => Math.min(...els.map(side));
  const first = box(own.querySelector(".board-svg"));
  const out = [];
  for (const task of tasks) {
    const board = new UbongoBoards.Board({ catalogue, area: task.area, pieces: task.pieces });
    own.replaceWith(board.element);
    board.attach();
    const cells = [...board.element.querySelectorAll("[data-area-cell]")];
    const slots = [...board.element.querySelectorAll(".tray-hit")];
    const drawn = [...cells, ...slots].map(box);
    const svg = box(board.svgEl);
    out.push({
      task: task.name,
      cell: least(cells),
      slot: least(slots),
      slots: slots.length,
      pieces: task.pieces.length,
      svg: { x: svg.x, y: svg.y, width: svg.width, height: svg.height },
      frame: box(board.element.querySelector(".board-frame")).width,
      left: Math.min(...drawn.map((b) => b.left)),
      right: Math.max(...drawn.map((b) => b.right)),
    });
    board.element.replaceWith(own);
    board.destroy();
  }
  return { own: { x: first.x, y: first.y, width: first.width, height: first.height }, tasks: out };
}"""


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


@pytest.fixture(scope="module")
def boards_script(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The client's flat board as one script (about a second to build)."""
    folder = tmp_path_factory.mktemp("boards")
    entry = folder / "entry.ts"
    entry.write_text(f'export {{ Board }} from "{ROOT / "web" / "src" / "board"}";\n')
    subprocess.run(
        ["node", "--input-type=module", "-e", BUILD_JS, "--", str(entry), str(folder / "out")],
        cwd=ROOT / "web",
        check=True,
        timeout=120,
    )
    return (folder / "out" / "boards.js").read_text()


def deck_tasks(edition: str) -> list[dict[str, Any]]:
    """Every task of the edition's shipped deck (every card, both sides): its name (card, side,
    key), area and pieces."""
    file = editions.record(edition).deck.file
    assert file is not None, edition
    deck = json.loads(file.read_text("utf-8"))
    return [
        {
            "name": f"{card['number']}{side['name']}/{'+'.join(task['keys'])}",
            "area": side["area"],
            "pieces": task["pieces"],
        }
        for card in deck["cards"]
        for side in card["sides"]
        for task in side["tasks"]
    ]


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


@pytest.mark.parametrize("edition", FLAT)
def test_every_task_of_the_decks_fills_the_phone_with_touch_sized_targets(
    browser: Browser, server: ServerProcess, boards_script: str, edition: str
) -> None:
    # the styles of a phone (max-width: 760px) and a finger (pointer: coarse)
    context = browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, locale="en-US", bypass_csp=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    start_solo(page, server, edition)
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    # the board's script is added to the game's page: the page's policy allows only its own
    # scripts, which the context is told to overlook (bypass_csp)
    page.add_script_tag(content=boards_script)
    tasks = deck_tasks(edition)
    catalogue = server.get(f"/api/editions/{edition}")
    measured = page.evaluate(MEASURE_JS, [catalogue, tasks])
    context.close()
    assert not errors, errors
    seen = measured["tasks"]
    assert [m["task"] for m in seen] == [t["name"] for t in tasks]
    # the boards drawn here had the place and size of the game's own board
    assert all(m["svg"] == measured["own"] for m in seen), measured["own"]
    # the board is as wide as the screen allows
    assert measured["own"]["width"] >= 0.9 * PHONE["width"], measured["own"]
    wrong = []
    for m in seen:
        problems = []
        # area cells of 44 px, unless the area is too wide for that: then its frame fills the
        # board's width (its cells as large as the screen's width allows)
        if m["cell"] < TOUCH_PX and m["frame"] < 0.9 * m["svg"]["width"]:
            problems.append(f"cells of {m['cell']:.1f} px")
        # every piece in the tray answers a touch on its whole slot, at least 44 px each way
        if m["slots"] != m["pieces"] or m["slot"] < TOUCH_PX:
            problems.append(f"{m['slots']} slots of {m['pieces']}, the smallest {m['slot']:.1f} px")
        # nothing is drawn beyond the screen's edges
        if m["left"] < 0 or m["right"] > PHONE["width"]:
            problems.append(f"drawn from {m['left']:.1f} to {m['right']:.1f} px")
        if problems:
            wrong.append(f"{m['task']}: {', '.join(problems)}")
    assert not wrong, f"{len(wrong)} of {len(seen)} {edition} tasks: " + "; ".join(wrong[:10])


def test_phone_board_fills_the_width_with_touch_sized_targets(
    phone: Page, server: ServerProcess
) -> None:
    page = phone
    start_solo(page, server, "classic")
    assert page.evaluate("matchMedia('(pointer: coarse)').matches")
    # the sizes of every task are checked above; this game's task is whichever was dealt, and
    # what follows holds of any: a touch on a slot, the tools, the hint, a drag, the side panel
    cell = box(page, ".game-main [data-area-cell]")
    slots = page.locator(".game-main .tray-hit")
    pieces = page.locator(".game-main g[data-piece]")
    expect(slots).to_have_count(pieces.count())
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
