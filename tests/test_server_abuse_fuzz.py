"""WebSocket fuzzing: generated messages of every client message type, with wrong, missing,
huge and hostile fields, against a real server (hypothesis).

For every message the server must stay up, answer only frames of the protocol's models
(:func:`server_harness.check_frame`, in :meth:`Client.recv`), and a message it refuses (an
``error``, or a verdict that is not ``ok``) must leave the room as it was: its snapshot
(``GET /api/rooms/{code}``) before and after are the same. A message that was accepted may
change the room: the next message gets a fresh room.

``make test`` sends a few hundred (:data:`EXAMPLES`); ``bench/fuzz_ws.py`` uses
:class:`Fuzzer` to send tens of thousands and count the answers.
"""

from __future__ import annotations

import contextlib
import json
import math
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_harness import Client, ServerProcess
from websockets.exceptions import ConnectionClosed

from ubongo.server.protocol.incoming import MESSAGE_TYPES

#: messages per ``make test`` run
EXAMPLES = 300

#: flags of the server under fuzzing: no limit gets in the way of the messages themselves
SERVER_ARGS = (
    "--messages-per-second=100000",
    "--rooms-per-minute=100000",
    "--failed-lookups-per-hour=1000000",
    "--hello-seconds=3600",
)

# --- what is sent ---------------------------------------------------------------------------

#: numbers JSON has no words for (Python writes and reads them as NaN and Infinity)
NOT_FINITE = [math.nan, math.inf, -math.inf]
HUGE = ["x" * 20_000, "é" * 9_000, "\u0000" * 100, "🙂" * 5_000]
hostile: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=2**53, max_value=2**80),
    st.integers(min_value=-(2**80), max_value=-1),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from(NOT_FINITE),
    st.text(max_size=40),
    st.sampled_from(HUGE),
    st.sampled_from(["", " ", "K7QXB", "../../etc/passwd", "<script>", "'; DROP TABLE x;--"]),
    st.lists(st.integers(), max_size=5),
    st.dictionaries(st.text(max_size=8), st.integers(), max_size=3),
)


@st.composite
def placement(draw: st.DrawFn) -> Any:
    return draw(
        st.one_of(
            st.fixed_dictionaries(
                {
                    "piece": st.sampled_from(["A", "B", "C", "Z", "", "x" * 9]),
                    "transform": st.integers(-2, 300),
                    "offset": st.lists(st.integers(-5, 20), min_size=0, max_size=4),
                }
            ),
            hostile,
        )
    )


def fields_of(kind: str, code: str, token: str) -> st.SearchStrategy[dict[str, Any]]:
    """The fields of a message of type ``kind``, each plausible or hostile."""
    rooms = st.sampled_from([code, code.lower(), "ZZZZZ", code + "X" * 21])
    tokens = st.sampled_from([token, "x" * 8, "y" * 200])
    seats = st.integers(-1, 5)
    plausible: dict[str, st.SearchStrategy[Any]] = {
        "hello": st.fixed_dictionaries(
            {"room": rooms},
            optional={"token": tokens, "spectate": st.booleans(), "last_seq": st.integers(-1, 99)},
        ),
        "ping": st.fixed_dictionaries(
            {"id": st.integers(-1, 2**54), "t": st.one_of(st.sampled_from(NOT_FINITE), st.floats())}
        ),
        "settings": st.fixed_dictionaries(
            {
                "settings": st.dictionaries(
                    st.sampled_from(
                        ["edition", "mode", "rounds", "seat_hold_seconds", "seed", "side", "x"]
                    ),
                    hostile,
                    max_size=3,
                )
            }
        ),
        "choose_side": st.fixed_dictionaries({"side": st.sampled_from(["red", "A", "", "x" * 17])}),
        "add_bot": st.fixed_dictionaries({}, optional={"level": st.sampled_from(["easy", "god"])}),
        "remove_bot": st.fixed_dictionaries({"seat": seats}),
        "bot_level": st.fixed_dictionaries({"seat": seats, "level": st.sampled_from(["hard", 3])}),
        "ready": st.fixed_dictionaries({}, optional={"ready": st.booleans()}),
        "start": st.just({}),
        "submit": st.fixed_dictionaries(
            {"round": st.integers(-1, 1001), "placements": st.lists(placement(), max_size=17)}
        ),
        "skip": st.fixed_dictionaries({"round": st.integers(-1, 1001)}),
        "rematch": st.just({}),
        "leave": st.just({}),
        "lock": st.fixed_dictionaries({}, optional={"locked": st.booleans()}),
        "kick": st.fixed_dictionaries({"seat": seats}),
        "say": st.one_of(
            st.fixed_dictionaries(
                {"phrase": st.sampled_from(["hello", "well_played", "free text", "", 7])}
            ),
            st.fixed_dictionaries({"text": st.text(max_size=210)}),
        ),
        "report": st.fixed_dictionaries({"seq": st.integers(-1, 1001)}),
        "stop": st.fixed_dictionaries({"round": st.integers(-1, 1001)}),
        "give_up": st.fixed_dictionaries({"round": st.integers(-1, 1001)}),
        "hint": st.fixed_dictionaries(
            {"round": st.integers(-1, 1001), "placements": st.lists(placement(), max_size=17)}
        ),
    }
    return plausible[kind]


