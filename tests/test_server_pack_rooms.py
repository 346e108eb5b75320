"""A pack raced in a room (docs/editor.md, "Packs") against a real ``ubongo serve`` on an
SQLite file: two players race a Trigo pack of two puzzles (both areas each) end to end, each
round dealing the pack's next puzzle to both, the game stored unrated and replayed from its
settings; and a scripted cheater: a pack room asked to be rated (made so, or made so after),
its pack or edition swapped over the socket, a pack that is not there or whose puzzles are
all gone, each refused with a clear code."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from server_harness import Client, ServerProcess, replayed, server_in, solution

from ubongo.puzzles.deck import standard_deck

_addresses = (f"198.51.100.{i}" for i in itertools.count(201))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from server_in(tmp_path_factory.mktemp("pack-rooms"), args=("--accounts-per-hour=1000",))


def account(server: ServerProcess, name: str) -> dict[str, Any]:
    address = next(_addresses)
    status, body = server.post("/api/accounts", {"name": name}, address=address)
    assert status == 201, body
    return {**body, "address": address}


def trigo_pack(
    server: ServerProcess, who: dict[str, Any], first: int, size: int
) -> tuple[str, list[Any]]:
    """``who``'s pack of ``size`` Trigo deck tasks from card ``first`` on (saved first: a
    task dealt in a room earlier is refused for a while); its id and the areas."""
    ids: list[str] = []
    areas: list[Any] = []
    for card in standard_deck("trigo").cards[first : first + size]:
        side = card.sides[0]
        area = [list(c) for c in sorted(side.area.cells)]
        puzzle = {"edition": "trigo", "area": area, "pieces": list(side.tasks[0].pieces)}
        body = {"puzzle": puzzle, "title": f"Card {card.number}"}
        status, saved = server.post("/api/puzzles", body, who["token"], address=who["address"])
        assert status == 201, saved
        ids.append(saved["summary"]["id"])
        areas.append(sorted(map(tuple, area)))
    body = {"title": "Race me", "puzzles": ids}
    status, pack = server.post("/api/packs", body, who["token"], address=who["address"])
    assert status == 201, pack
    return str(pack["id"]), areas


def test_two_players_race_a_trigo_pack_end_to_end(server: ServerProcess) -> None:
    ann, ben = account(server, "Ann"), account(server, "Ben")
    pack, areas = trigo_pack(server, ann, 0, 2)
    made = server.create_room_as(
        ann["token"], "Ann", pack=pack, puzzles="pack", rounds=8, between_seconds=0.5
    )
    snapshot = server.get(f"/api/rooms/{made['code']}")
    st = snapshot["settings"]
    assert (st["edition"], st["puzzles"], st["pack"], st["pack_title"], st["rated"]) == (
        "trigo",
        "pack",
        pack,
        "Race me",
        False,
    )
    joined = server.take_seat(made["code"], "Ben", account=ben["token"])
    host, other = Client(server), Client(server)
    assert host.hello(made["code"], made["token"])["type"] == "welcome"
    assert other.hello(joined["code"], joined["token"])["type"] == "welcome"
    other.reply({"type": "ready"}, "ready")
    host.send({"type": "start"})
    for n, area in enumerate(areas, 1):
        game = host.event("round_started")["room"]["game"]
        assert other.event("round_started")["room"]["game"]["round"] == n
        tasks = game["tasks"]
        # the pack's puzzle n, dealt to both: both of Trigo's areas
        assert tasks["0"]["card"] == tasks["1"]["card"] == n
        for seat in ("0", "1"):
            assert sorted(tuple(c) for c in tasks[seat]["area"]) == area
        for c, seat in ((other, "1"), (host, "0")):
            placed = solution(tasks[seat], "trigo")
            message = {"type": "submit", "round": game["round"], "placements": placed}
            assert c.reply(message, "verdict")["ok"]
    over = host.event("game_over")
    stored = server.get(f"/api/games/{int(over['data']['game_id'])}")
    assert stored["settings"]["rules"]["puzzles"] == "pack"
    assert stored["settings"]["room"]["rated"] is False
    assert stored["settings"]["rules"]["rounds"] == 2  # the pack's length, not the 8 asked
    assert replayed(stored).phase == "over"
    host.close()
    other.close()


def test_a_pack_room_is_never_rated(server: ServerProcess) -> None:
    cy = account(server, "Cy")
    pack, _ = trigo_pack(server, cy, 5, 1)
    body = {"name": "Cy", "settings": {"pack": pack, "puzzles": "pack", "rated": True}}
    status, answer = server.post("/api/rooms", body, cy["token"], address=cy["address"])
    assert (status, answer["error"]["code"]) == (422, "bad_setting"), answer
    assert "never rated" in answer["error"]["message"]
    made = server.create_room_as(cy["token"], "Cy", pack=pack, puzzles="pack")
    host = Client(server)
    assert host.hello(made["code"], made["token"])["type"] == "welcome"
    for patch, says in (
        ({"rated": True}, "never rated"),
        ({"pack": "another12345"}, "chosen when the room is made"),
        ({"edition": "classic"}, "its puzzles' edition"),
        ({"mode": "solo"}, "raced"),
    ):
        answer = host.reply({"type": "settings", "settings": patch}, "settings_changed")
        assert answer["type"] == "error" and answer["code"] == "bad_setting", (patch, answer)
        assert says in answer["message"]
    assert server.get(f"/api/rooms/{made['code']}")["settings"]["rated"] is False
    host.close()


def test_a_room_of_no_pack_is_refused(server: ServerProcess) -> None:
    dee = account(server, "Dee")
    for settings, code, status in (
        ({"pack": "nothere12345", "puzzles": "pack"}, "no_pack", 404),
        ({"puzzles": "pack"}, "bad_setting", 422),
    ):
        body = {"name": "Dee", "settings": settings}
        got, answer = server.post("/api/rooms", body, dee["token"], address=dee["address"])
        assert (got, answer["error"]["code"]) == (status, code), answer
    # a pack of another's puzzle since taken back to its link: nothing left to race
    eve = account(server, "Eve")
    area = [".##..", "####.", ".####", ".###."]
    puzzle = {"edition": "classic", "area": area, "pieces": list("DIG")}
    saving = {"puzzle": puzzle, "title": "Gone", "published": True}
    status, saved = server.post("/api/puzzles", saving, eve["token"], address=eve["address"])
    assert status == 201, saved
    pid = saved["summary"]["id"]
    made = {"title": "Borrowed", "puzzles": [pid]}
    status, pack = server.post("/api/packs", made, dee["token"], address=dee["address"])
    assert status == 201, pack
    unpublish = {"published": False}
    status, _ = server.request(
        "PUT", f"/api/puzzles/{pid}/published", unpublish, eve["token"], eve["address"]
    )
    assert status == 200
    body = {"name": "Dee", "settings": {"pack": pack["id"], "puzzles": "pack"}}
    got, answer = server.post("/api/rooms", body, dee["token"], address=dee["address"])
    assert (got, answer["error"]["code"]) == (422, "bad_pack"), answer
