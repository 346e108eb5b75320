"""Packs and Make it unique in a browser (docs/editor.md): on a Classic area drawn in /create,
Make it unique proposes a set with one solution, Use these pieces takes it (the verdict says
unique) and Undo gives the pieces back; a Trigo pack of two puzzles opened by its link, raced
by two browsers in a room made from its page (each round the pack's next puzzle for both,
both areas covered), a solo run's result; axe on each page, a 390 px phone, German."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from axe import assert_accessible
from playwright.sync_api import Browser, Page, expect
from server_harness import ServerProcess
from test_editor_page import ROWS, draw_rows, piece
from test_language import english_on
from webharness import join_room, new_page, shot
from webplay import drag_into_place, solution

from ubongo.puzzles.deck import standard_deck

_addresses = (f"192.0.2.{i}" for i in itertools.count(10))


@pytest.fixture(scope="module")
def server(own_server: ServerProcess) -> ServerProcess:
    """This module's own server: its packs are saved from standard deck tasks, which the
    server refuses to save while another test's room has them dealt (conftest)."""
    return own_server


def test_make_it_unique_on_a_classic_area(browser: Browser, server: ServerProcess) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(server.url + "/create")
    expect(page.locator(".editor-sheet")).to_be_visible()
    expect(page.locator("#unique-ask")).to_be_disabled()  # nothing drawn yet
    draw_rows(page, ROWS)
    for pid in "DIA":
        piece(page, pid)
    expect(page.locator("#verdict-headline")).to_have_text("No solution")
    page.locator("#unique-ask").click()
    status = page.locator("#unique-status")
    expect(status).to_contain_text("Exactly one solution with the pieces")
    proposed = str(status.text_content()).split("pieces ")[1].rstrip(".").split(", ")
    assert {"D", "I"} <= set(proposed), proposed  # the pieces chosen kept where they can be
    shot(page, "packs-editor-unique-proposed")
    assert_accessible(page, "the editor with a proposal")
    page.locator("#unique-take").click()
    expect(page.locator("#verdict-headline")).to_have_text("Solvable: exactly 1 solution (unique)")
    for pid in ("A", "B", "C", "D", "E", "F", "G", "H", "I", "J", "K", "L"):
        pressed = "true" if pid in proposed else "false"
        expect(page.locator(f'.editor-piece[data-piece="{pid}"]')).to_have_attribute(
            "aria-pressed", pressed
        )
    expect(page.locator("#unique-take")).to_be_hidden()  # the drawing changed: withdrawn
    shot(page, "packs-editor-unique-taken")
    page.locator("#editor-undo").click()  # one step: the pieces chosen before
    expect(page.locator('.editor-piece[data-piece="A"]')).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#verdict-headline")).to_have_text("No solution")
    # a single cell: no set can be
    page.locator("#editor-clear").click()
    page.locator('.editor-sheet [data-cell="0,0"]').click()
    page.locator("#unique-ask").click()
    expect(status).to_have_text(
        "No set of this edition's pieces covers this area in exactly one way."
    )
    page.context.close()
    assert not errors, errors


def trigo_pack(server: ServerProcess, maker_name: str, first: int) -> str:
    """A Trigo pack of two published puzzles (the tasks of deck cards ``first`` and the next:
    another test's, dealt in a room, would be refused a while) made by another account over
    the API; its link id."""
    address = next(_addresses)
    status, maker = server.post("/api/accounts", {"name": maker_name}, address=address)
    assert status == 201, maker
    ids = []
    for card in standard_deck("trigo").cards[first : first + 2]:
        side = card.sides[0]
        puzzle = {
            "edition": "trigo",
            "area": [list(c) for c in sorted(side.area.cells)],
            "pieces": list(side.tasks[0].pieces),
        }
        body = {"puzzle": puzzle, "title": f"Two hills {card.number}", "published": True}
        status, saved = server.post("/api/puzzles", body, maker["token"], address=address)
        assert status == 201, saved
        ids.append(saved["summary"]["id"])
    body = {"title": "Trigo for friends", "puzzles": ids}
    status, pack = server.post("/api/packs", body, maker["token"], address=address)
    assert status == 201, pack
    return str(pack["id"])


def covered(page: Page) -> None:
    plan = solution(page, "trigo")
    for i, pl in enumerate(plan):
        drag_into_place(page, "trigo", pl, last=i == len(plan) - 1)


def game(server: ServerProcess, code: str) -> dict[str, Any]:
    found: dict[str, Any] = server.get(f"/api/rooms/{code}")["game"]
    return found


def test_a_trigo_pack_raced_by_two_browsers(browser: Browser, server: ServerProcess) -> None:
    errors: list[str] = []
    pack = trigo_pack(server, "Maker", 10)
    ada, bob = new_page(browser, errors), new_page(browser, errors)
    ada.goto(f"{server.url}/pack/{pack}")
    expect(ada.locator("h1#pack-title")).to_have_text("Trigo for friends")
    expect(ada.locator("#pack-puzzles .puzzle-entry")).to_have_count(2)
    shot(ada, "packs-page-desktop")
    assert_accessible(ada, "a pack's page")
    ada.locator("#pack-race").click()
    expect(ada.locator(".lobby")).to_be_visible()
    expect(ada.locator("#set-puzzles")).to_have_value("pack")
    expect(ada.locator("#pack-rounds")).to_contain_text("One round for each of the pack's puzzles")
    code = ada.locator("main.room").get_attribute("data-code") or ""
    join_room(bob, ada.locator("#invite").input_value(), "Bob")
    expect(ada.locator(".seat.person")).to_have_count(2)
    bob.click("#ready")
    expect(ada.locator("#start")).to_be_enabled()
    shot(ada, "packs-room-lobby")
    assert_accessible(ada, "a pack room's lobby")
    ada.click("#start")
    for n in (1, 2):
        for page in (ada, bob):
            expect(page.locator("#round-no")).to_have_text(f"Round {n} of 2", timeout=20_000)
            expect(page.locator(".round-result")).to_have_count(0)
        tasks = game(server, code)["tasks"]
        assert tasks["0"]["card"] == tasks["1"]["card"] == n, tasks  # puzzle n for both
        if n == 1:
            shot(bob, "packs-room-game")
        covered(bob)
        covered(ada)
    for page in (ada, bob):
        expect(page.locator("#winner")).to_be_visible(timeout=20_000)
        expect(page.locator("table.scores tbody tr")).to_have_count(2)
    shot(ada, "packs-room-end")
    assert server.get(f"/api/rooms/{code}")["settings"]["puzzles"] == "pack"
    ada.context.close()
    bob.context.close()
    assert not errors, errors


