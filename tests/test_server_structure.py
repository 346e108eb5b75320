"""The server's structure: no import cycle among its modules (not even by an import for
annotations only), every client message type has exactly one handler in the gateway's table,
and every client message reaches it through the one gateway (in process, no sockets)."""

from __future__ import annotations

import ast
import asyncio
import json
import typing
from pathlib import Path
from typing import Any

import pytest

from ubongo.server.config import ServerConfig
from ubongo.server.protocol import incoming as p
from ubongo.server.protocol.incoming import MESSAGE_TYPES, SettingsPatch
from ubongo.server.rooms.bus import MemoryHub
from ubongo.server.rooms.connection import Connection
from ubongo.server.rooms.gateway import HANDLERS, Gateway, InRoom, handler_table, in_room

SERVER = Path(__file__).resolve().parents[1] / "src" / "ubongo" / "server"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SERVER.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, known: set[str]) -> set[str]:
    """The server modules ``path`` imports, those imported for annotations only
    (``if TYPE_CHECKING``) included: a cycle of annotations is a cycle of meaning."""
    name = _module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level == 0:
            base = (node.module or "").removeprefix("ubongo.")
        else:
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            base = f"{base}.{node.module}" if node.module else base
        if node.module is not None and base in known:
            found.add(base)  # from .x import name
        for alias in node.names:
            if f"{base}.{alias.name}" in known:
                found.add(f"{base}.{alias.name}")  # from . import x
    found.discard(name)
    return found


def test_no_import_cycle_in_the_server() -> None:
    paths = [p for p in SERVER.rglob("*.py") if "migrations" not in p.parts]
    known = {_module_name(p) for p in paths}
    graph = {_module_name(p): _imports(p, known) for p in paths}
    assert graph["server.app"], "the import graph was not read"
    state: dict[str, str] = {}

    def visit(module: str, trail: list[str]) -> None:
        state[module] = "open"
        for target in sorted(graph[module]):
            if state.get(target) == "open":
                cycle = [*trail[trail.index(target) :], target] if target in trail else trail
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target, [*trail, target])
        state[module] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])


def _client_message_models() -> set[type[p.Strict]]:
    """The models of the ``ClientMessage`` union (``Annotated[A | B | ..., discriminator]``)."""
    union = typing.get_args(p.ClientMessage)[0]
    return set(typing.get_args(union))


def test_every_client_message_type_has_exactly_one_handler() -> None:
    models = _client_message_models()
    assert len(models) == len(MESSAGE_TYPES)
    named = {typing.get_args(m.model_fields["type"].annotation)[0] for m in models}
    assert named == set(MESSAGE_TYPES)
    without = sorted(m.__name__ for m in models - HANDLERS.keys())
    assert not without, f"client messages without a handler: {without}"
    strays = sorted(k.__name__ for k in HANDLERS.keys() - models)
    assert not strays, f"handlers of types that are no client message: {strays}"


def test_the_handler_table_refuses_a_second_handler_of_a_type() -> None:
    start = in_room(p.Start, lambda _g, _by, _m: None)
    with pytest.raises(ValueError, match="two handlers for Start"):
        handler_table([start, start])


def test_only_ping_and_hello_may_come_before_joining() -> None:
    before = {k.__name__ for k, handler in HANDLERS.items() if not isinstance(handler, InRoom)}
    assert before == {"Ping", "Hello"}


#: one valid message of each type (fields as docs/protocol.md)
SAMPLES: dict[str, dict[str, Any]] = {
    "hello": {"room": "BCDFG", "spectate": True},
    "ping": {"id": 1, "t": 0},
    "settings": {"settings": {"rounds": 3}},
    "choose_side": {"side": "A"},
    "add_bot": {"level": "easy"},
    "remove_bot": {"seat": 1},
    "bot_level": {"seat": 1, "level": "hard"},
    "ready": {"ready": True},
    "start": {},
    "submit": {"round": 1, "placements": []},
    "skip": {"round": 1},
    "stop": {"round": 1},
    "hint": {"round": 1, "placements": []},
    "give_up": {"round": 1},
    "rematch": {},
    "leave": {},
    "lock": {"locked": True},
    "kick": {"seat": 1},
    "say": {"phrase": "hello"},
    "report": {"seq": 1},
}


def test_every_client_message_reaches_a_handler() -> None:
    """A spectator may not act: every command but a quick phrase (said to the spectators,
    docs/social.md) is refused as such, by the handler of its own type (a message type
    without one would fail differently)."""
    assert set(SAMPLES) == set(MESSAGE_TYPES)

    async def scenario() -> dict[str, dict[str, Any]]:
        gateway = Gateway(None, ServerConfig(), MemoryHub())
        room, _seat = gateway.rooms.lobby.create_room("Ada", SettingsPatch())
        conn = Connection(None, gateway.clock)
        answers: dict[str, dict[str, Any]] = {}
        for kind in ["hello", *sorted(set(SAMPLES) - {"hello"}), "hello"]:
            body = {**SAMPLES[kind], "type": kind}
            if kind == "hello":
                body["room"] = room.code
            gateway.handle(conn, json.dumps(body), gateway.clock.now())
            frame = conn.queue.get_nowait()
            assert frame is not None, f"{kind}: the connection was closed"
            answers[kind] = json.loads(frame)
            while not conn.queue.empty():  # the events the spectator's joining caused
                conn.queue.get_nowait()
        gateway.rooms.timers.stop(room)
        return answers

    answers = asyncio.run(scenario())
    assert answers["ping"]["type"] == "pong"
    assert answers["hello"] == {
        "type": "error",
        "code": "already_joined",
        "message": "this connection has already joined a room",
        "ref": "hello",
    }
    said = answers["say"]  # heard by the spectators, this one among them
    assert (said["type"], said["phrase"], said["mine"]) == ("spectator_said", "hello", True)
    for kind in set(SAMPLES) - {"hello", "ping", "say"}:
        assert answers[kind]["type"] == "error", kind
        assert (answers[kind]["code"], answers[kind]["ref"]) == ("spectator", kind)
