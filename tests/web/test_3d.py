"""Ubongo 3D in a real browser (chromium with software WebGL) against a real ``ubongo serve``.

The tests play with the keyboard only, as a player without a mouse would: a digit takes a
piece, R/T/Y (Shift: the other way) turn it, the arrows move it, Enter puts it down where it
lands. Where each piece goes comes from the solver; which keys turn a piece into the wanted
shape is worked out here from what the keys are documented to do (docs/web-3d.md), so a turn
that does something else, or a transform index whose catalogue shape is not the shape on
screen, fails the test.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable

import pytest
from playwright.sync_api import Browser, Locator, Page, expect
from server_harness import ServerProcess
from webharness import animations_done, create_room, new_page, shot
from webplay import to_the_end

from ubongo.board import Area, Placement
from ubongo.catalogue import edition_catalogue
from ubongo.geometry import SQUARE
from ubongo.pieces import edition
from ubongo.solver import solve

Cube = tuple[int, int, int]
Shape = tuple[Cube, ...]

CAT = edition_catalogue("3d")
ENTRIES = {p["id"]: p for p in CAT["pieces"]}
ED = edition("3d")

# what the keys do to a piece's cells (x right, y towards the player, z up), seen from the
# camera's start position: spin clockwise seen from above, tip forward, roll to the right
TURNS: dict[str, tuple[tuple[int, int, int], ...]] = {
    "r": ((0, -1, 0), (1, 0, 0), (0, 0, 1)),
    "t": ((1, 0, 0), (0, 0, 1), (0, -1, 0)),
    "y": ((0, 0, 1), (0, 1, 0), (-1, 0, 0)),
}


def normalize(cells: Iterable[Iterable[int]]) -> Shape:
    cs = [tuple(c) for c in cells]
    low = [min(c[i] for c in cs) for i in range(3)]
    return tuple(sorted((c[0] - low[0], c[1] - low[1], c[2] - low[2]) for c in cs))


def turn(shape: Shape, key: str) -> Shape:
    m = TURNS[key.lower()]
    times = 3 if key.isupper() else 1
    cells: list[Cube] = list(shape)
    for _ in range(times):
        cells = [
            (
                m[0][0] * x + m[0][1] * y + m[0][2] * z,
                m[1][0] * x + m[1][1] * y + m[1][2] * z,
                m[2][0] * x + m[2][1] * y + m[2][2] * z,
            )
            for x, y, z in cells
        ]
    return normalize(cells)


def shape_of(piece: str, transform: int) -> Shape:
    return normalize(ENTRIES[piece]["shapes"][str(transform)])


def turn_keys(start: Shape, goal: Shape) -> list[str]:
    """The fewest turn keys from one shape to another (breadth first)."""
    seen = {start: [""]}
    todo = deque([start])
    while todo:
        s = todo.popleft()
        if s == goal:
            return [k for k in seen[s] if k]
        for k in ("r", "t", "y", "R", "T", "Y"):
            n = turn(s, k)
            if n not in seen:
                seen[n] = [*seen[s], k]
                todo.append(n)
    raise AssertionError(f"no turns lead from {start} to {goal}")


def press_turn(page: Page, key: str) -> None:
    page.keyboard.press(f"Shift+{key.upper()}" if key.isupper() else key)


class Board3D:
    """The 3D board on a page, read and steered as a keyboard player does."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.root = page.locator(".game-main .board3d")
        expect(self.root).to_have_attribute("data-ready", "true")

    def area(self) -> frozenset[tuple[int, int]]:
        raw = self.root.get_attribute("data-area") or ""
        return frozenset(tuple(int(v) for v in c.split(",")) for c in raw.split(";"))  # type: ignore[misc]

    def pieces(self) -> list[str]:
        ids: list[str] = self.page.eval_on_selector_all(
            ".game-main .tray-piece", "els => els.map(e => e.dataset.piece)"
        )
        return ids

    def button(self, piece: str) -> Locator:
        return self.root.locator(f'.tray-piece[data-piece="{piece}"]')

    def state(self, piece: str) -> tuple[str, int, tuple[int, ...] | None]:
        b = self.root.locator(f'.tray-piece[data-piece="{piece}"]')
        offset = b.get_attribute("data-offset") or ""
        return (
            b.get_attribute("data-state") or "",
            int(b.get_attribute("data-transform") or "-1"),
            tuple(int(v) for v in offset.split(",")) if offset else None,
        )

    def solution(self) -> list[Placement]:
        """The solver's arrangement of the board's task, lowest pieces first."""
        pieces = self.pieces()
        found = solve(Area(SQUARE, self.area(), 2), [ED.piece(p) for p in pieces])
        assert found is not None, f"no solution for {sorted(self.area())} with {pieces}"
        placements = [Placement.covering(ED.piece(pid), cells) for pid, cells in found.items()]
        # a piece lands as low as it fits: the lower level first, so nothing slips under
        return sorted(placements, key=lambda p: p.offset[2])

    def steer(self, piece: str, goal: Shape, x: int, y: int) -> tuple[int, ...]:
        """Take a piece, turn it to `goal`, move it over (x, y); where it would land."""
        index = self.pieces().index(piece)
        self.page.keyboard.press(str(index + 1))
        expect(self.root).to_have_attribute("data-held", piece)
        state, transform, _ = self.state(piece)
        assert state == "held"
        for k in turn_keys(shape_of(piece, transform), goal):
            before = shape_of(piece, self.state(piece)[1])
            press_turn(self.page, k)
            # the transform index the client now holds is the documented turn of the shape
            after = self.state(piece)[1]
            assert shape_of(piece, after) == turn(before, k), (piece, k, after)
        _, _, at = self.state(piece)
        assert at is not None
        for _ in range(abs(x - at[0])):
            self.page.keyboard.press("ArrowRight" if x > at[0] else "ArrowLeft")
        for _ in range(abs(y - at[1])):
            self.page.keyboard.press("ArrowDown" if y > at[1] else "ArrowUp")
        _, _, at = self.state(piece)
        assert at is not None and at[:2] == (x, y), (piece, at, (x, y))
        return at

    def place(self, pl: Placement, or_over: Locator | None = None) -> None:
        """Place one piece; `or_over` is what shows instead when this piece ends the game."""
        at = self.steer(pl.piece, shape_of(pl.piece, pl.transform), pl.offset[0], pl.offset[1])
        assert at == tuple(pl.offset), f"{pl.piece} would land at {at}, not {pl.offset}"
        self.page.keyboard.press("Enter")
        placed = self.root.locator(f'.tray-piece[data-piece="{pl.piece}"][data-state="placed"]')
        expect(placed if or_over is None else placed.or_(or_over).first).to_be_attached()

    def solve(self, before_last: str | None = None, or_over: Locator | None = None) -> None:
        """Solve the board with the keys; a playoff's last piece may end the game at once,
        so its check accepts `or_over` (the result screen) in place of the placed piece."""
        plan = self.solution()
        for pl in plan[:-1]:
            self.place(pl)
        if before_last:
            shot(self.page, before_last)
        self.place(plan[-1], or_over)


