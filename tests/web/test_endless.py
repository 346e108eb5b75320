"""Endless solo in the browser: three tasks solved fast, each chosen for a rating that rises,
then the player stops."""

from __future__ import annotations

from playwright.sync_api import Page, expect
from server_harness import ServerProcess
from webharness import shot
from webplay import board_task, drag_solution, wait_for_new_task


def ratings(page: Page) -> tuple[float, float]:
    """The player's rating and the task's, as the side panel shows them."""
    player = page.locator("#endless-player strong").inner_text()
    task = page.locator("#endless-task strong").get_attribute("data-rating")
    assert task is not None
    return float(player), float(task)


def test_three_endless_tasks_get_harder_after_fast_solves(
    page: Page, server: ServerProcess
) -> None:
    page.goto(server.url + "/")
    page.fill("#name", "Endo")
    page.click('button.edition[data-edition="classic"]')
    page.select_option("#solo-goal", "endless")
    expect(page.locator("#solo-amount")).to_be_hidden()
    expect(page.locator("#endless-about")).to_be_visible()
    page.click("#start-solo")
    expect(page.locator(".game-main .board-svg")).to_be_visible()
    expect(page.locator("#endless-rating")).to_contain_text("rating 1500")
    # rated: no hint button at all (a dead one showed, its [hidden] beaten by a flex rule), but
    # a task may be given up; and nothing hidden shows anywhere on the page
    expect(page.locator("#give-up")).to_be_visible()
    expect(page.locator("#hint")).to_have_count(0)
    shown = page.evaluate(
        "() => [...document.querySelectorAll('[hidden]')]"
        ".filter((e) => getComputedStyle(e).display !== 'none')"
        ".map((e) => e.outerHTML.slice(0, 80))"
    )
    assert shown == []
    seen = []
    for done in range(3):
        expect(page.locator("#solo-count")).to_contain_text(f"Solved {done}")
        seen.append(ratings(page))
        before = board_task(page)
        drag_solution(page, "classic")
        expect(page.locator("#solo-count")).to_contain_text(f"Solved {done + 1}")
        if done == 1:
            shot(page, "endless-classic-second")
        wait_for_new_task(page, before)
    # fast solves: the player's rating rose, and the third task is harder than the first
    assert seen[0][0] == 1500.0
    assert seen[1][0] > seen[0][0] and seen[2][0] > seen[1][0]
    assert seen[2][1] > seen[0][1], seen
    shot(page, "endless-classic-third")
    page.click("#stop")
    expect(page.locator("#solo-result")).to_contain_text("3 solved")
    expect(page.locator("#endless-final")).to_contain_text("Your rating")
    shot(page, "endless-end")
