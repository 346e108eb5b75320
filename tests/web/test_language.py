"""The client's languages in a real browser (issue 14, "Languages").

- A browser that asks for German gets German: every screen (home, profile, solo round and its
  end, room lobby, race round, game end with the last round's result, replay) shows no text
  and no aria-label/title/placeholder that is an English-only text of the locale files
  (each English text, its placeholders as wildcards, that differs from its German one).
- The picker switches the language: the page and ``<html lang>`` change, a reload remembers
  the choice, and switching during a game keeps the game: the same room, its connection, and
  the pieces laid.

The static check tests/test_i18n_strings.py finds strings that bypass t() in the source; this
test finds what reaches the screen in English all the same (text built elsewhere, the server's).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from server_harness import ServerProcess
from webharness import new_page, open_room, shot
from webplay import solve_and_call

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "web" / "src" / "locales"


def _flat(data: Any, prefix: str = "") -> dict[str, str]:
    if isinstance(data, dict):
        out: dict[str, str] = {}
        for k, v in data.items():
            out.update(_flat(v, f"{prefix}{k}."))
        return out
    if isinstance(data, list):
        return _flat(dict(enumerate(data)), prefix)
    return {prefix[:-1]: str(data)}


def _texts(lang: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in (LOCALES / lang).glob("*.json"):
        for key, text in _flat(json.loads(path.read_text(encoding="utf-8"))).items():
            out[f"{path.stem}:{key}"] = text
    return out


def english_only() -> list[tuple[str, re.Pattern[str]]]:
    """(key, pattern) of each English text that German says otherwise, its placeholders as
    wildcards; texts of fewer than four letters besides placeholders are left out (a pattern
    like "{{n}} s" would match anything)."""
    en, de = _texts("en"), _texts("de")
    out = []
    for key, text in en.items():
        if de.get(key) == text:
            continue
        text = " ".join(text.split())
        fixed = re.sub(r"\{\{[^}]*\}\}", "", text)
        if len(re.findall(r"[A-Za-z]", fixed)) < 4:
            continue
        parts = re.split(r"\{\{[^}]*\}\}", text)
        out.append((key, re.compile("^" + ".+?".join(re.escape(p) for p in parts) + "$")))
    return out


PATTERNS = english_only()

SHOWN_TEXTS = """() => {
  const out = [];
  const squash = (s) => s.replace(/\\s+/g, " ").trim();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!el || el.closest("script, style, [hidden]")) continue;
    const text = squash(node.textContent || "");
    if (text) out.push(text);
  }
  const names = ["aria-label", "title", "placeholder", "aria-valuetext"];
  for (const el of document.querySelectorAll(names.map((a) => `[${a}]`).join(", "))) {
    for (const a of names) {
      const v = el.getAttribute(a);
      if (v) out.push(squash(v));
    }
  }
  return out;
}"""


def english_on(page: Page) -> list[str]:
    """The page's texts (text nodes and the attributes read aloud) that are English only."""
    found = []
    for text in page.evaluate(SHOWN_TEXTS):
        for key, pattern in PATTERNS:
            if pattern.match(text):
                found.append(f"{text!r} ({key})")
                break
    return found


def check_german(page: Page, screen: str) -> None:
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.wait_for_load_state("networkidle")
    shot(page, f"lang-de-{screen}")
    found = english_on(page)
    assert not found, f"English on the German {screen} screen: {found}"


@pytest.fixture
def german(browser: Browser) -> Iterator[tuple[BrowserContext, list[str]]]:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="de-DE")
    errors: list[str] = []
    yield context, errors
    context.close()
    assert not errors, errors


def german_page(context: BrowserContext, errors: list[str]) -> Page:
    page = context.new_page()
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page


def test_the_patterns_know_english() -> None:
    """The check itself: it knows English texts, with placeholders, and spares German ones."""
    assert len(PATTERNS) > 300

    def matches(text: str) -> bool:
        return any(p.match(text) for _, p in PATTERNS)

    assert matches("Play solo")
    assert matches("Round 2 of 9")
    assert matches("Ada wins!")
    assert not matches("Allein spielen")
    assert not matches("Runde 2 von 9")
    assert not matches("Ubongo!")


def test_every_screen_speaks_german(
    server: ServerProcess, german: tuple[BrowserContext, list[str]]
) -> None:
    context, errors = german
    page = german_page(context, errors)
    page.goto(server.url + "/")
    expect(page.locator("#start-solo")).to_have_text("Allein spielen")
    check_german(page, "home")

    # the profile of this browser's account
    page.wait_for_function("() => !!localStorage.getItem('ubongo.account')")
    account = page.evaluate("() => JSON.parse(localStorage.getItem('ubongo.account')).id")
    page.goto(f"{server.url}/profile/{account}")
    expect(page.locator("#profile-name")).to_be_visible()
    check_german(page, "profile")

    # an endless solo run: the round, then its end
    page.goto(server.url + "/")
    page.select_option("#solo-goal", "endless")
    page.click("#start-solo")
    expect(page.locator(".game-main .board-svg")).to_be_visible()
    expect(page.locator("#solo-count")).to_contain_text("Gelöst")
    check_german(page, "solo")
    page.click("#stop")
    expect(page.locator("#solo-result")).to_be_visible()
    check_german(page, "solo-end")

    # a race with a bot: lobby, round, the game's end, its replay
    # an hourglass long enough for the checks and the solve on a loaded machine (the bot's
    # times scale with it, docs/bots.md)
    open_room(page, server, "Ada", hourglass_seconds=30, between_seconds=2, rounds=1)
    page.click('button[data-add-bot="easy"]')
    expect(page.locator(".seat.bot")).to_have_count(1)
    check_german(page, "lobby")
    expect(page.locator("#ready")).to_have_count(0)  # a host alone with bots just starts
    expect(page.locator("#start")).to_be_enabled()
    page.click("#start")
    expect(page.locator(".game-main .board-svg")).to_be_visible()
    expect(page.locator("#round-no")).to_have_text("Runde 1 von 1")
    check_german(page, "round")
    solve_and_call(page)
    page.wait_for_selector("#winner, .round-result", timeout=60_000)
    if page.locator("#winner").count() == 0:
        check_german(page, "round-result")
    if page.locator("#winner").count() == 0:  # a tie: the playoff decides
        expect(page.locator(".round-result")).to_have_count(0, timeout=20_000)
        solve_and_call(page)
    expect(page.locator("#winner")).to_be_visible(timeout=30_000)
    check_german(page, "game-end")
    page.click("#watch-replay")
    expect(page.locator("#replay-caption")).to_contain_text("Schritt 1 von")
    check_german(page, "replay")
    page.locator("#replay-timeline").press("End")
    expect(page.locator("#replay-winner")).to_be_visible()
    check_german(page, "replay-end")


