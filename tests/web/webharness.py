"""The browser tests' harness: the browser, and where screenshots go (the server is
``server_harness.ServerProcess``, as for the server tests).

No browser is downloaded: Playwright launches /usr/bin/chromium (installed by the project's
set-up from scripts/system-packages.txt). The web client must be built (``make web``, which
``make test`` runs first). Screenshots of every screen go to test-artifacts/web/.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, ConsoleMessage, Locator, Page, Route, expect
from server_harness import ServerProcess

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "web" / "dist" / "index.html"
ARTIFACTS = ROOT / "test-artifacts" / "web"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


#: how the client logs a server message or answer that is not the protocol's (web/src/check.ts)
UNREADABLE = "ubongo: an unreadable"
#: how the client warns of a play trace that does not end where its board is, at a submit
#: (web/src/room/trace.ts: a move that reached the board unrecorded)
TRACE_ADRIFT = "ubongo: the play trace"


def watch_errors(page: Page, errors: list[str]) -> None:
    """Errors in the page go to ``errors``, which the test checks at its end: uncaught ones,
    anything the server sent that the client's check of the protocol refused (so every
    browser test checks the client's schema against what the real server sends), and a play
    trace that did not end where the board was (so every test that plays checks the trace)."""

    def console(m: ConsoleMessage) -> None:
        if m.type == "error" and m.text.startswith(UNREADABLE):
            errors.append(m.text)
        if m.type == "warning" and m.text.startswith(TRACE_ADRIFT):
            errors.append(m.text)

    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", console)


#: every finite animation in an element and below it, finished (rejected after 10 s): infinite
#: ones (a pulse) never end, and a cancelled one counts as over
ANIMATIONS_JS = """el => Promise.race([
  Promise.all(el.getAnimations({ subtree: true })
    .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
    .map((a) => a.finished.catch(() => null))),
  new Promise((_, fail) => setTimeout(() => fail(new Error("animations still running")), 10000)),
])"""


def first_held(page: Page, routes: list[Route], what: str, timeout: float = 15.0) -> Route:
    """The first of ``routes`` that a ``page.route`` handler holds back (appends instead of
    continuing), waited for: Playwright calls a handler only while the test waits inside
    Playwright, so the wait is Playwright's (a plain sleep would never let it run)."""
    deadline = time.monotonic() + timeout
    while not routes:
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout} s for {what}")
        page.wait_for_timeout(20)  # between two looks: a turn for the handler in Playwright
    return routes[0]


def animations_done(element: Locator) -> None:
    """Until what moves in ``element`` has come to rest (a result fading in, gems dropping one
    after another): before a screenshot, or a look at the end of the movement."""
    element.evaluate(ANIMATIONS_JS)


def new_page(browser: Browser, errors: list[str], width: int = 1280, height: int = 800) -> Page:
    """A page in a context of its own (one player's device); errors in the page go to
    ``errors`` (``watch_errors``), which the test checks at its end."""
    # the tests read the English texts: the browser says English whatever the machine's locale
    context = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    page = context.new_page()
    watch_errors(page, errors)
    return page


def create_room(
    page: Page, server: ServerProcess, name: str, edition: str, side: str | None = None
) -> None:
    """From the home page: a name, an edition (and its side or level), "Create a room"."""
    page.goto(server.url + "/")
    page.fill("#name", name)
    page.click(f'button.edition[data-edition="{edition}"]')
    if side is not None:
        page.select_option("#side", side)
    page.click("#create-room")
    expect(page.locator(".lobby")).to_be_visible()


def join_room(page: Page, invite: str, name: str) -> None:
    """Open an invite link, give a name and take a seat: the lobby shows."""
    page.goto(invite)
    page.fill("#join-name", name)
    page.click("#take-seat")
    expect(page.locator(".lobby")).to_be_visible()


def open_room(page: Page, server: ServerProcess, name: str, **settings: Any) -> str:
    """A Classic room with these settings (timers shorter than the lobby offers, a seed)
    created through the API for ``name``, and opened in ``page`` as its host with the seat's
    ticket where the client keeps it (``net.ts: saveTicket``), as "Create a room" does."""
    made = server.create_room(name, edition="classic", **settings)
    ticket = {"code": made["code"], "seat": made["seat"], "token": made["token"]}
    page.goto(server.url + "/")
    page.evaluate("t => localStorage.setItem(`ubongo.seat.${t.code}`, JSON.stringify(t))", ticket)
    page.goto(f"{server.url}/room/{made['code']}")
    expect(page.locator(".lobby")).to_be_visible()
    code: str = made["code"]
    return code
