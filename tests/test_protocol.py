"""The protocol's models (``ubongo.server.protocol``: outgoing, answers, stored) against a
real server: games of every edition, solo, tie-breaks, bots, reconnects and refusals are played
through ``ubongo serve``, and every frame and HTTP body received is checked against the models
by the harness (``server_harness.check_frame``/``check_body``, strict: a field the models
lack fails). The scenarios here are chosen so that every message type and every event kind
the models describe is received at least once.
"""

from __future__ import annotations

import json
import typing
import urllib.error
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import ValidationError
from server_harness import Client, ServerProcess, check_body, check_frame, server_in, solution

from ubongo import editions
from ubongo.rules import errors
from ubongo.server.protocol import outgoing as messages
from ubongo.server.protocol.events import RoomEvent

#: event kinds this server never sends
NOT_SENT: set[str] = set()


def _literal(model: type[Any], field: str) -> str:
    (value,) = typing.get_args(model.model_fields[field].annotation)
    return str(value)


def _members(union: Any) -> list[type[Any]]:
    """The models of an ``Annotated[A | B | ..., discriminator]`` union, nested ones flattened."""
    out: list[type[Any]] = []
    for arg in typing.get_args(typing.get_args(union)[0]):
        out.extend(_members(arg) if typing.get_origin(arg) is typing.Annotated else [arg])
    return out


MESSAGE_TYPES = {_literal(m, "type") for m in _members(messages.ServerMessage)}
EVENT_KINDS = {_literal(m, "kind") for m in _members(RoomEvent)}


class Recorder(Client):
    """A client that notes the type (and event kind) of every message it receives."""

    seen: typing.ClassVar[set[str]] = set()
    token = ""

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        msg = super().recv(timeout)
        Recorder.seen.add(msg["type"])
        if msg["type"] == "event":
            Recorder.seen.add("event:" + msg["kind"])
        return msg


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # the tests' players are machines: no plausibility floor for their records
    yield from server_in(
        tmp_path_factory.mktemp("protocol"),
        args=("--record-seconds-per-piece", "0", "--no-require-traces"),
    )


def join(server: ServerProcess, code: str, token: str) -> Recorder:
    c = Recorder(server)
    assert c.hello(code, token)["type"] == "welcome"
    c.token = token
    return c


def pair(server: ServerProcess, **settings: Any) -> tuple[Recorder, Recorder]:
    """Ada (host) and Bob seated and connected in a new room; Ada sees Bob arrive."""
    created = server.create_room("Ada", **settings)
    ada = join(server, created["code"], created["token"])
    bob = server.take_seat(created["code"], "Bob")
    assert ada.event("seat_taken")["data"] == {"seat": 1, "name": "Bob"}
    return ada, join(server, bob["code"], bob["token"])


def code_of(c: Client) -> str:
    assert c.room is not None
    return str(c.room["code"])


def solve(c: Client, game: dict[str, Any], edition: str) -> dict[str, Any]:
    task = game["tasks"][str(c.seat)]
    placements = solution(task, edition)
    return c.reply({"type": "submit", "round": game["round"], "placements": placements}, "verdict")


