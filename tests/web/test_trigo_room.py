"""A Trigo room in two browsers: every card has two areas to cover; the first finisher starts
the countdown; who does not finish in time hands their card to the first; the game ends with
the cards counted and a winner.

Two people (no bot), so who finishes when is the test's choice, whatever the cards drawn:
round 1 Ada finishes and Bob does not (he hands his card over), round 2 Bob finishes first and
Ada within the countdown (both keep). Ada ends with 3 cards, Bob with 1. Two rounds and a 10 s
countdown keep it short.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Page, expect
from server_harness import ServerProcess
from webharness import create_room, join_room, new_page, shot
from webplay import board_task, drag_into_place, solution

from ubongo.board import Placement
from ubongo.pieces import edition

TRIGO = edition("trigo")


def areas_on_board(page: Page) -> int:
    """How many separate areas the player's board shows (cells that touch are one area)."""
    cells, _pieces = board_task(page)
    return len(TRIGO.area_lattice.components(cells))


def place(page: Page, plan: list[Placement], finishing: bool) -> None:
    for i, pl in enumerate(plan):
        drag_into_place(page, "trigo", pl, last=finishing and i == len(plan) - 1)


def game(server: ServerProcess, code: str) -> dict[str, Any]:
    table: dict[str, Any] = server.get(f"/api/rooms/{code}")["game"]
    return table