@st.composite
def message(draw: st.DrawFn, code: str, token: str) -> str | bytes:
    """One frame: a message of some type, maybe with a field taken away, changed to something
    hostile, or added; or no message at all."""
    how = draw(st.sampled_from(["plausible", "missing", "hostile", "extra", "type", "garbage"]))
    kind = draw(st.sampled_from(MESSAGE_TYPES))
    msg: dict[str, Any] = {"type": kind, **draw(fields_of(kind, code, token))}
    names = [k for k in msg if k != "type"]
    if how == "missing" and names:
        del msg[draw(st.sampled_from(names))]
    elif how == "hostile" and names:
        msg[draw(st.sampled_from(names))] = draw(hostile)
    elif how == "extra":
        msg[draw(st.text(min_size=1, max_size=10))] = draw(hostile)
    elif how == "type":
        msg["type"] = draw(hostile)
    elif how == "garbage":
        return draw(
            st.one_of(
                st.binary(max_size=64),
                st.text(max_size=64),
                st.sampled_from(["[" * 50_000, "{}", "[]", "null", '"hello"', "NaN", "1e999"]),
            )
        )
    return json.dumps(msg)  # NaN and Infinity come out as such: Python writes them


# --- a room and its clients ------------------------------------------------------------------


@dataclass
class World:
    """A lobby with its host, a second player, a spectator, and a connection that has not
    said hello."""

    code: str
    token: str
    clients: dict[str, Client]

    def close(self) -> None:
        for c in self.clients.values():
            with contextlib.suppress(Exception):  # already closed by the server (kick ...)
                c.close()


def new_world(server: ServerProcess) -> World:
    created = server.create_room("Ada", edition="classic")
    code = created["code"]
    host = Client(server)
    host.hello(code, created["token"])
    bob = server.take_seat(code, "Bob")
    player = Client(server)
    player.hello(code, bob["token"])
    watcher = Client(server)
    watcher.hello(code, spectate=True)
    clients = {"host": host, "player": player, "spectator": watcher, "stranger": Client(server)}
    for c in clients.values():  # what the room's making sent them is read and set aside
        c.send({"type": "ping", "id": 2**52, "t": 0})
        c.wait(settled, 10)
        c.inbox.clear()
    return World(code, created["token"], clients)


def settled(msg: dict[str, Any]) -> bool:
    return bool(msg["type"] == "pong" and msg["id"] == 2**52)


@dataclass
class Fuzzer:
    """Sends generated frames to a world, checks each answer, and counts what came back."""

    server: ServerProcess
    world: World | None = None
    answers: Counter[str] = field(default_factory=Counter)
    sent: int = 0
    worlds: int = 0
    #: the last frames sent (who, the frame's start), for a failure's message
    history: deque[tuple[str, str | bytes]] = field(default_factory=lambda: deque(maxlen=8))

    def ensure_world(self) -> World:
        if self.world is None:
            self.world = new_world(self.server)
            self.worlds += 1
        return self.world

    def snapshot(self) -> dict[str, Any]:
        world = self.ensure_world()
        room: dict[str, Any] = self.server.get(f"/api/rooms/{world.code}")
        return room

    def send(self, who: str, frame: str | bytes) -> None:
        """One frame from ``who``; raises ``AssertionError`` on a broken promise (and the
        next frame gets a fresh room, so that one failure does not make others)."""
        try:
            self._send(who, frame)
        except BaseException:
            self._reset()
            raise

    def _send(self, who: str, frame: str | bytes) -> None:
        world = self.ensure_world()
        before = self.snapshot()
        sender = world.clients[who]
        sender.inbox.clear()
        self.sent += 1
        self.history.append((who, frame[:160]))
        try:
            sender.ws.send(frame)
            # the connection answers in order: once this ping's pong is back, all is in
            sender.send({"type": "ping", "id": 2**52, "t": 0})
            sender.wait(settled, 10)
        except ConnectionClosed as e:  # closed by the server: only for a reason it documents
            code = e.rcvd.code if e.rcvd is not None else None
            assert code in (4003, 4008), (code, list(self.history))
            self.answers[f"closed:{code}"] += 1
            self._reset()
            return
        answers = [m for m in sender.inbox if m["type"] != "event"]
        events = [m for m in sender.inbox if m["type"] == "event"]
        assert self.server.proc is not None and self.server.proc.poll() is None, "server died"
        refused = [m for m in answers if m["type"] == "error" or m.get("ok") is False]
        for m in answers:
            label = m["type"] + (":" + str(m.get("code")) if "code" in m else "")
            self.answers[label] += 1
        if not answers and not events:
            self.answers["silent"] += 1
        if refused and not events:
            assert self.snapshot() == before, (frame[:200], refused)
        if events or any(m["type"] in ("welcome", "verdict") for m in answers):
            self._reset()  # accepted: the room may have changed; a fresh one for the next

    def _reset(self) -> None:
        if self.world is not None:
            self.world.close()
        self.world = None


def senders() -> st.SearchStrategy[str]:
    return st.sampled_from(["host", "player", "spectator", "stranger"])


# --- the test ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fuzzer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fuzzer]:
    tmp = tmp_path_factory.mktemp("fuzz")
    log = tmp / "server.log"
    server = ServerProcess(f"sqlite:///{tmp / 'db.sqlite3'}", log=log, args=SERVER_ARGS).start()
    f = Fuzzer(server)
    yield f
    f._reset()
    server.stop()
    assert "Traceback" not in log.read_text(), "the server logged a crash"
    if f.sent >= EXAMPLES:  # the whole run: refused for many reasons, and some accepted
        errors = {k for k in f.answers if k.startswith("error:")}
        assert len(errors) >= 8, f.answers
        assert f.worlds > 1, "no generated message was ever accepted"


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_generated_messages_are_answered_in_the_protocol_and_change_nothing_refused(
    fuzzer: Fuzzer, data: st.DataObject
) -> None:
    world = fuzzer.ensure_world()
    who = data.draw(senders())
    frame = data.draw(message(world.code, world.token))
    fuzzer.send(who, frame)
