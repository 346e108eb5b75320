"""The room's chat against a real ``ubongo serve`` (docs/social.md): spectators talk among
themselves and no seated player ever hears them, whatever a scripted spectator sends; an
address that opens many spectator sockets is paced as one; a game's players' lines are kept
with the stored game and shown in its replay to its players only; the analysis says what a
hint would have saved."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_harness import Client, ServerProcess, server_in, solution
from waiting import eventually

EDITION = "classic"
_addresses = (f"10.26.0.{i}" for i in itertools.count(1))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder: Path = tmp_path_factory.mktemp("chat")
    yield from server_in(folder, args=("--accounts-per-hour=1000",))


def client(server: ServerProcess, address: str | None = None) -> Client:
    """A WebSocket from its own client address (``X-Forwarded-For``, as a proxy sends it)."""
    return Client(server, headers={"X-Forwarded-For": address or next(_addresses)})


def watcher(server: ServerProcess, code: str, address: str | None = None) -> Client:
    c = client(server, address)
    assert c.hello(code, spectate=True)["type"] == "welcome"
    return c


def heard_by_now(c: Client) -> list[dict[str, Any]]:
    """Everything ``c`` was sent up to a pong it asks for now: what the server sent it before
    this moment (one connection's messages arrive in order)."""
    c.send({"type": "ping", "id": 7, "t": 0.0})
    c.wait(lambda m: m["type"] == "pong")
    heard, c.inbox = c.inbox, []
    return heard


def said(m: dict[str, Any]) -> bool:
    return bool(m["type"] == "spectator_said")


def test_spectators_talk_among_themselves_and_no_player_hears_them(server: ServerProcess) -> None:
    made = server.create_room("Ada", edition=EDITION)
    code = made["code"]
    bobs = server.take_seat(code, "Bob")
    ada, bob = client(server), client(server)
    ada.hello(code, made["token"])
    bob.hello(code, bobs["token"])
    eve, max_ = watcher(server, code), watcher(server, code)
    try:
        mine = eve.reply({"type": "say", "phrase": "wow"}, "spectator_said")
        assert (mine["type"], mine["phrase"], mine["mine"]) == ("spectator_said", "wow", True)
        other = max_.wait(said)
        assert (other["spectator"], other["mine"]) == (mine["spectator"], False)
        # what a scripted spectator may try: free text, a seat of its own making, a report
        for attempt, code_ in (
            ({"type": "say", "text": "psst, players"}, "no_free_text"),
            ({"type": "say", "phrase": "hello", "seat": 0}, "bad_message"),
            ({"type": "report", "seq": 1}, "spectator"),
        ):
            answer = max_.reply(attempt, "spectator_said")
            assert (answer["type"], answer["code"]) == ("error", code_), attempt
        # max_ speaks in turn: its own number, heard by eve
        second = max_.reply({"type": "say", "phrase": "hello"}, "spectator_said")
        assert second["spectator"] != mine["spectator"] and second["mine"]
        assert eve.wait(said)["spectator"] == second["spectator"]
        # the players heard none of it, nor any refusal meant for the spectators
        for player in (ada, bob):
            assert not [m for m in heard_by_now(player) if said(m) or m.get("kind") == "chat"]
        # a player's phrase still reaches everybody, the spectators too
        line = bob.reply({"type": "say", "phrase": "good_luck"}, "chat")
        assert line["data"] == {"seat": 1, "phrase": "good_luck", "text": None}
        for c in (ada, eve, max_):
            assert c.event("chat")["data"]["phrase"] == "good_luck"
    finally:
        for c in (ada, bob, eve, max_):
            c.close()


def test_an_address_with_many_spectator_sockets_is_paced_as_one(server: ServerProcess) -> None:
    made = server.create_room("Ada", edition=EDITION)
    code = made["code"]
    ada = client(server)
    ada.hello(code, made["token"])
    home = next(_addresses)
    sockets = [watcher(server, code, home) for _ in range(5)]
    stranger = watcher(server, code)
    try:
        for s in sockets:  # all at once, from one address
            s.send({"type": "say", "phrase": "wow"})
        # one phrase passed, heard by every socket of the address as its own
        lines = [s.wait(said) for s in sockets]
        assert {(m["spectator"], m["phrase"], m["mine"]) for m in lines} == {
            (lines[0]["spectator"], "wow", True)
        }
        # and the four others were refused (each answer comes before the socket's pong)
        answers = [m for s in sockets for m in heard_by_now(s)]
        assert not [m for m in answers if said(m)]
        refused = [m["code"] for m in answers if m["type"] == "error"]
        assert refused == ["rate_limited"] * 4
        spoken = lines[0]
        assert stranger.wait(said)["spectator"] == spoken["spectator"]
        # another address is not held back by it
        assert stranger.reply({"type": "say", "phrase": "oops"}, "spectator_said")["mine"]
        assert not [m for m in heard_by_now(ada) if said(m)]
    finally:
        for c in [ada, stranger, *sockets]:
            c.close()


def account(server: ServerProcess, name: str, address: str) -> dict[str, Any]:
    status, body = server.post("/api/accounts", {"name": name}, address=address)
    assert status == 201, body
    return dict(body)


def replay(server: ServerProcess, game_id: int, token: str | None) -> tuple[int, Any]:
    return server.request("GET", f"/api/games/{game_id}/replay", token=token)


def test_a_games_chat_is_in_its_replay_for_its_players_only(server: ServerProcess) -> None:
    ada_addr, bob_addr = next(_addresses), next(_addresses)
    ada_acc = account(server, "Chatty Ada", ada_addr)
    bob_acc = account(server, "Chatty Bob", bob_addr)
    carol = account(server, "Nosy Carol", next(_addresses))
    status, made = server.post(
        "/api/rooms",
        {"name": "Ada", "settings": {"edition": EDITION, "rounds": 1, "hourglass_seconds": 8}},
        ada_acc["token"],
        ada_addr,
    )
    assert status == 201, made
    code = made["code"]
    status, bobs = server.post(
        f"/api/rooms/{code}/seats", {"name": "Bob"}, bob_acc["token"], bob_addr
    )
    assert status == 201, bobs
    ada, bob = client(server, ada_addr), client(server, bob_addr)
    ada.hello(code, made["token"])
    bob.hello(code, bobs["token"])
    eve = watcher(server, code)
    try:
        ada.reply({"type": "say", "phrase": "good_luck"}, "chat")
        bob.reply({"type": "say", "text": "have fun"}, "chat")
        eve.reply({"type": "say", "phrase": "wow"}, "spectator_said")  # never kept
        bob.reply({"type": "ready", "ready": True}, "ready")
        ada.send({"type": "start"})
        game = ada.event("round_started", 30)["room"]["game"]
        task = game["tasks"][str(ada.seat)]
        answer = {"type": "submit", "round": game["round"], "placements": solution(task, EDITION)}
        assert ada.reply(answer, "verdict")["ok"]  # Bob lets his hourglass run out
        over = ada.event("game_over", 30)
        game_id = over["data"]["game_id"]
        bob.reply({"type": "say", "phrase": "well_played"}, "chat")  # on the end screen
    finally:
        for c in (ada, bob, eve):
            c.close()

    def players_chat() -> list[dict[str, Any]] | None:
        status, body = replay(server, game_id, ada_acc["token"])
        assert status == 200, body
        lines: list[dict[str, Any]] = body["chat"]
        return lines if len(lines) == 3 else None

    lines = eventually(players_chat, "the end screen's line kept with the game")
    assert [(c["seat"], c["phrase"], c["text"]) for c in lines] == [
        (0, "good_luck", None),
        (1, None, "have fun"),
        (1, "well_played", None),
    ]
    assert lines[0]["at"] < 0 < lines[2]["at"]  # the lobby's before the first round
    status, bobs_view = replay(server, game_id, bob_acc["token"])
    assert status == 200 and bobs_view["chat"] == lines
    for token in (None, carol["token"]):  # anybody else: the replay, without its chat
        status, body = replay(server, game_id, token)
        assert status == 200 and body["chat"] is None and body["rounds"] == bobs_view["rounds"]
    status, refused = replay(server, game_id, "not-a-token-of-anybody")
    assert (status, refused["error"]["code"]) == (401, "bad_token")
    # the stored game and its file carry no chat either
    stored = server.get(f"/api/games/{game_id}")
    assert "have fun" not in json.dumps(stored) and "well_played" not in json.dumps(stored)


def test_the_analysis_says_what_a_hint_would_have_saved(server: ServerProcess) -> None:
    made = server.create_room("Ada", edition=EDITION, rounds=1, hourglass_seconds=8)
    ada = client(server)
    try:
        ada.hello(made["code"], made["token"])
        ada.reply({"type": "add_bot", "level": "easy"}, "bot_added")
        ada.send({"type": "start"})
        game = ada.event("round_started", 30)["room"]["game"]
        task = game["tasks"][str(ada.seat)]
        answer = {"type": "submit", "round": game["round"], "placements": solution(task, EDITION)}
        assert ada.reply(answer, "verdict")["ok"]
        game_id = ada.event("game_over", 30)["data"]["game_id"]
    finally:
        ada.close()
    analysed = server.get(f"/api/games/{game_id}/analysis")
    tasks = {t["seat"]: t for t in analysed["rounds"][0]["tasks"]}
    mine = tasks[0]
    seconds, median, hinted = mine["seconds"], mine["median_seconds"], mine["hinted_seconds"]
    assert hinted >= 15.0  # the hint's own cost is in
    # at Ada's pace: her time against the model's, for what the hint leaves, plus its cost
    expected = seconds - (seconds / median * (hinted - 15.0) + 15.0)
    assert mine["hint_saves"] == pytest.approx(expected, abs=0.2)
    assert mine["hint_saves"] < 0  # a script's instant solve gains nothing from a hint
    for t in tasks.values():
        assert (t["seconds"] is None) == (t["hint_saves"] is None)
