"""A new player opens the home page, starts a solo task and solves it by dragging pieces."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect
from server_harness import ServerProcess
from webharness import shot
from webplay import (
    board_task,
    centre,
    drag_into_place,
    drag_solution,
    keyboard_into_place,
    solution,
    wait_for_new_task,
)

from ubongo.catalogue import edition_catalogue


def start_solo(
    page: Page, server: ServerProcess, edition_name: str, side: str | None = None
) -> None:
    page.goto(server.url + "/")
    expect(page.locator("h1")).to_have_text("Ubongo")
    page.fill("#name", "Ada")
    page.click(f'button.edition[data-edition="{edition_name}"]')
    expect(page.locator(".howto h2")).to_contain_text("How to play")
    expect(page.locator(".howto-piece")).not_to_have_count(0)
    if side:
        page.select_option("#side", side)
    shot(page, f"home-{edition_name}")
    page.click("#start-solo")
    expect(page.locator(".game-main .board-svg")).to_be_visible()
    expect(page.locator("#solo-count")).to_contain_text("Solved 0")


@pytest.mark.parametrize("edition_name", ["classic", "extreme", "trigo"])
def test_solo_task_solved_by_dragging(page: Page, server: ServerProcess, edition_name: str) -> None:
    start_solo(page, server, edition_name)
    shot(page, f"solo-{edition_name}-task")
    placements = solution(page, edition_name)

    # one piece down is not a cover: the server says why not, and play goes on
    drag_into_place(page, edition_name, placements[0])
    page.click("#ubongo")
    status = page.locator(".game-main .board-status")
    expect(status).to_have_attribute("data-kind", "bad")
    expect(status).to_contain_text(re.compile("not placed"))
    shot(page, f"solo-{edition_name}-why-not")

    for pl in placements[1:-1]:
        drag_into_place(page, edition_name, pl)
    shot(page, f"solo-{edition_name}-almost")
    # the last piece covers the area: the client sends it by itself
    drag_into_place(page, edition_name, placements[-1], last=True)
    expect(page.locator("main.room")).to_have_attribute("data-last-verdict", "covered")
    expect(page.locator("#solo-count")).to_contain_text("Solved 1")
    shot(page, f"solo-{edition_name}-ubongo")
    # a new task is dealt, with every piece back in the tray
    expect(page.locator(".game-main g[data-state=placed]")).to_have_count(0)


def test_keyboard_play_and_skip(page: Page, server: ServerProcess) -> None:
    start_solo(page, server, "classic", side="B")
    before = board_task(page)
    page.click("#skip")
    expect(page.locator("#solo-count")).to_contain_text("skipped 1")
    wait_for_new_task(page, before)
    placements = solution(page, "classic")
    order = page.eval_on_selector_all(
        ".game-main g[data-piece]", "els => els.map(e => e.dataset.piece)"
    )
    for i, pl in enumerate(placements):
        last = i == len(placements) - 1
        keyboard_into_place(page, "classic", pl, order.index(pl.piece), last=last)
    expect(page.locator("main.room")).to_have_attribute("data-last-verdict", "covered")
    expect(page.locator("#solo-count")).to_contain_text("Solved 1")


def test_back_to_the_tray_tap_to_place_and_overhang_shown(
    page: Page, server: ServerProcess
) -> None:
    start_solo(page, server, "extreme")
    placements = solution(page, "extreme")
    pl = placements[0]
    drag_into_place(page, "extreme", pl)
    g = page.locator(f'.game-main g[data-piece="{pl.piece}"]')
    # the piece's tray slot stays, drawn as its outline; a tap there puts the piece back
    slot = page.locator(f'.game-main .tray-slot[data-slot="{pl.piece}"]')
    expect(slot).to_have_count(1)
    expect(page.locator(".game-main .tray-slot")).to_have_count(1)
    shot(page, "solo-extreme-tray-slot")
    x, y = centre(page, f'.game-main .tray-slot[data-slot="{pl.piece}"] polygon')
    page.mouse.click(x, y)
    expect(g).to_have_attribute("data-state", "tray")
    expect(slot).to_have_count(0)
    # touch: the piece is still selected; a tap on the area puts its first cell there
    cat = edition_catalogue("extreme")
    first = next(p for p in cat["pieces"] if p["id"] == pl.piece)["shapes"][str(pl.transform)][0]
    target = ",".join(str(c + o) for c, o in zip(first, pl.offset, strict=True))
    x, y = centre(page, f'.game-main polygon[data-area-cell="{target}"]')
    page.mouse.click(x, y)
    expect(g).to_have_attribute("data-offset", ",".join(map(str, pl.offset)))
    # moved off to the left it hangs out of the area: shown, not forbidden
    for _ in range(4):
        page.keyboard.press("ArrowLeft")
    expect(page.locator(".game-main .mark-outside").first).to_be_visible()
    shot(page, "solo-extreme-overhang")
    page.keyboard.press("Escape")
    expect(g).to_have_attribute("data-state", "tray")


def test_solo_run_of_five_tasks_ends_with_a_record(page: Page, server: ServerProcess) -> None:
    page.goto(server.url + "/")
    page.fill("#name", "Runner")
    page.click('button.edition[data-edition="classic"]')
    page.select_option("#solo-goal", "tasks")
    page.select_option("#solo-amount", "5")
    page.click("#start-solo")
    # the first task is put aside (the rulebook allows it; the clock runs on); its cards are
    # made as the run starts (seconds on a busy machine)
    solution(page, "classic")
    before = board_task(page)
    page.click("#skip")
    expect(page.locator("#solo-count")).to_contain_text("skipped 1")
    wait_for_new_task(page, before)
    for done in range(5):
        expect(page.locator("#solo-count")).to_contain_text(f"Solved {done} / 5")
        drag_solution(page, "classic")
    # the run is over: the result says the skip (not "5 of 5"), and so do the leaderboard
    # with this run and the personal bests
    expect(page.locator("#solo-result")).to_have_text(re.compile(r"^5 solved in \d+:\d\d$"))
    expect(page.locator("#solo-skips")).to_contain_text("1 task put aside: 6 drawn, 5 solved.")
    expect(page.locator("#solo-skips")).to_contain_text("the clock keeps running")
    mine = page.locator("table.leaderboard tr", has_text="Runner")
    expect(mine.locator("td.skips")).to_have_text("1 skipped")
    expect(page.locator("table.bests")).to_contain_text("Classic A, 5 tasks")
    expect(page.locator("table.bests td.skips")).to_have_text("1 skipped")
    shot(page, "solo-end")
    page.click("a.button[href='/']")
    expect(page.locator(".home-records table.leaderboard")).to_contain_text("Runner")
    shot(page, "home-with-records")


def test_a_timed_run_can_be_stopped_and_is_then_not_ranked(
    page: Page, server: ServerProcess
) -> None:
    page.goto(server.url + "/")
    page.fill("#name", "Stopper")
    page.click('button.edition[data-edition="classic"]')
    page.select_option("#solo-goal", "time")
    page.click("#start-solo")
    expect(page.locator(".game-main .board-svg")).to_be_visible()
    drag_solution(page, "classic")
    expect(page.locator("#solo-count")).to_contain_text("Solved 1")
    # a timed run has a Stop beside Skip (it had only the home link, its clock running on)
    page.click("#stop")
    expect(page.locator(".solo-end h1")).to_have_text("Stopped.")
    expect(page.locator("#solo-result")).to_have_text("1 solved")
    expect(page.locator("#solo-stopped")).to_contain_text("not on the leaderboard")
    expect(page.locator("table.leaderboard")).to_be_visible()
    expect(page.locator("table.leaderboard tr", has_text="Stopper")).to_have_count(0)
    shot(page, "solo-stopped")
