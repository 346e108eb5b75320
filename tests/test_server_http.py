"""The HTTP surface against a real ``ubongo serve``: body limit, errors in the documented shape
that never echo their input, no 500 on hostile numbers or paths, security headers, WebSocket
origins, production mode (docs/server.md, "Security"; docs/protocol.md)."""

from __future__ import annotations

import json
import re
import socket
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_harness import ROOT, Client, ServerProcess, check_body
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

LIMIT = 64 * 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("http")
    srv = ServerProcess(f"sqlite:///{folder / 'games.sqlite3'}", log=folder / "server.log")
    srv.start()
    yield srv
    srv.stop()
    assert "Traceback" not in (folder / "server.log").read_text(), "the server logged a crash"


def request(
    server: ServerProcess,
    method: str,
    path: str,
    body: bytes | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, bytes, dict[str, str]]:
    """Any request; the status, the raw body and the headers (lower-case names)."""
    req = urllib.request.Request(
        server.url + path,
        data=body,
        method=method,
        headers={"Content-Type": "application/json", **(headers or {})},
    )
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            status, raw, got = r.status, r.read(), r.headers
    except urllib.error.HTTPError as e:
        status, raw, got = e.code, e.read(), e.headers
    return status, raw, {k.lower(): v for k, v in got.items()}


def refused(
    server: ServerProcess, method: str, path: str, body: bytes | None = None
) -> tuple[int, str, str]:
    """A refusal: its status, code and message, its body checked against ``ApiError``."""
    status, raw, _ = request(server, method, path, body)
    assert status >= 400, (path[:80], raw[:200])
    answer = json.loads(raw)
    check_body(method, path, status, answer)
    return status, answer["error"]["code"], answer["error"]["message"]