def start_solo_3d(page: Page, server: ServerProcess, level: str) -> Board3D:
    page.goto(server.url + "/")
    page.fill("#name", "Cubist")
    page.click('button.edition[data-edition="3d"]')
    expect(page.locator(".howto h2")).to_have_text("How to play 3D")
    expect(page.locator(".howto-piece svg.piece-iso")).to_have_count(len(CAT["pieces"]))
    page.select_option("#side", level)
    shot(page, "3d-home")
    page.click("#start-solo")
    board = Board3D(page)
    page.locator(".game-main .board3d-stage").focus()
    return board


def test_new_player_solves_a_3d_task_with_the_keyboard(page: Page, server: ServerProcess) -> None:
    board = start_solo_3d(page, server, "yellow")
    expect(page.locator("#solo-count")).to_contain_text("Solved 0")
    assert len(board.pieces()) == 4  # the yellow level: four pieces
    assert len(board.area()) * 2 == sum(ENTRIES[p]["size"] for p in board.pieces())
    shot(page, "3d-solo-task")

    board.solve(before_last="3d-solo-almost")
    expect(page.locator("main.room")).to_have_attribute("data-last-verdict", "covered")
    expect(page.locator("#solo-count")).to_contain_text("Solved 1")
    shot(page, "3d-solo-ubongo")
    # the next task: a new board, every piece in the tray
    board = Board3D(page)
    expect(page.locator(".game-main .tray-piece[data-state=placed]")).to_have_count(0)