def test_the_pack_page_solo_run_phone_and_german(browser: Browser, server: ServerProcess) -> None:
    errors: list[str] = []
    pack = trigo_pack(server, "Maker Two", 12)
    phone = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="en-US", has_touch=True, is_mobile=True
    ).new_page()
    phone.on("pageerror", lambda e: errors.append(str(e)))
    phone.goto(f"{server.url}/pack/{pack}")
    expect(phone.locator("h1#pack-title")).to_have_text("Trigo for friends")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the pack page is {width} px wide on a 390 px phone"
    shot(phone, "packs-page-phone")
    assert_accessible(phone, "a pack's page on a phone")
    # a solo run: each puzzle in turn (here put aside), the result at the end
    phone.locator("#pack-solo").tap()
    expect(phone.locator("#pack-where")).to_contain_text("Puzzle 1 of 2")
    expect(phone.locator(".puzzle-stage .local-player")).to_be_visible()
    shot(phone, "packs-solo-phone")
    phone.locator("#pack-skip").tap()
    expect(phone.locator("#pack-where")).to_contain_text("Puzzle 2 of 2")
    phone.locator("#pack-skip").tap()
    expect(phone.locator("#pack-result h2")).to_contain_text("0 of 2 solved in")
    expect(phone.locator("#pack-result tbody tr")).to_have_count(2)
    shot(phone, "packs-solo-result-phone")
    assert_accessible(phone, "a pack run's result on a phone")
    phone.context.close()

    german = browser.new_context(viewport={"width": 1280, "height": 800}, locale="de-DE").new_page()
    german.on("pageerror", lambda e: errors.append(str(e)))
    german.goto(f"{server.url}/pack/{pack}")
    expect(german.locator("#pack-race")).to_have_text("Mit Freunden um die Wette")
    shot(german, "packs-page-german")
    found = english_on(german)
    assert not found, f"English on the German pack page: {found}"
    german.goto(server.url + "/puzzles")
    expect(german.locator("#packs-heading")).to_have_text("Pakete")
    german.locator("#packs").scroll_into_view_if_needed()
    shot(german, "packs-maker-german")
    found = english_on(german)
    assert not found, f"English on the German community list with packs: {found}"
    german.context.close()
    assert not errors, errors


def test_a_pack_file_imported_and_a_pack_made_by_ticking(
    browser: Browser, server: ServerProcess, tmp_path: Path
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    stairs = {"name": "Stairs", "edition": "classic", "area": ROWS, "pieces": list("DIG")}
    turned = {"edition": "classic", "area": ["..##.", ".####", "####.", ".###."]}
    pack_file = {"name": "Two stairs", "puzzles": [stairs, {**turned, "pieces": list("DIG")}]}
    path = tmp_path / "two-stairs.json"
    path.write_text(json.dumps(pack_file))
    page.goto(server.url + "/puzzles")
    expect(page.locator("#packs-mine")).to_contain_text("You have no pack yet.")
    page.locator("#pack-import-file").set_input_files(str(path))
    expect(page.locator("#pack-made")).to_contain_text("Pack “Two stairs” made.")
    page.locator("#pack-made-link").click()
    expect(page.locator("h1#pack-title")).to_have_text("Two stairs")
    titles = page.locator("#pack-puzzles .puzzle-entry-title")
    expect(titles).to_have_text(["Stairs", "Two stairs 2"])
    # the same two puzzles, ticked the other way round, make a second pack in that order
    page.goto(server.url + "/puzzles")
    choose = page.locator("#pack-choose input[type=checkbox]")
    expect(choose).to_have_count(2)
    by_title = {
        str(page.locator("#pack-choose li").nth(i).text_content()): choose.nth(i) for i in range(2)
    }
    by_title["Stairs (Classic)"].check()
    by_title["Two stairs 2 (Classic)"].check()
    by_title["Stairs (Classic)"].uncheck()
    by_title["Stairs (Classic)"].check()
    expect(page.locator("#pack-choose .pack-place")).to_have_text(["no. 1", "no. 2"])
    page.locator("#pack-new-title").fill("Reversed")
    page.locator("#pack-make").click()
    expect(page.locator("#pack-made")).to_contain_text("Pack “Reversed” made.")
    expect(page.locator("#packs-mine .puzzle-entry")).to_have_count(2)
    assert_accessible(page, "the community list with packs")
    shot(page, "packs-maker-desktop")
    page.locator("#pack-made-link").click()
    expect(titles).to_have_text(["Two stairs 2", "Stairs"])
    page.context.close()
    assert not errors, errors
