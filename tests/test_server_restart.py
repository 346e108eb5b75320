"""Open rooms outlive a restart of the server (one process, rooms saved in the database).

Real servers on a real SQLite file: a game is stopped mid-round (cleanly, or killed), a new
server starts on the same database, the players come back with their seat tokens and finish
the game.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from server_harness import Client, ServerProcess, replayed, solution, wait_saved
from waiting import eventually

from ubongo.server.store import Store


def submit(c: Client, game: dict[str, Any], edition: str = "classic") -> dict[str, Any]:
    task = game["tasks"][str(c.seat)]
    placements = solution(task, edition)
    return c.reply({"type": "submit", "round": game["round"], "placements": placements}, "verdict")


def finished_seats(room: dict[str, Any]) -> list[int]:
    return [f["seat"] for f in room["game"]["finished"]]


@pytest.mark.parametrize("kill", [False, True], ids=["stopped", "killed"])
def test_a_game_goes_on_after_the_server_restarts(tmp_path: Path, kill: bool) -> None:
    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    first = ServerProcess(url, log=tmp_path / "first.log").start()
    try:
        # the hourglass runs from Ada's finish through the restart to Bob's: 30 s, so that a
        # slow restart under load does not end the round first (15 s did once in a full run);
        # a round whose bot has not finished lasts as long, so it is no longer
        created = first.create_room(
            "Ada", edition="classic", rounds=2, hourglass_seconds=30, between_seconds=0.2, seed=7
        )
        code, ada_token = created["code"], created["token"]
        bob_token = first.take_seat(code, "Bob")["token"]
        ada, bob = Client(first), Client(first)
        ada.hello(code, ada_token)
        bob.hello(code, bob_token)
        assert ada.reply({"type": "add_bot", "level": "hard"}, "bot_added")["kind"] == "bot_added"
        bob.reply({"type": "ready"}, "ready")
        ada.send({"type": "start"})
        game = ada.event("round_started")["room"]["game"]
        assert submit(ada, game)["ok"] is True
        ada.wait(lambda m: m.get("kind") == "finished" and m["data"]["seat"] == 0)
        seen = ada.seq
        wait_saved(tmp_path / "rooms.sqlite3", code, seen)  # what a killed server keeps
        ada.close()
        bob.close()
    finally:
        first.stop(kill=kill)

    second = ServerProcess(url, log=tmp_path / "second.log").start()
    try:
        ada, bob = Client(second), Client(second)
        # the browser sends the last event number it saw: the events since (if the server
        # saved them), or else the whole room as it was saved
        ada.seq = seen  # what the browser remembers
        welcome = ada.hello(code, ada_token, last_seq=seen)
        assert welcome["type"] == "welcome" and welcome["seat"] == 0, welcome
        room = welcome["room"]
        assert room["phase"] == "playing"
        assert [s and s["name"] for s in room["seats"]][:2] == ["Ada", "Bob"]
        again = room["game"]
        assert again["round"] == game["round"] and again["tasks"] == game["tasks"]
        assert finished_seats(room)[0] == 0
        # a seat token of the first server still holds its seat; a made-up one does not
        assert bob.hello(code, bob_token)["seat"] == 1
        stranger = Client(second)
        assert stranger.hello(code, "not-a-token")["code"] == "bad_token"
        stranger.close()
        # Ada already finished this round; Bob finishes it now, after Ada
        assert submit(ada, again)["code"] == "already_finished"
        if 1 not in finished_seats(bob.room or room):
            verdict = submit(bob, again)
            assert verdict["ok"] is True, verdict
            bob_finish = bob.wait(lambda m: m.get("kind") == "finished" and m["data"]["seat"] == 1)
            assert bob_finish["data"]["place"] > 1
        # and the game goes on to its end, stored and replayable
        while True:
            ev = ada.wait(
                lambda m: m["type"] == "event" and m["kind"] in ("round_started", "game_over"), 60
            )
            if ev["kind"] == "game_over":
                break
            nxt = ev["room"]["game"]
            assert submit(ada, nxt)["ok"] is True

            def next_round_started(m: dict[str, Any], r: int = nxt["round"]) -> bool:
                return m.get("kind") == "round_started" and m["data"]["round"] == r

            bob.wait(next_round_started)
            submit(bob, nxt)  # (the bot may have ended the round first)
        stored = second.get(f"/api/games/{ev['data']['game_id']}")
        assert stored["room"] == code
        assert [p["name"] for p in stored["players"]][:2] == ["Ada", "Bob"]
        assert replayed(stored).phase == "over"
        ada.close()
        bob.close()
    finally:
        second.stop()
    # the game is over and stored: nothing is left to reopen
    assert [r["phase"] for r in Store(url).open_rooms.all()] in ([], ["over"])


def test_closed_and_unreadable_rooms_are_not_reopened(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    first = ServerProcess(url, log=tmp_path / "first.log").start()
    try:
        kept = first.create_room("Ada", edition="trigo")
        left = first.create_room("Bob", edition="extreme")
        bob = Client(first)
        bob.hello(left["code"], left["token"])
        bob.send({"type": "leave"})
        # Bob was the only person: the room closes
        eventually(
            lambda: first.request("GET", f"/api/rooms/{left['code']}")[0] == 404,
            "the room Bob left to close",
        )
        status, _ = first.post(f"/api/rooms/{left['code']}/seats", {"name": "Cy"})
        assert status == 404
        bob.close()
    finally:
        first.stop()
    store = Store(url)
    assert sorted(r["code"] for r in store.open_rooms.all()) == [kept["code"]]
    # a saved room that this version cannot rebuild: a game whose log the rules refuse
    broken = {**store.open_rooms.all()[0], "code": "ZZZZZ"}
    broken["game"] = {"settings": {"edition": "classic"}, "log": [{"kind": "no such action"}]}
    store.open_rooms.save({"ZZZZZ": broken}, [], time.time())
    store.close()

    second = ServerProcess(url, log=tmp_path / "second.log").start()
    try:
        assert second.get(f"/api/rooms/{kept['code']}")["settings"]["edition"] == "trigo"
        status, body = second.post("/api/rooms/ZZZZZ/seats", {"name": "Cy"})
        assert status == 404, body
        status, _ = second.post(f"/api/rooms/{left['code']}/seats", {"name": "Cy"})
        assert status == 404
        ada = Client(second)
        assert ada.hello(kept["code"], kept["token"])["seat"] == 0
        ada.close()
    finally:
        second.stop()
    log = (tmp_path / "second.log").read_text()
    assert "could not reopen room ZZZZZ" in log
    assert sorted(r["code"] for r in Store(url).open_rooms.all()) == [kept["code"]]
