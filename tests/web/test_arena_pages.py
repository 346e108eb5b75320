"""An arena in two browsers (docs/arenas.md): Ada makes one from the home page (and is in it),
Bob opens its link and joins; both are seated in the same race, Ada finishes first, both go
back to the arena from the race's end and see their points; the next race comes by itself,
and Ada's second win in a row puts her on fire."""

from __future__ import annotations

import json
import re

from axe import assert_accessible
from playwright.sync_api import Browser, Page, expect
from server_harness import ServerProcess
from webharness import new_page, shot
from webplay import solve_and_call


def signed_in(page: Page, server: ServerProcess) -> dict[str, object]:
    """The page on the home screen, once its account is made: the account."""
    page.goto(server.url + "/")
    page.wait_for_function("() => localStorage.getItem('ubongo.account') !== null")
    account: dict[str, object] = json.loads(
        page.evaluate("() => localStorage.getItem('ubongo.account')")
    )
    return account


def race(first: Page, second: Page) -> None:
    """Both pages are sent to one race's room; the first finishes, then the second; both go
    back to the arena from the race's end."""
    for page in (first, second):
        page.wait_for_url(re.compile(r"/room/[A-Z0-9]+$"), timeout=30_000)
    assert first.url == second.url
    solve_and_call(first, "classic")
    solve_and_call(second, "classic")
    for page in (first, second):
        expect(page.locator("#winner")).to_be_visible(timeout=30_000)
        expect(page.locator("#arena-return")).to_be_visible()
        page.click("#arena-back")
        page.wait_for_url(re.compile(r"/arena/[0-9a-f]+$"))


def test_two_browsers_race_in_an_arena_and_see_their_points(
    browser: Browser, server: ServerProcess
) -> None:
    errors: list[str] = []
    ada_page, bob_page = new_page(browser, errors), new_page(browser, errors)
    # two players' own devices: accounts seen at one address never race each other
    for page, address in ((ada_page, "198.51.100.71"), (bob_page, "198.51.100.72")):
        page.context.set_extra_http_headers({"X-Forwarded-For": address})
    signed_in(ada_page, server)
    signed_in(bob_page, server)
    ada_page.click("#arenas summary")
    ada_page.fill("#arena-new-title", "Friday arena")
    ada_page.select_option("#arena-new-edition", "classic")
    ada_page.select_option("#arena-new-seats", "2")
    ada_page.select_option("#arena-new-starts", "0")
    ada_page.click("#arena-new-make")
    ada_page.wait_for_url(re.compile(r"/arena/[0-9a-f]+$"))
    expect(ada_page.locator("#arena-title")).to_have_text("Friday arena")
    expect(ada_page.locator("#arena-me")).to_be_visible()  # its maker is in it
    shot(ada_page, "arena-waiting")
    assert_accessible(ada_page, "arena page")
    bob_page.goto(ada_page.url)
    expect(bob_page.locator("#arena-clock")).to_contain_text("left")
    bob_page.click("#arena-join")
    race(ada_page, bob_page)
    expect(ada_page.locator("#arena-points")).to_have_text("2 points")
    expect(bob_page.locator("#arena-points")).to_have_text("1 point")
    expect(ada_page.locator("#arena-standings tr.me")).to_contain_text("1")
    shot(ada_page, "arena-after-a-race")
    race(ada_page, bob_page)  # the next race comes by itself
    expect(ada_page.locator("#arena-points")).to_have_text("4 points")
    expect(ada_page.locator("#arena-fire")).to_contain_text("on fire")
    expect(bob_page.locator("#arena-points")).to_have_text("2 points")
    assert errors == []
