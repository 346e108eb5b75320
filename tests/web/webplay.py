"""How a test plays a task in the browser the way a person does: tap a piece, turn it with
R/F, drag it onto the area (or steer it with the keyboard). Where each piece goes comes from
the solver; the area and the pieces are read from the page, as the player sees them."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from waiting import eventually

from ubongo.board import Area, Placement
from ubongo.catalogue import edition_catalogue
from ubongo.geometry import Cell
from ubongo.pieces import edition
from ubongo.solver import solve

# the centre of an SVG polygon in page pixels
CENTRE_JS = """el => {
  const m = el.getScreenCTM();
  let x = 0, y = 0;
  const pts = [...el.points];
  for (const p of pts) {
    const q = new DOMPoint(p.x, p.y).matrixTransform(m);
    x += q.x; y += q.y;
  }
  return [x / pts.length, y / pts.length];
}"""


def key(cell: Cell) -> str:
    return ",".join(str(c) for c in cell)


def board_task(page: Page) -> tuple[frozenset[Cell], list[str]]:
    """The area cells and the task's pieces, as drawn on the page's board (once a solved solo
    board, kept in view a moment, has made way for the next task)."""
    page.wait_for_selector(".game-main[data-holding]", state="detached", timeout=10_000)
    cells = page.eval_on_selector_all(
        ".game-main [data-area-cell]", "els => els.map(e => e.dataset.areaCell)"
    )
    pieces = page.eval_on_selector_all(
        ".game-main g[data-piece]", "els => els.map(e => e.dataset.piece)"
    )
    return frozenset(tuple(int(v) for v in c.split(",")) for c in cells), pieces


def wait_for_new_task(page: Page, before: tuple[frozenset[Cell], list[str]]) -> None:
    """Wait until the board shows another task than ``before`` (a skip is answered by two
    events: the skip, then the next task)."""
    eventually(lambda: board_task(page) != before, "another task on the board", every=0.1)


def solution(page: Page, edition_name: str) -> list[Placement]:
    """Placements covering the board's area, from the solver."""
    ed = edition(edition_name)
    # a fresh game's first cards are made as it starts: its first round follows the start
    # by some tens of milliseconds (seconds on a busy machine)

    def dealt() -> tuple[frozenset[Cell], list[str]] | None:
        task = board_task(page)
        return task if task[0] and task[1] else None

    cells, pieces = eventually(dealt, "a task on the board", every=0.1)
    area = Area(ed.area_lattice, cells)
    found = solve(area, [ed.piece(p) for p in pieces])
    assert found is not None, f"the solver finds no solution for {sorted(cells)} with {pieces}"
    return [Placement.covering(ed.piece(pid), shape) for pid, shape in found.items()]


def key_presses(cat: dict[str, Any], start: int, goal: int) -> list[str]:
    """The shortest sequence of R (rotate) and F (flip) presses from one transform to another."""
    tables = {"r": cat["rotate"], "f": cat["flip"]}
    seen = {start: ""}
    todo = deque([start])
    while todo:
        t = todo.popleft()
        if t == goal:
            return list(seen[t])
        for k, table in tables.items():
            if table is not None and table[t] not in seen:
                seen[table[t]] = seen[t] + k
                todo.append(table[t])
    raise AssertionError(f"transform {goal} cannot be reached from {start}")


def piece(page: Page, pid: str) -> Any:
    return page.locator(f'.game-main g[data-piece="{pid}"]')


def centre(page: Page, selector: str) -> tuple[float, float]:
    x, y = page.eval_on_selector(selector, CENTRE_JS)
    return float(x), float(y)


def select_and_turn(page: Page, cat: dict[str, Any], pl: Placement) -> None:
    """Tap the piece (selects it) and press R/F until it shows the placement's transform."""
    g = piece(page, pl.piece)
    x, y = centre(page, f'.game-main g[data-piece="{pl.piece}"] polygon')
    page.mouse.click(x, y)
    expect(g).to_have_class("piece selected")
    now = int(g.get_attribute("data-transform") or 0)
    for k in key_presses(cat, now, pl.transform):
        page.keyboard.press(k)
    expect(g).to_have_attribute("data-transform", str(pl.transform))