def test_trigo_room_two_areas_countdown_cards_handed_over(
    browser: Browser, server: ServerProcess
) -> None:
    errors: list[str] = []
    ada = new_page(browser, errors)
    bob = new_page(browser, errors)
    create_room(ada, server, "Ada", "trigo")
    code = ada.locator("main.room").get_attribute("data-code") or ""
    expect(ada.locator("#set-side")).to_have_value("easy")
    ada.select_option("#set-rounds", "2")
    expect(ada.locator("#set-rounds")).to_have_value("2")
    ada.select_option("#set-time", "10")
    expect(ada.locator("#set-time")).to_have_value("10")

    join_room(bob, ada.locator("#invite").input_value(), "Bob")
    expect(ada.locator(".seat.person")).to_have_count(2)
    # settings changes clear "ready": Bob readies after the last one
    expect(bob.locator("#set-time")).to_have_value("10")
    bob.click("#ready")
    ada.click("#ready")
    expect(ada.locator("#start")).to_be_enabled()
    shot(ada, "trigo-room-lobby")
    ada.click("#start")

    # round 1: each has a card of their own with two areas and 4 pieces (the easier side)
    for page in (ada, bob):
        expect(page.locator(".game-main .board-svg")).to_be_visible()
        expect(page.locator("#round-no")).to_have_text("Round 1 of 2")
        expect(page.locator(".game-top .key-badge")).to_contain_text("No die: fill the whole card")
        expect(page.locator(".game-main g[data-piece]")).to_have_count(4)
        assert areas_on_board(page) == 2
        expect(page.locator(".player.me .player-score")).to_contain_text("0 cards")
    # nobody has finished: no countdown yet, only the room's round limit (5 minutes)
    expect(ada.locator("#timer .timer-label")).to_have_text("Time limit")
    expect(ada.locator("#timer .timer-text")).to_have_text(re.compile(r"[45]:\d\d"))
    expect(ada.locator("#timer")).not_to_have_class(re.compile(r"\b(countdown|urgent)\b"))
    shot(ada, "trigo-room-game")
    table = game(server, code)
    cards = {seat: task["card"] for seat, task in table["tasks"].items()}
    assert cards["0"] != cards["1"], cards

    # Ada covers both areas first: her finish starts Bob's 10 s countdown
    place(ada, solution(ada, "trigo"), finishing=True)
    expect(ada.locator("main.room")).to_have_attribute("data-last-verdict", "covered")
    expect(ada.locator(".game-main .board-status")).to_contain_text("You finished 1st")
    expect(bob.locator('.player[data-seat="0"] .player-state')).to_contain_text("finished 1st")
    expect(bob.locator("#timer .timer-label")).to_have_text("Countdown")
    expect(bob.locator("#timer")).to_have_class(re.compile(r"\b(countdown|urgent)\b"))
    shot(bob, "trigo-room-countdown")

    # Bob does not finish in time: he hands his card over to Ada, who keeps hers
    for page in (ada, bob):
        result = page.locator(".round-result")
        expect(result).to_be_visible(timeout=20_000)
        expect(result.locator(".finish-order")).to_contain_text("1st Ada")
        expect(result.locator(".finish-order")).to_contain_text("Bob did not finish")
        expect(result.locator('.award[data-seat="0"]')).to_contain_text(
            "Ada finished first: keeps the card (1 point) and is handed a card"
        )
        expect(result.locator('.award[data-seat="0"] .award-points')).to_have_text("+2 points")
        expect(result.locator('.award[data-seat="1"]')).to_contain_text(
            "Bob did not finish in time: the card goes to Ada, who finished first."
        )
    # Bob is shown a solution of his card: both areas, covered
    expect(bob.locator(".round-result .solution svg")).to_be_visible()
    expect(ada.locator(".round-result .solution")).to_have_count(0)  # she solved hers
    expect(ada.locator(".player.me .player-score")).to_contain_text("2 cards")
    expect(bob.locator(".player.me .player-score")).to_contain_text("0 cards")
    shot(bob, "trigo-room-round-result")

    # round 2: Ada lays all but her last piece; Bob finishes first, Ada within his countdown
    expect(ada.locator("#round-no")).to_have_text("Round 2 of 2", timeout=20_000)
    expect(bob.locator("#round-no")).to_have_text("Round 2 of 2")
    for page in (ada, bob):
        expect(page.locator(".round-result")).to_have_count(0)
        expect(page.locator(".game-main g[data-piece]")).to_have_count(4)
        assert areas_on_board(page) == 2
    plan = solution(ada, "trigo")
    place(ada, plan[:-1], finishing=False)
    place(bob, solution(bob, "trigo"), finishing=True)
    expect(bob.locator(".game-main .board-status")).to_contain_text("You finished 1st")
    expect(ada.locator("#timer .timer-label")).to_have_text("Countdown")
    drag_into_place(ada, "trigo", plan[-1], last=True)

    # both finished: the game is over; Ada has her two cards, Bob's first one and this one
    for page in (ada, bob):
        expect(page.locator("#winner")).to_have_text("Ada wins!", timeout=20_000)
        expect(page.locator("table.scores thead")).to_contain_text("Cards")
        rows = page.locator("table.scores tbody tr")
        expect(rows).to_have_count(2)
        expect(rows.nth(0)).to_contain_text(re.compile(r"Ada\s*3"))
        expect(rows.nth(1)).to_contain_text(re.compile(r"Bob\s*1"))
        expect(page.locator("table.scores tr.winner")).to_have_count(1)
        last = page.locator(".game-end .last-round")
        expect(last.locator(".finish-order")).to_contain_text("1st Bob")
        expect(last.locator(".finish-order")).to_contain_text("2nd Ada")
        expect(last.locator(".award")).to_have_count(2)
        expect(last.locator('.award[data-seat="1"]')).to_contain_text("Bob finished first: keeps")
        expect(last.locator('.award[data-seat="0"]')).to_contain_text("Ada finished in time: keeps")
        expect(last.locator(".award", has_text="the card goes to")).to_have_count(0)
    end = game(server, code)
    assert {s: sc["cards"] for s, sc in end["scores"].items()} == {"0": 3, "1": 1}
    assert end["winners"] == [0]
    shot(ada, "trigo-room-end")
    shot(bob, "trigo-room-end-bob")
    ada.context.close()
    bob.context.close()
    assert not errors, errors
