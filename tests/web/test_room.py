"""Two people in two browsers and a bot play a room game to the end; a reload mid-round
resumes the same round with the same pieces where they were."""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, expect
from server_harness import ServerProcess
from webharness import animations_done, create_room, join_room, new_page, shot
from webplay import drag_into_place, drag_solution, solution, to_the_end


def test_room_game_with_two_people_and_a_bot(browser: Browser, server: ServerProcess) -> None:
    errors: list[str] = []
    ada = new_page(browser, errors)
    bob = new_page(browser, errors)
    # a phone-sized second player, to see the small-screen layout too
    bob.set_viewport_size({"width": 420, "height": 860})

    create_room(ada, server, "Ada", "classic")
    invite = ada.locator("#invite").input_value()
    assert re.search(r"/room/[A-Z0-9]+$", invite), invite

    # short game: two rounds, a 30 s hourglass (a spectator arrives, Bob reloads and Ada solves
    # in the first round: with 15 s, a busy machine's run ended it first, the CI loop's run 57);
    # an easy bot takes the third seat
    ada.select_option("#set-rounds", "2")
    expect(ada.locator("#set-rounds")).to_have_value("2")
    ada.select_option("#set-time", "30")
    expect(ada.locator("#set-time")).to_have_value("30")
    ada.click('button[data-add-bot="easy"]')
    expect(ada.locator(".seat.bot")).to_have_count(1)

    join_room(bob, invite, "Bob")
    expect(ada.locator(".seat.person")).to_have_count(2)
    expect(ada.locator("#watchers")).to_have_count(0)  # nobody watches yet: nothing shown
    bob.click("#ready")
    ada.click("#ready")
    expect(ada.locator("#start")).to_be_enabled()
    shot(ada, "room-lobby")
    shot(bob, "room-lobby-phone")
    ada.click("#start")

    for page in (ada, bob):
        expect(page.locator(".game-main .board-svg")).to_be_visible()
        expect(page.locator("#round-no")).to_have_text("Round 1 of 2")
    expect(ada.locator(".game-top .key-badge")).to_contain_text("Die")
    shot(ada, "room-game")
    shot(bob, "room-game-phone")

    # a spectator opens the invite link during the game: every table, nothing to move
    carl = new_page(browser, errors)
    carl.goto(invite)
    expect(carl.locator("#take-seat")).to_be_disabled()
    carl.click("#spectate")
    expect(carl.locator(".watching .table")).to_have_count(3)
    expect(carl.locator(".watching .table .area-picture")).to_have_count(3)
    bob_seat = bob.locator(".players .player.me").get_attribute("data-seat")
    bob_table = carl.locator(f'.watching .table[data-seat="{bob_seat}"]')
    expect(bob_table.locator("figcaption")).to_contain_text("Bob")
    expect(carl.locator("#ubongo")).to_have_count(0)
    expect(carl.locator(".game-main .board-tools")).to_have_count(0)
    expect(carl.locator(".game-main g[data-piece]")).to_have_count(0)
    expect(carl.locator(".players .player")).to_have_count(3)
    # the players see, live, that someone is watching
    for page in (ada, bob, carl):
        expect(page.locator(".game-top #watchers")).to_have_text("1 watching")
    shot(carl, "room-spectator")
    shot(ada, "room-game-watched")

    # Bob puts one piece down, then reloads: same round, same task, the piece still there
    bob_plan = solution(bob, "classic")
    drag_into_place(bob, "classic", bob_plan[0])
    area_before = bob.eval_on_selector_all(
        ".game-main [data-area-cell]", "els => els.map(e => e.dataset.areaCell)"
    )
    bob.reload()
    expect(bob.locator(".game-main .board-svg")).to_be_visible()
    expect(bob.locator("#round-no")).to_have_text("Round 1 of 2")
    area_after = bob.eval_on_selector_all(
        ".game-main [data-area-cell]", "els => els.map(e => e.dataset.areaCell)"
    )
    assert area_after == area_before
    moved = bob.locator(f'.game-main g[data-piece="{bob_plan[0].piece}"]')
    expect(moved).to_have_attribute("data-state", "placed")

    # Ada solves her task and is among the finishers
    drag_solution(ada, "classic")
    expect(ada.locator("main.room")).to_have_attribute("data-last-verdict", "covered")
    expect(ada.locator(".game-main .board-status")).to_contain_text(re.compile(r"finished \d"))
    expect(bob.locator('.player[data-seat="0"] .player-state')).to_contain_text("finished")
    expect(carl.locator('.watching .table[data-seat="0"] .table-state')).to_contain_text("finished")
    shot(bob, "room-opponent-finished-phone")

    # the hourglass runs out: Bob sees the round result with a solution of his task
    for page in (ada, bob):
        expect(page.locator(".round-result")).to_be_visible(timeout=30_000)
    expect(bob.locator(".round-result .finish-order")).to_contain_text("Ada")
    expect(bob.locator(".round-result .solution svg")).to_be_visible()
    expect(ada.locator(".round-result .award").first).to_be_visible()
    animations_done(ada.locator(".round-result"))  # the gems drop in one by one
    # the rewards explained: gems drawn with their values, the points, what happened and why
    values = {"ruby": "4", "sapphire": "3", "emerald": "2", "amber": "1"}
    ada_row = ada.locator('.round-result .award[data-seat="0"]')
    gems = ada_row.locator(".gem")
    assert gems.count() >= 1
    points = 0
    for i in range(gems.count()):
        name = gems.nth(i).get_attribute("data-gem") or ""
        expect(gems.nth(i).locator(".gem-letter")).to_have_text(values[name])
        expect(gems.nth(i)).to_have_attribute("aria-label", re.compile(rf"{values[name]} points?$"))
        points += int(values[name])
    expect(ada_row.locator(".award-points")).to_have_text(f"+{points} points")
    expect(ada_row.locator(".award-why")).to_have_text(
        re.compile(r"^Ada solved (first|second|third): .*(from the display|from the bag)")
    )
    shot(ada, "room-round-result")
    shot(bob, "room-round-result-phone")
    # the spectator sees the results too, with a solution of Bob's task
    expect(carl.locator(".round-result .finish-order")).to_contain_text("Ada")
    expect(carl.locator(f'.round-result .solution[data-seat="{bob_seat}"] svg')).to_be_visible()
    expect(carl.locator('.round-result .solution[data-seat="0"]')).to_have_count(0)
    shot(carl, "room-spectator-round-result")

    # round 2: Ada solves again; then the game ends with scores, a winner and the last round
    expect(ada.locator("#round-no")).to_have_text("Round 2 of 2", timeout=20_000)
    expect(ada.locator(".round-result")).to_have_count(0)
    drag_solution(ada, "classic")
    # level on points with the bot? then a playoff decides (rulebook), which Ada plays too: it
    # shows after the rest of the 30 s hourglass and the 6 s between rounds (a 30 s wait from
    # Ada's last piece was too short where she solved fast: CI's run on 567492d)

    def play_off(page: Page) -> None:
        shot(page, "room-playoff")
        drag_solution(page, "classic")

    to_the_end(ada, "classic", play=play_off)
    expect(carl.locator("#winner")).to_be_visible(timeout=20_000)
    expect(carl.locator("#rematch")).to_have_count(0)
    for page in (ada, bob):
        expect(page.locator("#winner")).to_be_visible(timeout=20_000)
        expect(page.locator("table.scores tbody tr")).to_have_count(3)
        expect(page.locator(".game-end .last-round .finish-order")).to_contain_text("Ada")
    expect(ada.locator("#winner")).to_contain_text("wins")
    # the final table says how points come from gems: each gem's value, and each sum
    expect(ada.locator(".scoring-note .gem-key")).to_contain_text("blue sapphire (3)")
    expect(ada.locator(".scoring-note .gem-key .gem")).to_have_count(4)
    expect(ada.locator(".game-end .points-sum").first).to_contain_text("×")
    shot(ada, "room-game-end")
    ada.click("#rematch")
    for page in (ada, bob):
        expect(page.locator(".lobby")).to_be_visible()
    # back in the lobby the spectator still watches; when they close the page, the count goes
    expect(ada.locator(".lobby #watchers")).to_have_text("1 watching")
    shot(ada, "room-lobby-watched")
    carl.context.close()
    for page in (ada, bob):
        expect(page.locator(".lobby #watchers")).to_have_count(0)
    assert not errors, errors
    ada.context.close()
    bob.context.close()
