"""An arena in two browsers (docs/arenas.md): Ada makes one from the home page (and is in it),
Bob opens its link and joins; both are seated in the same race, Ada finishes first, both go
back to the arena from the race's end and see their points; the next race comes by itself,
and Ada's second win in a row puts her on fire. An arena over shows its podium and nothing
left to wait for."""

from __future__ import annotations

import json
import re
import secrets
import time

from axe import assert_accessible
from playwright.sync_api import Browser, Page, expect
from server_harness import ServerProcess
from webharness import new_page, shot
from webplay import solve_and_call

from ubongo.arena import Arena, Format, Sheet
from ubongo.server.store import Store


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


def test_an_arena_over_shows_its_podium_and_nothing_left_to_wait_for(
    browser: Browser, server: ServerProcess
) -> None:
    """An arena frozen in the database (as its director leaves it): the podium, the player's
    place and races, no waiting line, no races in play, no actions; in German too."""
    errors: list[str] = []
    page = new_page(browser, errors)
    page.context.set_extra_http_headers({"X-Forwarded-For": "198.51.100.73"})
    ada = signed_in(page, server)
    others = []
    for address in ("198.51.100.74", "198.51.100.75"):
        status, body = server.post("/api/accounts", {}, address=address)
        assert status == 201, body
        others.append(body)
    now = time.time()
    arena = Arena(
        secrets.token_hex(5),
        "Evening arena",
        Format("classic", 10, 3, "A", "seed"),
        now - 1200,
        now - 600,
        made_by=int(str(ada["id"])),
    )
    store = Store(server.database_url)
    store.arenas.make(arena, now - 1300)
    people = [(int(str(ada["id"])), str(ada["name"])), *((o["id"], o["name"]) for o in others)]
    # Ada wins twice (on fire), then is second: 2 + 2 + 1 x 2
    places = {people[0][0]: (1, 1, 2), people[1][0]: (2, 3, 1), people[2][0]: (3, 2, 3)}
    for account, name in people:
        sheet = Sheet(account, name, now - 1250)
        for race, place in enumerate(places[account], start=1):
            sheet = sheet.scored(race, place, harder=False, at=now - 1100 + race * 60)
        store.arenas.save_sheet(arena.id, sheet)
    store.arenas.freeze(arena.id, now - 590)
    # a result says its place as the player's own line does: "Platz 2", where the German
    # ordinal "2." after the list's number read "3. 2."
    placed = {"en": "Place {}", "de": "Platz {}"}
    for language in ("en", "de"):
        page.evaluate(f"() => localStorage.setItem('ubongo.lang', '{language}')")
        page.goto(f"{server.url}/arena/{arena.id}")
        podium = page.locator("#arena-podium li")
        expect(podium).to_have_count(3)
        expect(podium.nth(0)).to_contain_text(str(ada["name"]))
        expect(page.locator("#arena-points")).to_contain_text("6")
        mine = page.locator("#arena-me li")
        expect(mine).to_have_count(3)
        for item, place in zip(mine.all(), reversed(places[people[0][0]]), strict=True):
            expect(item).to_contain_text(placed[language].format(place))
        # over: nothing to wait for, nothing in play, nothing to press but the results
        expect(page.locator("#arena-state")).to_have_count(0)
        expect(page.locator("#arena-fire")).to_have_count(0)
        expect(page.locator(".arena-actions button")).to_have_count(0)
        expect(page.locator(".arena-races-in-play")).to_have_count(0)
        shot(page, f"arena-over-{language}")
        assert_accessible(page, f"arena over ({language})")
    assert errors == []
