"""A real server in a process of its own (tests/launcher.py), and a small WebSocket client
that speaks docs/protocol.md.

Used by tests/test_server_*.py and bench/server.py: no test double anywhere between the
client and the rules. Every frame a :class:`Client` receives and every HTTP body
:class:`ServerProcess` gets back is checked against the protocol's models
(:mod:`ubongo.server.protocol.outgoing`, :mod:`ubongo.server.protocol.answers`): a
field they lack, a missing one or a wrong type fails the test that received it.
"""

from __future__ import annotations

import contextlib
import datetime
import io
import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from launcher import Launched, launch
from sqlalchemy import make_url
from waiting import eventually
from websockets.sync.client import ClientConnection, connect

from ubongo.server.protocol.answers import RESPONSES, ApiError
from ubongo.server.protocol.outgoing import ServerMessage, server_message
from ubongo.server.store.database import open_rooms_url

ROOT = Path(__file__).resolve().parents[1]


def open_rooms_file(db: Path) -> Path:
    """The file where the server on the SQLite file ``db`` saves its open rooms."""
    return Path(str(make_url(open_rooms_url(f"sqlite:///{db}")).database))


def saved_seq(db: Path, code: str) -> int:
    """The last event number of room ``code`` in its saved form (the ``open_rooms`` row of
    the SQLite file ``db``'s open rooms, server/rooms/saved.py), -1 if it is not saved (yet)."""
    rooms = open_rooms_file(db)
    if not rooms.exists():
        return -1
    con = sqlite3.connect(f"file:{rooms}?mode=ro", uri=True, timeout=5)
    try:
        row = con.execute("SELECT room FROM open_rooms WHERE code = ?", (code,)).fetchone()
    except sqlite3.OperationalError:  # the table is not made yet
        return -1
    finally:
        con.close()
    return -1 if row is None else int(json.loads(row[0])["seq"])


def wait_saved(db: Path, code: str, seq: int, timeout: float = 10.0) -> None:
    """Until room ``code`` is saved in ``db`` with every event up to ``seq`` (what a killed
    server keeps)."""
    eventually(lambda: saved_seq(db, code) >= seq, f"room {code} saved up to event {seq}", timeout)


def log_lines(path: Path, *words: str) -> list[str]:
    """The lines of a log file that hold every one of ``words``."""
    if not path.exists():
        return []
    return [line for line in path.read_text().splitlines() if all(w in line for w in words)]


#: (method, path pattern, answer model), the paths of bodies.RESPONSES as patterns
_ROUTES = [
    (method, re.compile("^" + re.sub(r"\\{[a-z_]+\\}", "[^/]+", re.escape(route)) + "$"), model)
    for (method, route), model in RESPONSES.items()
]


def _not_json(name: str) -> Any:
    raise AssertionError(f"the server sent {name}, which is not JSON")


def check_frame(text: str | bytes) -> ServerMessage:
    """A WebSocket frame from the server, checked against :data:`ServerMessage` (and as
    strict JSON: ``NaN`` or ``Infinity`` fail, though Python's reader would take them)."""
    json.loads(text, parse_constant=_not_json)
    return server_message(text)


