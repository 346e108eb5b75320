"""A first visit makes an account; the browser keeps it, sends its token with the rooms it
creates, and gives it the name the player types."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page, Route, expect
from server_harness import ServerProcess
from waiting import eventually
from webharness import first_held

from ubongo import editions


def stored_account(page: Page) -> dict[str, object]:
    page.wait_for_function("() => localStorage.getItem('ubongo.account') !== null")
    raw = page.evaluate("() => localStorage.getItem('ubongo.account')")
    return dict(json.loads(raw))


def test_a_first_visit_makes_an_account_that_creates_rooms_and_takes_the_typed_name(
    page: Page, server: ServerProcess
) -> None:
    made: list[str] = []
    page.on("request", lambda r: made.append(r.method) if r.url.endswith("/api/accounts") else None)
    page.goto(server.url + "/")
    account = stored_account(page)
    status, me = server.request("GET", "/api/accounts/me", token=str(account["token"]))
    assert status == 200 and me["id"] == account["id"]
    # the page's own name box: the account takes the name typed there
    page.fill("#name", "Ada Web")
    page.click(f'button.edition[data-edition="{editions.names()[0]}"]')
    with page.expect_request(lambda r: r.url.endswith("/api/rooms")) as created:
        page.click("#start-solo")
    assert created.value.headers["authorization"] == f"Bearer {account['token']}"
    expect(page.locator(".game-main .board-svg")).to_be_visible()

    def renamed() -> dict[str, Any] | None:
        now = server.request("GET", "/api/accounts/me", token=str(account["token"]))[1]
        return dict(now) if now["name"] == "Ada Web" else None

    assert eventually(renamed, "the account renamed", every=0.1) == {
        "id": account["id"],
        "name": "Ada Web",
    }
    # a second visit is the same account: no new one is made
    page.goto(server.url + "/")
    assert stored_account(page)["id"] == account["id"]
    assert made == ["POST"]


def test_an_account_the_server_no_longer_knows_is_replaced(
    page: Page, server: ServerProcess
) -> None:
    page.goto(server.url + "/")
    stored_account(page)
    forged = {"id": 999999, "name": "Gone", "token": "a-token-nobody-has"}
    page.evaluate(f"() => localStorage.setItem('ubongo.account', {json.dumps(json.dumps(forged))})")
    page.goto(server.url + "/")
    page.click(f'button.edition[data-edition="{editions.names()[0]}"]')
    page.click("#start-solo")
    expect(page.locator(".game-main .board-svg")).to_be_visible()
    fresh = stored_account(page)
    assert fresh["token"] != forged["token"]
    assert server.request("GET", "/api/accounts/me", token=str(fresh["token"]))[0] == 200


def test_a_room_made_before_the_first_account_arrives_is_still_the_accounts(
    page: Page, server: ServerProcess
) -> None:
    # the server is slow to make the account (a busy machine): the player clicks first
    held: list[Route] = []
    page.route("**/api/accounts", lambda route: held.append(route))
    page.goto(server.url + "/")
    page.click(f'button.edition[data-edition="{editions.names()[0]}"]')
    page.click("#start-solo")
    page.wait_for_function("() => document.querySelector('#start-solo').disabled")
    first = first_held(page, held, "the account asked for")
    # the seat waits for the account: its records are the account's (a seat without it kept
    # them by name only, and the player's personal bests showed "No solo runs yet")
    with page.expect_request(lambda r: r.url.endswith("/api/rooms")) as created:
        first.continue_()
    account = stored_account(page)
    assert created.value.headers.get("authorization") == f"Bearer {account['token']}"
    expect(page.locator(".game-main .board-svg")).to_be_visible()
    # the name box was empty: the seat is the account's drawn name, never a placeholder, and
    # the account keeps its name (an empty box once renamed fast players "Player")
    code = page.url.rsplit("/", 1)[-1]
    room = server.request("GET", f"/api/rooms/{code}")[1]
    assert [s["name"] for s in room["seats"] if s] == [account["name"]]
    me = server.request("GET", "/api/accounts/me", token=str(account["token"]))[1]
    assert me["name"] == account["name"] != "Player"
    page.goto(server.url + "/")
    expect(page.locator("#name")).to_have_value(str(account["name"]))


def test_a_name_being_typed_when_the_account_arrives_is_left_alone(
    page: Page, server: ServerProcess
) -> None:
    """The player is in the empty name box when the first visit's account arrives: the box is
    theirs. (It used to take the drawn name, and their typing went after it: "Nebizu 93Ada".)"""
    held: list[Route] = []
    page.route("**/api/accounts", lambda route: held.append(route))
    page.goto(server.url + "/")
    first = first_held(page, held, "the account asked for")
    page.focus("#name")
    first.continue_()
    account = stored_account(page)
    page.keyboard.type("Ada")
    expect(page.locator("#name")).to_have_value("Ada")
    # out of the box, an empty one shows the account's name as before
    page.fill("#name", "")
    page.focus(f'button.edition[data-edition="{editions.names()[0]}"]')
    page.goto(server.url + "/")
    expect(page.locator("#name")).to_have_value(str(account["name"]))


def test_a_seat_takes_the_typed_name_even_when_another_account_holds_it(
    page: Page, server: ServerProcess
) -> None:
    # names are unique among accounts, not among a room's seats: friends call a seat "Bob"
    assert server.post("/api/accounts", {"name": "Seat Bob"})[0] == 201
    page.goto(server.url + "/")
    account = stored_account(page)
    page.fill("#name", "Seat Bob")
    page.click(f'button.edition[data-edition="{editions.names()[0]}"]')
    page.click("#start-solo")
    expect(page.locator(".game-main .board-svg")).to_be_visible()
    room = server.request("GET", f"/api/rooms/{page.url.rsplit('/', 1)[-1]}")[1]
    assert [s["name"] for s in room["seats"] if s] == ["Seat Bob"]
    me = server.request("GET", "/api/accounts/me", token=str(account["token"]))[1]
    assert me["name"] == account["name"] != "Seat Bob"