def test_turns_reach_all_24_rotations_and_match_the_catalogue(
    page: Page, server: ServerProcess
) -> None:
    board = start_solo_3d(page, server, "green")
    piece = board.pieces()[0]
    page.keyboard.press("1")
    seen: set[Shape] = set()
    # every face up (tips and rolls), four spins each
    for k in ["t", "t", "t", "t", "y", "y", "y", "y", "T", "Y", "y", "y", "y"]:
        for _ in range(4):
            before = shape_of(piece, board.state(piece)[1])
            press_turn(page, "r")
            after = shape_of(piece, board.state(piece)[1])
            assert after == turn(before, "r")
            seen.add(after)
        before = shape_of(piece, board.state(piece)[1])
        press_turn(page, k)
        assert shape_of(piece, board.state(piece)[1]) == turn(before, k)
    every = {shape_of(piece, t) for t in ENTRIES[piece]["transforms"]}
    assert seen == every, f"{piece}: {len(seen)} of {len(every)} orientations reached"
    # the on-screen buttons turn the same way as the keys
    for name, k in (("spin", "r"), ("tip", "t"), ("roll", "y"), ("tip-back", "T")):
        before = shape_of(piece, board.state(piece)[1])
        page.click(f".board3d-tools .tool-{name}")
        assert shape_of(piece, board.state(piece)[1]) == turn(before, k)


def test_faults_are_shown_and_pieces_fall(page: Page, server: ServerProcess) -> None:
    board = start_solo_3d(page, server, "orange")
    area = board.area()
    min_x = min(c[0] for c in area)
    first, second = board.pieces()[:2]
    hint = page.locator(".game-main .board3d-hint")

    # sticking out: the piece in hand over the area's left edge
    page.keyboard.press("1")
    for _ in range(8):
        page.keyboard.press("ArrowLeft")
    _, _, at = board.state(first)
    assert at is not None and at[0] < min_x
    expect(hint).to_have_attribute("data-kind", "bad")
    expect(hint).to_contain_text("stick out")
    shot(page, "3d-sticks-out")
    page.keyboard.press("Escape")
    expect(board.root).to_have_attribute("data-held", "")
    assert board.state(first)[0] == "tray"

    # too high: a piece standing two high on top of another piece
    flat = shape_of(first, board.state(first)[1])
    x0 = min(c[0] for c in area)
    y0 = min(c[1] for c in area if c[0] == x0)
    board.steer(first, flat, x0, y0)
    page.keyboard.press("Enter")
    _, t1, at1 = board.state(first)
    assert at1 is not None and at1[2] == 0
    under = next(c for c in shape_of(first, t1) if c[2] == 0)
    tall = next(
        s
        for s in sorted({shape_of(second, t) for t in ENTRIES[second]["transforms"]})
        if max(c[2] for c in s) == 1
    )
    foot = next(c for c in tall if c[2] == 0)
    landing = board.steer(second, tall, at1[0] + under[0] - foot[0], at1[1] + under[1] - foot[1])
    assert landing[2] >= 1  # it rests on the first piece
    expect(hint).to_contain_text("higher than level 2")
    page.keyboard.press("Enter")
    expect(board.button(second)).to_have_class(re.compile("faulty"))
    shot(page, "3d-too-high")

    # taking the lower piece away: the upper one falls to the board
    page.keyboard.press("1")
    page.keyboard.press("Escape")
    state, _, at2 = board.state(second)
    assert state == "placed" and at2 is not None and at2[2] == 0
    expect(board.root).to_have_attribute("data-covered", "false")

    # the top view, and the keys still work there
    page.keyboard.press("v")
    expect(page.locator(".board3d-view .tool-top-view")).to_have_attribute("aria-pressed", "true")
    shot(page, "3d-top-view")