def check_body(method: str, path: str, status: int, body: Any) -> None:
    """An HTTP answer checked against its route's model (errors: :class:`ApiError`)."""
    if status >= 400:
        ApiError.model_validate(body)
        return
    route = path.split("?", 1)[0]
    for m, pattern, model in _ROUTES:
        if m == method and pattern.match(route):
            model.model_validate(body)
            return
    raise AssertionError(f"no answer model for {method} {route}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


#: the longest a test of the day's challenge takes, with room to spare (they take 10-30 s on a
#: busy machine; a wait near midnight costs the run at most this)
DAY_LEFT_SECONDS = 90.0


def today() -> datetime.date:
    """Today's date (UTC, the server's day too) with a whole test of it left: near midnight,
    once the new day has begun (the event the test needs). A date taken once for the module
    was yesterday's for the tests that ran after midnight (issue 22's CI loop, run 132)."""
    now = datetime.datetime.now(datetime.UTC)
    midnight = datetime.datetime.combine(
        now.date() + datetime.timedelta(days=1), datetime.time(0), tzinfo=datetime.UTC
    )
    if (midnight - now).total_seconds() >= DAY_LEFT_SECONDS:
        return now.date()

    def new_day() -> datetime.date | None:
        day = datetime.datetime.now(datetime.UTC).date()
        return day if day > now.date() else None

    return eventually(new_day, "the new day", timeout=DAY_LEFT_SECONDS + 10, every=0.5)


def scrape(base_url: str) -> str:
    """The ``/metrics`` text of the server at ``base_url`` (asked from this machine, which it
    answers)."""
    with urllib.request.urlopen(base_url + "/metrics", timeout=10) as r:
        return str(r.read().decode())


def metric(text: str, sample: str) -> float | None:
    """The value of one sample of a ``/metrics`` text (``name`` or ``name{labels}``, as it is
    written there); ``None`` if there is no such line."""
    for line in text.splitlines():
        if line.startswith(sample + " "):
            return float(line.rsplit(" ", 1)[1])
    return None


def metric_total(text: str, name: str) -> float:
    """The sum of a labelled metric's samples (``ubongo_rooms`` over its phases)."""
    return sum(
        float(line.rsplit(" ", 1)[1]) for line in text.splitlines() if line.startswith(name + "{")
    )


class ServerProcess:
    """``ubongo serve`` on a free port; ``stop()`` ends it (``kill=True``: SIGKILL)."""

    def __init__(
        self,
        database_url: str,
        port: int | None = None,
        log: Path | None = None,
        redis_url: str | None = None,
        args: tuple[str, ...] = (),
    ):
        self.port = port or free_port()
        #: more ``ubongo serve`` flags (e.g. short limits for a test)
        self.args = args
        self.database_url = database_url
        self.redis_url = redis_url
        #: more ``ubongo serve`` flags (e.g. short store timeouts)
        self.args = args
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        self.log_path = log
        self.proc: Launched | None = None

    def start(self, timeout: float = 30.0) -> ServerProcess:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        env.pop("UBONGO_REDIS_URL", None)
        extra = ["--redis-url", self.redis_url] if self.redis_url else []
        args = ["serve", "--port", str(self.port), "--database-url", self.database_url]
        args += ["--log-level", "warning", *extra, *self.args]
        self.proc = launch(args, env, ROOT, self.log_path)
        proc = self.proc

        def answering() -> bool:
            if proc.poll() is not None:
                code = proc.returncode
                raise RuntimeError(f"server exited with {code}; log {self.log_path}")
            try:
                self.get("/api/health")
                return True
            except (OSError, urllib.error.URLError):
                return False

        try:
            eventually(answering, "the server to answer /api/health", timeout, every=0.1)
        except AssertionError:
            self.stop()
            raise RuntimeError("server did not answer /api/health in time") from None
        return self

    def stop(self, kill: bool = False) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL if kill else signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def get(self, path: str) -> Any:
        try:
            with urllib.request.urlopen(self.url + path, timeout=10) as r:
                body = json.loads(r.read())
                check_body("GET", path, r.status, body)
                return body
        except urllib.error.HTTPError as e:
            raw = e.read()
            check_body("GET", path, e.code, json.loads(raw))
            # the body was read for the check: the caller gets an error it can read again
            raise urllib.error.HTTPError(e.url, e.code, e.msg, e.hdrs, io.BytesIO(raw)) from None

    def post(
        self, path: str, body: Any, token: str | None = None, address: str | None = None
    ) -> tuple[int, Any]:
        return self.request("POST", path, body, token, address)

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        address: str | None = None,
    ) -> tuple[int, Any]:
        """Any request (``token``: an account's, as ``Authorization: Bearer``; ``address``:
        the client address it comes from, as ``X-Forwarded-For``, which the server trusts
        from 127.0.0.1 as from a proxy on the machine); the status and the answer, checked
        against its model."""
        status, _, answer = self.request_with_headers(method, path, body, token, address)
        return status, answer

    def request_with_headers(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        address: str | None = None,
    ) -> tuple[int, dict[str, str], Any]:
        """:meth:`request`, with the answer's headers (names in lower case) between the
        status and the answer."""
        headers = {"Content-Type": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if address is not None:
            headers["X-Forwarded-For"] = address
        req = urllib.request.Request(
            self.url + path,
            data=None if body is None else json.dumps(body).encode(),
            headers=headers,
            method=method,
        )
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                status, answer = r.status, json.loads(r.read())
                got = {k.lower(): v for k, v in r.headers.items()}
        except urllib.error.HTTPError as e:
            status, answer = e.code, json.loads(e.read())
            got = {k.lower(): v for k, v in e.headers.items()}
        check_body(method, path, status, answer)
        return status, got, answer

    def create_room(self, name: str, **settings: Any) -> dict[str, Any]:
        return self.create_room_as(None, name, **settings)

    def create_room_as(self, account: str | None, name: str, **settings: Any) -> dict[str, Any]:
        """A new room, its creator playing as the account of token ``account``."""
        status, body = self.post("/api/rooms", {"name": name, "settings": settings}, account)
        assert status == 201, body
        return dict(body)

    def take_seat(self, code: str, name: str, account: str | None = None) -> dict[str, Any]:
        status, body = self.post(f"/api/rooms/{code}/seats", {"name": name}, account)
        assert status == 201, body
        return dict(body)


class RedisProcess:
    """A real ``redis-server`` (Debian's) on a free port, nothing saved to disk."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.folder = folder
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 15.0) -> RedisProcess:
        exe = "/usr/bin/redis-server"
        if not os.path.exists(exe):
            raise RuntimeError("redis-server is not installed (Debian package redis-server)")
        log = open(self.folder / "redis.log", "ab")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [
                exe,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        proc = self.proc

        def answering() -> bool:
            if proc.poll() is not None:
                raise RuntimeError(f"redis-server exited with {proc.returncode}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), 1) as s:
                    s.sendall(b"PING\r\n")
                    return s.recv(16).startswith(b"+PONG")
            except OSError:
                return False

        try:
            eventually(answering, "redis-server to answer PING", timeout)
        except AssertionError:
            self.stop()
            raise RuntimeError("redis-server did not answer in time") from None
        return self

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None


class Client:
    """One WebSocket; keeps the latest room snapshot and the last event number."""

    def __init__(self, server: ServerProcess, headers: dict[str, str] | None = None) -> None:
        self.server = server
        # entered as a context manager (closed by close()), as websockets asks
        self.ws: ClientConnection = connect(
            server.ws_url, open_timeout=10, max_size=None, additional_headers=headers
        ).__enter__()
        self.room: dict[str, Any] | None = None
        self.seq = 0
        self.seat: int | None = None
        self.events: list[dict[str, Any]] = []
        self.inbox: list[dict[str, Any]] = []

    def send(self, message: dict[str, Any] | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        check_frame(text)
        msg: dict[str, Any] = json.loads(text)
        if msg["type"] == "event":
            assert msg["seq"] == self.seq + 1, (msg["seq"], self.seq)
            self.seq = msg["seq"]
            if "room" in msg:
                self.room = msg["room"]
            elif self.room is not None and msg["kind"] == "spectators":  # the count comes alone
                self.room = {**self.room, "spectators": msg["data"]["count"]}
            self.events.append(msg)
        elif msg["type"] == "welcome":
            if not msg.get("resumed"):  # else the missed events follow, numbered on from ours
                self.seq = msg["seq"]
            self.room = msg["room"]
            self.seat = msg["seat"]
        return msg

    def wait(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 20.0) -> dict[str, Any]:
        """The first message, in arrival order, that satisfies ``pred``: from ``inbox`` (read
        earlier, not taken yet), else read on; messages passed over stay in ``inbox``."""
        for i, m in enumerate(self.inbox):
            if pred(m):
                del self.inbox[i]
                return m
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("no matching message")
            m = self.recv(left)
            if pred(m):
                return m
            self.inbox.append(m)

    def reply(
        self, message: dict[str, Any] | str, kind: str, timeout: float = 10.0
    ) -> dict[str, Any]:
        """Send, then wait for the answer: a message of type ``kind`` (``verdict``, ``pong``
        ...), an event of kind ``kind``, or an error."""
        self.send(message)
        return self.wait(
            lambda m: m["type"] in (kind, "error") or (m["type"] == "event" and m["kind"] == kind),
            timeout,
        )

    def hello(self, code: str, token: str | None = None, **extra: Any) -> dict[str, Any]:
        msg: dict[str, Any] = {"type": "hello", "room": code, **extra}
        if token is not None:
            msg["token"] = token
        return self.reply(msg, "welcome")

    def event(self, kind: str, timeout: float = 20.0) -> dict[str, Any]:
        return self.wait(lambda m: m["type"] == "event" and m["kind"] == kind, timeout)

    def close(self) -> None:
        self.ws.close()


@contextlib.contextmanager
def cluster_in(
    folder: Path, names: tuple[str, ...], args: tuple[str, ...] = ()
) -> Iterator[tuple[RedisProcess, list[ServerProcess]]]:
    """A Redis and a server process of each of ``names`` on it (one SQLite file in ``folder``,
    ``args``: more ``ubongo serve`` flags), as behind a load balancer, for a fixture's body:
    stopped after the tests, failing them if a process logged a crash."""
    redis = RedisProcess(folder).start()  # raises (the suite fails) if it cannot start
    db = f"sqlite:///{folder / 'games.sqlite3'}"
    servers = [
        ServerProcess(db, log=folder / f"{n}.log", redis_url=redis.url, args=args).start()
        for n in names
    ]
    yield redis, servers
    for s in servers:
        s.stop()
    redis.stop()
    for name in names:
        log = (folder / f"{name}.log").read_text()
        assert "Traceback" not in log, f"server {name} logged a crash:\n{log}"


def server_in(folder: Path, args: tuple[str, ...] = ()) -> Iterator[ServerProcess]:
    """A server on a fresh SQLite file in ``folder`` (``args``: more ``ubongo serve`` flags),
    for a module's tests (a fixture's body): stopped after them, and failing them if it
    logged a crash."""
    srv = ServerProcess(
        f"sqlite:///{folder / 'games.sqlite3'}", log=folder / "server.log", args=args
    )
    srv.start()
    yield srv
    srv.stop()
    logged = (folder / "server.log").read_text()
    assert "Traceback" not in logged, "the server logged a crash"
    # the card worker is stopped before the process ends (server/cards.py, CardMaker.close)
    assert "leaked semaphore" not in logged, "the card worker's semaphores leaked"


def solution(task: dict[str, Any], edition_name: str) -> list[dict[str, Any]]:
    """Placements that cover a task as the snapshot gives it (found by the solver)."""
    from ubongo.board import Area, placements_of
    from ubongo.pieces import edition
    from ubongo.rules.actions import placement_to_json
    from ubongo.solver import solve

    ed = edition(edition_name)
    area = Area(ed.area_lattice, frozenset(tuple(c) for c in task["area"]), task["layers"])
    pieces = [ed.piece(p) for p in task["pieces"]]
    found = solve(area, pieces)
    assert found is not None, task
    return [placement_to_json(p) for p in placements_of({p.id: p for p in pieces}, found)]


def made_up_trace(placements: list[dict[str, Any]], gap: float = 0.2) -> list[dict[str, Any]]:
    """A trace a script could make up for its solver's answer: each piece picked and placed
    once, ``gap`` seconds apart."""
    steps: list[dict[str, Any]] = []
    for i, p in enumerate(placements):
        steps.append({"t": round(i * gap, 3), "op": "pick", "piece": p["piece"]})
        steps.append({"t": round(i * gap + gap / 2, 3), "op": "place", **p})
    return steps


def race_to_the_end(
    c: Client,
    game: dict[str, Any],
    edition_name: str,
    trace: Callable[[list[dict[str, Any]]], list[dict[str, Any]]] | None = None,
) -> dict[str, Any]:
    """A race played by the solver at once from ``game`` (the room's game as dealt) to its
    ``game_over`` event: the round's task, and each playoff's (a tie on points after the
    script's finish is played off, and the playoff waits for the script too). ``trace``: the
    play trace sent with each answer, made from it."""
    while True:
        placements = solution(game["tasks"][str(c.seat)], edition_name)
        message: dict[str, Any] = {"type": "submit", "round": game["round"]}
        message["placements"] = placements
        if trace is not None:
            message["trace"] = trace(placements)
        assert c.reply(message, "verdict")["ok"]
        ev = c.wait(lambda m: m.get("kind") in ("playoff", "game_over"), 30)
        if ev["kind"] == "game_over":
            return ev
        game = ev["room"]["game"]


def replayed(stored: dict[str, Any]) -> Any:
    """A stored game (``GET /api/games/{id}``) rebuilt by the rules from its settings, seed and
    actions: what "every finished game can be replayed" means."""
    from ubongo import rules

    s = dict(stored["settings"]["rules"])
    for k in ("players", "levels", "deck_sides"):
        s[k] = tuple(s.get(k, ()))
    settings = rules.Settings(**s)
    actions = [rules.action_from_json(a) for a in stored["events"]]
    # the deck the settings name: a fresh game's cards are made again from its seed
    return rules.replay(settings, stored["seed"], actions)
