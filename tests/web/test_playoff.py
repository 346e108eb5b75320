"""The gem editions' playoff in two browsers, reached every time: a one-round Classic game in
which nobody plays. The hourglass runs out, the second chance (the same task) runs out too,
nobody has a gem: 0 to 0 is a tie for the most points, and a playoff decides it (rulebooks
002 and 000, "End of the Game"; docs/rules.md): each tied player gets a board, one die roll,
no hourglass, the first to finish wins. Ada finishes her playoff board and wins.

The other branch: with a playoff time limit (the room's ``round_limit_seconds``, which the rules
use as ``playoff_limit``) that passes with nobody finished, the tied players share the victory
(docs/rules.md, "a playoff nobody finishes").

The lobby offers hourglasses from 15 s; the server accepts shorter ones. So that the test waits
seconds, not a minute, Ada's device creates the room through the API (``POST /api/rooms`` with
the timers, docs/protocol.md) and her page opens it with the seat it got, as the home page's
"Create a room" does; everything after that happens in the two browsers.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Browser, Page, expect
from server_harness import ServerProcess
from webharness import animations_done, join_room, new_page, open_room, shot
from webplay import board_task, drag_solution

HOURGLASS = 4  # seconds, each of the two turns of the hourglass
BETWEEN = 4  # seconds the round result stays up before the playoff starts
LIMIT = 3  # seconds: the playoff's time limit in the shared-win test


def join(page: Page, server: ServerProcess, code: str, name: str) -> None:
    join_room(page, f"{server.url}/room/{code}", name)


def table(server: ServerProcess, code: str) -> dict[str, Any]:
    game: dict[str, Any] = server.get(f"/api/rooms/{code}")["game"]
    return game


def ready_and_start(ada: Page, bob: Page) -> None:
    bob.click("#ready")
    ada.click("#ready")
    expect(ada.locator("#start")).to_be_enabled()
    ada.click("#start")


def test_a_tie_at_zero_gems_is_decided_by_a_playoff(
    browser: Browser, server: ServerProcess
) -> None:
    errors: list[str] = []
    ada = new_page(browser, errors)
    # Bob on a phone: the side panel is below the board there, out of sight
    bob = new_page(browser, errors, width=420, height=860)
    code = open_room(ada, server, "Ada", hourglass_seconds=HOURGLASS, between_seconds=BETWEEN)
    # the lobby shows the short hourglass, though its list starts at 15 s
    expect(ada.locator("#set-time")).to_have_value(str(HOURGLASS))
    expect(ada.locator("#set-time option:checked")).to_have_text(f"{HOURGLASS} s")
    ada.select_option("#set-rounds", "1")
    expect(ada.locator("#set-rounds")).to_have_value("1")
    join(bob, server, code, "Bob")
    expect(ada.locator(".seat.person")).to_have_count(2)
    expect(bob.locator("#set-rounds")).to_have_value("1")
    ready_and_start(ada, bob)

    # the one round: both have a task and the hourglass runs; nobody touches a piece
    for page in (ada, bob):
        expect(page.locator(".game-main .board-svg")).to_be_visible()
        expect(page.locator("#round-no")).to_have_text("Round 1 of 1")
    first_task = {"ada": board_task(ada), "bob": board_task(bob)}
    shot(ada, "playoff-round")

    # the hourglass runs out: a second chance with the same task (rulebooks: Second-chance Round)
    for page in (ada, bob):
        expect(page.locator("#timer .timer-label")).to_have_text(
            "Second chance", timeout=HOURGLASS * 1000 + 5000
        )
    assert board_task(ada) == first_task["ada"] and board_task(bob) == first_task["bob"]
    shot(bob, "playoff-second-chance")

    # it runs out too: nobody finished, nobody has a gem, 0 to 0: a tie, and a playoff next
    for page in (ada, bob):
        result = page.locator(".round-result")
        expect(result).to_be_visible(timeout=HOURGLASS * 2000 + 5000)
        expect(result.locator(".finish-order")).to_contain_text("Nobody finished")
        expect(result.locator(".tie-note")).to_contain_text("Ada and Bob are tied")
        expect(result.locator(".tie-note")).to_contain_text("playoff")
        expect(result.locator("#next-round")).to_contain_text("Playoff in")
    for page in (ada, bob):
        animations_done(page.locator(".round-result"))  # the result fades in
    shot(ada, "playoff-announced")
    shot(bob, "playoff-announced-phone")
    assert table(server, code)["tied"] == [0, 1]

    # the playoff: a board each (different ones), one die roll for both, no hourglass: the
    # clock shown is the room's time limit (5 minutes), labelled as such
    for page in (ada, bob):
        expect(page.locator("#round-no")).to_have_text("Playoff", timeout=BETWEEN * 1000 + 5000)
        expect(page.locator(".round-result")).to_have_count(0)
        expect(page.locator(".game-main .board-svg")).to_be_visible()
        expect(page.locator("#timer .timer-label")).to_have_text("Time limit")
        expect(page.locator("#timer .timer-text")).to_have_text(re.compile(r"[45]:\d\d"))
        expect(page.locator(".playoff-note")).to_contain_text("Ada and Bob are tied at 0 points")
        expect(page.locator(".playoff-note")).to_contain_text("no hourglass")
        # on a phone the note beside the board is out of sight: the board says it too
        expect(page.locator(".game-main .board-status")).to_have_text(
            "Playoff: the first to finish wins the game."
        )
    playoff = table(server, code)
    assert playoff["kind"] == "playoff" and playoff["stage"] == "playoff"
    assert playoff["tasks"]["0"]["card"] != playoff["tasks"]["1"]["card"], playoff["tasks"]
    assert playoff["tasks"]["0"]["key"] == playoff["tasks"]["1"]["key"] == playoff["key"]
    die = f"die {playoff['key']}"
    for page in (ada, bob):
        expect(page.locator(".game-top .key-badge svg")).to_have_attribute("aria-label", die)
    shot(ada, "playoff-game")
    shot(bob, "playoff-game-phone")

    # Ada places the solver's pieces; the first to finish wins the game
    drag_solution(ada, "classic")
    for page in (ada, bob):
        expect(page.locator("#winner")).to_have_text("Ada wins!", timeout=10_000)
        rows = page.locator("table.scores tbody tr")
        expect(rows).to_have_count(2)
        expect(page.locator("table.scores tr.winner")).to_have_count(1)
        expect(page.locator("table.scores tr.winner")).to_contain_text("Ada")
        expect(page.locator(".game-end .tie-break")).to_contain_text(
            "Ada and Bob were tied at 0 points, so a playoff decided it: Ada finished first."
        )
        last = page.locator(".game-end .last-round")
        expect(last.locator("h2")).to_have_text("The playoff")
        expect(last.locator(".finish-order")).to_contain_text("1st Ada")
        expect(last.locator(".finish-order")).to_contain_text("Bob did not finish")
    expect(bob.locator(".game-end .last-round .solution svg")).to_be_visible()
    shot(ada, "playoff-end")
    shot(bob, "playoff-end-phone")

    assert not errors, errors
    ada.context.close()
    bob.context.close()


def test_a_playoff_nobody_finishes_in_its_time_limit_is_a_shared_win(
    browser: Browser, server: ServerProcess
) -> None:
    errors: list[str] = []
    ada = new_page(browser, errors)
    bob = new_page(browser, errors)
    code = open_room(
        ada,
        server,
        "Ada",
        rounds=1,
        hourglass_seconds=1,
        between_seconds=1,
        round_limit_seconds=LIMIT,
    )
    join(bob, server, code, "Bob")
    expect(ada.locator(".seat.person")).to_have_count(2)
    ready_and_start(ada, bob)
    # two 1 s turns of the hourglass and 1 s of round result later: the playoff, with its limit
    for page in (ada, bob):
        expect(page.locator("#round-no")).to_have_text("Playoff", timeout=15_000)
        expect(page.locator("#timer .timer-label")).to_have_text("Time limit")
    playoff = table(server, code)
    assert playoff["kind"] == "playoff", playoff
    shot(bob, "playoff-limit")
    # nobody finishes: when the limit passes, Ada and Bob share the win
    for page in (ada, bob):
        expect(page.locator("#winner")).to_have_text("Ada and Bob share the win!", timeout=15_000)
        expect(page.locator("table.scores tr.winner")).to_have_count(2)
        expect(page.locator(".game-end .tie-break")).to_contain_text("Nobody finished the playoff")
        last = page.locator(".game-end .last-round")
        expect(last.locator("h2")).to_contain_text("playoff")
        expect(last.locator(".finish-order")).to_contain_text("Nobody finished")
    assert table(server, code)["winners"] == [0, 1]
    shot(ada, "playoff-shared-end")
    assert not errors, errors
    ada.context.close()
    bob.context.close()
