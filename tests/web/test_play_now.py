"""Quick match in the browser: "Play now" waits (and can be cancelled), then the room; nobody
else comes, so a bot takes the other seat, the game starts by itself and is played to its end;
the home screen then shows the rating it gave and the ratings leaderboard."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, Route, expect
from server_harness import ServerProcess, server_in
from webharness import first_held, shot
from webplay import solve_and_call, to_the_end

from ubongo import editions

EDITION = editions.names()[0]


@pytest.fixture(scope="module")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("web-quickmatch")
    yield from server_in(
        folder,
        args=(
            # long enough for the page to be seen waiting and to cancel: with 1 s a loaded
            # machine's screenshot outlasted it, and a bot had filled the seat (CI loop run 98)
            "--quickmatch-wait=6",
            # one round, so that the game ends soon after the person's last piece; a fixed seed
            # (the bot's times and the gems are drawn from it) in which the bot finishes second
            # and ties: the playoff is played too (a random seed ties about half the time)
            '--quickmatch-settings={"rounds": 1, "hourglass_seconds": 30, "seed": 1}',
            # the test's pointer places pieces faster than a hand: no floors, so that the game
            # is rated on the play trace the page sends (tests/test_fair_play.py has the floors)
            "--record-seconds-per-piece=0",
            "--trace-seconds-per-move=0",
            # the page's hand is a machine's (instant, even): never held for it
            "--hold-score=0",
        ),
    )


def test_play_now_against_a_bot_to_the_end(page: Page, quick_server: ServerProcess) -> None:
    page.goto(quick_server.url + "/")
    page.click(f'button.edition[data-edition="{EDITION}"]')
    page.wait_for_function("() => localStorage.getItem('ubongo.account') !== null")
    expect(page.locator(".home-ratings table.ratings")).to_be_visible()

    # waiting can be cancelled: the account is out of the queue
    page.select_option("#match-players", "2")
    page.click("#play-now")
    expect(page.locator("#match-status")).to_have_text("Looking for players…")
    expect(page.locator("#cancel-match")).to_be_visible()
    shot(page, "quickmatch-waiting")
    page.click("#cancel-match")
    expect(page.locator("#match-status")).to_have_text("Cancelled.")
    expect(page.locator("#play-now")).to_be_enabled()

    # now wait for real: after the server's wait a bot fills the seat and the game starts
    page.click("#play-now")
    expect(page.locator(".game-main .board-svg")).to_be_visible(timeout=30_000)
    expect(page.locator(".players .player")).to_have_count(2)
    # rated, and said so from the first moment
    expect(page.locator("#rated-badge")).to_have_text("Rated")
    shot(page, "quickmatch-game")
    solve_and_call(page, EDITION)
    to_the_end(page, EDITION)
    # the end screen: the person's rating move ("+12", or "−8" after a loss), none for the bot
    moves = page.locator("table.scores td.rating-move b")
    expect(moves).to_have_count(1)
    expect(moves).to_have_text(re.compile(r"^(\+\d+|−\d+|±0)$"))
    shot(page, "quickmatch-over")
    # its replay, rebuilt by the rules: the round and its finishers
    page.click("#watch-replay")
    expect(page.locator("#replay-timeline")).to_be_visible()
    page.focus("#replay-timeline")
    page.keyboard.press("End")
    expect(page.locator("#replay-winner")).to_be_visible()
    shot(page, "quickmatch-replay")

    # back home: the rated game shows as this account's rating
    page.goto(quick_server.url + "/")
    page.click(f'button.edition[data-edition="{EDITION}"]')
    expect(page.locator(".my-rating")).to_contain_text("1 rated game")
    # the profile page: the rating with its history, the game with its replay
    page.click("#my-profile")
    expect(page.locator("#profile-name")).to_be_visible()
    card = page.locator(f'.rating-card[data-edition="{EDITION}"]')
    expect(card).to_contain_text("1 rated game")
    expect(card.locator("svg.history-chart circle")).to_have_count(2)
    # the chart fills its card and its time axis is dated (the game's day)
    chart, inner = card.locator("svg.history-chart").bounding_box(), card.bounding_box()
    assert chart is not None and inner is not None and chart["width"] >= 0.85 * inner["width"]
    day = page.evaluate("() => new Date().toLocaleDateString('en-US')")
    expect(card.locator("svg.history-chart text", has_text=day)).to_have_count(1)
    # and the two rating scales a player meets are told apart
    expect(page.locator("#rating-scales")).to_contain_text("1500")
    expect(page.locator("#profile-recent a", has_text="Replay")).to_have_count(1)
    shot(page, "profile")


def test_play_now_plays_under_the_name_typed_on_the_home_page(
    page: Page, quick_server: ServerProcess
) -> None:
    page.goto(quick_server.url + "/")
    page.wait_for_function("() => localStorage.getItem('ubongo.account') !== null")
    # the account's rename is slow to arrive (a busy server): the seat waits for it
    held: list[Route] = []
    released = False

    def hold_renames(route: Route) -> None:
        if route.request.method == "PATCH" and not released:
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/accounts/me", hold_renames)
    page.fill("#name", "Quick Ada")
    page.select_option("#match-players", "2")
    page.click("#play-now")
    first_held(page, held, "the rename asked for")
    with page.expect_request(lambda r: r.url.endswith("/api/quickmatch")):
        released = True
        for route in held:  # the box's change and the button may each save the name
            route.continue_()
    expect(page.locator(".game-main .board-svg")).to_be_visible(timeout=30_000)
    expect(page.locator(".players .player").first).to_contain_text("Quick Ada")
    code = page.url.rsplit("/", 1)[-1]
    room = quick_server.request("GET", f"/api/rooms/{code}")[1]
    assert "Quick Ada" in [s["name"] for s in room["seats"] if s]
