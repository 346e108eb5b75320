"""Friends and challenges in two browsers (docs/social.md): Ada and Bob follow each other from
their profiles, Ada sees Bob online in her friends list and challenges him from his profile;
Bob's bell rings on whatever page he is, he accepts, and both land in the new room, Ada as its
host, where they greet each other with quick phrases, play a rated round, see their
rating moves and the replay's analysis. A challenge declined is told to its
maker; one taken back leaves the other's bell."""

from __future__ import annotations

import contextlib
import json
import re

from axe import assert_accessible
from playwright.sync_api import Browser, Page, Request, Route, expect
from playwright.sync_api import Error as PlaywrightError
from server_harness import ServerProcess
from webharness import create_room, new_page, shot
from webplay import solve_and_call, to_the_end


def signed_in(page: Page, server: ServerProcess) -> dict[str, object]:
    """The page on the home screen, once its account is made: the account."""
    page.goto(server.url + "/")
    page.wait_for_function("() => localStorage.getItem('ubongo.account') !== null")
    account: dict[str, object] = json.loads(
        page.evaluate("() => localStorage.getItem('ubongo.account')")
    )
    return account


def follow(page: Page, server: ServerProcess, whom: dict[str, object]) -> None:
    page.goto(f"{server.url}/profile/{whom['id']}")
    expect(page.locator("#profile-name")).to_have_text(str(whom["name"]))
    page.click("button.follow")
    expect(page.locator("button.follow")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("button.follow")).to_have_text("Unfollow")


def challenge_from_profile(page: Page, server: ServerProcess, whom: dict[str, object]) -> None:
    page.goto(f"{server.url}/profile/{whom['id']}")
    page.click(".profile-actions .challenge-open")
    page.check(".challenge-form .challenge-rated")
    page.click(".challenge-form .send-challenge")
    expect(page.locator("#toast")).to_have_text(f"Challenge sent to {whom['name']}")


def test_friends_online_a_challenge_from_a_profile_accepted_from_the_bell(
    browser: Browser, server: ServerProcess
) -> None:
    errors: list[str] = []
    ada_page, bob_page = new_page(browser, errors), new_page(browser, errors)
    ada, bob = signed_in(ada_page, server), signed_in(bob_page, server)
    follow(ada_page, server, bob)
    ada_page.goto(server.url + "/")
    # Bob does not follow back yet: Ada learns nothing of him but his name
    row = ada_page.locator(f'.friend[data-account="{bob["id"]}"]')
    expect(row.locator(".presence")).to_have_text("does not follow you back")
    follow(bob_page, server, ada)
    ada_page.click("#friends-refresh")
    expect(row.locator(".presence.online")).to_have_text("online")
    shot(ada_page, "friends-online")

    challenge_from_profile(ada_page, server, bob)
    # Bob is on Ada's profile: the bell there rings, with the challenge in it
    bell = bob_page.locator(".bell-menu")
    expect(bell.locator(".bell-count")).to_have_text("1")
    expect(bell.locator("summary")).to_have_attribute(
        "aria-label", "Challenges: 1 waiting for your answer"
    )
    bell.locator("summary").click()
    offer = bell.locator(".challenge.received")
    expect(offer).to_contain_text(f"{ada['name']} challenges you:")
    expect(offer).to_contain_text("rated")
    assert_accessible(bob_page, "the bell with a challenge")
    shot(bob_page, "bell-challenge")
    # Ada's own bell says she waits for Bob
    ada_page.locator(".bell-menu summary").click()
    expect(ada_page.locator(".challenge.made")).to_contain_text(f"Waiting for {bob['name']}:")

    offer.locator("button.accept").click()
    bob_page.wait_for_url("**/room/**")
    ada_page.wait_for_url(bob_page.url)  # her page is told her seat and goes there
    for page in (ada_page, bob_page):
        seats = page.locator("ol.seats li.seat")
        expect(seats.nth(0)).to_contain_text(str(ada["name"]))  # the challenger is the host
        expect(seats.nth(0)).to_contain_text("host")
        expect(seats.nth(1)).to_contain_text(str(bob["name"]))
        expect(page.locator("#rated-note")).to_be_visible()
    # they chat with quick phrases: each reads them in their own language
    bob_page.locator(".chat-say summary").click()
    bob_page.click('.chat-phrases .phrase[data-phrase="good_luck"]')
    expect(ada_page.locator(".chat-line")).to_contain_text(f"{bob['name']}: Good luck!")
    expect(ada_page.locator(".chat-write")).to_have_count(0)  # a rated room: phrases only
    ada_page.locator(".chat-say summary").click()
    assert_accessible(ada_page, "a lobby with the chat open")
    ada_page.click('.chat-phrases .phrase[data-phrase="thanks"]')
    expect(bob_page.locator(".chat-line").last).to_contain_text(f"{ada['name']}: Thanks!")
    # Bob's friends see where he is now
    friends = new_page(browser, errors)
    friends.context.add_init_script(
        f"localStorage.setItem('ubongo.account', {json.dumps(json.dumps(ada))})"
    )
    friends.goto(server.url + "/")
    code = bob_page.url.rsplit("/", 1)[1][:5]
    expect(friends.locator(f'.friend[data-account="{bob["id"]}"] .friend-room')).to_have_text(
        f"In room {code}"
    )
    # they play a round, rated: each sees their rating move at the end, then the analysis
    ada_page.select_option("#set-rounds", "1")
    # a change of the settings makes everybody unready: Bob says ready once he has seen it (a
    # ready that reached the server first was taken back, and Start never came on in a run)
    expect(bob_page.locator("#set-rounds")).to_have_value("1")
    bob_page.click("#ready")
    ada_page.click("#start")
    for page in (ada_page, bob_page):
        solve_and_call(page, "classic")
    to_the_end(ada_page)
    moves = ada_page.locator("table.scores td.rating-move b")
    expect(moves).to_have_count(2)
    expect(moves.first).to_have_text(re.compile(r"^(\+\d+|−\d+|±0)$"))
    ada_page.click("#watch-replay")
    ada_page.locator("#replay-timeline").press("End")
    expect(ada_page.locator(".replay-analysis .task-analysis")).to_have_count(2)
    assert errors == []


