"""Packs (docs/editor.md, "Packs") against a real ``ubongo serve`` on an SQLite file: a Trigo
pack of two saved puzzles (both areas each), read by its link in order and as a pack file
that ``ubongo.puzzlefile`` reads; and a scripted cheater: a pack with another account's
private puzzle, oversized, empty, with a puzzle twice, of two editions, past the limits, each
refused with a clear code; a puzzle taken back to its link is left out of another's pack."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from server_harness import ServerProcess, server_in

from ubongo import puzzlefile
from ubongo.puzzles.deck import standard_deck
from ubongo.solver import count

MOST_PUZZLES, PACKS_A_DAY = 3, 4
CLASSIC = {
    "edition": "classic",
    "area": [".##..", "####.", ".####", ".###."],
    "pieces": list("DIG"),
}
_addresses = (f"198.51.100.{i}" for i in itertools.count(101))


def trigo_puzzles() -> list[dict[str, Any]]:
    """Two Trigo deck tasks (a card's side has one) as puzzle files: two regions each."""
    sides = [card.sides[0] for card in standard_deck("trigo").cards[:2]]
    return [
        {
            "edition": "trigo",
            "area": [list(c) for c in sorted(side.area.cells)],
            "pieces": list(side.tasks[0].pieces),
        }
        for side in sides
    ]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    yield from server_in(
        tmp_path_factory.mktemp("packs"),
        args=(
            "--accounts-per-hour=1000",
            f"--pack-puzzles={MOST_PUZZLES}",
            f"--packs-per-day={PACKS_A_DAY}",
        ),
    )


class Player:
    """An account and the address it calls from."""

    def __init__(self, server: ServerProcess, name: str) -> None:
        self.server = server
        self.address = next(_addresses)
        status, body = server.post("/api/accounts", {"name": name}, address=self.address)
        assert status == 201, body
        self.id, self.token = body["id"], body["token"]

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        return self.server.request(method, path, body, self.token, self.address)

    def save(self, puzzle: dict[str, Any], title: str, published: bool = False) -> str:
        status, body = self.call(
            "POST", "/api/puzzles", {"puzzle": puzzle, "title": title, "published": published}
        )
        assert status == 201, body
        return str(body["summary"]["id"])

    def pack(self, title: str, ids: list[str]) -> tuple[int, Any]:
        return self.call("POST", "/api/packs", {"title": title, "puzzles": ids})


def test_a_trigo_pack_in_order_and_as_a_file(server: ServerProcess) -> None:
    ann = Player(server, "Ann")
    ids = [ann.save(p, f"Two areas {i}") for i, p in enumerate(trigo_puzzles())]
    status, pack = ann.pack("Trigo for Ben", list(reversed(ids)))
    assert status == 201, pack
    assert (pack["edition"], pack["title"], pack["mine"], pack["left_out"]) == (
        "trigo",
        "Trigo for Ben",
        True,
        0,
    )
    assert [p["id"] for p in pack["puzzles"]] == list(reversed(ids))
    assert all(p["layers"] == 1 and len(p["area"]) > 10 for p in pack["puzzles"])
    # read by its link, without an account; and among the author's own
    seen = server.get(f"/api/packs/{pack['id']}")
    assert [p["id"] for p in seen["puzzles"]] == list(reversed(ids)) and not seen["mine"]
    status, mine = ann.call("GET", "/api/packs/mine")
    assert status == 200 and [p["id"] for p in mine["packs"]] == [pack["id"]]
    assert mine["packs"][0]["puzzles"] == 2, mine
    # the pack file: each puzzle a puzzle file with both areas, each solvable
    file = server.get(f"/api/packs/{pack['id']}/file")
    assert file["name"] == "Trigo for Ben" and len(file["puzzles"]) == 2
    for data in file["puzzles"]:
        puzzle = puzzlefile.from_json(data)
        assert len(puzzle.area.regions) == 2
        assert count(puzzle.area, list(puzzle.pieces), limit=1) == 1
    status, body = server.request("GET", "/api/packs/nothere12345")
    assert (status, body["error"]["code"]) == (404, "no_pack")


def test_a_cheater_cannot_pack_what_is_not_theirs(server: ServerProcess) -> None:
    ann, ben = Player(server, "Ann2"), Player(server, "Ben")
    private = ann.save(CLASSIC, "Private stairs")
    status, body = ben.pack("Stolen", [private])
    assert (status, body["error"]["code"]) == (422, "bad_pack"), body
    assert "neither yours nor published" in body["error"]["message"]
    # published, anybody may pack it; taken back to its link, it is left out of Ben's pack
    assert ann.call("PUT", f"/api/puzzles/{private}/published", {"published": True})[0] == 200
    status, pack = ben.pack("Borrowed", [private])
    assert status == 201 and len(pack["puzzles"]) == 1, pack
    assert ann.call("PUT", f"/api/puzzles/{private}/published", {"published": False})[0] == 200
    seen = server.get(f"/api/packs/{pack['id']}")
    assert (seen["puzzles"], seen["left_out"]) == ([], 1)
    assert server.get(f"/api/packs/{pack['id']}/file")["puzzles"] == []


def test_bad_packs_are_refused(server: ServerProcess) -> None:
    cy = Player(server, "Cy")
    trigo = [cy.save(p, f"T{i}") for i, p in enumerate(trigo_puzzles())]
    classic = cy.save(CLASSIC, "C")
    for ids, why in (
        ([], "from 1 to 3"),
        ([*trigo, classic, trigo[0]], "from 1 to 3"),
        ([trigo[0], trigo[0]], "once"),
        ([trigo[0], classic], "one edition"),
        (["nothere12345"], "no puzzle"),
    ):
        status, body = cy.pack("Junk", ids)
        assert (status, body["error"]["code"]) == (422, "bad_pack"), (ids, body)
        assert why in body["error"]["message"]
    status, body = cy.pack("Bot", [classic])
    assert (status, body["error"]["code"]) == (422, "name_reserved"), body
    status, body = server.post("/api/packs", {"title": "No one", "puzzles": [classic]})
    assert (status, body["error"]["code"]) == (401, "bad_token")
    status, body = cy.call("POST", "/api/packs", {"title": "x", "puzzles": ["a"] * 101})
    assert (status, body["error"]["code"]) == (422, "bad_message")


def test_packs_a_day_are_limited(server: ServerProcess) -> None:
    dee = Player(server, "Dee")
    one = dee.save(CLASSIC, "Mine")
    assert [dee.pack(f"P{i}", [one])[0] for i in range(PACKS_A_DAY)] == [201] * PACKS_A_DAY
    status, body = dee.pack("One more", [one])
    assert (status, body["error"]["code"]) == (429, "puzzle_limit"), body
