"""Room settings within what docs/protocol.md says, over HTTP and the WebSocket, and a
submission after the deadline answered as documented (``too_late``), against a real server."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from server_harness import Client, ServerProcess, server_in

from ubongo import editions


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    # one address makes every room here: more than the 30 a minute one address may
    yield from server_in(tmp_path_factory.mktemp("settings"), args=("--rooms-per-minute=100000",))


#: (setting, a value past what the docs allow, a value at the edge they allow)
BOUNDS: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({"seat_hold_seconds": 0.2}, {"seat_hold_seconds": 5}),
    ({"seat_hold_seconds": 601}, {"seat_hold_seconds": 600}),
    ({"solo_amount": 1}, {"solo_amount": 5}),
    ({"solo_amount": 7}, {"solo_amount": 20}),
    ({"solo_amount": 60}, {"solo_amount": 10}),
    ({"rounds": 0}, {"rounds": 1}),
    ({"rounds": 21, "edition": "extreme"}, {"rounds": 20, "edition": "extreme"}),
    ({"rounds": 10}, {"rounds": 9}),  # Classic's gems last 9 rounds (the rules say)
    ({"hourglass_seconds": 0.4}, {"hourglass_seconds": 0.5}),
    ({"hourglass_seconds": 3601}, {"hourglass_seconds": 3600}),
    ({"round_limit_seconds": 0.5}, {"round_limit_seconds": 1}),
    ({"between_seconds": -1}, {"between_seconds": 0}),
    ({"between_seconds": 61}, {"between_seconds": 60}),
    ({"seed": -1}, {"seed": 0}),
    ({"seed": 2**53 + 1}, {"seed": 2**53}),
]


@pytest.mark.parametrize(("outside", "inside"), BOUNDS)
def test_settings_outside_the_documented_bounds_are_refused(
    server: ServerProcess, outside: dict[str, Any], inside: dict[str, Any]
) -> None:
    status, answer = server.post("/api/rooms", {"name": "Ada", "settings": outside})
    assert status == 422 and answer["error"]["code"] in ("bad_message", "bad_setting"), answer
    created = server.create_room("Ada", **inside)
    room = server.get(f"/api/rooms/{created['code']}")
    (name, value), *_ = inside.items()
    assert room["settings"][name] == value


def test_the_solo_amounts_are_the_edition_records(server: ServerProcess) -> None:
    for name in editions.names():
        for amount in editions.record(name).solo.amounts:
            server.create_room("Solveig", edition=name, mode="solo", solo_amount=amount)


def test_the_settings_message_keeps_to_the_same_bounds(server: ServerProcess) -> None:
    created = server.create_room("Ada")
    ada = Client(server)
    try:
        ada.hello(created["code"], created["token"])
        for outside, inside in BOUNDS[:4]:
            answer = ada.reply({"type": "settings", "settings": outside}, "settings_changed")
            assert answer["type"] == "error", answer
            assert answer["code"] in ("bad_message", "bad_setting")
            changed = ada.reply({"type": "settings", "settings": inside}, "settings_changed")
            assert changed["kind"] == "settings_changed", changed
    finally:
        ada.close()


def test_a_submission_after_the_deadline_is_too_late(server: ServerProcess) -> None:
    created = server.create_room(
        "Ada", edition="classic", hourglass_seconds=0.5, rounds=2, between_seconds=30
    )
    ada = Client(server)
    try:
        ada.hello(created["code"], created["token"])
        ada.reply({"type": "add_bot", "level": "easy"}, "bot_added")
        ada.send({"type": "start"})
        round_no = ada.event("round_started")["room"]["game"]["round"]
        ada.event("round_ended", 10)
        # the round's hourglass ran out; the next round has not started
        submit = {"type": "submit", "round": round_no, "placements": []}
        verdict = ada.reply(submit, "verdict")
        assert verdict["type"] == "verdict", verdict
        assert (verdict["ok"], verdict["code"]) == (False, "too_late")
    finally:
        ada.close()


@pytest.mark.parametrize(
    "settings",
    [
        {"between_seconds": False},  # found by the fuzzer: taken as 0
        {"seat_hold_seconds": True},
        {"rounds": "3"},
        {"seed": 1.5},
        {"solo_amount": 5.5},
    ],
)
def test_a_setting_of_another_json_type_is_refused(
    server: ServerProcess, settings: dict[str, Any]
) -> None:
    status, answer = server.post("/api/rooms", {"name": "Ada", "settings": settings})
    assert (status, answer["error"]["code"]) == (422, "bad_message"), answer


def test_websocket_errors_do_not_echo_what_was_sent(server: ServerProcess) -> None:
    long = "Q" * 5000
    c = Client(server)
    try:
        for message in (
            {"type": "ping", "id": 1, "t": 1.0, long: 1},
            {"type": long},
            {"type": "hello", "room": long},
        ):
            answer = c.reply(message, "pong")
            assert answer["type"] == "error", answer
            assert "QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ" not in answer["message"], answer["message"]
    finally:
        c.close()