def drag_into_place(page: Page, edition_name: str, pl: Placement, last: bool = False) -> None:
    """Turn the piece, then drag it by one of its cells onto the area cell it must cover.

    ``last``: this piece completes the cover, after which the board may be gone already."""
    cat = edition_catalogue(edition_name)
    select_and_turn(page, cat, pl)
    entry = next(p for p in cat["pieces"] if p["id"] == pl.piece)
    grab = entry["shapes"][str(pl.transform)][0]
    target = [c + o for c, o in zip(grab, pl.offset, strict=False)] + grab[len(pl.offset) :]
    sx, sy = centre(page, f'.game-main g[data-piece="{pl.piece}"] polygon[data-cell="{key(grab)}"]')
    tx, ty = centre(page, f'.game-main polygon[data-area-cell="{key(tuple(target))}"]')
    page.mouse.move(sx, sy)
    page.mouse.down()
    page.mouse.move(sx + 12, sy + 8, steps=3)
    page.mouse.move(tx, ty, steps=10)
    page.mouse.up()
    if last:
        return
    g = piece(page, pl.piece)
    expect(g).to_have_attribute("data-offset", key(pl.offset))
    expect(g).to_have_attribute("data-state", "placed")


def drag_solution(page: Page, edition_name: str) -> list[Placement]:
    """Cover the board's task as a person with a mouse would: the solver's arrangement, piece
    by piece (``drag_into_place``); the last piece may take the board away with it (the round,
    the playoff or the game ends). The arrangement is returned."""
    plan = solution(page, edition_name)
    for i, pl in enumerate(plan):
        drag_into_place(page, edition_name, pl, last=i == len(plan) - 1)
    return plan


def solve_and_call(page: Page, edition_name: str = "classic") -> None:
    """``drag_solution``, then the server's verdict on the call: the task is covered."""
    drag_solution(page, edition_name)
    expect(page.locator("main.room")).to_have_attribute("data-last-verdict", "covered")


def to_the_end(
    page: Page,
    edition_name: str = "classic",
    timeout: float = 60_000,
    play: Callable[[Page], None] | None = None,
) -> bool:
    """After the last round's solve: wait for the game's end. Level on points with another
    player (a bot, whose times are random), the game goes to a playoff first (rulebook, "End
    of the Game"), which this page plays too (``play``: by default ``solve_and_call``);
    whether it did."""
    winner = page.locator("#winner")
    playoff = page.locator("#round-no", has_text="Playoff")
    winner.or_(playoff).first.wait_for(timeout=timeout)
    played_off = not winner.is_visible()
    if played_off:
        expect(page.locator(".round-result")).to_have_count(0, timeout=20_000)
        try:
            if play is None:
                solve_and_call(page, edition_name)
            else:
                play(page)
        except (AssertionError, PlaywrightError):
            # the bot may finish its playoff board first: the game is over, this board gone
            if not winner.is_visible():
                raise
    expect(winner).to_be_visible(timeout=30_000)
    return played_off


def _dropped_at(g: Locator) -> tuple[int, ...] | None:
    """Where a piece was put down, or None once it is gone: when the drop covered the area,
    the next task may already have replaced the board."""
    try:
        offset = g.get_attribute("data-offset", timeout=2000)
    except PlaywrightTimeoutError:
        return None
    return tuple(int(v) for v in offset.split(",")) if offset else None


def keyboard_into_place(
    page: Page, edition_name: str, pl: Placement, index: int, last: bool = False
) -> None:
    """Squares only: pick the piece with its number key, turn it, Enter, then arrow keys."""
    cat = edition_catalogue(edition_name)
    page.locator(".game-main .board-svg").focus()
    page.keyboard.press(str(index + 1))
    g = piece(page, pl.piece)
    expect(g).to_have_class("piece selected")
    now = int(g.get_attribute("data-transform") or 0)
    for k in key_presses(cat, now, pl.transform):
        page.keyboard.press(k)
    page.keyboard.press("Enter")
    if last and _dropped_at(g) in (None, tuple(pl.offset)):
        return  # it landed in place: the area is covered and the client has sent it
    expect(g).to_have_attribute("data-state", "placed")
    arrows_to(page, g, pl.offset)
    if not last:
        expect(g).to_have_attribute("data-offset", key(pl.offset))


def arrows_to(page: Page, g: Locator, offset: Sequence[int]) -> None:
    """Move placed piece ``g`` to ``offset`` with the arrow keys, from where it lies now."""
    x, y = (int(v) for v in (g.get_attribute("data-offset") or "").split(","))
    dx, dy = offset[0] - x, offset[1] - y
    for _ in range(abs(dx)):
        page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
    for _ in range(abs(dy)):
        page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
