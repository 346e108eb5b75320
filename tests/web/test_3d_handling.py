"""Handling the Ubongo 3D board like real blocks (issue 14): the camera frames the area, the
piece in hand stays in view, and a piece dragged from the tray with the mouse or a finger lands,
at its lowest free level, on the cells under the pointer.

What is on screen is read from the canvas's pixels (the area's cream cells, the plain
background), not from the client's own report, so a camera that frames badly fails here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from server_harness import ServerProcess
from test_3d import ENTRIES, Board3D
from webharness import shot

Cube = tuple[int, int, int]

# the canvas's pixels: the box of the area's cream cells (lit, they stay warm: red well above
# blue, unlike the grey-blue background, the dark board and the pieces' colours), and whether the
# top rows are the plain background (nothing cut off by the top of the view)
PIXELS_JS = """canvas => {
  const c = document.createElement("canvas");
  c.width = canvas.width;
  c.height = canvas.height;
  const g = c.getContext("2d");
  g.drawImage(canvas, 0, 0);
  const d = g.getImageData(0, 0, c.width, c.height).data;
  let [x0, x1, y0, y1] = [Infinity, -1, Infinity, -1];
  let topDrawn = 0;
  const band = Math.max(2, Math.round(c.height * 0.02));
  for (let y = 0; y < c.height; y++) {
    for (let x = 0; x < c.width; x++) {
      const i = (y * c.width + x) * 4;
      const [r, gr, b] = [d[i], d[i + 1], d[i + 2]];
      if (r > 200 && gr > 190 && r - b > 14) {
        x0 = Math.min(x0, x); x1 = Math.max(x1, x); y0 = Math.min(y0, y); y1 = Math.max(y1, y);
      }
      // the background is #dfe7ed
      const off = Math.abs(r - 0xdf) + Math.abs(gr - 0xe7) + Math.abs(b - 0xed);
      if (y < band && off > 24) topDrawn++;
    }
  }
  const css = canvas.clientWidth / canvas.width;
  const r = canvas.getBoundingClientRect();
  return {
    width: c.width, height: c.height, x0, x1, y0, y1, topDrawn,
    left: r.left + x0 * css, right: r.left + (x1 + 1) * css,
    top: r.top + y0 * css, bottom: r.top + (y1 + 1) * css,
  };
}"""


# a finger's drag from a tray button (pointer events as a touch screen sends them): what is in
# hand and where it would land just before the finger lifts
TOUCH_DRAG_JS = """(b, [x0, y0, x1, y1]) => {
  const ev = (type, x, y) => new PointerEvent(type, {pointerId: 7, pointerType: "touch",
    isPrimary: true, clientX: x, clientY: y, bubbles: true, cancelable: true});
  b.dispatchEvent(ev("pointerdown", x0, y0));
  for (let i = 1; i <= 8; i++) {
    b.dispatchEvent(ev("pointermove", x0 + ((x1 - x0) * i) / 8, y0 + ((y1 - y0) * i) / 8));
  }
  const held = document.querySelector(".game-main .board3d").dataset.held;
  const shown = b.dataset.offset;
  b.dispatchEvent(ev("pointerup", x1, y1));
  return [held, shown];
}"""


def touch_drag(
    page: Page, piece: str, start: tuple[float, float], end: tuple[float, float]
) -> tuple[str, str]:
    held, shown = page.eval_on_selector(
        f'.game-main .tray-piece[data-piece="{piece}"]', TOUCH_DRAG_JS, [*start, *end]
    )
    return str(held), str(shown)


def pixels(page: Page) -> dict[str, Any]:
    """The canvas after the scene's next frame."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    found: dict[str, Any] = page.eval_on_selector(".game-main .board3d-canvas", PIXELS_JS)
    assert found["x1"] >= 0, "no area cells seen on the canvas"
    return found


def start(page: Page, server: ServerProcess, level: str) -> Board3D:
    """A solo 3D task at a level, the scene drawn (the first card of a fresh game and three.js
    may take some seconds on a busy machine)."""
    page.goto(server.url + "/")
    page.fill("#name", "Cubist")
    page.click('button.edition[data-edition="3d"]')
    page.select_option("#side", level)
    page.click("#start-solo")
    ready = page.locator(".game-main .board3d")
    expect(ready).to_have_attribute("data-ready", "true", timeout=30_000)
    page.locator(".game-main .board3d-stage").focus()
    return Board3D(page)


def landing_z(shape: list[Cube], x: int, y: int, occupied: set[Cube]) -> int:
    """The lowest level at which a shape moved to (x, y) fits among the occupied cubes."""
    z = 0
    while any((c[0] + x, c[1] + y, c[2] + z) in occupied for c in shape):
        z += 1
    return z


def cubes(piece: str, transform: int, offset: tuple[int, ...]) -> list[Cube]:
    shape = ENTRIES[piece]["shapes"][str(transform)]
    return [(c[0] + offset[0], c[1] + offset[1], c[2] + offset[2]) for c in shape]


