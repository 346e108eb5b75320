"""The client's edge (web/src/check.ts): what the server sends is checked against the
protocol's schema where it arrives. A malformed message or answer is one clear error, logged
with what it was and what was wrong, shown to the player as the server's errors are, and
dropped whole; the page plays on. The server is real; the test breaks one message of it on its
way to the page (Playwright's WebSocket and request routing)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, Route, WebSocketRoute, expect
from server_harness import ServerProcess
from webharness import UNREADABLE, open_room, shot

from ubongo import editions

UNREADABLE_TOAST = "The server sent something this page cannot read"


@pytest.fixture
def watched(browser: Browser) -> Iterator[tuple[Page, list[str], list[str]]]:
    """A page, the client's errors it logged, and the exceptions nobody caught in it."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")
    page = context.new_page()
    logged: list[str] = []
    uncaught: list[str] = []

    def console(m: ConsoleMessage) -> None:
        if m.type == "error" and m.text.startswith(UNREADABLE):
            logged.append(m.text)

    page.on("console", console)
    page.on("pageerror", lambda e: uncaught.append(str(e)))
    yield page, logged, uncaught
    context.close()


def test_a_malformed_room_event_is_a_clear_error_and_the_room_plays_on(
    watched: tuple[Page, list[str], list[str]], server: ServerProcess
) -> None:
    page, logged, uncaught = watched
    broken: list[str] = []

    def route(ws: WebSocketRoute) -> None:
        real = ws.connect_to_server()

        def to_page(message: str | bytes) -> None:
            msg = json.loads(message)
            # the first bot added: Ada's own seat in its room snapshot gets a number for a name
            if msg.get("kind") == "bot_added" and not broken:
                msg["room"]["seats"][0]["name"] = 7
                broken.append(msg["kind"])
            ws.send(json.dumps(msg))

        real.on_message(to_page)  # the page's own messages still go to the server unchanged

    page.route_web_socket(re.compile(r"/ws\?room="), route)
    open_room(page, server, "Ada", rounds=1, hourglass_seconds=60)
    expect(page.locator(".lobby li.seat.bot")).to_have_count(0)

    with page.expect_console_message(lambda m: m.text.startswith(UNREADABLE)) as said:
        page.click('button[data-add-bot="easy"]')
    assert said.value.text == (
        f"{UNREADABLE} message from the server (event bot_added):"
        " room.seats[0].name: expected a string, got 7"
    )
    assert broken == ["bot_added"]
    expect(page.locator("#toast")).to_contain_text(UNREADABLE_TOAST)
    # dropped whole: the lobby still shows no bot, and nothing broke
    expect(page.locator(".lobby li.seat.bot")).to_have_count(0)
    shot(page, "edge-unreadable-event")

    # the connection stayed: the next event's snapshot brings both bots, and the game starts
    page.click('button[data-add-bot="easy"]')
    expect(page.locator(".lobby li.seat.bot")).to_have_count(2)
    page.click("#start")
    expect(page.locator(".game-main .board-svg")).to_be_visible()
    assert len(logged) == 1
    assert not uncaught, uncaught


def test_a_malformed_answer_is_a_clear_error_and_the_home_screen_stays(
    watched: tuple[Page, list[str], list[str]], server: ServerProcess
) -> None:
    page, logged, uncaught = watched

    def live(route: Route) -> None:
        # one live game as the server lists it, but its players are a name, not a list
        game = {
            "code": "K7QXB",
            "edition": "classic",
            "mode": "race",
            "variant": "standard",
            "puzzles": "standard",
            "players": "Ada",
            "round": 1,
            "rounds": 3,
            "kind": "round",
            "scores": {},
            "spectators": 0,
            "started_at": None,
        }
        body = [game]
        route.fulfill(status=200, content_type="application/json", body=json.dumps(body))

    page.route("**/api/live", live)
    with page.expect_console_message(lambda m: m.text.startswith(UNREADABLE)):
        page.goto(server.url + "/")
    expect(page.locator("#create-room")).to_be_visible()
    expect(page.locator("#live-list")).to_contain_text("The live games cannot be loaded.")
    assert logged == [
        f'{UNREADABLE} answer to GET /api/live: [0].players: expected a list, got "Ada"'
    ]
    # the rest of the page works: a room is made
    page.fill("#name", "Ada")
    page.click("#create-room")
    expect(page.locator(".lobby")).to_be_visible()
    assert not uncaught, uncaught


# web/src/storage.ts: what the browser keeps may be refused or junk; the page works on
REFUSED_STORAGE = """
for (const name of ["localStorage", "sessionStorage"]) {
  Object.defineProperty(window, name, {
    get() { throw new DOMException("storage is disabled", "SecurityError"); },
  });
}
"""
JUNK = {
    "ubongo.account": "{not json",
    "ubongo.settings": '{"theme": "purple", "sound": false}',
    "ubongo.home": '{"edition": 7, "goal": "time"}',
    "ubongo.seat.ZZZZZ": '"a seat"',
    "ubongo.practice.solved": "17",
    "ubongo.tutorial": "maybe",
}


def test_junk_in_storage_reads_as_nothing_kept(
    watched: tuple[Page, list[str], list[str]], server: ServerProcess
) -> None:
    page, logged, uncaught = watched
    page.goto(server.url + "/")
    page.evaluate(
        "junk => Object.entries(junk).forEach(([k, v]) => localStorage.setItem(k, v))", JUNK
    )
    page.reload()
    # a new account instead of the unreadable one; the sound choice that was of its type kept
    page.wait_for_function("() => localStorage.getItem('ubongo.account').startsWith('{\"id\"')")
    # the home's choices: the edition that was not a name gives way to the first
    chosen = page.locator('button.edition[aria-checked="true"]')
    expect(chosen).to_have_attribute("data-edition", editions.names()[0])
    page.fill("#name", "Ada")
    page.click("#create-room")
    expect(page.locator(".lobby")).to_be_visible()
    assert page.evaluate("() => JSON.parse(localStorage.getItem('ubongo.settings')).sound") is False
    assert not logged and not uncaught, (logged, uncaught)


def test_with_storage_refused_the_page_plays_on(
    watched: tuple[Page, list[str], list[str]], server: ServerProcess
) -> None:
    page, logged, uncaught = watched
    page.add_init_script(REFUSED_STORAGE)
    page.goto(server.url + "/")
    # the seat's ticket is kept in the page's memory: the room opens as its host
    page.fill("#name", "Ada")
    page.click("#create-room")
    expect(page.locator(".lobby")).to_be_visible()
    expect(page.locator(".lobby li.seat .tag.you")).to_have_count(1)
    assert not logged and not uncaught, (logged, uncaught)
