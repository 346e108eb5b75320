"""Names in the browser (docs/fair-play.md, "Names"): every name on a leaderboard links to its
account's profile and is shown as text whatever it holds; a name the server refuses (another
account's, in another case) is said under the name box, in the page's language."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Dialog, Page, expect
from server_harness import Client, ServerProcess, made_up_trace, solution
from waiting import eventually
from webharness import watch_errors

#: a kind of solo run no other browser test plays, so that its leaderboard holds this test's
EDITION, GOAL, AMOUNT, SIDE = "classic", "tasks", 10, "B"
#: what a name may hold: it is text on every page
MARKUP = "<img src=x onerror=alert(1)>"


def solo_run(server: ServerProcess, name: str, token: str | None, **kind: Any) -> None:
    """A run of this test's kind (or of ``kind``) played by the solver (as ``token``'s
    account, if given)."""
    settings: dict[str, Any] = {"edition": EDITION, "solo_goal": GOAL, "solo_amount": AMOUNT}
    settings |= {"side": SIDE} | kind
    created = server.create_room_as(token, name, mode="solo", **settings)
    c = Client(server)
    assert c.hello(created["code"], created["token"])["type"] == "welcome"
    c.send({"type": "start"})
    game = c.event("round_started")["room"]["game"]
    for n in range(settings["solo_amount"]):
        task = game["tasks"]["0"]
        placements = solution(task, settings["edition"])
        # ranked: with a trace that holds together (the web tests' server holds none)
        trace = made_up_trace(placements)
        msg = {"type": "submit", "round": game["round"], "placements": placements, "trace": trace}
        assert c.reply(msg, "verdict")["ok"]
        last = n == settings["solo_amount"] - 1
        game = c.event("game_over" if last else "task_drawn")["room"]["game"]
    c.close()


def test_leaderboard_names_link_to_profiles_as_text(page: Page, server: ServerProcess) -> None:
    status, marked = server.post("/api/accounts", {"name": MARKUP})
    assert status == 201, marked
    solo_run(server, "seat name", marked["token"])
    solo_run(server, "Guest Gil", None)
    dialogs: list[str] = []

    def dialog(d: Dialog) -> None:
        dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", dialog)
    page.goto(server.url + "/")
    page.click(f'button.edition[data-edition="{EDITION}"]')
    page.select_option("#side", SIDE)
    page.select_option("#solo-goal", GOAL)
    page.select_option("#solo-amount", str(AMOUNT))
    board = page.locator(".home-records table.leaderboard")
    # the account's run: its name now (not the seat's), a link to its profile, as text
    link = board.locator(f'td.name a[href="/profile/{marked["id"]}"]')
    expect(link).to_have_text(MARKUP)
    expect(board.locator("img")).to_have_count(0)
    # a run without an account has no profile: its name is plain text
    guest = board.locator("tr", has_text="Guest Gil")
    expect(guest).to_have_count(1)
    expect(guest.locator("a")).to_have_count(0)
    link.click()
    expect(page.locator("#profile-name")).to_have_text(MARKUP)
    assert page.url.endswith(f"/profile/{marked['id']}")
    assert not dialogs, f"a name ran as markup: {dialogs}"


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        # the client's own sentence in English too (the server's is written for logs)
        ("en-US", "Another player has this name (or one that looks the same)."),
        ("de-DE", "Diesen Namen (oder einen, der genauso aussieht) hat schon jemand."),
    ],
)
def test_a_name_another_account_holds_is_refused_under_the_name_box(
    browser: Browser, server: ServerProcess, locale: str, said: str
) -> None:
    held = f"Namebox {locale}"
    assert server.post("/api/accounts", {"name": held})[0] == 201
    context = browser.new_context(locale=locale)
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server.url + "/")
    page.wait_for_function("() => localStorage.getItem('ubongo.account') !== null")
    error, box = page.locator("#name-error"), page.locator("#name")
    expect(error).to_be_hidden()
    # the line kept under the name's box (for a refusal) leaves the side's box level with it
    name_at, side_at = box.bounding_box(), page.locator("#side").bounding_box()
    assert name_at is not None and side_at is not None
    assert abs(name_at["y"] - side_at["y"]) < 2, (name_at, side_at)
    box.fill(held.upper())
    box.press("Tab")  # the box's change: the account is asked to take the name
    expect(error).to_have_text(said)
    expect(box).to_have_attribute("aria-invalid", "true")
    mine: dict[str, Any] = page.evaluate("() => JSON.parse(localStorage.getItem('ubongo.account'))")
    assert mine["name"] != held.upper()
    # typing again clears it; a free name is taken without a word
    box.fill(f"{held} 2")
    expect(error).to_be_hidden()
    box.press("Tab")
    token = str(mine["token"])

    def renamed() -> bool:
        answer = server.request("GET", "/api/accounts/me", token=token)[1]
        return bool(answer["name"] == f"{held} 2")

    eventually(renamed, "the account renamed")
    expect(error).to_be_hidden()
    expect(box).not_to_have_attribute("aria-invalid", "true")
    context.close()
    assert not errors, errors


def test_the_home_shows_the_top_three_and_your_own_run(page: Page, server: ServerProcess) -> None:
    """Ten rows on the home page pushed Play now two screens down on a phone: the home's
    leaderboard is the top three, and your own run where it is lower (the end screen keeps ten)."""
    kind = {"edition": "classic", "solo_goal": "tasks", "solo_amount": 5, "side": "A"}
    page.goto(server.url + "/")
    page.wait_for_function("() => localStorage.getItem('ubongo.account') !== null")
    me = json.loads(page.evaluate("() => localStorage.getItem('ubongo.account')"))
    for n in range(5):
        solo_run(server, f"Topper {n}", None, **kind)
    solo_run(server, "Mine", me["token"], **kind)
    query = "&".join(f"{k.removeprefix('solo_')}={v}" for k, v in kind.items())
    rows = server.get(f"/api/leaderboard?{query}&limit=10")
    mine = next(r for r in rows if r["account"] == me["id"])
    page.reload()
    page.select_option("#side", "A")
    page.select_option("#solo-goal", "tasks")
    page.select_option("#solo-amount", "5")
    board = page.locator(".home-records table.leaderboard tr")
    # the top three by rank, then this page's own row, whatever its rank
    expected = [r["name"] for r in rows[:3]] + ([] if mine in rows[:3] else [mine["name"]])
    expect(board).to_have_count(len(expected))
    assert [board.nth(i).locator("td.name").inner_text() for i in range(len(expected))] == expected
    expect(page.locator(".home-records tr.me td.name")).to_have_text(mine["name"])
