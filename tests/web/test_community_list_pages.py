"""The community list and a pack's editing in a browser (docs/editor.md, "The community list",
"Rated by play", "Changing a pack"): /puzzles sorted by the rating learned from play shows the
rated puzzle first with its rating (its own page too), 20 rows then the rest behind "More";
the Packs tab lists a listed pack with its puzzles; the pack's maker renames it, reorders it
and adds a puzzle on its page, which another browser sees without the editor. axe on the
pack page's editor."""

from __future__ import annotations

import itertools
import json
import re
from typing import Any

from axe import assert_accessible
from playwright.sync_api import Browser, Page, expect
from server_harness import ServerProcess
from webharness import new_page, shot

#: a one-piece Extreme puzzle (made up: no deck's, so never a task somebody is playing)
LINE = {"edition": "extreme", "area": [[0, 0], [0, 1], [0, 2]], "pieces": ["1"]}
_addresses = (f"192.0.2.{i}" for i in itertools.count(150))


def account(server: ServerProcess, address: str) -> str:
    status, body = server.post("/api/accounts", {}, address=address)
    assert status == 201, body
    return str(body["token"])


def publish(server: ServerProcess, token: str, address: str | None, title: str, **more: Any) -> str:
    body = {"puzzle": LINE, "title": title, "published": True, **more}
    status, page = server.request("POST", "/api/puzzles", body, token, address)
    assert status == 201, page
    return str(page["summary"]["id"])


def signed_in(page: Page, server: ServerProcess) -> str:
    """The page's own account (made on its first visit): its token."""
    page.goto(server.url + "/puzzles")
    page.wait_for_function("() => localStorage.getItem('ubongo.account') !== null")
    return str(json.loads(page.evaluate("() => localStorage.getItem('ubongo.account')"))["token"])


def listed_count(server: ServerProcess) -> int:
    total, n, more = 0, 0, True
    while more:
        found = server.get(f"/api/puzzles?edition=extreme&page={n}")
        total, n, more = total + len(found["puzzles"]), n + 1, found["more"]
    return total


def test_the_list_rated_and_paged_packs_listed_and_a_pack_edited(
    browser: Browser, server: ServerProcess
) -> None:
    errors: list[str] = []
    page = new_page(browser, errors)
    mine = signed_in(page, server)
    # five makers of five puzzles each (5 published a day each); three players give up on one
    made = []
    for n in range(5):
        address = next(_addresses)
        token = account(server, address)
        made += [publish(server, token, address, f"Line {n}-{k}") for k in range(5)]
    for _ in range(3):
        address = next(_addresses)
        body = {"outcome": "gave_up", "seconds": 120.0}
        path = f"/api/puzzles/{made[0]}/plays"
        assert server.request("POST", path, body, account(server, address), address)[0] == 200
    # the page's own two puzzles (link only) and a listed pack of them
    status, a = server.request("POST", "/api/puzzles", {"puzzle": LINE, "title": "A"}, mine)
    status, b = server.request("POST", "/api/puzzles", {"puzzle": LINE, "title": "B"}, mine)
    ids = [a["summary"]["id"], b["summary"]["id"]]
    body = {"title": "Lines", "puzzles": ids, "published": True}
    status, pack = server.request("POST", "/api/packs", body, mine)
    assert status == 201, pack

    total = listed_count(server)
    assert total >= 25
    page.goto(server.url + "/puzzles?edition=extreme&sort=rating")
    rows = page.locator("#puzzles-list li.puzzle-entry")
    expect(rows).to_have_count(20)
    expect(rows.first).to_have_attribute("data-puzzle", made[0])
    expect(rows.first).to_contain_text(re.compile(r"rated (easy|medium|hard|very hard) \(\d+\)"))
    expect(rows.nth(1)).not_to_contain_text("rated")
    page.locator("#puzzles-more").click()
    expect(rows).to_have_count(total)
    expect(page.locator("#puzzles-more")).to_be_hidden()
    shot(page, "community-list-rated")
    # a puzzle's own page says its rating, or how far play has come towards one
    page.goto(f"{server.url}/puzzle/{made[0]}")
    expect(page.locator("#puzzle-rating")).to_have_text(
        re.compile(r"^rated (easy|medium|hard|very hard) \(\d+\)$")
    )
    shot(page, "community-puzzle-rated")
    page.goto(f"{server.url}/puzzle/{made[1]}")
    expect(page.locator("#puzzle-rating")).to_have_text(
        "Not rated yet: 0 of 3 plays have taught its rating"
    )
    page.goto(server.url + "/puzzles?edition=extreme&sort=rating")
    page.select_option("#puzzles-kind", "packs")
    listed = page.locator(f'#puzzles-list li[data-pack="{pack["id"]}"]')
    expect(listed).to_contain_text("2 puzzles")
    # packs have no rating: the order asked for falls back to newest; played is offered
    expect(page.locator("#puzzles-sort")).to_have_value("newest")
    expect(page.locator('#puzzles-sort option[value="rating"]')).to_be_disabled()
    page.select_option("#puzzles-sort", "played")
    expect(page).to_have_url(re.compile(r"sort=played&kind=packs"))
    expect(listed).to_contain_text("2 puzzles")
    shot(page, "community-packs-most-played")

    # its maker edits it: renamed, B before A, a published puzzle added by its link
    listed.locator("a").click()
    expect(page.locator("h1#pack-title")).to_have_text("Lines")
    page.locator("#pack-edit summary").click()
    page.locator("#pack-edit-title").fill("Lines again")
    page.locator(f'#pack-edit-list li[data-puzzle="{ids[0]}"] .pack-edit-down').click()
    page.locator("#pack-edit-add").fill(f"{server.url}/puzzle/{made[1]}")
    page.locator("#pack-edit-add-button").click()
    expect(page.locator("#pack-edit-list li")).to_have_count(3)
    assert_accessible(page, "a pack's page with its editor open")
    shot(page, "community-pack-edit")
    page.locator("#pack-edit-save").click()
    expect(page.locator("h1#pack-title")).to_have_text("Lines again")
    order = [ids[1], ids[0], made[1]]
    expect(page.locator("#pack-puzzles li")).to_have_count(3)
    shown = page.locator("#pack-puzzles li").evaluate_all(
        "(els) => els.map((e) => e.dataset.puzzle)"
    )
    assert shown == order
    assert [p["id"] for p in server.get(f"/api/packs/{pack['id']}")["puzzles"]] == order
    # anybody else: the pack as changed, and no editor
    other = new_page(browser, errors)
    other.goto(server.url + f"/pack/{pack['id']}")
    expect(other.locator("h1#pack-title")).to_have_text("Lines again")
    expect(other.locator("#pack-solo")).to_be_visible()
    expect(other.locator("#pack-edit")).to_have_count(0)
    expect(other.locator("#pack-delete")).to_have_count(0)
    # its maker deletes it, asked twice; the other browser then finds no pack
    page.locator("#pack-delete").click()
    expect(page.locator("#pack-status")).to_contain_text("Press again to delete it")
    page.locator("#pack-delete-sure").click()
    expect(page.locator("h1#pack-title")).to_have_text("Pack deleted")
    other.reload()
    expect(other.locator("main h1")).to_have_text("No such pack")
    assert not errors, errors
