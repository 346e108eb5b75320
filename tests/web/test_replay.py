"""A game against a bot, watched live from another browser's home page (the live games' list)
and, once over, replayed from the game's end ("Watch the replay", ``/replay/<id>``): the
timeline is scrubbed with the buttons, the keyboard and the range, and the placements Ada made
are drawn on her area at her finishing step.

Ada's device creates the room through the API with a short hourglass (the lobby offers 15 s
and more; see test_playoff.py) and her page opens it with the seat it got.
"""

from __future__ import annotations

import re

from axe import assert_accessible
from playwright.sync_api import Browser, expect
from server_harness import ServerProcess
from webharness import new_page, open_room, shot
from webplay import board_task, solve_and_call, to_the_end


def test_a_game_is_watched_live_and_replayed(browser: Browser, server: ServerProcess) -> None:
    errors: list[str] = []
    ada = new_page(browser, errors)
    # 30 s: the bot's times scale with the hourglass (docs/bots.md), and Ada must finish before it
    # runs out even when Carl's page takes its time on a loaded machine (8 s lost that race in CI)
    code = open_room(ada, server, "Ada", hourglass_seconds=30, between_seconds=2, rounds=1)
    ada.click('button[data-add-bot="easy"]')
    expect(ada.locator(".seat.bot")).to_have_count(1)
    expect(ada.locator("#ready")).to_have_count(0)  # a host alone with bots just starts
    expect(ada.locator("#start")).to_be_enabled()
    ada.click("#start")
    expect(ada.locator(".game-main .board-svg")).to_be_visible()
    expect(ada.locator("#round-no")).to_have_text("Round 1 of 1")
    area, pieces = board_task(ada)

    # Carl's home page lists the game; "Watch" opens it as a spectator, no name asked
    carl = new_page(browser, errors)
    carl.goto(server.url + "/")
    row = carl.locator(f'.live-room[data-code="{code}"]')
    expect(row).to_contain_text("Ada")
    expect(row).to_contain_text("round 1 of 1")
    row.scroll_into_view_if_needed()
    shot(carl, "home-live-games")
    row.locator("a.watch").click()
    expect(carl).to_have_url(re.compile(rf"/room/{code}\?watch$"))
    expect(carl.locator(".watching .table")).to_have_count(2)
    expect(carl.locator("#take-seat")).to_have_count(0)

    # Ada solves her task (and the playoff, if the bot's gems tie hers)
    solve_and_call(ada)
    # the round ends when the bot finishes too, or when the hourglass runs out
    played_off = to_the_end(ada)
    expect(carl.locator("#winner")).to_be_visible(timeout=20_000)
    # the list forgets a finished game
    carl.goto(server.url + "/")
    expect(carl.locator("#live-list")).to_be_visible()
    expect(carl.locator(f'.live-room[data-code="{code}"]')).to_have_count(0)

    # the game's end links to its replay
    link = ada.locator("#watch-replay")
    expect(link).to_have_attribute("href", re.compile(r"^/replay/\d+$"))
    link.click()
    expect(ada).to_have_url(re.compile(r"/replay/\d+$"))
    game_id = ada.url.rsplit("/", 1)[-1]
    expect(ada.locator("#replay-link")).to_have_text(f"{server.url}/replay/{game_id}")
    timeline = ada.locator("#replay-timeline")
    expect(timeline).to_have_attribute("aria-label", "Timeline")
    expect(ada.locator("#replay-prev")).to_be_disabled()
    # the first step: every task dealt, nothing placed; Ada's is the one her board showed
    expect(ada.locator("#replay-caption")).to_contain_text("Step 1 of")
    expect(ada.locator(".replay-table")).to_have_count(2)
    mine = ada.locator('.replay-table[data-seat="0"]')
    cells = mine.locator("[data-area-cell]").evaluate_all("els => els.map(e => e.dataset.areaCell)")
    assert frozenset(tuple(int(v) for v in c.split(",")) for c in cells) == area
    expect(mine.locator("g[data-piece]")).to_have_count(0)
    expect(mine.locator(".table-pieces svg")).to_have_count(len(pieces))
    shot(ada, "replay-start")

    # the keyboard steps on until Ada has finished: her placements are drawn on her area
    for _ in range(8):
        if mine.get_attribute("data-outcome") == "finished":
            break
        ada.locator("body").press("ArrowRight")
    expect(mine).to_have_attribute("data-outcome", "finished")
    expect(mine.locator("g[data-piece]")).to_have_count(len(pieces))
    expect(mine.locator(".table-state")).to_contain_text(re.compile(r"finished \d\w\w at \d:\d\d"))
    expect(ada.locator("#replay-caption")).to_contain_text("Ada finished")
    shot(ada, "replay-finish")

    # the range's End key jumps to the end: the winner, gems won and the scores
    timeline.focus()
    timeline.press("End")
    expect(ada.locator("#replay-next")).to_be_disabled()
    expect(ada.locator("#replay-winner")).to_contain_text("wins")
    if not played_off:  # a playoff's round hands out no gems: the last round shows none
        expect(ada.locator(".replay-end .award").first).to_be_visible()
    expect(ada.locator(".replay-scores").first.locator("tbody tr")).to_have_count(2)
    ada.locator(".replay-end").scroll_into_view_if_needed()
    shot(ada, "replay-end")
    # the round's analysis: each task's solutions, a median player's time, one solution shown
    analysed = ada.locator(".replay-analysis .task-analysis")
    expect(analysed).to_have_count(2)
    expect(analysed.first).to_contain_text(re.compile(r"\d+ solutions?|more than 200"))
    expect(analysed.first).to_contain_text(re.compile(r"a median player: \d+ s"))
    analysed.first.locator("button.show-solution").click()
    expect(analysed.first.locator(".analysis-solution svg")).to_be_visible()
    expect(analysed.first.locator("button.show-solution")).to_have_text("Hide the solution")
    shot(ada, "replay-analysis")
    # and "Previous" steps back from there
    last = ada.locator("#replay-caption").inner_text()
    ada.click("#replay-prev")
    expect(ada.locator("#replay-caption")).not_to_have_text(last)
    expect(ada.locator("#replay-next")).to_be_enabled()
    ada.click("#copy-replay-link")
    expect(ada.locator("#toast")).to_contain_text(re.compile(r"copied|/replay/"))
    # in German too, each button is named by the words it shows (axe)
    ada.select_option("#language", "de")
    expect(ada.locator("#replay-prev")).to_contain_text("Zurück")
    assert_accessible(ada, "replay (German)")
    ada.select_option("#language", "en")

    # the game downloaded as a file, and opened again: the same replay, rebuilt from the file
    with ada.expect_download() as got:
        ada.click("#download-game")
    saved = got.value.path()
    ada.click("#open-game-file")
    ada.set_input_files("#game-file", saved)
    expect(ada.locator("#replay-timeline")).to_be_visible()
    ada.locator("#replay-timeline").press("End")
    expect(ada.locator("#replay-winner")).to_contain_text("wins")

    # an unknown game: a clear page, not a crash
    ada.goto(f"{server.url}/replay/99999999")
    expect(ada.locator("h1")).to_have_text("There is no such game")
    assert not errors, errors
