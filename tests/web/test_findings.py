"""What a new player found (issue 14), each checked in the browser: undo on the board (button,
Ctrl+Z), the solved solo board kept in view a moment, home on a phone (the name once, How to
play near the top, Play solo in the first screen, a way back to a running game), the Home
button asking before leaving a game, a wrong room code, a host alone with bots."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page, expect
from server_harness import ServerProcess
from waiting import eventually
from webharness import shot
from webplay import board_task, drag_into_place, drag_solution, solution


def start_solo(page: Page, server: ServerProcess, edition: str, goal: str = "time") -> str:
    page.goto(server.url + "/")
    page.fill("#name", "Newcomer")
    page.click(f'button.edition[data-edition="{edition}"]')
    page.select_option("#solo-goal", goal)
    page.click("#start-solo")
    expect(page.locator("#solo-count")).to_be_visible()
    return page.url.rsplit("/", 1)[1]


def saved_placements(page: Page, code: str) -> list[dict[str, Any]]:
    """The arrangement the game screen keeps for a reload: what the board holds now."""
    raw = page.evaluate(f"sessionStorage.getItem('ubongo.arrangement.{code}')")
    return list(json.loads(raw)["placements"]) if raw else []


def test_undo_takes_back_the_last_placement_and_turn(page: Page, server: ServerProcess) -> None:
    code = start_solo(page, server, "classic")
    plan = solution(page, "classic")
    undo = page.locator("#undo")
    expect(undo).to_be_disabled()  # nothing to take back yet
    drag_into_place(page, "classic", plan[0])
    piece = page.locator(f'.game-main g[data-piece="{plan[0].piece}"]')
    expect(piece).to_have_attribute("data-state", "placed")
    expect(undo).to_be_enabled()
    undo.click()
    expect(piece).to_have_attribute("data-state", "tray")
    expect(undo).to_be_disabled()
    assert saved_placements(page, code) == []
    # two pieces down, then the second one turned: Ctrl+Z takes back the turn, then the piece
    drag_into_place(page, "classic", plan[0])
    drag_into_place(page, "classic", plan[1])
    second = page.locator(f'.game-main g[data-piece="{plan[1].piece}"]')
    placed_as = second.get_attribute("data-transform")
    page.locator(".game-main .board-svg").focus()
    page.keyboard.press("r")  # the second piece is still selected
    expect(second).not_to_have_attribute("data-transform", placed_as or "")
    page.keyboard.press("Control+z")
    expect(second).to_have_attribute("data-transform", placed_as or "")
    expect(second).to_have_attribute("data-state", "placed")
    page.keyboard.press("Meta+z")  # Cmd+Z on a Mac
    expect(second).to_have_attribute("data-state", "tray")
    expect(piece).to_have_attribute("data-state", "placed")
    assert [p["piece"] for p in saved_placements(page, code)] == [plan[0].piece]
    shot(page, "findings-undo")


def test_undo_on_the_3d_board(page: Page, server: ServerProcess) -> None:
    code = start_solo(page, server, "3d")
    stage = page.locator(".game-main .board3d-stage")
    expect(stage).to_be_visible(timeout=20_000)
    undo = page.locator("#undo")
    expect(undo).to_be_disabled()

    # take the first piece with its number key and put it down with Enter (the keyboard way;
    # the task's cards are made as the run starts: tried until the board has them)
    def placed() -> bool:
        if saved_placements(page, code):
            return True
        stage.focus()
        page.keyboard.press("1")
        page.keyboard.press("Enter")
        return False

    eventually(placed, "a piece placed with the keys", timeout=5, every=0.1)
    assert len(saved_placements(page, code)) == 1
    expect(undo).to_be_enabled()
    page.keyboard.press("Control+z")
    expect(undo).to_be_disabled()
    assert saved_placements(page, code) == []


#: what the page shows as the solved board's hold begins, noted as it happens: the hold lasts
#: a moment, which a loaded machine may spend between two looks of the test
NOTE_THE_HOLD = """() => {
  window.held = null;
  window.burst = false;
  new MutationObserver(() => {
    const main = document.querySelector(".game-main");
    window.burst ||= document.querySelector(".ubongo-burst") !== null;
    if (window.held === null && main?.dataset.holding === "solved") {
      window.held = main.querySelectorAll("g[data-state=placed]").length;
    }
  }).observe(document.body, { subtree: true, childList: true, attributes: true });
}"""


def test_a_solved_solo_board_stays_in_view_a_moment(page: Page, server: ServerProcess) -> None:
    start_solo(page, server, "classic")
    before = board_task(page)
    page.evaluate(NOTE_THE_HOLD)
    plan = drag_solution(page, "classic")
    # the solved board, not the next task: its pieces in place, the flash over it
    main = page.locator(".game-main")
    assert page.wait_for_function("() => window.held").json_value() == len(plan)
    page.wait_for_function("() => window.burst")
    expect(page.locator("#solo-count")).to_contain_text("Solved 1")
    placed = page.locator(".game-main g[data-state=placed]")
    shot(page, "findings-solved-board")
    # by itself after a moment: the next task, every piece in the tray
    expect(main).not_to_have_attribute("data-holding", "solved", timeout=5_000)
    assert board_task(page) != before
    expect(placed).to_have_count(0)
    # the next one solved: a key goes on at once (pressed as the hold begins: PRESS_AS_HELD)
    page.evaluate(PRESS_AS_HELD, [[None, " "]])
    drag_solution(page, "classic")
    seen = page.wait_for_function("() => window.seen").json_value()
    assert seen == [{"before": True, "after": False, "kept": False}], seen
    expect(placed).to_have_count(0)


# One JavaScript turn: whether the hold is on, then a key at `selector` (or at the page's
# body), then whether the hold is still on and whether the key's own action was kept.
KEY_IN_HOLD = """([selector, key]) => {
  const main = document.querySelector(".game-main");
  const before = main.dataset.holding === "solved";
  const target = selector ? document.querySelector(selector) : document.body;
  const e = new KeyboardEvent("keydown", { key, bubbles: true, cancelable: true });
  target.dispatchEvent(e);
  return { before, after: main.dataset.holding === "solved", kept: !e.defaultPrevented };
}"""


# The keys ``[selector, key]`` pressed as KEY_IN_HOLD presses them, all in the turn in which the
# solved board's hold begins; what each saw is left in ``window.seen``.
PRESS_AS_HELD = (
    "(keys) => { const press = "
    + KEY_IN_HOLD.strip()
    + """;
  window.seen = null;
  const watch = new MutationObserver(() => {
    if (document.querySelector(".game-main")?.dataset.holding !== "solved") return;
    watch.disconnect();
    window.seen = keys.map(press);
  });
  watch.observe(document.body, { subtree: true, attributes: true });
}"""
)


def test_a_key_for_the_top_bar_leaves_the_solved_board_held(
    page: Page, server: ServerProcess
) -> None:
    start_solo(page, server, "classic")
    # the keys are pressed as the hold begins, in one turn of the page: the hold lasts a
    # moment, which a loaded machine may spend between two looks of the test
    page.evaluate(
        PRESS_AS_HELD,
        [
            # Escape in the settings menu closes the menu; it does not draw the next task
            [".game-top .settings-menu summary", "Escape"],
            # the language list takes its arrow keys
            [".game-top select.language-short", "ArrowDown"],
            # a key with nothing focused is for the game: it goes on, the key is spent
            [None, "Escape"],
        ],
    )
    drag_solution(page, "classic")
    seen = page.wait_for_function("() => window.seen").json_value()
    assert seen == [
        {"before": True, "after": True, "kept": True},
        {"before": True, "after": True, "kept": True},
        {"before": True, "after": False, "kept": False},
    ], seen
    expect(page.locator(".game-main g[data-state=placed]")).to_have_count(0)


def test_home_on_a_phone(page: Page, server: ServerProcess) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server.url + "/")
    expect(page.locator("button.edition").first).to_be_visible()
    # the name shows once (the logo); the page's heading is for screen readers
    shown = page.evaluate(
        """() => [...document.querySelectorAll('body *')].filter((el) => {
            const own = [...el.childNodes].filter((n) => n.nodeType === 3)
                .map((n) => n.textContent).join('');
            const r = el.getBoundingClientRect();
            return own.trim() === 'Ubongo' && r.width > 4 && r.height > 4;
        }).length"""
    )
    assert shown == 1, shown
    # Play solo and How to play are in the first screen
    expect(page.locator("#start-solo")).to_be_in_viewport()
    expect(page.locator("#howto-link")).to_be_in_viewport()
    # no two sections share a number
    heads = page.locator("main.home h2").all_inner_texts()
    numbers = [t.split("·")[0].strip() for t in heads if "·" in t]
    assert len(numbers) == len(set(numbers)), heads
    shot(page, "findings-home-phone")
    page.click("#howto-link")
    expect(page.locator("#howto h2")).to_be_in_viewport()
    expect(page.locator("#howto")).to_be_focused()
    assert page.url.endswith("/")  # no history step: the page is not drawn again
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(server.url + "/")
    expect(page.locator("#start-solo")).to_be_in_viewport()
    shot(page, "findings-home")


def test_home_asks_before_leaving_a_game_and_leads_back(page: Page, server: ServerProcess) -> None:
    code = start_solo(page, server, "classic")
    solution(page, "classic")
    page.click("#home-link")
    dialog = page.locator(".leave-dialog[role=dialog]")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Leave this run?")
    expect(page.locator("#stay-in-game")).to_be_focused()
    shot(page, "findings-leave-dialog")
    page.click("#stay-in-game")
    expect(dialog).to_have_count(0)
    assert page.url.endswith(f"/room/{code}")
    page.click("#home-link")
    page.keyboard.press("Escape")  # Esc stays too
    expect(dialog).to_have_count(0)
    page.click("#home-link")
    page.click("#leave-game")
    expect(page.locator("main.home")).to_be_visible()
    back = page.locator(f'.running-game[data-code="{code}"]')
    expect(back).to_contain_text("Your Classic solo run is still on.")
    page.set_viewport_size({"width": 390, "height": 844})
    expect(back.locator(".back-to-game")).to_be_in_viewport()
    shot(page, "findings-home-back-to-game-phone")
    back.locator(".back-to-game").click()
    expect(page.locator(".game-main .board-svg")).to_be_visible()
    assert page.url.endswith(f"/room/{code}")


def test_a_wrong_room_code_says_so_and_offers_no_seat(page: Page, server: ServerProcess) -> None:
    page.goto(server.url + "/room/NOSUCH7")
    message = page.locator(".join-missing")
    expect(message).to_contain_text("There is no room with the code NOSUCH7")
    expect(message).to_have_attribute("role", "alert")
    expect(page.locator("#join-name")).to_have_count(0)
    expect(page.locator("#take-seat")).to_have_count(0)
    expect(page.locator("#spectate")).to_have_count(0)
    shot(page, "findings-wrong-code")


def test_a_host_alone_with_bots_just_starts(page: Page, server: ServerProcess) -> None:
    page.goto(server.url + "/")
    page.fill("#name", "Host")
    page.click('button.edition[data-edition="classic"]')
    page.click("#create-room")
    expect(page.locator(".lobby")).to_be_visible()
    page.click('button[data-add-bot="easy"]')
    expect(page.locator(".seat.bot")).to_have_count(1)
    expect(page.locator("#ready")).to_have_count(0)
    expect(page.locator("#start")).to_be_enabled()
    shot(page, "findings-host-with-bots")
    page.click("#start")
    expect(page.locator(".game-main .board-svg")).to_be_visible(timeout=20_000)


def test_3d_pieces_are_named_as_the_board_names_them(page: Page, server: ServerProcess) -> None:
    # the 3D board labels a piece "G3" and describes it "G3 (green 3)": the how-to says the same
    page.goto(server.url + "/")
    page.click('button.edition[data-edition="3d"]')
    captions = page.locator(".howto-piece figcaption")
    expect(captions).not_to_have_count(0)
    for text in captions.all_inner_texts():
        assert re.fullmatch(r"[A-Z]\d \([a-z ]+ \d\)", text), text
