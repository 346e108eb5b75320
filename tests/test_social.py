"""Friends and challenges against a real ``ubongo serve`` (docs/social.md): following, who sees
whom online, challenges told at once on the notice socket, accepted into a room both players
are seated in; and what a scripted client tries against them (accepting another's challenge,
answering twice, spamming, a malformed notice frame)."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_harness import Client, ServerProcess, server_in
from waiting import eventually
from websockets.sync.client import ClientConnection, connect

from ubongo import editions
from ubongo.server.protocol.social import encode_notice

EDITION = editions.names()[0]
#: the CLI, as the moderators run it (tests/test_review.py)
RUN = "import sys; from ubongo.cli import main; sys.exit(main())"
_names = (f"Friend {i}" for i in itertools.count(1))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("social")
    yield from server_in(
        folder,
        args=(
            "--accounts-per-hour=1000",
            "--follows-per-account=3",
            "--challenges-per-hour=4",
            "--challenge-seconds=5",
        ),
    )


def account(server: ServerProcess) -> dict[str, Any]:
    status, body = server.post("/api/accounts", {"name": next(_names)})
    assert status == 201, body
    return dict(body)


class Notices:
    """A page's notice socket: hello with the account's token, then notices as they come."""

    def __init__(self, server: ServerProcess, token: str | None) -> None:
        url = server.ws_url + "/notices"
        self.ws: ClientConnection = connect(url, open_timeout=10).__enter__()
        self.seen: list[dict[str, Any]] = []
        if token is not None:
            self.send({"type": "hello", "token": token})

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def next(self, timeout: float = 10.0) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        encode_notice(json.loads(text))  # every frame is the protocol's
        message: dict[str, Any] = json.loads(text)
        self.seen.append(message)
        return message

    def challenge(self, status: str) -> dict[str, Any]:
        """The next challenge notice with ``status`` (others passed over)."""
        while True:
            message = self.next()
            if message["type"] == "challenge" and message["challenge"]["status"] == status:
                return message

    def close(self) -> None:
        self.ws.close()


def online(server: ServerProcess, who: dict[str, Any]) -> dict[int, Any]:
    status, friends = server.request("GET", "/api/friends", token=who["token"])
    assert status == 200, friends
    return {f["id"]: f for f in friends}


def follow(server: ServerProcess, who: dict[str, Any], whom: dict[str, Any]) -> None:
    status, body = server.request("PUT", f"/api/accounts/{whom['id']}/follow", token=who["token"])
    assert (status, body) == (200, {"following": True})


def challenge(
    server: ServerProcess, who: dict[str, Any], whom: dict[str, Any], rated: bool = False
) -> tuple[int, Any]:
    body = {"to": whom["id"], "edition": EDITION, "rated": rated}
    return server.post("/api/challenges", body, who["token"])


def test_friends_see_each_other_online_and_where_a_follower_sees_nothing(
    server: ServerProcess,
) -> None:
    ada, bob, eve = account(server), account(server), account(server)
    follow(server, ada, bob)
    assert online(server, ada)[bob["id"]] == {
        "id": bob["id"],
        "name": bob["name"],
        "mutual": False,
        "online": None,
        "room": None,
    }
    follow(server, bob, ada)
    follow(server, eve, bob)  # eve follows bob; bob does not follow eve
    assert online(server, ada)[bob["id"]]["online"] is False
    page = Notices(server, bob["token"])
    assert page.next()["type"] == "welcome"
    eventually(lambda: online(server, ada)[bob["id"]]["online"], "bob online for ada")
    page.send({"type": "here", "room": "abcd"})
    eventually(lambda: online(server, ada)[bob["id"]]["room"] == "ABCD", "bob's room for ada")
    # eve follows bob but is not his friend: she learns neither that he is online nor where
    assert online(server, eve)[bob["id"]] == {
        "id": bob["id"],
        "name": bob["name"],
        "mutual": False,
        "online": None,
        "room": None,
    }
    page.close()
    eventually(lambda: online(server, ada)[bob["id"]]["online"] is False, "bob gone for ada")
    status, body = server.request("DELETE", f"/api/accounts/{bob['id']}/follow", token=ada["token"])
    assert (status, body) == (200, {"following": False})
    assert bob["id"] not in online(server, ada)


def test_following_is_refused_for_oneself_nobody_and_past_the_limit(server: ServerProcess) -> None:
    ada = account(server)
    path = f"/api/accounts/{ada['id']}/follow"
    assert server.request("PUT", path)[0] == 401  # an account is needed
    status, body = server.request("PUT", path, token=ada["token"])
    assert (status, body["error"]["code"]) == (422, "bad_message")
    for missing in (2**31 - 1, 0, 2**40):
        status, body = server.request("PUT", f"/api/accounts/{missing}/follow", token=ada["token"])
        assert (status, body["error"]["code"]) == (404, "no_account"), missing
    others = [account(server) for _ in range(4)]
    for other in others[:3]:
        follow(server, ada, other)
    follow(server, ada, others[0])  # again: no change, within the limit
    status, body = server.request(
        "PUT", f"/api/accounts/{others[3]['id']}/follow", token=ada["token"]
    )
    assert (status, body["error"]["code"]) == (409, "follow_limit")
    assert len(online(server, ada)) == 3


def test_a_challenge_reaches_every_page_and_its_acceptance_seats_both(
    server: ServerProcess,
) -> None:
    ada, bob = account(server), account(server)
    ada_page = Notices(server, ada["token"])
    bob_pages = [Notices(server, bob["token"]), Notices(server, bob["token"])]  # two tabs
    for page in (ada_page, *bob_pages):
        assert page.next()["type"] == "welcome"
    status, made = challenge(server, ada, bob, rated=True)
    assert status == 201, made
    assert (made["from_id"], made["to_id"], made["status"], made["rated"]) == (
        ada["id"],
        bob["id"],
        "open",
        True,
    )
    for page in bob_pages:
        told = page.challenge("open")
        assert told["challenge"]["id"] == made["id"] and told["seat"] is None
    status, mine = server.request("GET", "/api/challenges", token=bob["token"])
    assert [c["id"] for c in mine["received"]] == [made["id"]] and mine["made"] == []

    status, seat = server.post(f"/api/challenges/{made['id']}/accept", {}, bob["token"])
    assert status == 201, seat
    told = ada_page.challenge("accepted")
    host = told["seat"]
    assert host is not None and host["code"] == seat["code"] == told["challenge"]["room"]
    assert bob_pages[0].challenge("accepted")["seat"] is None  # the challenger's seat is hers
    # a page that missed the notice takes the seat over HTTP
    status, hers = server.request("GET", "/api/challenges", token=ada["token"])
    assert hers["seats"] == [host]

    ada_room, bob_room = Client(server), Client(server)
    try:
        welcome = ada_room.hello(host["code"], host["token"])
        assert bob_room.hello(seat["code"], seat["token"])["seat"] == 1
        room = welcome["room"]
        assert room["settings"]["rated"] is True and room["settings"]["edition"] == EDITION
        assert [s["name"] for s in room["seats"][:2]] == [ada["name"], bob["name"]]
        assert welcome["seat"] == 0  # the challenger is the host
    finally:
        ada_room.close()
        bob_room.close()
        for page in (ada_page, *bob_pages):
            page.close()


def test_a_scripted_client_cannot_answer_anothers_challenge_or_answer_twice(
    server: ServerProcess,
) -> None:
    ada, bob, eve = account(server), account(server), account(server)
    status, made = challenge(server, ada, bob)
    assert status == 201
    path = f"/api/challenges/{made['id']}"
    for who, action in ((eve, "accept"), (eve, "decline"), (ada, "accept"), (ada, "decline")):
        status, body = server.post(f"{path}/{action}", {}, who["token"])
        assert (status, body["error"]["code"]) == (404, "no_challenge"), (who["name"], action)
    status, body = server.request("DELETE", path, token=bob["token"])  # only its maker may
    assert (status, body["error"]["code"]) == (404, "no_challenge")
    assert challenge(server, ada, bob)[1]["error"]["code"] == "already_challenged"
    status, declined = server.post(f"{path}/decline", {}, bob["token"])
    assert (status, declined["status"]) == (200, "declined")
    for who, method, action in ((bob, "POST", "/accept"), (ada, "DELETE", "")):
        status, body = server.request(method, path + action, {} if action else None, who["token"])
        assert (status, body["error"]["code"]) == (409, "challenge_gone")
    status, body = server.post("/api/challenges/999999/accept", {}, bob["token"])
    assert (status, body["error"]["code"]) == (404, "no_challenge")
    status, body = challenge(server, ada, ada)
    assert (status, body["error"]["code"]) == (422, "bad_message")
    status, body = server.post(
        "/api/challenges", {"to": bob["id"], "edition": "chess"}, ada["token"]
    )
    assert status == 422


def test_challenges_are_limited_per_hour_and_expire_unanswered(server: ServerProcess) -> None:
    ada = account(server)
    others = [account(server) for _ in range(5)]
    made = [challenge(server, ada, other) for other in others]
    assert [status for status, _ in made] == [201, 201, 201, 201, 429]
    assert made[4][1]["error"]["code"] == "rate_limited"
    first = made[0][1]
    # nobody answers: past --challenge-seconds (5) it is gone for both
    eventually(
        lambda: server.request("GET", "/api/challenges", token=ada["token"])[1]["made"] == [],
        "the challenges expired",
        timeout=15,
    )
    status, body = server.post(f"/api/challenges/{first['id']}/accept", {}, others[0]["token"])
    assert (status, body["error"]["code"]) == (409, "challenge_gone")


def test_the_notice_socket_refuses_a_bad_hello_and_survives_bad_frames(
    server: ServerProcess,
) -> None:
    stranger = Notices(server, "not-a-token")
    assert stranger.next() == {
        "type": "error",
        "code": "bad_token",
        "message": "no account has this token",
    }
    stranger.close()
    ada, bob = account(server), account(server)
    page = Notices(server, None)
    page.send({"type": "here", "room": "ABCD"})  # before hello
    assert page.next()["code"] == "not_joined"
    page.close()
    page = Notices(server, ada["token"])
    assert page.next()["type"] == "welcome"
    for bad in ("{", json.dumps({"type": "here", "room": "x" * 100}), json.dumps({"type": "x"})):
        page.send(bad)
        assert page.next()["code"] == "bad_message"
    page.ws.send(b"\x00\x01")
    assert page.next()["code"] == "bad_message"
    assert challenge(server, bob, ada)[0] == 201  # the socket still hears its notices
    assert page.challenge("open")["challenge"]["from_id"] == bob["id"]
    page.close()


def test_a_listed_room_is_an_open_game_while_it_waits_for_players(server: ServerProcess) -> None:
    ada = account(server)
    made = server.create_room_as(str(ada["token"]), "Ada", edition=EDITION, listed=True)
    code = made["code"]
    # nobody in it yet: not listed (a room made and left is not a game to join)
    assert code not in [g["code"] for g in server.get("/api/open-games")]
    host = Client(server)
    try:
        assert host.hello(code, made["token"])["room"]["settings"]["listed"] is True
        listed = eventually(
            lambda: [g for g in server.get("/api/open-games") if g["code"] == code],
            "the room among the open games",
        )[0]
        assert listed["host"] == "Ada" and listed["free"] == 3 and listed["rated"] is False
        assert made["token"] not in str(listed) and "invite" not in listed
        # a stranger takes a free seat by the code the list gives
        guest = server.take_seat(code, "Guest")
        assert guest["seat"] == 1
        assert [g["free"] for g in server.get("/api/open-games") if g["code"] == code] == [2]
        # locked, then unlisted: off the list either way
        host.reply({"type": "lock", "locked": True}, "locked")
        assert code not in [g["code"] for g in server.get("/api/open-games")]
        host.reply({"type": "lock", "locked": False}, "locked")
        host.reply({"type": "settings", "settings": {"listed": False}}, "settings_changed")
        assert code not in [g["code"] for g in server.get("/api/open-games")]
    finally:
        host.close()
    # an unlisted room, or a solo one, is never listed
    solo = server.create_room_as(str(ada["token"]), "Ada", mode="solo", listed=True)
    assert solo["code"] not in [g["code"] for g in server.get("/api/open-games")]


def test_free_text_is_for_players_who_chose_each_other_and_a_report_quotes_the_room(
    server: ServerProcess,
) -> None:
    rated = server.create_room("Ada", edition=EDITION, rated=True)
    ada = Client(server)
    try:
        ada.hello(rated["code"], rated["token"])
        said = ada.reply({"type": "say", "text": "hello strangers"}, "chat")
        assert (said["type"], said["code"]) == ("error", "no_free_text")
    finally:
        ada.close()
    made = server.create_room("Ada", edition=EDITION)
    bobs = server.take_seat(made["code"], "Bob")
    ada, bob = Client(server), Client(server)
    try:
        ada.hello(made["code"], made["token"])
        bob.hello(made["code"], bobs["token"])
        line = bob.reply({"type": "say", "text": "you are slow"}, "chat")
        assert line["data"]["text"] == "you are slow"
        heard = ada.wait(lambda m: m.get("kind") == "chat" and m["data"]["seat"] == 1)
        ada.send({"type": "report", "seq": heard["seq"]})
        ada.reply({"type": "ping", "id": 9, "t": 0.0}, "pong")  # the report was taken
        # the moderators read it as the room heard it (the reporter named only the line)
        listed = eventually(
            lambda: reports(server) if "you are slow" in reports(server) else None,
            "the report in the moderators' list",
        )
        assert f"room {made['code']}" in listed and "(Bob)" in listed
        for _ in range(4):
            ada.send({"type": "report", "seq": heard["seq"]})
        ada.send({"type": "report", "seq": heard["seq"]})  # the sixth from one seat
        assert ada.wait(lambda m: m["type"] == "error")["code"] == "rate_limited"
    finally:
        ada.close()
        bob.close()


def reports(server: ServerProcess) -> str:
    """What ``ubongo review reports`` prints for the server's database."""
    done = subprocess.run(
        [sys.executable, "-c", RUN, "review", "reports", "--database-url", server.database_url],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return done.stdout