def test_room_game_with_a_bot_to_the_end(browser: Browser, server: ServerProcess) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    create_room(page, server, "Ada", "3d", side="green")
    # every player chooses a level: Ada plays green, the bot the room's default
    expect(page.locator("#my-level")).to_have_value("green")
    page.select_option("#my-level", "yellow")
    expect(page.locator(".seat.person .level-tag")).to_have_text("yellow")
    page.select_option("#my-level", "green")
    expect(page.locator(".seat.person .level-tag")).to_have_text("green")
    page.select_option("#set-rounds", "1")
    expect(page.locator("#set-rounds")).to_have_value("1")
    page.select_option("#set-time", "30")
    expect(page.locator("#set-time")).to_have_value("30")
    page.click('button[data-add-bot="easy"]')
    expect(page.locator(".seat.bot")).to_have_count(1)
    expect(page.locator("#ready")).to_have_count(0)  # a host alone with bots just starts
    expect(page.locator("#start")).to_be_enabled()
    shot(page, "3d-room-lobby")
    page.click("#start")

    board = Board3D(page)
    expect(page.locator("#round-no")).to_have_text("Round 1 of 1")
    expect(page.locator(".game-top .key-badge")).to_contain_text("Die")
    page.locator(".game-main .board3d-stage").focus()
    assert len(board.pieces()) == 3  # green: three pieces
    shot(page, "3d-room-game")
    board.solve()
    # Ada's finish is taken: her board says so or, when the bot had finished first, the one
    # round ends at once and the game's end (or a tie's playoff) is shown instead. A screen of
    # a moment is not waited for: the CI loop's run 95, loaded, found the end screen already
    winner = page.locator("#winner")
    said = page.locator(".game-main .board-status", has_text="Ubongo!")
    said.or_(winner).or_(page.locator("#round-no", has_text="Playoff")).first.wait_for()
    shot(page, "3d-room-finished")

    # the round ends with the hourglass (or the bot); a tie would bring a playoff: play it too
    to_the_end(page, "3d", timeout=90_000, play=lambda p: Board3D(p).solve(or_over=winner))
    expect(page.locator("table.scores tr.winner")).not_to_have_count(0)
    expect(page.locator("table.scores")).to_contain_text("Ada")
    shot(page, "3d-room-end")
    page.context.close()
    assert not errors, errors


@pytest.mark.parametrize("width", [420])
def test_touch_sized_screen_has_every_control(
    page: Page, server: ServerProcess, width: int
) -> None:
    page.set_viewport_size({"width": width, "height": 860})
    board = start_solo_3d(page, server, "green")
    piece = board.pieces()[0]
    page.click(f'.tray-piece[data-piece="{piece}"]')
    expect(board.root).to_have_attribute("data-held", piece)
    _, _, before = board.state(piece)
    page.click(".board3d-tools .tool-move-right")
    _, _, after = board.state(piece)
    assert before is not None and after is not None and after[0] == before[0] + 1
    page.click(".board3d-tools .tool-drop")
    expect(board.button(piece)).to_have_attribute("data-state", "placed")
    shot(page, "3d-phone")


