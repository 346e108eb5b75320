"""A card edition in a room (Extreme): the first finisher starts the countdown, shown in step
with the server; the round result says who keeps a card and who hands one over; the game ends
with a winner. One person against an easy bot, with a 10 s countdown."""

from __future__ import annotations

import re
import time

from playwright.sync_api import Browser, Page, expect
from server_harness import ServerProcess
from webharness import create_room, new_page, shot
from webplay import drag_solution


def solve_on_page(page: Page) -> None:
    drag_solution(page, "extreme")


def shown_seconds(page: Page) -> int:
    text = page.locator("#timer .timer-text").inner_text()
    m = re.fullmatch(r"(\d+):(\d\d)", text.strip())
    assert m, f"the timer shows {text!r}"
    return int(m[1]) * 60 + int(m[2])


def test_extreme_room_countdown_cards_and_winner(browser: Browser, server: ServerProcess) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    create_room(page, server, "Ada", "extreme")
    code = page.locator("main.room").get_attribute("data-code")
    page.select_option("#set-rounds", "1")
    expect(page.locator("#set-rounds")).to_have_value("1")
    page.select_option("#set-time", "10")
    expect(page.locator("#set-time")).to_have_value("10")
    page.click('button[data-add-bot="easy"]')
    expect(page.locator(".seat.bot")).to_have_count(1)
    expect(page.locator("#ready")).to_have_count(0)  # a host alone with bots just starts
    # and nothing says the host is "not ready" above "Everyone is ready."
    expect(page.locator(".seat.person .ready-mark")).to_have_count(0)
    expect(page.locator(".lobby .hint")).to_have_text("Everyone is ready.")
    page.click("#start")
    expect(page.locator(".game-main .board-svg")).to_be_visible()
    expect(page.locator(".game-top .key-badge")).to_be_visible()
    expect(page.locator(".player.me .player-score")).to_contain_text("0 cards")
    shot(page, "cards-room-game")

    # Ada finishes first: her finish starts the countdown for the bot
    solve_on_page(page)
    expect(page.locator("main.room")).to_have_attribute("data-last-verdict", "covered")
    expect(page.locator(".player.me .player-state")).to_contain_text("finished 1st")
    timer = page.locator("#timer")
    expect(timer).to_have_class(re.compile(r"\b(countdown|urgent)\b"))
    expect(timer.locator(".timer-label")).to_have_text("Countdown")
    # the countdown shown is the server's: its deadline less the server's time now
    room = server.get(f"/api/rooms/{code}")
    assert room["game"]["stage"] == "countdown", room["game"]["stage"]
    t0 = time.monotonic()
    left_on_server = (room["game"]["deadline"] - server.get("/api/health")["server_time"]) / 1000
    left_on_screen = shown_seconds(page)
    left_on_server -= time.monotonic() - t0
    assert 0 < left_on_server <= 10
    assert abs(left_on_screen - left_on_server) <= 1.5, (left_on_screen, left_on_server)
    shot(page, "cards-room-countdown")

    # the countdown ends the round (or the bot finishes in time); one round: the game ends,
    # unless the bot finished too: one card each is a tie, and a tie round decides it
    winner = page.locator("#winner")
    tie_round = page.locator("#round-no", has_text="Tie round")
    winner.or_(tie_round).wait_for(timeout=30_000)
    if tie_round.is_visible():
        shot(page, "cards-room-tie-round")
        solve_on_page(page)
        expect(winner).to_be_visible(timeout=30_000)
        expect(page.locator(".game-end")).to_contain_text("a tie round decided it")
    else:
        # Ada keeps her card and the bot, too late, hands its card over to her
        end = server.get(f"/api/rooms/{code}")["game"]
        assert {int(s): sc["cards"] for s, sc in end["scores"].items()} == {0: 2, 1: 0}
        result = page.locator(".game-end .last-round")
        expect(result.locator(".finish-order")).to_contain_text("1st Ada")
        expect(result.locator(".finish-order")).to_contain_text("Bot 2 (easy) did not finish")
        # in words a newcomer reads: who keeps a card, whose card goes where, and the points
        ada_row = result.locator('.award[data-seat="0"]')
        expect(ada_row).to_contain_text("Ada finished first: keeps the card (1 point)")
        expect(ada_row.locator(".award-points")).to_have_text("+2 points")
        bot_row = result.locator('.award[data-seat="1"]')
        expect(bot_row).to_contain_text("did not finish in time: the card goes to Ada")
        expect(bot_row.locator(".award-points")).to_have_text("no points")
        expect(winner).to_have_text("Ada wins!")
        expect(page.locator("table.scores tr.winner")).to_contain_text("Ada")
    expect(page.locator("table.scores thead")).to_contain_text("Cards")
    shot(page, "cards-room-end")
    page.context.close()
    assert not errors, errors
