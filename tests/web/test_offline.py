"""The installable app (issue 14): the service worker keeps the client and the practice
bundle, so that after going offline a reload still plays a practice task to the end, while
the online features say they need the network; and the first-run tutorial, played to its end
with the keyboard, skipped, remembered, and offered again from the Help menu."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Locator, Page, expect
from server_harness import ServerProcess
from webharness import new_page, shot


def bundle_task(page: Page, task_id: str) -> dict[str, Any]:
    """The task from the bundle as the page gets it (offline: the service worker's copy)."""
    bundle = page.evaluate("() => fetch('/api/practice-bundle').then((r) => r.json())")
    for entry in bundle["editions"].values():
        for task in entry["tasks"]:
            if task["id"] == task_id:
                return dict(task)
    raise AssertionError(f"no task {task_id} in the bundle")


def play_with_keys(page: Page, player: str, task: dict[str, Any]) -> None:
    """Puts every piece where the task's solution has it, with the keys only: its number,
    R and F until its turn is the solution's, Enter onto the area, arrows to its offset."""
    board = page.locator(f"{player} .board-svg")
    board.focus()
    for placement in task["solution"]:
        number = task["pieces"].index(placement["piece"]) + 1
        piece = page.locator(f'{player} g.piece[data-piece="{placement["piece"]}"]')
        page.keyboard.press(str(number))
        expect(piece).to_have_class("piece selected")

        want = str(placement["transform"])

        def turned(piece: Locator = piece, want: str = want) -> bool:
            return piece.get_attribute("data-transform") == want

        for _ in range(2):
            for _ in range(4):
                if turned():
                    break
                page.keyboard.press("r")
            if turned():
                break
            page.keyboard.press("f")
        assert turned(), placement
        if piece.get_attribute("data-state") == "tray":
            page.keyboard.press("Enter")  # onto the area (on a placed piece it lets go)
        expect(piece).to_have_attribute("data-state", "placed")
        for _ in range(30):
            at = [int(v) for v in str(piece.get_attribute("data-offset")).split(",")]
            dx = placement["offset"][0] - at[0]
            dy = placement["offset"][1] - at[1]
            if dx == dy == 0:
                break
            if dx:
                page.keyboard.press("ArrowRight" if dx > 0 else "ArrowLeft")
            else:
                page.keyboard.press("ArrowDown" if dy > 0 else "ArrowUp")
        expect(piece).to_have_attribute("data-offset", ",".join(map(str, placement["offset"])))


def test_offline_reload_plays_a_practice_task_and_online_features_say_they_need_the_network(
    browser: Browser, server: ServerProcess
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(server.url + "/")
    # the worker installed, took the page, and the bundle went through it (so it is kept)
    page.wait_for_selector("html[data-offline-ready='true']", state="attached", timeout=30_000)
    assert page.evaluate("() => navigator.serviceWorker.controller !== null")
    manifest = page.evaluate("() => fetch('/manifest.webmanifest').then((r) => r.json())")
    assert manifest["display"] == "standalone"
    assert {"192x192", "512x512"} <= {i["sizes"] for i in manifest["icons"]}

    # the worker keeps the client's files and the bundle, and no other /api answer
    kept = page.evaluate(
        """async () => {
          const urls = [];
          for (const name of await caches.keys()) {
            const cache = await caches.open(name);
            for (const r of await cache.keys()) urls.push(new URL(r.url).pathname);
          }
          return urls;
        }"""
    )
    assert "/index.html" in kept and "/api/practice-bundle" in kept
    assert [u for u in kept if u.startswith(("/api/", "/ws"))] == ["/api/practice-bundle"]

    page.context.set_offline(True)
    page.reload()
    # an API answer the worker does not keep fails offline rather than being served stale
    failed = "() => fetch('/api/options').then(() => 'answered', () => 'failed')"
    assert page.evaluate(failed) == "failed"
    expect(page.locator("h1#offline-title")).to_have_text("Play offline")
    expect(page.locator(".offline-banner")).to_contain_text("need the network")
    expect(page.locator("[data-needs-network]").first).to_contain_text("needs the network")
    shot(page, "offline-home-desktop")
    # the picker reaches the offline home and its banner (drawn anew in the language picked)
    page.select_option("#language", "de")
    expect(page.locator("h1#offline-title")).to_have_text("Offline spielen")
    expect(page.locator(".offline-banner")).to_contain_text("brauchen das Netz")
    page.select_option("#language", "en")
    expect(page.locator("h1#offline-title")).to_have_text("Play offline")
    # a room's link says so too, rather than failing
    page.goto(server.url + "/room/ABCDE")
    expect(page.locator(".needs-network h1")).to_have_text("This room needs the network")

    page.goto(server.url + "/")
    page.click("#offline-practice")
    player = ".practice .local-player"
    expect(page.locator(player)).to_be_visible()
    task = bundle_task(page, str(page.locator(player).get_attribute("data-task")))
    play_with_keys(page, player, task)
    expect(page.locator(f"{player}.solved")).to_be_visible()
    expect(page.locator(".practice-done")).to_contain_text("Solved")
    expect(page.locator(f'.practice-task[data-task="{task["id"]}"]')).to_contain_text("✓")
    shot(page, "offline-practice-solved-desktop")
    page.set_viewport_size({"width": 390, "height": 844})
    page.click("#practice-next")
    expect(page.locator(f"{player}:not(.solved)")).to_be_visible()
    shot(page, "offline-practice-phone")
    page.context.set_offline(False)
    page.context.close()
    assert not errors, errors


def test_the_tutorial_played_with_keys_to_its_end_then_remembered_and_skippable(
    browser: Browser, server: ServerProcess
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    page.goto(server.url + "/")
    # the first visit offers it
    page.click("#tutorial-start")
    layout = page.locator(".tutorial-layout")
    expect(layout).to_have_attribute("data-step", "pick")
    shot(page, "tutorial-start-desktop")
    player = ".tutorial .local-player"
    page.locator(f"{player} .board-svg").focus()
    page.keyboard.press("1")
    expect(layout).to_have_attribute("data-step", "turn")
    page.keyboard.press("r")
    expect(layout).to_have_attribute("data-step", "flip")
    page.keyboard.press("f")
    expect(layout).to_have_attribute("data-step", "drop")
    page.keyboard.press("Enter")
    expect(layout).to_have_attribute("data-step", "cover")
    expect(page.locator(".tutorial-detail")).to_contain_text("Covered means")
    task = bundle_task(page, str(page.locator(player).get_attribute("data-task")))
    play_with_keys(page, player, task)
    expect(layout).to_have_attribute("data-step", "solved")
    expect(page.locator(".tutorial-solved")).to_have_text("Ubongo! Your first solved board.")
    assert page.evaluate("() => localStorage.getItem('ubongo.tutorial')") == "done"
    shot(page, "tutorial-solved-desktop")
    page.click("#tutorial-play")
    expect(page.locator("#start-solo")).to_be_visible()
    expect(page.locator(".tutorial-offer")).to_have_count(0)  # remembered

    # another first visit skips it: remembered too, and the Help menu still offers it
    other = new_page(browser, errors, 390, 844)
    other.goto(server.url + "/tutorial")
    expect(other.locator(".tutorial-layout")).to_have_attribute("data-step", "pick")
    shot(other, "tutorial-start-phone")
    other.click("#tutorial-skip")
    expect(other.locator("#start-solo")).to_be_visible()
    expect(other.locator(".tutorial-offer")).to_have_count(0)
    assert other.evaluate("() => localStorage.getItem('ubongo.tutorial')") == "skipped"
    other.click(".help-menu summary")
    other.click("text=First puzzle (tutorial)")
    expect(other.locator(".tutorial-layout")).to_have_attribute("data-step", "pick")
    page.context.close()
    other.context.close()
    assert not errors, errors
