"""What an operator sees of a real ``ubongo serve``: ``/metrics`` in the Prometheus format,
counting what was played, and the log as JSON lines naming the request, room and account."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_harness import Client, ServerProcess, metric, server_in, solution
from waiting import eventually

from ubongo import editions

EDITION = editions.names()[0]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("metrics")


@pytest.fixture(scope="module")
def server(folder: Path) -> Iterator[ServerProcess]:
    yield from server_in(
        folder,
        args=(
            "--record-seconds-per-piece=0",
            "--no-require-traces",
            "--full-collection-seconds=0.5",
        ),
    )


def scrape(server: ServerProcess, address: str | None = None) -> tuple[int, str]:
    headers = {} if address is None else {"X-Forwarded-For": address}
    req = urllib.request.Request(server.url + "/metrics", headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            assert r.headers["Content-Type"].startswith("text/plain")
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def value(text: str, sample: str) -> float:
    """The value of one sample line (``name{labels}``), 0 if it is not there."""
    return metric(text, sample) or 0.0


def test_metrics_count_a_solved_task_its_verdict_and_what_was_refused(
    server: ServerProcess,
) -> None:
    status, before = scrape(server)
    assert status == 200
    assert "# TYPE ubongo_submit_to_verdict_seconds histogram" in before
    created = server.create_room("Ada", edition=EDITION, mode="solo")
    c = Client(server)
    assert c.hello(created["code"], created["token"])["type"] == "welcome"
    c.send({"type": "start"})
    game = c.event("round_started")["room"]["game"]
    placements = solution(game["tasks"]["0"], EDITION)
    assert c.reply({"type": "submit", "round": game["round"], "placements": placements}, "verdict")[
        "ok"
    ]
    assert c.reply({"type": "submit", "round": 99, "placements": []}, "error")["code"]
    assert server.request("GET", "/api/rooms/QQQQQ")[0] == 404
    _, during = scrape(server)
    assert value(during, "ubongo_connections") >= 1
    assert value(during, 'ubongo_rooms{phase="playing"}') >= 1
    c.close()

    def observed() -> str | None:
        """/metrics once the event loop's lag and a full collection's pause (both observed
        every 0.5 s) have been seen since the game."""
        text = scrape(server)[1]
        gen2 = 'ubongo_gc_pause_seconds_count{generation="2"}'
        seen = value(text, "ubongo_event_loop_lag_seconds_count") >= 1
        return text if seen and value(text, gen2) > value(before, gen2) else None

    after = eventually(observed, "the loop's lag and a full collection on /metrics")

    def grew(sample: str) -> float:
        return value(after, sample) - value(before, sample)

    assert grew('ubongo_messages_in_total{type="submit"}') == 2
    assert grew('ubongo_messages_in_total{type="hello"}') == 1
    assert grew("ubongo_submit_to_verdict_seconds_count") == 1
    assert grew('ubongo_errors_total{code="no_room"}') == 1
    assert grew('ubongo_http_requests_total{route="/api/rooms",status="2xx"}') == 1
    assert grew('ubongo_http_requests_total{route="/api/rooms/{code}",status="4xx"}') == 1
    assert grew('ubongo_database_seconds_count{what="open_rooms"}') >= 1
    assert grew("ubongo_messages_out_total") >= 4  # welcome, events, verdict, error
    assert value(after, "ubongo_event_loop_lag_seconds_count") >= 1
    # a game makes garbage: the young generation was collected, and its pauses observed
    assert value(after, 'ubongo_gc_pause_seconds_count{generation="0"}') >= 1
    # full collections come on the clock (every 0.5 s here), never by Python's count
    assert grew('ubongo_gc_pause_seconds_count{generation="2"}') >= 1


def test_metrics_are_not_served_to_a_public_address(server: ServerProcess) -> None:
    status, body = scrape(server, address="1.1.1.1")  # not a private network
    assert status == 404 and json.loads(body)["error"]["code"] == "not_found"


def test_the_log_is_json_lines_naming_the_request_room_and_account(tmp_path: Path) -> None:
    for server in server_in(tmp_path, args=("--log-level=info",)):
        status, account = server.post("/api/accounts", {"name": "Ada"})
        assert status == 201
        created = server.create_room_as(account["token"], "Ada", edition=EDITION)
        # the invite key in a path (the access log's lines), then a wrong one (a refusal's)
        invite = created["invite"].rsplit("/", 1)[1]
        assert server.get(f"/api/rooms/{invite}")["code"] == created["code"]
        wrong = "BCDFG" + "B" * 21
        assert server.request("GET", f"/api/rooms/{wrong}")[0] == 404
        page = urllib.request.urlopen(created["invite"], timeout=10)  # the link a friend opens
        assert page.status == 200
        c = Client(server)
        assert c.hello(created["code"], created["token"])["type"] == "welcome"
        c.reply({"type": "add_bot", "level": "hard"}, "bot_added")
        c.close()
        server.stop()  # the rooms are saved and logged on the way out
    lines = (tmp_path / "server.log").read_text().splitlines()
    records = [json.loads(ln) for ln in lines if ln.startswith("{")]
    assert all({"event", "level", "timestamp", "logger"} <= r.keys() for r in records)
    # uvicorn's own lines come the same way
    assert any(r["logger"].startswith("uvicorn") for r in records), lines
    assert any(r["logger"].startswith("ubongo") for r in records), lines
    # the tokens and the invite keys' secrets never appear; the requests' lines carry their ids
    assert any(f"/api/rooms/{created['code']}..." in ln for ln in lines), lines
    secrets = (account["token"], created["token"], invite[5:], wrong[5:])
    assert not any(t in ln for ln in lines for t in secrets)
    ids = [r["request_id"] for r in records if "request_id" in r]
    assert ids and all(re.fullmatch(r"[0-9a-f]{12}", i) for i in ids)