@pytest.fixture
def desk(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors, errors


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_camera_frames_the_area_and_the_piece_in_hand_stays_in_view(
    browser: Browser, server: ServerProcess, size: tuple[int, int]
) -> None:
    width, height = size
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    board = start(page, server, "orange")
    seen = pixels(page)
    across = (seen["x1"] - seen["x0"] + 1) / seen["width"]
    up = (seen["y1"] - seen["y0"] + 1) / seen["height"]
    # the area (its floor; its levels stand above it) fills most of the view one way or the
    # other, and nothing of it is cut off at an edge (it used to fill about a third each way).
    # Only one way: a fresh card's area may be long and thin (0.66 across, 0.23 up was seen)
    assert max(across, up) >= 0.45, (across, up, seen)
    assert seen["x0"] > 0 and seen["y0"] > 0, seen
    assert seen["x1"] < seen["width"] - 1 and seen["y1"] < seen["height"] - 1, seen
    assert seen["topDrawn"] == 0, seen

    # a piece taken in hand is drawn over the area, not above the view
    page.keyboard.press("1")
    expect(board.root).to_have_attribute("data-held", board.pieces()[0])
    held = pixels(page)
    assert held["topDrawn"] == 0, held
    shot(page, f"3d-framed-{width}")

    if width < 500:
        # a phone: the camera's buttons are not over the scene, the turn buttons keep their words
        stage = page.locator(".game-main .board3d-stage").bounding_box()
        view = page.locator(".game-main .board3d-view").bounding_box()
        assert stage is not None and view is not None
        assert view["y"] + view["height"] <= stage["y"] + 0.5, (view, stage)
        for word in ("Spin", "Tip", "Roll"):
            expect(page.locator(".board3d-tools .turns .tool span", has_text=word)).to_be_visible()
    context.close()


def test_drag_from_the_tray_lands_on_the_cells_under_the_pointer_at_the_lowest_free_level(
    desk: Page, server: ServerProcess
) -> None:
    page = desk
    board = start(page, server, "orange")
    first, second = board.pieces()[:2]
    # looked at from above, the floor lies flat on the screen: cell (x, y) is at a known point
    page.keyboard.press("v")
    expect(page.locator(".board3d-view .tool-top-view")).to_have_attribute("aria-pressed", "true")
    area = board.area()
    x_min, x_max = min(c[0] for c in area), max(c[0] for c in area)
    y_min, y_max = min(c[1] for c in area), max(c[1] for c in area)
    seen = pixels(page)
    cw = (seen["right"] - seen["left"]) / (x_max - x_min + 1)
    ch = (seen["bottom"] - seen["top"]) / (y_max - y_min + 1)
    assert abs(cw - ch) < 0.1 * cw, (cw, ch)  # square cells: a straight look from above

    def at(cell: tuple[int, int]) -> tuple[float, float]:
        return (
            seen["left"] + (cell[0] - x_min + 0.5) * cw,
            seen["top"] + (cell[1] - y_min + 0.5) * ch,
        )

    # the first piece goes down with the keyboard, where it lands
    page.keyboard.press("1")
    page.keyboard.press("Enter")
    expect(board.button(first)).to_have_attribute("data-state", "placed")
    _, t1, o1 = board.state(first)
    assert o1 is not None
    below = set(cubes(first, t1, o1))
    # the second is dragged from the tray onto a cell the first one covers (its top)
    tops = {(c[0], c[1]): max(z for x, y, z in below if (x, y) == (c[0], c[1])) for c in below}
    target = max(tops, key=lambda c: tops[c])
    button = board.button(second).bounding_box()
    assert button is not None
    page.mouse.move(button["x"] + button["width"] / 2, button["y"] + button["height"] / 2)
    page.mouse.down()
    tx, ty = at(target)
    page.mouse.move(tx, ty, steps=12)
    expect(board.root).to_have_attribute("data-held", second)
    _, t2, shown = board.state(second)
    assert shown is not None
    shot(page, "3d-drag-over")
    page.mouse.up()
    expect(board.button(second)).to_have_attribute("data-state", "placed")
    _, t2_after, o2 = board.state(second)
    assert o2 == shown and t2_after == t2, (o2, shown)
    # on the cells under the pointer ...
    mine = cubes(second, t2, o2)
    assert target in {(c[0], c[1]) for c in mine}, (target, mine)
    # ... at the lowest level where it fits: on the first piece, not in it nor above a gap
    shape = [tuple(c) for c in ENTRIES[second]["shapes"][str(t2)]]
    assert o2[2] == landing_z(shape, o2[0], o2[1], below) >= 1, (o2, below)
    assert not set(mine) & below

    # a finger drags the third piece out of the tray and lets go beside the board: back in the tray
    third = board.pieces()[2]
    box = board.button(third).bounding_box()
    assert box is not None
    x0, y0 = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    held, _ = touch_drag(page, third, (x0, y0), (x0 + 40, 4))
    assert held == third
    expect(board.button(third)).to_have_attribute("data-state", "tray")
    expect(board.root).to_have_attribute("data-held", "")
    # and onto the board: it lands where its ghost showed
    held, shown_at = touch_drag(page, third, (x0, y0), at((x_min, y_min)))
    assert held == third
    expect(board.button(third)).to_have_attribute("data-state", "placed")
    assert board.button(third).get_attribute("data-offset") == shown_at
    shot(page, "3d-dragged-down")
