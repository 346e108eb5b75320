"""The rules pages (/rules/<edition>): every edition's rules in English and German, with its
pieces, a task and the task solved drawn by the client (SVG, no image files), reached from
home."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from server_harness import ServerProcess
from webharness import new_page, shot

from ubongo import editions
from ubongo.catalogue import edition_catalogue

SECTIONS = ["goal", "pieces", "round", "finish", "end", "solo"]
HEADINGS = {
    "en": ["The goal", "Your pieces", "A round", "Ubongo!", "The end of the game", "Playing alone"],
    "de": ["Das Ziel", "Deine Teile", "Eine Runde", "Ubongo!", "Das Spielende", "Allein spielen"],
}
#: what an SVG picture draws its cells, cubes and outlines with
SHAPES = "polygon, path, rect"


def drawn(page: Page, selector: str) -> int:
    """How many shapes the SVGs under ``selector`` hold."""
    return int(
        page.eval_on_selector_all(
            f"{selector} svg",
            f"els => els.reduce((n, e) => n + e.querySelectorAll('{SHAPES}').length, 0)",
        )
    )


def open_rules(page: Page, server: ServerProcess, edition: str, lang: str) -> None:
    page.goto(f"{server.url}/rules/{edition}" + ("" if lang == "en" else f"?lang={lang}"))
    expect(page.locator('[data-picture="solved"] svg')).to_be_visible(timeout=30_000)


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("edition", editions.names())
def test_each_editions_rules_page_has_its_sections_and_pictures(
    browser: Browser, server: ServerProcess, edition: str, lang: str
) -> None:
    errors: list[str] = []
    for width, height in ((1280, 800), (390, 844)):
        page = new_page(browser, errors, width, height)
        open_rules(page, server, edition, lang)
        title = editions.record(edition).title
        expect(page.locator("h1")).to_contain_text(title)
        assert page.locator(".rules-page").get_attribute("lang") == lang
        found = page.eval_on_selector_all(
            "[data-section]",
            "els => els.map(e => [e.dataset.section, e.querySelector('h2').textContent])",
        )
        assert [s for s, _ in found][: len(SECTIONS)] == SECTIONS
        assert [t for _, t in found][: len(SECTIONS)] == HEADINGS[lang]
        for section in SECTIONS:  # every section says something
            assert page.locator(f'[data-section="{section}"] p').count() >= 1
        # the pieces: one picture per piece of the catalogue, each with its cells drawn
        pieces = edition_catalogue(edition)["pieces"]
        assert page.locator('[data-picture="pieces"] svg').count() == len(pieces)
        for i in range(len(pieces)):
            assert drawn(page, f'[data-picture="pieces"] .rules-piece:nth-child({i + 1})') > 0
        # the task (its area and pieces) and the same task solved, every piece placed
        assert drawn(page, '[data-picture="task"]') > 0
        task_pieces = page.locator('[data-picture="task"] .rules-task-pieces svg').count()
        assert task_pieces >= 2
        solved = page.locator('[data-picture="solved"] svg')
        assert drawn(page, '[data-picture="solved"]') > 0
        if edition_catalogue(edition)["layers"] == 1:
            placed = solved.locator("g[data-piece][data-state='placed']").count()
            assert placed == task_pieces
        # the figures fit the screen
        overflow = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
        assert overflow <= 0, f"{edition} rules are {overflow} px wider than the screen"
        page.evaluate("window.scrollTo(0, 0)")
        shot(page, f"rules-{edition}-{lang}-{width}")
        page.context.close()
    assert not errors, errors


def test_home_links_to_the_rules_and_the_rules_link_to_each_other(
    page: Page, server: ServerProcess
) -> None:
    first, second = editions.names()[:2]
    page.goto(server.url + "/")
    page.click(f'button.edition[data-edition="{first}"]')
    page.click(".howto a.rules-link")
    expect(page).to_have_url(re.compile(f"/rules/{first}$"))
    expect(page.locator('[data-section="goal"]')).to_be_visible()
    page.click(f'.rules-nav a[href="/rules/{second}"]')
    expect(page.locator("h1")).to_contain_text(editions.record(second).title)
    page.click('.rules-nav a[hreflang="de"]')
    expect(page.locator('[data-section="goal"] h2')).to_have_text("Das Ziel")


def test_an_unknown_edition_says_so(page: Page, server: ServerProcess) -> None:
    page.goto(server.url + "/rules/chess")
    expect(page.locator("h1")).to_contain_text("no edition called")


def test_a_rules_page_refused_its_example_says_why(browser: Browser, tmp_path: Path) -> None:
    # the example is solved one hint at a time; a server allowing one hint a minute refuses
    # the second, and the page says the server's reason rather than "is the server reachable?"
    srv = ServerProcess(
        f"sqlite:///{tmp_path / 'ubongo.db'}",
        log=tmp_path / "server.log",
        args=("--hints-per-minute=1",),
    ).start()
    try:
        errors: list[str] = []
        page = new_page(browser, errors, 1280, 800)
        page.goto(f"{srv.url}/rules/{editions.names()[0]}")
        status = page.locator(".rules-page [role=status]")
        expect(status).to_contain_text("The pictures could not be drawn:")
        assert "reachable" not in status.inner_text()
        expect(page.locator('[data-picture="pieces"] svg').first).to_be_visible()
        expect(page.locator('[data-picture="solved"]')).to_have_count(0)
    finally:
        srv.stop()