def raw_http(server: ServerProcess, head: bytes, chunks: Iterator[bytes]) -> bytes:
    """Sends ``head`` then ``chunks`` on a socket, stopping when the server answers (or closes);
    returns what the server sent. The body is never finished: a server that waits for all of
    it before answering makes this time out."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as s:
        s.sendall(head)
        s.settimeout(0.05)
        answer = b""
        for chunk in chunks:
            try:
                s.sendall(chunk)
            except OSError:  # the server answered and closed: read what it said
                break
            try:
                answer = s.recv(65536)
            except TimeoutError:
                continue
            break
        s.settimeout(10)
        while not answer.endswith(b"}"):
            try:
                more = s.recv(65536)
            except OSError:
                break
            if not more:
                break
            answer += more
        return answer


def status_and_json(answer: bytes) -> tuple[int, Any]:
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), json.loads(body)


# --- bodies -------------------------------------------------------------------------------


def test_a_body_declared_over_the_limit_is_refused_before_it_is_sent(server: ServerProcess) -> None:
    head = (
        b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Content-Length: 52428800\r\n\r\n"
    )
    answer = raw_http(server, head, iter([b'{"name": "', *([b"a" * 4096] * 200)]))
    status, body = status_and_json(answer)
    assert status == 413
    check_body("POST", "/api/rooms", status, body)
    assert body["error"]["code"] == "too_large"
    assert str(LIMIT) in body["error"]["message"]


def test_a_chunked_body_is_refused_while_it_arrives(server: ServerProcess) -> None:
    head = (
        b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n"
    )
    piece = b"a" * 8192
    chunk = f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    # 50 MiB offered, never finished: the answer must come once the limit is passed
    answer = raw_http(server, head, iter([chunk] * (50 * 128)))
    status, body = status_and_json(answer)
    assert (status, body["error"]["code"]) == (413, "too_large")


def test_a_body_just_under_the_limit_is_read_and_its_error_does_not_echo_it(
    server: ServerProcess,
) -> None:
    name = "a" * (LIMIT - 100)
    body = json.dumps({"name": name}).encode()
    status, raw, _ = request(server, "POST", "/api/rooms", body)
    assert status == 422
    assert len(raw) < 300 and b"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" not in raw


def test_no_error_echoes_its_input(server: ServerProcess) -> None:
    long = "Q" * 5000
    cases = [
        ("GET", f"/api/rooms/{long}", None, 404, "no_room"),
        ("POST", f"/api/rooms/{long}/seats", b'{"name": "Bob"}', 404, "no_room"),
        ("GET", f"/api/editions/{long}", None, 404, "no_edition"),
        ("GET", f"/api/{long}", None, 404, "not_found"),
        ("GET", f"/api/leaderboard?goal={long}", None, 422, "bad_message"),
        ("GET", f"/api/records?name={long}", None, 422, "bad_message"),
        ("POST", "/api/rooms", json.dumps({"name": long}).encode(), 422, "bad_message"),
        ("POST", "/api/rooms", json.dumps({"name": "A", long: 1}).encode(), 422, "bad_message"),
        (
            "POST",
            "/api/rooms",
            json.dumps({"name": "A", "settings": {long: 1}}).encode(),
            422,
            "bad_message",
        ),
        (
            "POST",
            "/api/rooms",
            json.dumps({"name": "A", "settings": {"side": long}}).encode(),
            422,
            "bad_message",
        ),
        ("POST", "/api/rooms", b'{"name": "' + long.encode() + b"", 422, "bad_message"),
    ]
    for method, path, body, status, code in cases:
        got = refused(server, method, path, body)
        assert got[:2] == (status, code), (path[:40], got)
        assert "QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ" not in got[2], (path[:40], got[2][:80])
        assert len(got[2]) <= 200


# --- validation errors and 500s -------------------------------------------------------------


def test_query_path_and_body_errors_are_in_the_documented_shape(server: ServerProcess) -> None:
    cases = [
        ("GET", "/api/games?limit=many", None),  # query
        ("GET", "/api/leaderboard?amount=0", None),
        ("GET", "/api/records", None),  # a query value missing
        ("GET", "/api/games/seven", None),  # path
        ("POST", "/api/rooms", b"{}"),  # body: a field missing
        ("POST", "/api/rooms", b'{"name": 5}'),  # of the wrong type
        ("POST", "/api/rooms", b'{"name": "A", "settings": {"rounds": 99}}'),  # out of range
        ("POST", "/api/rooms", b'{"name": "A", '),  # not JSON
        ("POST", "/api/rooms", b"[1, 2]"),  # not an object
        ("POST", "/api/rooms/ABCDE/seats", b'{"name": "B", "admin": true}'),  # not allowed
    ]
    for method, path, body in cases:
        status, code, message = refused(server, method, path, body)
        assert (status, code) == (422, "bad_message"), (path, status, code, message)
        assert message


def test_a_wrong_method_is_refused_in_the_documented_shape(server: ServerProcess) -> None:
    assert refused(server, "PUT", "/api/rooms", b"{}")[:2] == (405, "bad_method")
    assert refused(server, "DELETE", "/api/games/1")[:2] == (405, "bad_method")


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_non_finite_numbers_in_room_settings_are_refused(
    server: ServerProcess, number: str
) -> None:
    for field in ("hourglass_seconds", "seat_hold_seconds", "between_seconds"):
        body = f'{{"name": "A", "settings": {{"{field}": {number}}}}}'.encode()
        assert refused(server, "POST", "/api/rooms", body)[:2] == (422, "bad_message")


def test_the_websocket_refuses_non_finite_numbers_and_never_echoes_them(
    server: ServerProcess,
) -> None:
    c = Client(server)
    try:
        cases = [("NaN", "bad_json"), ("Infinity", "bad_json"), ("1e999", "bad_message")]
        for number, code in cases:
            answer = c.reply(f'{{"type": "ping", "id": 1, "t": {number}}}', "pong")
            assert (answer["type"], answer["code"]) == ("error", code), answer
        settings = '{"type": "settings", "settings": {"hourglass_seconds": NaN}}'
        assert c.reply(settings, "settings_changed")["code"] == "bad_json"
        # the connection is still good
        assert c.reply({"type": "ping", "id": 2, "t": 1.5}, "pong")["t"] == 1.5
    finally:
        c.close()


def test_huge_and_negative_numbers_and_odd_paths_are_no_500(server: ServerProcess) -> None:
    huge = "9" * 23
    cases = [
        (f"/api/leaderboard?amount={huge}", 422, "bad_message"),
        (f"/api/leaderboard?limit={huge}", 422, "bad_message"),
        (f"/api/games?limit={huge}", 422, "bad_message"),
        (f"/api/games/{huge}", 404, "no_game"),
        ("/api/games/9223372036854775808", 404, "no_game"),
        ("/api/games/-1", 404, "no_game"),
        ("/api/games/0", 404, "no_game"),
        ("/api/games/999999", 404, "no_game"),
        ("/%00", 404, "not_found"),
        ("/assets/%00.js", 404, "not_found"),
    ]
    for path, status, code in cases:
        assert refused(server, "GET", path)[:2] == (status, code), path
    # a path no file can have (too long a name) is the client's page, as any other
    assert request(server, "GET", "/" + "a" * 5000)[0] == 200


# --- headers, origins, production mode ------------------------------------------------------

CSP_NEEDS = {
    "script-src": "'self'",
    "style-src": "'self'",
    "object-src": "'none'",
    "frame-ancestors": "'none'",
    "base-uri": "'none'",
}


def csp(value: str) -> dict[str, str]:
    return {d.split()[0]: " ".join(d.split()[1:]) for d in value.split(";") if d.strip()}


def test_every_page_and_api_answer_carries_the_security_headers(server: ServerProcess) -> None:
    paths = [
        ("GET", "/", None),
        ("GET", "/room/ABCDE", None),
        ("GET", "/api/health", None),
        ("GET", "/api/editions", None),
        ("GET", "/api/games/1", None),
        ("GET", "/api/nothing", None),
        ("GET", "/openapi.json", None),
        ("PUT", "/api/rooms", b"{}"),
        ("POST", "/api/rooms", b'{"name": "Ada"}'),
        ("POST", "/api/rooms", b'{"name": "' + b"a" * (LIMIT + 1) + b'"}'),  # the 413
    ]
    for method, path, body in paths:
        headers = request(server, method, path, body)[2]
        assert headers.get("x-content-type-options") == "nosniff", path
        assert headers.get("x-frame-options") == "DENY", path
        assert headers.get("referrer-policy") == "no-referrer", path
        policy = csp(headers["content-security-policy"])
        for name, value in CSP_NEEDS.items():
            assert policy[name] == value, (path, name, policy)
        assert "unsafe" not in headers["content-security-policy"]


def test_the_built_client_has_no_inline_script_or_style() -> None:
    index = (ROOT / "web" / "dist" / "index.html").read_text()
    scripts = re.findall(r"<script\b([^>]*)>(.*?)</script>", index, re.S)
    assert scripts, "no script in index.html"
    for attrs, text in scripts:
        assert "src=" in attrs and not text.strip(), attrs
    assert "<style" not in index and " style=" not in index
    assert not re.search(r"\son[a-z]+=", index)  # no inline event handler


def ws_connect(server: ServerProcess, origin: str | None) -> bool:
    """Whether a WebSocket from a page of ``origin`` (None: no browser) is accepted."""
    try:
        kwargs: dict[str, Any] = {"origin": origin} if origin is not None else {}
        with connect(server.ws_url, open_timeout=10, **kwargs) as ws:
            ws.send(json.dumps({"type": "ping", "id": 1, "t": 1.0}))
            return bool(json.loads(ws.recv(timeout=10))["type"] == "pong")
    except InvalidStatus as e:
        assert e.response.status_code == 403
        return False


def test_websockets_from_another_site_are_refused(server: ServerProcess) -> None:
    assert ws_connect(server, None)  # bots, scripts, the harness
    assert ws_connect(server, server.url)  # the server's own pages
    assert ws_connect(server, f"https://127.0.0.1:{server.port}")  # behind a TLS proxy
    assert not ws_connect(server, "https://evil.example")
    assert not ws_connect(server, f"http://127.0.0.1:{server.port + 1}")
    assert not ws_connect(server, "null")


@pytest.fixture(scope="module")
def dev_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("http-dev")
    srv = ServerProcess(
        f"sqlite:///{folder / 'games.sqlite3'}",
        log=folder / "server.log",
        args=(
            "--dev",
            "--allowed-origin",
            "https://play.example.org",
            "--public-url",
            "https://ubongo.example.org",
        ),
    )
    srv.start()
    yield srv
    srv.stop()


def test_allowed_and_public_origins_may_open_websockets(dev_server: ServerProcess) -> None:
    assert ws_connect(dev_server, "https://play.example.org")
    assert ws_connect(dev_server, "https://ubongo.example.org")
    assert not ws_connect(dev_server, "https://evil.example")


def source_map() -> str | None:
    maps = sorted((ROOT / "web" / "dist" / "assets").glob("*.map"))
    return f"/assets/{maps[0].name}" if maps else None


def test_production_mode_serves_no_api_pages_nor_source_maps(server: ServerProcess) -> None:
    for path in ("/docs", "/redoc"):
        raw = request(server, "GET", path)[1]
        assert b"swagger" not in raw.lower() and b"redoc" not in raw.lower(), path
    assert refused(server, "GET", "/assets/index.js.map")[:2] == (404, "not_found")
    listed = source_map()
    if listed is not None:
        assert refused(server, "GET", listed)[:2] == (404, "not_found")
    # the schema stays: it documents the protocol
    status, raw, _ = request(server, "GET", "/openapi.json")
    assert status == 200 and "/api/rooms" in json.loads(raw)["paths"]


def test_dev_mode_serves_the_api_pages(dev_server: ServerProcess) -> None:
    status, raw, headers = request(dev_server, "GET", "/docs")
    assert status == 200 and b"swagger" in raw.lower()
    assert headers["x-content-type-options"] == "nosniff"
    status, raw, _ = request(dev_server, "GET", "/redoc")
    assert status == 200 and b"redoc" in raw.lower()
    listed = source_map()
    if listed is not None:
        assert request(dev_server, "GET", listed)[0] == 200


def test_serve_refuses_bad_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from ubongo.cli import main

    db = f"sqlite:///{tmp_path / 'x.sqlite3'}"
    for flags in (["--max-body-bytes", "10"], ["--allowed-origin", "evil.example"]):
        assert main(["serve", "--database-url", db, *flags]) == 2
        assert "error" in capsys.readouterr().err


def test_null_for_a_setting_a_room_always_has_leaves_it_as_it_is(server: ServerProcess) -> None:
    # found by the fuzzer: "edition": null was a 500 (and "mode": null left a broken room)
    always = ("edition", "mode", "variant", "solo_goal", "seat_hold_seconds", "between_seconds")
    created = server.create_room("Ada", **dict.fromkeys(always))
    settings = server.get(f"/api/rooms/{created['code']}")["settings"]
    assert settings["edition"] == "classic" and settings["mode"] == "race"
    assert settings["seat_hold_seconds"] == 60
