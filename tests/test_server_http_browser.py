"""The web client under the server's Content-Security-Policy, in Debian's chromium: the home
page, a solo Classic game (SVG board, WebSocket) and a solo 3D game (three.js, a module chunk
loaded on demand, WebGL) run with no CSP violation reported by the browser."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright
from server_harness import ROOT, ServerProcess

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

#: every CSP violation the page sees, as "directive blocked-uri" (before any script of its own)
RECORD_VIOLATIONS = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(e.effectiveDirective + " " + e.blockedURI);
});
"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    if not (ROOT / "web" / "dist" / "index.html").is_file():
        pytest.fail("the web client is not built: run `make web` (make test does)")
    folder = tmp_path_factory.mktemp("csp")
    srv = ServerProcess(f"sqlite:///{folder / 'games.sqlite3'}", log=folder / "server.log")
    srv.start()
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail("chromium is not installed: run `make setup` (scripts/system-packages.txt)")
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
        )
        yield b
        b.close()


def solo_page(browser: Browser, server: ServerProcess, edition: str) -> tuple[Page, list[str]]:
    """A solo game of ``edition`` started from the home page; the messages the browser logged
    about the CSP."""
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    logged: list[str] = []
    page.on(
        "console",
        lambda m: logged.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.on("pageerror", lambda e: logged.append(str(e)))
    page.add_init_script(RECORD_VIOLATIONS)
    response = page.goto(server.url + "/")
    assert response is not None and "content-security-policy" in response.headers
    page.fill("#name", "Ada")
    page.click(f'button.edition[data-edition="{edition}"]')
    expect(page.locator(".howto h2")).to_contain_text("How to play")
    page.click("#start-solo")
    expect(page.locator("#solo-count")).to_contain_text("Solved 0")
    return page, logged


def test_a_solo_classic_game_runs_under_the_csp(browser: Browser, server: ServerProcess) -> None:
    page, logged = solo_page(browser, server, "classic")
    expect(page.locator(".game-main .board-svg")).to_be_visible()
    assert page.evaluate("window.__csp") == [] and logged == []
    page.context.close()


def test_a_solo_3d_game_runs_under_the_csp(browser: Browser, server: ServerProcess) -> None:
    page, logged = solo_page(browser, server, "3d")
    expect(page.locator(".game-main .board3d-stage canvas")).to_be_visible()
    assert page.evaluate("window.__csp") == [] and logged == []
    page.context.close()


def test_a_page_of_another_site_cannot_frame_the_game(
    browser: Browser, server: ServerProcess, tmp_path: Path
) -> None:
    page = browser.new_context().new_page()
    frame_page = tmp_path / "frame.html"
    frame_page.write_text(f'<iframe id="game" src="{server.url}/"></iframe>')
    page.goto(frame_page.as_uri(), wait_until="load")  # "load" waits for the frame too
    (framed,) = page.main_frame.child_frames
    # the browser refused to show the game in another site's page: no client in the frame
    assert framed.evaluate("document.querySelector('#app') === null"), framed.url
    page.context.close()