def lobby_then_a_tie_broken_by_a_playoff(server: ServerProcess) -> list[int]:
    ada, bob = pair(server, edition="3d")
    code = code_of(ada)
    watcher = Recorder(server)
    assert watcher.hello(code, spectate=True)["seat"] is None
    ada.event("spectators")
    assert ada.reply({"type": "ping", "id": 1, "t": 2.5}, "pong")["id"] == 1
    ada.reply({"type": "add_bot", "level": "easy"}, "bot_added")
    ada.reply({"type": "bot_level", "seat": 2, "level": "hard"}, "bot_changed")
    ada.reply({"type": "remove_bot", "seat": 2}, "seat_freed")
    # a squatter taken out, and the room locked then opened again
    squatter = server.take_seat(code, "Sq")
    ada.event("seat_taken")
    ada.reply({"type": "kick", "seat": squatter["seat"]}, "kicked")
    ada.reply({"type": "lock", "locked": True}, "locked")
    ada.reply({"type": "lock", "locked": False}, "locked")
    said = bob.reply({"type": "say", "phrase": "good_luck"}, "chat")
    assert said["data"] == {"seat": bob.seat, "phrase": "good_luck", "text": None}
    assert "room" not in said
    assert ada.event("chat")["data"]["phrase"] == "good_luck"
    # again at once: the pace of phrases
    for who, phrase, code in (
        (bob, "wow", "rate_limited"),
        (bob, "free text", "bad_message"),
    ):
        who.send({"type": "say", "phrase": phrase})
        assert who.wait(lambda m: m["type"] == "error")["code"] == code, phrase
    # a spectator speaks to the spectators only, in quick phrases only
    said_to_watchers = watcher.reply({"type": "say", "phrase": "hello"}, "spectator_said")
    assert said_to_watchers["phrase"] == "hello"
    watcher.send({"type": "say", "text": "hi players"})
    assert watcher.wait(lambda m: m["type"] == "error")["code"] == "no_free_text"
    # free text in this unrated, unlisted room; Bob reports Ada's line, the room quotes it
    line = ada.reply({"type": "say", "text": "  hi\u202e  all "}, "chat")
    assert line["data"] == {"seat": 0, "phrase": None, "text": "hi all"}
    heard = bob.wait(lambda m: m.get("kind") == "chat" and m["data"]["text"] == "hi all")
    bob.send({"type": "report", "seq": heard["seq"]})
    for who, message, code in (
        (bob, {"type": "report", "seq": 1}, "bad_message"),  # not a line of free text
        (ada, {"type": "report", "seq": heard["seq"]}, "bad_message"),  # one's own
        (watcher, {"type": "report", "seq": heard["seq"]}, "spectator"),
    ):
        who.send(message)
        assert who.wait(lambda m: m["type"] == "error")["code"] == code, message
    bob.reply({"type": "choose_side", "side": "red"}, "side_chosen")
    # time enough for a wrong arrangement to arrive before the hourglass (and its second turn)
    # runs out on a busy machine
    fast = {"hourglass_seconds": 2, "rounds": 1, "between_seconds": 0, "round_limit_seconds": 1}
    settings = {"type": "settings", "settings": {"edition": "classic", **fast}}
    ada.reply(settings, "settings_changed")
    bob.reply({"type": "ready"}, "ready")
    ada.send({"type": "start"})
    started = ada.event("round_started")
    assert ada.reply({"type": "start"}, "error")["code"] == "wrong_phase"
    wrong = solution(started["room"]["game"]["tasks"]["0"], "classic")[:-1]
    submit = {"type": "submit", "round": started["room"]["game"]["round"], "placements": wrong}
    assert ada.reply(submit, "verdict")["code"] == "missing_piece"
    # nobody finishes: the hourglass is turned once, then 0:0 is a tie and a playoff follows
    ada.event("second_chance")
    assert ada.event("tie")["data"]["next"] == "playoff"
    ada.event("playoff")
    over = ada.event("game_over")
    watcher.event("game_over")
    ada.reply({"type": "rematch"}, "rematch")
    # the host leaves: Bob hosts
    ada.send({"type": "leave"})
    assert bob.event("host")["data"]["seat"] == 1
    for c in (ada, bob, watcher):
        c.close()
    return [over["data"]["game_id"]]


def card_games_with_a_countdown_then_a_shared_tie(server: ServerProcess) -> list[int]:
    fast = {"countdown_seconds": 0.5, "rounds": 1, "round_limit_seconds": 30, "side": "A"}
    ada, bob = pair(server, edition="extreme", **fast)
    bob.reply({"type": "ready"}, "ready")
    ada.send({"type": "start"})
    game = ada.event("round_started")["room"]["game"]
    assert solve(ada, game, "extreme")["ok"]
    ada.event("countdown")
    ended = ada.event("round_ended")
    assert ended["data"]["awards"]["first"] == 0
    first = ada.event("game_over")["data"]["game_id"]
    ada.reply({"type": "rematch"}, "rematch")
    ada.reply({"type": "settings", "settings": {"round_limit_seconds": 1}}, "settings_changed")
    bob.reply({"type": "ready"}, "ready")
    ada.send({"type": "start"})
    # nobody finishes and nobody has a card for a tie round: the win is shared
    assert ada.event("tie")["data"]["resolved"]
    second = ada.event("game_over")["data"]["game_id"]
    for c in (ada, bob):
        c.close()
    return [first, second]


