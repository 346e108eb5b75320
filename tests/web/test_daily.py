"""The daily challenge and practice in the browser: the home screen offers today's challenge
(with yesterday's winners), the run plays the day's five tasks and ends with the result to
share (Copy); practice gives hints that put a piece on the board, and giving up shows the
solution."""

from __future__ import annotations

import json
import re
import urllib.request

from playwright.sync_api import Page, expect
from server_harness import ServerProcess, today
from webharness import shot
from webplay import board_task, drag_solution, solution, wait_for_new_task


def daily_areas(server: ServerProcess, edition_name: str) -> list[frozenset[tuple[int, ...]]]:
    url = f"{server.url}/api/daily?edition={edition_name}&date={today().isoformat()}"
    with urllib.request.urlopen(url, timeout=30) as r:
        tasks = json.loads(r.read())["tasks"]
    return [frozenset(tuple(c) for c in t["area"]) for t in tasks]


def test_the_daily_challenge_is_played_and_its_result_copied(
    page: Page, server: ServerProcess
) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    areas = daily_areas(server, "classic")
    page.goto(server.url + "/")
    page.fill("#name", "Daisy")
    page.click('button.edition[data-edition="classic"]')
    expect(page.locator("#start-daily")).to_contain_text("today's Classic challenge")
    expect(page.locator(".daily-board caption")).to_contain_text("Yesterday's winners")
    shot(page, "home-daily")
    page.click("#start-daily")
    expect(page.locator("#solo-count")).to_contain_text("Daily · task 1 of 5")
    # the rated run has no help
    expect(page.locator("#hint")).to_have_count(0)
    expect(page.locator("#give-up")).to_have_count(0)
    for n in range(5):
        expect(page.locator("#solo-count")).to_contain_text(f"task {n + 1} of 5")
        cells, _pieces = board_task(page)
        assert cells == areas[n], "the day's tasks, in their order"
        if n == 1:
            before = board_task(page)
            page.click("#skip")
            if n < 4:
                wait_for_new_task(page, before)
            continue
        drag_solution(page, "classic")
    expect(page.locator("#solo-result")).to_contain_text("4 of 5")
    share = page.locator("#share-text")
    expect(share).to_contain_text("Ubongo Classic daily")
    text = share.inner_text()
    assert text.splitlines()[1].split(" · ")[1] == "✗", text
    # the browser's account (made on this first visit) plays its first daily run: rated
    expect(page.locator("#daily-rated")).to_contain_text("On the leaderboard")
    shot(page, "daily-end")
    # the text carries the link to play the same tasks
    assert text.splitlines()[-1] == server.url + "/", text
    page.click("#copy-share")
    expect(page.locator("#toast")).to_contain_text("Copied")
    expect(page.locator("#copy-share")).to_have_text("Copied ✓")
    assert page.evaluate("navigator.clipboard.readText()") == text
    # back home: the counted run is said, and another is offered as not counted
    page.goto(server.url + "/")
    page.click('button.edition[data-edition="classic"]')
    expect(page.locator("#daily-mine")).to_contain_text("Your run today counted: 4 of 5")
    expect(page.locator("#start-daily")).to_contain_text("again (not counted)")
    # in German, days are German ("26.11.2026"), not the server's 2026-11-26
    page.select_option("#language", "de")
    caption = page.locator(".daily-board caption")
    expect(caption).to_contain_text("Die Sieger von gestern")
    expect(caption).to_have_text(re.compile(r"\(\d{1,2}\.\d{1,2}\.\d{4}\)"))
    page.select_option("#language", "en")


def test_practice_hints_put_pieces_on_the_board_and_giving_up_shows_a_solution(
    page: Page, server: ServerProcess
) -> None:
    page.goto(server.url + "/")
    page.fill("#name", "Pat")
    page.click('button.edition[data-edition="extreme"]')
    page.select_option("#solo-goal", "practice")
    expect(page.locator("#solo-amount")).to_be_hidden()
    page.click("#start-solo")
    expect(page.locator("#solo-count")).to_contain_text("Practice · Solved 0")
    # (waits for the first task: a fresh game's cards are made as it starts)
    pieces = [pl.piece for pl in solution(page, "extreme")]
    placed = page.locator(".game-main g[data-state=placed]")
    expect(placed).to_have_count(0)
    # the button is reached with the keyboard too
    page.focus("#hint")
    page.keyboard.press("Enter")
    expect(placed).to_have_count(1)
    expect(page.locator(".game-main .board-status")).to_contain_text("Hint: piece")
    shot(page, "practice-hint")
    # hint after hint, the pieces come from one solution: the last one covers the area
    for n in range(2, len(pieces) + 1):
        page.click("#hint")
        if n < len(pieces):
            expect(placed).to_have_count(n)
    expect(page.locator("main.room")).to_have_attribute("data-last-verdict", "covered")
    expect(page.locator("#solo-count")).to_contain_text("Solved 1")
    expect(page.locator("#solo-count")).to_contain_text(f"{len(pieces)} hints")
    # giving up: the whole solution over the next task, which counts as not solved
    expect(placed).to_have_count(0)
    before = board_task(page)
    page.click("#give-up")
    dialog = page.locator(".overlay.gave-up")
    expect(dialog).to_contain_text("A solution of the task you gave up")
    expect(dialog.locator("svg")).to_be_visible()
    expect(page.locator("#solo-count")).to_contain_text("skipped 1")
    shot(page, "practice-gave-up")
    page.click("#next-task")
    expect(dialog).to_have_count(0)
    wait_for_new_task(page, before)
