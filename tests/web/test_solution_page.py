"""Solutions for the box (issue 28, docs/web.md): a printed task's code typed on /solution
shows the task, then its solution a piece at a time and whole; a code that names nothing
says so; in English and German, axe-clean, on a phone too."""

from __future__ import annotations

import pytest
from axe import assert_accessible
from playwright.sync_api import Browser, expect
from server_harness import ServerProcess
from webharness import new_page, shot

from ubongo.puzzles.codes import find_task, task_puzzle


@pytest.fixture(scope="module")
def server(own_server: ServerProcess) -> ServerProcess:
    """This module's own server: it asks for hints on standard deck tasks (conftest)."""
    return own_server


def test_a_printed_code_shows_its_task_and_its_solution_a_piece_at_a_time(
    browser: Browser, server: ServerProcess
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    page.context.set_extra_http_headers({"X-Forwarded-For": "198.51.100.81"})
    code = "classic-12-A-3"
    pieces = len(task_puzzle(find_task(code)).pieces)
    page.goto(f"{server.url}/solution")
    page.fill("#solution-code", code.upper())  # read in any case
    page.click("#solution-find")
    expect(page.locator("#solution-where")).to_contain_text("(classic-12-A-3)")
    expect(page.locator("#solution-progress")).to_have_text(f"0 of {pieces} pieces shown")
    page.click("#solution-next")
    expect(page.locator("#solution-progress")).to_have_text(f"1 of {pieces} pieces shown")
    expect(page.locator(".solution-task p.error")).to_be_empty()
    page.click("#solution-all")
    expect(page.locator("#solution-progress")).to_have_text(f"{pieces} of {pieces} pieces shown")
    expect(page.locator("#solution-next")).to_be_disabled()
    shot(page, "solution-classic")
    assert_accessible(page, "solution page")
    page.click("#solution-reset")
    expect(page.locator("#solution-progress")).to_have_text(f"0 of {pieces} pieces shown")
    # a code that names no task says so, in the player's language
    page.evaluate("() => localStorage.setItem('ubongo.lang', 'de')")
    page.goto(f"{server.url}/solution?code=classic-99-A-1")
    expect(page.locator("#solution-error")).to_contain_text("Diese Aufgabe gibt es nicht")
    assert_accessible(page, "solution page, no such task (de)")
    # 3D on a phone, the whole solution at once
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server.url}/solution?code=3d-40-G-5")
    page.click("#solution-all")
    expect(page.locator("#solution-progress")).to_have_text("3 von 3 Teilen gezeigt")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    shot(page, "solution-3d-phone-de")
    assert_accessible(page, "solution page, 3D (de)")
    errors = [e for e in errors if "404" not in e]  # the unknown code's answer, logged by Chromium
    assert errors == []