def solo_with_a_skip(server: ServerProcess, edition: str) -> list[int]:
    created = server.create_room(
        "Solveig", edition=edition, mode="solo", solo_goal="tasks", solo_amount=5
    )
    c = join(server, created["code"], created["token"])
    c.send({"type": "start"})
    game = c.event("round_started")["room"]["game"]
    skipped = c.reply({"type": "skip", "round": game["round"]}, "task_skipped")
    game = c.event("task_drawn")["room"]["game"]
    assert skipped["data"]["card"] != game["tasks"]["0"]["card"] or edition == "trigo"
    for _ in range(4):  # five tasks, the smallest amount the editions offer
        assert solve(c, game, edition)["ok"]
        game = c.event("task_drawn")["room"]["game"]
    assert solve(c, game, edition)["ok"]
    c.event("finished")
    over = c.event("game_over")
    assert over["data"]["record"]["solved"] == 5
    assert over["data"]["record"]["skipped"] == 1
    c.close()
    # the task put aside is stored with the run: the leaderboard and the records show it
    game_id = over["data"]["game_id"]
    board = server.get(f"/api/leaderboard?edition={edition}&goal=tasks&amount=5")
    assert [r["skipped"] for r in board if r["game_id"] == game_id] == [1]
    bests = server.get("/api/records?name=Solveig")
    assert all("skipped" in r for r in bests)
    return [game_id]


def solo_with_a_hint_and_giving_up(server: ServerProcess, edition: str) -> None:
    created = server.create_room("Hilde", edition=edition, mode="solo", solo_goal="tasks")
    c = join(server, created["code"], created["token"])
    c.send({"type": "start"})
    game = c.event("round_started")["room"]["game"]
    hint = c.reply({"type": "hint", "round": game["round"], "placements": []}, "hint")
    assert hint["type"] == "hint" and hint["placement"] is not None, hint
    assert c.event("hinted")["data"]["penalty"] == hint["penalty"] > 0
    gave = c.reply({"type": "give_up", "round": game["round"]}, "gave_up")
    assert gave["data"]["task"] == game["tasks"]["0"] and gave["data"]["solution"]
    c.event("task_drawn")
    c.close()


def an_endless_run(server: ServerProcess, edition: str) -> list[int]:
    """Solve a task, give one up (both rated), no hint, then stop."""
    created = server.create_room("Emil", edition=edition, mode="solo", solo_goal="endless")
    c = join(server, created["code"], created["token"])
    c.send({"type": "start"})
    game = c.event("round_started")["room"]["game"]
    assert solve(c, game, edition)["ok"]
    assert c.event("task_rated")["data"]["why"] == "solved"
    game = c.event("task_drawn")["room"]["game"]
    refused = c.reply({"type": "hint", "round": game["round"], "placements": []}, "hint")
    assert (refused["type"], refused["code"]) == ("error", "no_help")
    # tasks given up in a row (an endless run's sides change from task to task): each
    # gave_up shows the task given up, with its solution
    for _ in range(4):
        c.send({"type": "give_up", "round": game["round"]})
        assert c.event("task_rated")["data"]["why"] == "gave_up"
        gave = c.event("gave_up")["data"]
        assert gave["task"] == game["tasks"]["0"] and gave["solution"]
        game = c.event("task_drawn")["room"]["game"]
    c.send({"type": "stop", "round": game["round"]})
    over = c.event("game_over")
    assert over["data"]["record"]["rated"] == 5
    c.close()
    return [over["data"]["game_id"]]


def a_race_with_a_bot(server: ServerProcess, edition: str) -> list[int]:
    fast: dict[str, Any] = (
        {"hourglass_seconds": 1} if edition in ("classic", "3d") else {"countdown_seconds": 1}
    )
    created = server.create_room("Ada", edition=edition, rounds=1, between_seconds=0, **fast)
    ada = join(server, created["code"], created["token"])
    ada.reply({"type": "add_bot", "level": "hard"}, "bot_added")
    ada.send({"type": "start"})
    # when both finish, Extreme and Trigo can tie (a card each): Ada plays the tie round too
    kinds = ("round_started", "playoff", "game_over")
    ev = ada.wait(lambda m: m["type"] == "event" and m["kind"] in kinds)
    while ev["kind"] != "game_over":
        verdict = solve(ada, ev["room"]["game"], edition)
        # the 1 s clock may end the round while the solver thinks: too late, or (the tie
        # round already dealt) the round named is not this one any more, or (a loaded
        # machine's 3D solve took longer than the round) the game is over already
        stale = verdict["type"] == "error" and verdict["code"] in ("stale_round", "wrong_phase")
        assert stale or verdict["ok"] or verdict["reason"] == "too_late", verdict
        ev = ada.wait(lambda m: m["type"] == "event" and m["kind"] in kinds)
    ada.close()
    return [ev["data"]["game_id"]]