def test_a_declined_challenge_is_told_and_one_taken_back_leaves_the_bell(
    browser: Browser, server: ServerProcess
) -> None:
    errors: list[str] = []
    ada_page, bob_page = new_page(browser, errors), new_page(browser, errors)
    signed_in(ada_page, server)
    bob = signed_in(bob_page, server)
    challenge_from_profile(ada_page, server, bob)
    bell = bob_page.locator(".bell-menu")
    expect(bell.locator(".bell-count")).to_have_text("1")
    bell.locator("summary").click()
    # the seconds left run on without taking a keyboard player's focus off Accept
    accept = bell.locator(".challenge.received button.accept")
    accept.focus()
    shown = bell.locator(".time-left").inner_text()
    expect(bell.locator(".time-left")).not_to_have_text(shown)
    assert bob_page.evaluate("() => document.activeElement.classList.contains('accept')")
    bell.locator(".challenge.received button.decline").click()
    expect(ada_page.locator("#toast")).to_have_text(f"{bob['name']} declined your challenge")
    expect(bell.locator(".bell-count")).to_have_count(0)

    challenge_from_profile(ada_page, server, bob)
    expect(bell.locator(".bell-count")).to_have_text("1")
    ada_page.locator(".bell-menu summary").click()
    ada_page.locator(".challenge.made button.take-back").click()
    expect(bell.locator(".bell-count")).to_have_count(0)
    expect(bell.locator(".challenge-list")).to_contain_text("No challenges")
    assert errors == []


def seat_in(page: Page, server: ServerProcess, seat: dict[str, object]) -> None:
    """Open the room of ``seat`` (an API seat ticket) in ``page``, holding that seat."""
    ticket = {"code": seat["code"], "seat": seat["seat"], "token": seat["token"]}
    page.evaluate("t => localStorage.setItem(`ubongo.seat.${t.code}`, JSON.stringify(t))", ticket)
    page.goto(f"{server.url}/room/{seat['code']}")
    expect(page.locator(".lobby")).to_be_visible()


