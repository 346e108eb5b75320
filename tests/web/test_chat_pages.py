"""The chat in the browser (docs/social.md): two spectators say quick phrases to each other that
the players' pages never show; the players' own lines come back in the game's replay for the
players only (a spectator's replay of the same game has none); the replay's analysis says what
a hint at the start would have saved, in English and German."""

from __future__ import annotations

import json

from axe import assert_accessible
from playwright.sync_api import Browser, Page, expect
from server_harness import ServerProcess
from webharness import new_page, shot
from webplay import solve_and_call, to_the_end


def signed_in(page: Page, server: ServerProcess, address: str) -> dict[str, object]:
    """The page on the home screen from its own client address (as a proxy names it), once
    its account is made: the account."""
    page.set_extra_http_headers({"X-Forwarded-For": address})
    page.goto(server.url + "/")
    page.wait_for_function("() => localStorage.getItem('ubongo.account') !== null")
    account: dict[str, object] = json.loads(
        page.evaluate("() => localStorage.getItem('ubongo.account')")
    )
    return account


def seat_in(page: Page, server: ServerProcess, seat: dict[str, object]) -> None:
    """Open the room of ``seat`` (an API seat ticket) in ``page``, holding that seat."""
    ticket = {"code": seat["code"], "seat": seat["seat"], "token": seat["token"]}
    page.evaluate("t => localStorage.setItem(`ubongo.seat.${t.code}`, JSON.stringify(t))", ticket)
    page.goto(f"{server.url}/room/{seat['code']}")
    expect(page.locator(".lobby")).to_be_visible()


#: a line's one long word, which must wrap on a phone (the page never scrolls sideways)
LONG_WORD = "W" * 80


def say(page: Page, phrase: str) -> None:
    page.locator(".chat-say summary").click()
    page.click(f'.chat-phrases .phrase[data-phrase="{phrase}"]')


def test_spectators_chat_apart_and_the_replay_keeps_the_players_chat_for_them(
    browser: Browser, server: ServerProcess
) -> None:
    errors: list[str] = []
    pages = [new_page(browser, errors) for _ in range(4)]
    ada_page, bob_page, eve_page, max_page = pages
    ada = signed_in(ada_page, server, "10.77.0.1")
    bob = signed_in(bob_page, server, "10.77.0.2")
    signed_in(eve_page, server, "10.77.0.3")
    signed_in(max_page, server, "10.77.0.4")
    made = server.create_room_as(
        # Ada's pointer solves within the hourglass even on a loaded machine (3 s did not, in
        # the CI loop's run 66); Bob lets it run out, which ends the round
        str(ada["token"]),
        "Ada",
        edition="classic",
        rounds=1,
        hourglass_seconds=30,
        seed=5,
    )
    seat_in(ada_page, server, made)
    seat_in(bob_page, server, server.take_seat(made["code"], "Bob", str(bob["token"])))
    for page in (eve_page, max_page):
        page.goto(f"{server.url}/room/{made['code']}?watch")
        expect(page.locator(".chat-say summary")).to_be_visible()
    # Eve's phrase: Max reads it, the players never do
    eve_page.locator(".chat-say summary").click()
    expect(eve_page.locator(".chat-audience")).to_have_text(
        "Only the other spectators hear you, not the players."
    )
    eve_page.click('.chat-phrases .phrase[data-phrase="wow"]')
    expect(eve_page.locator(".chat-line[data-spectator]")).to_have_text("You: Wow!")
    heard = max_page.locator(".chat-line[data-spectator]")
    expect(heard).to_contain_text("Spectator 1: Wow!")
    # the players' lines reach everybody (after Eve's, so a page that had Eve's would show it)
    say(bob_page, "good_luck")
    ada_page.fill(".chat-write input", f"have fun, Bob {LONG_WORD}")
    ada_page.press(".chat-write input", "Enter")
    for page in (bob_page, eve_page, max_page):
        expect(page.locator('.chat-line[data-seat="0"]')).to_contain_text("Ada: have fun, Bob")
    for page in (ada_page, bob_page):
        expect(page.locator(".chat-line")).to_have_count(2)
        expect(page.locator(".chat-line[data-spectator]")).to_have_count(0)
    say(max_page, "hello")
    expect(eve_page.locator(".chat-line[data-spectator]").last).to_have_text(
        "Spectator 2: Hello! Mute"
    )
    max_page.locator(".chat-say summary").click()
    max_page.locator(".chat-phrases").scroll_into_view_if_needed()
    shot(max_page, "chat-spectators")
    assert_accessible(max_page, "a spectator's chat, open")
    # the game, then a last phrase on its end screen
    bob_page.click("#ready")
    # the page scrolled down to the chat's box as Ada typed: back to the top, as a player would
    ada_page.evaluate("() => window.scrollTo(0, 0)")
    ada_page.click("#start")
    solve_and_call(ada_page, "classic")
    to_the_end(ada_page)
    say(bob_page, "well_played")
    expect(ada_page.locator(".chat-line").last).to_contain_text("Bob: Well played!")
    expect(ada_page.locator(".chat-line[data-spectator]")).to_have_count(0)
    replay = server.url + (ada_page.locator("#watch-replay").get_attribute("href") or "")
    ada_page.click("#watch-replay")
    lines = ada_page.locator(".replay-chat .chat-line")
    expect(lines).to_have_count(3)
    expect(lines.nth(0)).to_have_text("lobby Bob: Good luck!")
    expect(lines.nth(1)).to_have_text(f"lobby Ada: have fun, Bob {LONG_WORD}")
    expect(lines.nth(2)).to_contain_text("Bob: Well played!")
    ada_page.locator("#replay-timeline").press("End")
    expect(ada_page.locator(".replay-analysis .hint-saves").first).to_contain_text(
        "A hint at the start would have"
    )
    ada_page.locator(".replay-chat").scroll_into_view_if_needed()
    shot(ada_page, "replay-chat")
    ada_page.locator(".replay-analysis").scroll_into_view_if_needed()
    shot(ada_page, "replay-analysis")
    # on a phone, the replay with its chat and analysis stays within the screen
    ada_page.set_viewport_size({"width": 360, "height": 740})
    assert ada_page.evaluate("() => document.documentElement.scrollWidth") <= 360
    shot(ada_page, "replay-chat-phone")
    ada_page.evaluate("() => window.scrollTo(0, 0)")
    shot(ada_page, "replay-phone")
    assert_accessible(ada_page, "a replay with its chat")
    # a spectator of the same game: the replay, without the chat
    eve_page.goto(replay)
    expect(eve_page.locator(".replay-round")).to_be_visible()
    expect(eve_page.locator(".replay-chat")).to_have_count(0)
    # the analysis in German
    ada_page.evaluate("() => localStorage.setItem('ubongo.lang', 'de')")
    ada_page.reload()
    ada_page.locator("#replay-timeline").press("End")
    expect(ada_page.locator(".replay-chat h2")).to_have_text("Chat")
    expect(ada_page.locator(".replay-analysis .hint-saves").first).to_contain_text(
        "Ein Tipp gleich zu Beginn hätte"
    )
    ada_page.locator(".replay-analysis").first.scroll_into_view_if_needed()
    shot(ada_page, "replay-analysis-de")
    assert_accessible(ada_page, "a replay with its chat, in German")
    assert errors == []