def a_reconnect_and_a_person_replaced_by_a_bot(server: ServerProcess) -> None:
    ada, bob = pair(server, edition="classic", hourglass_seconds=20, rounds=1)
    code = code_of(ada)
    ada.reply({"type": "settings", "settings": {"seat_hold_seconds": 5}}, "settings_changed")
    bob.reply({"type": "ready"}, "ready")
    ada.send({"type": "start"})
    ada.event("round_started")
    bob.close()
    ada.wait(lambda m: m.get("kind") == "connection" and not m["data"]["connected"])
    assert ada.event("replaced_by_bot")["data"]["seat"] == 1
    # Ada's network drops; she comes back with the last event number she saw
    last_seq = ada.seq
    ada.close()
    back = Recorder(server)
    back.seq = last_seq
    assert back.hello(code, ada.token, last_seq=last_seq)["resumed"] is True
    back.close()


def http_answers(server: ServerProcess, game_ids: list[int]) -> None:
    for name in server.get("/api/editions"):
        assert server.get(f"/api/editions/{name}")["edition"] == name
    server.get("/api/options")
    server.get("/api/health")
    for game_id in game_ids:
        assert server.get(f"/api/games/{game_id}")["id"] == game_id
    assert len(server.get("/api/games?limit=100")) >= len(game_ids)
    assert server.get("/api/leaderboard?edition=trigo&goal=tasks&amount=5")
    assert server.get("/api/records?name=Solveig")
    room = server.create_room("Host", edition="trigo")
    assert server.get(f"/api/rooms/{room['code']}")["code"] == room["code"]
    refused = [
        ("/api/rooms/NOPE9", "no_room"),
        ("/api/editions/chess", "no_edition"),
        ("/api/games/999999", "no_game"),
        ("/api/games/seven", "bad_message"),
        ("/api/records", "bad_message"),
        ("/api/nothing", "not_found"),
    ]
    for path, code in refused:
        with pytest.raises(urllib.error.HTTPError) as e:
            server.get(path)
        assert json.loads(e.value.read())["error"]["code"] == code, path
    status, err = server.post("/api/rooms", {"name": "", "settings": {}})
    assert (status, err["error"]["code"]) == (422, "bad_message")
    status, err = server.post("/api/rooms", {"name": "A", "settings": {"rounds": "many"}})
    assert (status, err["error"]["code"]) == (422, "bad_message")


def test_every_message_type_and_event_kind_is_sent_and_matches_its_model(
    server: ServerProcess,
) -> None:
    Recorder.seen.clear()
    games = lobby_then_a_tie_broken_by_a_playoff(server)
    games += card_games_with_a_countdown_then_a_shared_tie(server)
    for edition in ("classic", "3d", "extreme", "trigo"):
        games += solo_with_a_skip(server, edition)
        solo_with_a_hint_and_giving_up(server, edition)
        games += a_race_with_a_bot(server, edition)
    games += an_endless_run(server, editions.names()[0])
    a_reconnect_and_a_person_replaced_by_a_bot(server)
    http_answers(server, games)
    expected = MESSAGE_TYPES | {"event:" + k for k in EVENT_KINDS - NOT_SENT}
    assert expected - Recorder.seen == set()


def test_a_field_the_models_lack_or_a_missing_one_is_refused(server: ServerProcess) -> None:
    c = Recorder(server)
    pong = c.reply({"type": "ping", "id": 7, "t": 1.0}, "pong")
    c.close()
    check_frame(json.dumps(pong))
    for broken in ({**pong, "extra": 1}, {k: v for k, v in pong.items() if k != "server_time"}):
        with pytest.raises(ValidationError):
            check_frame(json.dumps(broken))
    ticket = server.create_room("Ada")
    with pytest.raises(ValidationError):
        check_body("POST", "/api/rooms", 201, {**ticket, "admin": True})
    with pytest.raises(ValidationError):
        check_body("GET", "/api/nothing", 404, {"detail": "Not Found"})


def test_the_rule_codes_of_the_models_are_the_rules_error_codes() -> None:
    codes = {
        cls.code
        for cls in vars(errors).values()
        if isinstance(cls, type) and issubclass(cls, errors.RuleError)
    }
    assert set(typing.get_args(messages.RuleCode)) == codes


def test_an_event_says_its_kind_in_its_first_characters(server: ServerProcess) -> None:
    # readers (bench/server.py) skip the events they do not need by looking at the head only
    created = server.create_room("Ada")
    ada = Client(server)
    ada.hello(created["code"], created["token"])
    watcher = Client(server)
    watcher.hello(created["code"], spectate=True)
    text = ada.ws.recv(timeout=10)
    assert isinstance(text, str)
    check_frame(text)
    assert text.startswith('{"type":"event","seq":') and '"kind":"spectators"' in text[:80]
    for c in (ada, watcher):
        c.close()