def test_the_end_of_a_game_offers_to_challenge_who_played_it(
    browser: Browser, server: ServerProcess
) -> None:
    errors: list[str] = []
    ada_page, bob_page = new_page(browser, errors), new_page(browser, errors)
    ada, bob = signed_in(ada_page, server), signed_in(bob_page, server)
    made = server.create_room_as(
        str(ada["token"]), "Ada", edition="classic", rounds=1, hourglass_seconds=40, seed=5
    )
    bobs = server.take_seat(made["code"], "Bob", str(bob["token"]))
    seat_in(ada_page, server, made)
    seat_in(bob_page, server, bobs)
    # an unrated room of invited players: free text; Ada reports Bob's line, then mutes him
    bob_page.fill(".chat-write input", "you will lose")
    bob_page.press(".chat-write input", "Enter")
    said = ada_page.locator('.chat-line[data-seat="1"]')
    expect(said).to_contain_text("Bob: you will lose")
    said.locator("button.report").click()
    expect(ada_page.locator("#toast")).to_have_text("Reported to the moderators")
    said.locator("button.mute").click()
    expect(said).to_have_count(0)
    expect(ada_page.locator(".chat-muted")).to_contain_text("Muted: Bob.")
    bob_page.click("#ready")
    ada_page.click("#start")
    # Ada first, then Bob: the round ends when both have finished (the hourglass is long
    # enough for two boards dragged one after the other on a loaded machine)
    solve_and_call(ada_page, "classic")
    solve_and_call(bob_page, "classic")
    to_the_end(ada_page)
    others = ada_page.locator(".played-with")
    expect(others.locator(".friend-name")).to_have_text("Bob")
    expect(others.locator(".friend-name")).to_have_attribute("href", f"/profile/{bob['id']}")
    others.locator(".challenge-open").click()
    shot(ada_page, "end-played-with")
    others.locator(".send-challenge").click()
    expect(bob_page.locator(".bell-menu .bell-count")).to_have_text("1")
    # a rematch offered reaches Bob's page (and his notifications, were the tab hidden)
    ada_page.click("#rematch")
    expect(bob_page.locator("#toast")).to_have_text("Ada offers a rematch")
    # Bob's profile, seen by Ada: their head-to-head, and the games filtered to those with her
    ada_page.goto(f"{server.url}/profile/{bob['id']}")
    expect(ada_page.locator("#head-to-head")).to_have_text(
        f"You and {bob['name']}: 1 game together · you ahead 1, behind 0, level 0"
    )
    ada_page.check("#games-with-me")
    expect(ada_page.locator("#profile-games li")).to_have_count(1)
    # two quick changes: the answer to the first (classic, with the game) is held back until the
    # second's (rated only: none, the game was not rated) is shown; arriving last, it is not shown
    games = ada_page.locator("#profile-games li")
    held: list[Route] = []

    def hold_the_unrated(route: Route) -> None:
        if "rated=" in route.request.url:
            route.continue_()
        else:
            held.append(route)

    ended: list[Request] = []
    ada_page.on("requestfinished", lambda r: ended.append(r))
    ada_page.on("requestfailed", lambda r: ended.append(r))
    ada_page.route(re.compile(r"/api/accounts/[^/]+/games\?"), hold_the_unrated)
    ada_page.select_option("#games-edition", "classic")
    ada_page.check("#games-rated")
    expect(games).to_have_text("None yet.")
    assert len(held) == 1
    release_last(ada_page, held[0], ended)
    expect(games).to_have_text("None yet.")
    assert errors == []


def release_last(page: Page, route: Route, ended: list[Request]) -> None:
    """Let a held request go on, and return once it has ended (answered, or given up by the
    page) and the page has had a frame to show its answer."""
    with contextlib.suppress(PlaywrightError):  # the page gave it up: nothing will come of it
        route.continue_()
    while route.request not in ended:
        page.wait_for_event("requestfinished", timeout=15_000)
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => setTimeout(done)))")


def test_a_listed_room_is_joined_from_the_open_games(
    browser: Browser, server: ServerProcess
) -> None:
    errors: list[str] = []
    ada_page, bob_page = new_page(browser, errors), new_page(browser, errors)
    create_room(ada_page, server, "Ada", "classic")
    ada_page.select_option("#set-listed", "listed")
    expect(ada_page.locator("#set-listed")).to_have_value("listed")
    code = ada_page.url.rsplit("/", 1)[1][:5]
    bob_page.goto(server.url + "/")
    listed = bob_page.locator(f'#open-games li[data-code="{code}"]')
    expect(listed).to_contain_text("Ada · 3 free seats")
    listed.locator("a.join-open").click()
    bob_page.fill("#join-name", "Bob")
    bob_page.click("#take-seat")
    expect(bob_page.locator(".lobby")).to_be_visible()
    expect(ada_page.locator("ol.seats li.seat").nth(1)).to_contain_text("Bob")
    assert errors == []