def test_the_picker_switches_and_the_game_goes_on(browser: Browser, server: ServerProcess) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)  # an English browser
    page.goto(server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#start-solo")).to_have_text("Play solo")
    page.select_option("#language", "de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#start-solo")).to_have_text("Allein spielen")
    expect(page.locator("#language")).to_have_value("de")
    # the choice is remembered
    page.reload()
    expect(page.locator("#start-solo")).to_have_text("Allein spielen")
    expect(page.locator("html")).to_have_attribute("lang", "de")

    # during a game (the header is hidden then): the top bar's picker; the game goes on
    page.select_option("#solo-goal", "time")
    page.click("#start-solo")
    expect(page.locator(".game-main .board-svg")).to_be_visible()
    expect(page.locator("#solo-count")).to_contain_text("Gelöst 0")
    code = page.locator("main.room").get_attribute("data-code")
    page.evaluate("() => { document.querySelector('main.room').dataset.marker = 'kept'; }")
    # a piece laid on the board: the number key takes it, Enter puts it down
    page.locator(".game-main .board-svg").focus()
    page.keyboard.press("1")
    page.keyboard.press("Enter")
    placed = page.locator('.game-main g[data-piece][data-state="placed"]')
    expect(placed).to_have_count(1)
    piece = placed.get_attribute("data-piece")
    shot(page, "lang-switch-before")
    page.select_option(".game-top select.language-short", "en")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#solo-count")).to_contain_text("Solved 0")
    expect(page.locator("#skip")).to_have_text("Skip task")
    expect(page.locator(".game-top .settings-word")).to_have_text("Settings")
    # the same room element (no new page, no new connection), the same piece where it was
    expect(page.locator("main.room")).to_have_attribute("data-marker", "kept")
    expect(page.locator("main.room")).to_have_attribute("data-code", code or "")
    expect(placed).to_have_count(1)
    expect(placed).to_have_attribute("data-piece", piece or "")
    expect(page.locator(".game-top select.language-short")).to_have_value("en")
    shot(page, "lang-switch-after")
    assert not errors, errors


def test_tutorial_practice_settings_and_rules_speak_german(
    server: ServerProcess, browser: Browser
) -> None:
    """The first-run tutorial, practice, the settings menu and the rules page, on a German
    phone; the picker reaches them too (each is drawn anew in the language picked)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="de-DE")
    errors: list[str] = []
    try:
        page = german_page(context, errors)
        page.goto(server.url + "/tutorial?edition=3d")
        expect(page.locator("#tutorial-title")).to_have_text("Dein erstes Rätsel")
        expect(page.locator(".tutorial-detail h2")).to_have_text(re.compile(r"^1 von \d: Nimm"))
        check_german(page, "tutorial")

        page.goto(server.url + "/practice")
        expect(page.locator("#practice-title")).to_have_text("Üben")
        expect(page.locator(".practice-task").first).to_be_visible()
        expect(page.locator(".practice-side-name").first).to_contain_text("Tafelseite")
        page.locator(".app-header .settings-menu summary").click()
        expect(page.locator(".app-header .settings-panel legend")).to_have_text("Farben")
        check_german(page, "practice-settings")

        page.goto(server.url + "/rules/3d")
        expect(page.locator(".rules-section").first).to_be_visible()
        check_german(page, "rules")

        # the picker: the screen is drawn again in the language picked
        page.goto(server.url + "/practice")
        page.click('.practice-edition[data-edition="trigo"]')
        page.select_option("#language", "en")
        expect(page.locator("#practice-title")).to_have_text("Practice")
        # the edition picked stays
        trigo = page.locator('.practice-edition[data-edition="trigo"]')
        expect(trigo).to_have_attribute("aria-pressed", "true")
        expect(page.locator(".app-header .settings-word")).to_have_text("Settings")
        expect(page.locator(".app-header .help-menu summary")).to_have_text("Help")
        page.goto(server.url + "/tutorial")
        page.select_option("#language", "de")
        expect(page.locator("#tutorial-title")).to_have_text("Dein erstes Rätsel")
        expect(page.locator("#tutorial-skip")).to_have_text("Einführung überspringen")
    finally:
        context.close()
    assert not errors, errors