def test_mouse_takes_moves_and_puts_down(page: Page, server: ServerProcess) -> None:
    board = start_solo_3d(page, server, "green")
    piece = board.pieces()[0]
    stage = page.locator(".game-main .board3d-stage")
    box = stage.bounding_box()
    assert box is not None
    page.click(f'.tray-piece[data-piece="{piece}"]')
    expect(board.root).to_have_attribute("data-held", piece)
    # the piece in hand follows the mouse: far left of the board, then the middle
    page.mouse.move(box["x"] + 0.12 * box["width"], box["y"] + 0.6 * box["height"])
    _, _, left = board.state(piece)
    page.mouse.move(box["x"] + 0.5 * box["width"], box["y"] + 0.6 * box["height"])
    _, _, middle = board.state(piece)
    assert left is not None and middle is not None and left[0] < middle[0]
    page.mouse.click(box["x"] + 0.5 * box["width"], box["y"] + 0.6 * box["height"])
    expect(board.button(piece)).to_have_attribute("data-state", "placed")
    assert board.state(piece)[2] == middle
    # a click on the piece (where it was put down) takes it off the board again
    page.mouse.click(box["x"] + 0.5 * box["width"], box["y"] + 0.6 * box["height"])
    expect(board.root).to_have_attribute("data-held", piece)
    # dragging the background turns the camera, it does not put the piece down. The piece in
    # hand follows the pointer into the corner (as near as it may go), where it can lie under
    # the press and be grabbed instead: the keys take it back to the middle first
    page.mouse.move(box["x"] + 40, box["y"] + 40)
    _, _, cornered = board.state(piece)
    assert cornered is not None and cornered[0] <= middle[0] and cornered[1] <= middle[1], cornered
    for _ in range(middle[0] - cornered[0]):
        page.keyboard.press("ArrowRight")
    for _ in range(middle[1] - cornered[1]):
        page.keyboard.press("ArrowDown")
    assert board.state(piece)[2] == middle
    page.mouse.down()
    page.mouse.move(box["x"] + 240, box["y"] + 60, steps=8)
    page.mouse.up()
    expect(board.root).to_have_attribute("data-held", piece)
    assert board.state(piece)[2] == middle
    shot(page, "3d-mouse-orbit")


def short_label(piece: str) -> str:
    """The label a 3D piece carries on screen: colour initial and number of cubes (R4)."""
    entry = ENTRIES[piece]
    return f"{(entry['colour_name'] or entry['id'])[0].upper()}{entry['size']}"


def test_room_unfinished_player_sees_a_solution_and_a_spectator_watches(
    browser: Browser, server: ServerProcess
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    create_room(page, server, "Ada", "3d", side="green")
    invite = page.locator("#invite").input_value()
    page.select_option("#set-rounds", "1")
    expect(page.locator("#set-rounds")).to_have_value("1")
    page.select_option("#set-time", "15")
    expect(page.locator("#set-time")).to_have_value("15")
    page.click('button[data-add-bot="easy"]')
    expect(page.locator(".seat.bot")).to_have_count(1)
    expect(page.locator("#ready")).to_have_count(0)  # a host alone with bots just starts
    page.click("#start")
    board = Board3D(page)
    pieces = board.pieces()
    assert len(pieces) == 3

    # a spectator on a phone opens the invite link: both 3D tables, no board to play on
    watcher = new_page(browser, errors, width=420, height=860)
    watcher.goto(invite)
    watcher.click("#spectate")
    expect(watcher.locator(".watching .table")).to_have_count(2)
    expect(watcher.locator(".watching .table svg.area-iso")).to_have_count(2)
    expect(watcher.locator('.watching .table[data-seat="0"] .piece-iso')).to_have_count(3)
    expect(watcher.locator(".board3d")).to_have_count(0)
    expect(watcher.locator("#ubongo")).to_have_count(0)
    shot(watcher, "3d-room-spectator-phone")

    # Ada takes one piece and puts it down, but does not finish before the hourglass runs out
    page.locator(".game-main .board3d-stage").focus()
    page.keyboard.press("1")
    page.keyboard.press("Enter")
    expect(board.button(pieces[0])).to_have_attribute("data-state", "placed")
    result = page.locator(".round-result")
    # the bot may miss too: then a second chance of the same length comes first
    expect(result).to_be_visible(timeout=60_000)
    solution = result.locator('.solution[data-seat="0"] svg.solution-iso')
    expect(solution).to_be_visible()
    expect(result.locator(".solution h3")).to_have_text("A solution of your task")
    # both levels drawn, and every piece of her task labelled in its colour
    expect(solution.locator(".iso-level")).to_have_count(2)
    labels = set(solution.locator(".iso-label").all_text_contents())
    assert labels == {short_label(p) for p in pieces}, labels
    animations_done(result)
    shot(page, "3d-room-solution")

    expect(watcher.locator(".round-result")).to_be_visible()
    watched = watcher.locator('.round-result .solution[data-seat="0"] svg.solution-iso')
    expect(watched).to_be_visible()
    shot(watcher, "3d-room-spectator-result-phone")
    watcher.context.close()
    page.context.close()
    assert not errors, errors


def test_mouse_wheel_turns_the_piece_in_hand(page: Page, server: ServerProcess) -> None:
    board = start_solo_3d(page, server, "green")
    first, second = board.pieces()[:2]
    stage = page.locator(".game-main .board3d-stage")
    box = stage.bounding_box()
    assert box is not None
    # every wheel event that reaches the page, read back once handled: did the board keep it?
    page.evaluate(
        "window.wheels = []; addEventListener('wheel', e => wheels.push(e), {capture: true})"
    )

    def wheel(dy: float) -> bool:
        """One real wheel notch over the stage; whether the page was kept from scrolling."""
        page.mouse.wheel(0, dy)
        page.wait_for_function("wheels.length > 0")
        prevented: list[bool] = page.evaluate("wheels.splice(0).map(e => e.defaultPrevented)")
        assert len(prevented) == 1, prevented
        return prevented[0]

    def transform(piece: str) -> int:
        return board.state(piece)[1]

    # nothing in hand (one piece on the board, the rest in the tray): the wheel is the page's
    page.keyboard.press("1")
    page.keyboard.press("Enter")
    expect(board.button(first)).to_have_attribute("data-state", "placed")
    page.mouse.move(box["x"] + 0.5 * box["width"], box["y"] + 0.6 * box["height"])
    before = [board.state(p) for p in board.pieces()]
    assert not wheel(100)
    assert not wheel(-100)
    assert [board.state(p) for p in board.pieces()] == before
    expect(board.root).to_have_attribute("data-held", "")

    # a piece in hand, in an orientation that a spin changes (a flat square would not)
    page.keyboard.press("2")
    expect(board.root).to_have_attribute("data-held", second)
    for k in "tyty":
        if turn(shape_of(second, transform(second)), "r") != shape_of(second, transform(second)):
            break
        press_turn(page, k)
    start = transform(second)
    assert turn(shape_of(second, start), "r") != shape_of(second, start)
    # what R does from here, then back
    press_turn(page, "r")
    spun = transform(second)
    assert shape_of(second, spun) == turn(shape_of(second, start), "r")
    press_turn(page, "R")
    assert transform(second) == start

    # a notch towards the player spins as R does, away from the player as Shift+R
    assert wheel(100)
    expect(board.button(second)).to_have_attribute("data-transform", str(spun))
    assert wheel(-100)
    expect(board.button(second)).to_have_attribute("data-transform", str(start))
    # Shift+wheel tips as T does
    page.keyboard.down("Shift")
    assert wheel(100)
    page.keyboard.up("Shift")
    tipped = transform(second)
    assert shape_of(second, tipped) == turn(shape_of(second, start), "t")
    press_turn(page, "T")
    assert transform(second) == start
    # Ctrl+wheel (a trackpad's pinch) is the camera's zoom: it turns nothing
    page.keyboard.down("Control")
    assert wheel(100)
    page.keyboard.up("Control")
    assert transform(second) == start

    # a trackpad's swipe: many small deltas (50 px in all) turn the piece once, not once each
    page.eval_on_selector(
        ".game-main .board3d-canvas",
        """canvas => { for (let i = 0; i < 10; i++) canvas.dispatchEvent(
            new WheelEvent("wheel", {deltaY: 5, bubbles: true, cancelable: true})) }""",
    )
    expect(board.button(second)).to_have_attribute("data-transform", str(spun))
    expect(board.root).to_have_attribute("data-held", second)
    shot(page, "3d-wheel-turned")
